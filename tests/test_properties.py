"""Property test: for random small problems, the compiled hardware-level program computes dW.

Shapes, strides, asymmetric pads, dilations, groups, element type and core count are drawn at
random; the program the pipeline produces is run by both executors, which must agree bit
for bit, and checked against the reference
within the derived tolerance (runtime/reports/check.py), and the sanitizer must find no hazard.
"""

import ml_dtypes
import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.runtime.api import compiled_levels, random_inputs
from ascend_xdsl.runtime.executors.interpreter import EXECUTORS, make_interpreter
from ascend_xdsl.runtime.machine.sanitizer import Sanitizer
from ascend_xdsl.runtime.reports.check import check


@st.composite
def problems(draw: st.DrawFn) -> tuple[ConvBpFilterShape, int, str]:
    groups = draw(st.sampled_from([1, 1, 2, 4]))
    cin = groups * draw(st.integers(1, 24 // groups))
    cout = groups * draw(st.integers(1, 24 // groups))
    problem = ConvBpFilterShape(
        batch=draw(st.integers(1, 2)),
        cin=cin,
        di=draw(st.integers(1, 4)),
        hi=draw(st.integers(1, 9)),
        wi=draw(st.integers(1, 9)),
        cout=cout,
        kd=draw(st.integers(1, 2)),
        kh=draw(st.integers(1, 3)),
        kw=draw(st.integers(1, 3)),
        strides=tuple(draw(st.integers(1, 2)) for _ in range(3)),  # type: ignore[arg-type]
        pads=tuple(draw(st.integers(0, 2)) for _ in range(6)),  # type: ignore[arg-type]
        dilations=tuple(draw(st.integers(1, 2)) for _ in range(3)),  # type: ignore[arg-type]
        groups=groups,
        dtype=draw(st.sampled_from(["f16", "bf16"])),
    )
    assume(not problem.errors())
    fusable = problem.groups == 1 and problem.dilations[0] == 1
    dk = draw(st.sampled_from(["separate", "fused"])) if fusable else "separate"
    return problem, draw(st.integers(1, 3)), dk


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(problems())
def test_compiled_kernel_computes_dw(case):
    problem, cores, dk = case
    levels = compiled_levels(problem, "atlas-a2-910b2", "heuristic", cores, "", dk)
    x, dy = random_inputs(problem, seed=1)
    assert x.dtype == (np.float16 if problem.dtype == "f16" else ml_dtypes.bfloat16)
    results = []
    for executor in EXECUTORS:
        sanitizer = Sanitizer.for_hw("atlas-a2-910b2")
        interpreter = make_interpreter(levels["hw"], sanitizer=sanitizer, executor=executor)
        (dw,) = interpreter.call_op("conv3d_bp_filter", (x, dy))
        assert sanitizer.hazards == [], [h.describe() for h in sanitizer.hazards]
        results.append(np.asarray(dw))
    compiled, interp = results
    assert np.array_equal(compiled.view(np.uint32), interp.view(np.uint32)), "executors differ"
    result = check(problem, x, dy, compiled)
    assert result.ok, f"{problem}: {result.describe()}"
