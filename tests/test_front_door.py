"""The one front door: typed compile options and their text spelling give the same IR, the
runner sets FLOPs and the BLAS limit for every caller, ``tiling="tuned"`` needs no import, and
the hw-level verifier checks event ids against the target the IR names."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.passes import PassPipeline
from xdsl.utils.arg_spec import parse_pipeline
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl import hw as hw_data
from ascend_xdsl.dialects import hw_level
from ascend_xdsl.lowering.build import build_module, shape_from_torch_args
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import (
    AscendPipelinePass,
    compile_levels,
    default_registry,
    make_context,
    pipeline_spec,
)
from ascend_xdsl.runtime import runner
from ascend_xdsl.runtime.runner import CompileJob, ModuleJob, RunOptions, run
from ascend_xdsl.tools.conv_report import ir_text

SMALL = shape_from_torch_args((1, 16, 2, 6, 6), (16, 16, 1, 3, 3), padding=1)

# (layer, typed options, the same options as ascend-pipeline text)
SPELLINGS = [
    (
        ((1, 16, 4, 8, 8), (16, 16, 3, 3, 3), {"padding": 1}),
        {"cores": 1},
        "cores=1",
    ),
    (
        ((2, 32, 4, 10, 10), (32, 16, 1, 3, 3), {"padding": 1, "groups": 2}),
        {"hw": "atlas-a2-910b3", "cores": 4},
        'hw="atlas-a2-910b3" cores=4',
    ),
    (
        ((1, 16, 5, 8, 8), (16, 16, 3, 1, 1), {}),
        {"cores": 2, "dk": "fused", "override": "iterate_order=1"},
        'cores=2 dk="fused" override="iterate_order=1"',
    ),
    (
        ((1, 32, 3, 9, 9), (32, 32, 2, 3, 3), {"stride": (1, 2, 2)}),
        {},
        "",
    ),
    (
        ((1, 16, 2, 6, 6), (16, 16, 1, 3, 3), {"padding": 1}),
        {"cores": 2, "tiling": "tuned", "budget": 4},
        'strategy="tuned" cores=2 budget=4',
    ),
]


@pytest.mark.parametrize(("layer", "typed", "text"), SPELLINGS, ids=lambda v: str(v)[:40])
def test_typed_options_and_pipeline_text_give_the_same_ir(layer, typed, text):
    x, w, conv = layer
    problem = shape_from_torch_args(x, w, **conv)
    options = CompileOptions.create(**typed)
    hw = ir_text(compile_levels(build_module(problem), options)["hw"])
    # ascend-pipeline{...}: the text options read back into the same typed options
    (spec,) = parse_pipeline(f"ascend-pipeline{{{text}}}")
    module = build_module(problem)
    AscendPipelinePass.from_pass_spec(spec).apply(Context(), module)
    assert ir_text(module) == hw
    # the chain spelled out as -p text, each pass parsed by xDSL
    module = build_module(problem)
    chain = PassPipeline.parse_spec(dict(default_registry()), pipeline_spec(options))
    chain.apply(make_context(), module)
    assert ir_text(module) == hw


def test_the_pipeline_names_its_target_on_the_kernel():
    options = CompileOptions.create(hw="atlas-a2-910b3", cores=1)
    hw = compile_levels(build_module(SMALL), options)["hw"]
    kernels = [op for op in hw.walk() if "ascend.kernel" in op.attributes]
    assert [k.attributes[hw_level.TARGET_ATTR].data for k in kernels] == ["atlas-a2-910b3"]


def test_the_event_id_bound_is_the_targets(monkeypatch):
    """A target with fewer event ids than the default hardware: its kernels are held to its
    bound, a kernel without a target to the default's."""
    few = hw_data.load("atlas-a2-910b3")
    figures = dict(few.figures)
    figures["user_event_ids"] = replace(figures["user_event_ids"], value=4)
    few = replace(few, name="four-ids", figures=figures)
    real = hw_data.load
    monkeypatch.setattr(
        hw_level, "load", lambda name=hw_data.DEFAULT_HW: few if name == "four-ids" else real(name)
    )
    text = """
    func.func @k() attributes {ascend.kernel TARGET} {
      %e = arith.constant 5 : index
      ascend.set_flag MTE2 -> MTE1 event %e
      ascend.wait_flag MTE2 -> MTE1 event %e
      func.return
    }
    """
    from xdsl.parser import Parser

    plain = Parser(make_context(), text.replace(" TARGET", "")).parse_module()
    plain.verify()  # 5 < 6, the default hardware's bound
    named = Parser(make_context(), text.replace("TARGET", ', ascend.target = "four-ids"'))
    with pytest.raises(VerifyException, match=r"event id must be in \[0, 4\) on four-ids, got 5"):
        named.parse_module().verify()


def test_tuned_needs_no_import_in_a_fresh_interpreter(tmp_path):
    """conv3d_weight, run_conv3d_weight and compile_levels take tiling="tuned" in a process that
    imported nothing but the runtime: the search is found through its table, not a hook."""
    program = """
import sys
import numpy as np
from ascend_xdsl.runtime import conv3d_weight, run_conv3d_weight
from ascend_xdsl.lowering.build import build_module, shape_from_torch_args
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import compile_levels
from ascend_xdsl.runtime.api import random_inputs

assert "ascend_xdsl.tuning" not in sys.modules
p = shape_from_torch_args((1, 16, 2, 6, 6), (16, 16, 1, 3, 3), padding=1)
x, dy = random_inputs(p)
tuned = conv3d_weight(x, (16, 16, 1, 3, 3), dy, padding=1, tiling="tuned")
heuristic = conv3d_weight(x, (16, 16, 1, 3, 3), dy, padding=1)
assert np.abs(tuned - heuristic).max() < 1e-3
result = run_conv3d_weight(x, (16, 16, 1, 3, 3), dy, padding=1, tiling="tuned", cost=False)
assert np.array_equal(result.grad_weight, tuned)
options = CompileOptions.create(tiling="tuned", cores=2, budget=4)
levels = compile_levels(build_module(p), options)
assert "ascend.init" in str(levels["api"])
print("ok")
"""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ok\n"


def test_the_runner_sets_flops_once_for_every_mode():
    options = CompileOptions.create(cores=2)
    full = run(CompileJob(SMALL, options), RunOptions(cost="full"))
    cost_only = run(CompileJob(SMALL, options), RunOptions(cost="cost-only"))
    none = run(CompileJob(SMALL, options), RunOptions(cost="none"))
    assert full.cost is not None and cost_only.cost is not None and none.cost is None
    assert full.cost.flops == cost_only.cost.flops == 2.0 * SMALL.macs
    # a module run as it is: the problem read off its entry
    as_module = run(ModuleJob(full.modules["hw"], options.hw, inputs=full.inputs))
    assert as_module.problem == SMALL and as_module.cost is not None
    assert as_module.cost.flops == 2.0 * SMALL.macs
    assert np.array_equal(as_module.grad_weight, full.grad_weight)
    assert cost_only.inputs == () and cost_only.outputs == ()
    assert full.check().ok


def test_the_runner_limits_blas_for_every_data_run(monkeypatch):
    """Inside every data run BLAS has one thread, and the caller's setting is back after it;
    the controller that sets it is made once per process, not at every run."""
    from threadpoolctl import threadpool_info

    from ascend_xdsl.runtime.executors import interpreter

    def blas_threads() -> set[int]:
        return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}

    inside = []
    run_blocks = interpreter.run_blocks

    def recording(*args, **kwargs):
        inside.append(blas_threads())
        return run_blocks(*args, **kwargs)

    monkeypatch.setattr(interpreter, "run_blocks", recording)
    made = []
    controller = runner.ThreadpoolController

    def counted():
        made.append(1)
        return controller()

    monkeypatch.setattr(runner, "ThreadpoolController", counted)
    monkeypatch.setattr(runner, "_BLAS", None)
    before = blas_threads()
    options = CompileOptions.create(cores=1)
    result = run(CompileJob(SMALL, options), RunOptions(cost="none"))
    run(ModuleJob(result.modules["hw"], options.hw, inputs=result.inputs), RunOptions())
    assert inside == [{1}, {1}]
    assert blas_threads() == before
    assert len(made) == 1
    run(CompileJob(SMALL, options), RunOptions(cost="cost-only"))  # no data, no BLAS
    assert len(inside) == 2


def test_a_failure_while_running_names_its_op_and_keeps_its_type():
    options = CompileOptions.create(cores=1)
    hw = runner.compiled(SMALL, options)["hw"]
    from ascend_xdsl.runtime.machine.budget import BudgetExceeded

    x, dy = runner.random_inputs(SMALL)
    for executor in ("compiled", "interp"):
        with pytest.raises(BudgetExceeded) as raised:
            run(
                ModuleJob(hw, options.hw, inputs=(x, dy)),
                RunOptions(cost="none", executor=executor, max_iterations=2),
            )
        assert getattr(raised.value, "ascend_op", None) is not None


def test_run_options_are_checked():
    with pytest.raises(ValueError, match="unknown cost mode 'some'"):
        RunOptions(cost="some")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown executor 'jit'"):
        RunOptions(executor="jit")


def test_a_level_the_verifier_rejects_is_a_compile_error():
    """A DwTiling given as such reaches the verifier before the tiler's check: the runner
    reports that as a CompileError (a ValueError), as it does a pass's failure."""
    from ascend_xdsl.lowering.options import CompileError

    good = runner.compiled(SMALL, CompileOptions.create(cores=1))["api"]
    (init,) = [op for op in good.walk() if op.name == "ascend.init"]
    bad = replace(init.tiling.tiling, base_m=512, base_n=512)  # type: ignore[attr-defined]
    with pytest.raises(CompileError, match=r"compilation failed: .*L0[AC] overflow"):
        run(CompileJob(SMALL, CompileOptions.create(tiling=bad)), RunOptions(cost="none"))
