"""passes/cleanup.py: ``ascend-canonicalize`` gives exactly xDSL's ``canonicalize`` output.

The pipeline runs ``ascend-canonicalize`` where it ran xDSL's ``canonicalize``; the kernels of
the tuner's candidates must not change by a byte. The reference is xDSL's pass itself, run on
a copy of the same module (the ``ascend-insert-sync``+``licm`` output of real layers, tilings
of one and of every core), and the guard (``could_rewrite``) is checked against small modules
where each pattern does or does not apply.
"""

import json
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.transforms.canonicalize import CanonicalizePass

from ascend_xdsl.dialects.attributes import DwTilingAttr
from ascend_xdsl.dialects.op_level import Conv3DBackpropFilterOp
from ascend_xdsl.hw import load
from ascend_xdsl.lowering.build import build_module, shape_from_torch_args
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import make_context, pipeline_passes
from ascend_xdsl.passes.cleanup import AscendCanonicalizePass, could_rewrite
from ascend_xdsl.passes.dw_tiling_heuristic import heuristic_tiling

HW = "atlas-a2-910b2"
ROWS = {
    r["name"]: r
    for r in json.loads(
        (Path(__file__).resolve().parents[1] / "benchmarks" / "layers.json").read_text()
    )
}
# The two slowest layers to tune (the pass is skipped: no pattern fires) and layers where a
# pattern fires (a division by one): both branches of the pass.
LAYERS = ["r3d50-stem", "i3d-conv1", "r3d50-layer4-reduce", "x3d-dw-res2", "c3d-conv3b"]


def _before_canonicalize(name: str, cores: int) -> ModuleOp:
    row = ROWS[name]
    problem = shape_from_torch_args(
        row["input"],
        row["weight"],
        stride=row.get("stride", 1),
        padding=row.get("padding", 0),
        dilation=row.get("dilation", 1),
        groups=row.get("groups", 1),
    )
    tiling = heuristic_tiling(problem, load(HW), cores)
    options = CompileOptions.create(hw=HW, tiling=tiling)
    module = build_module(problem)
    for op in module.walk():
        if isinstance(op, Conv3DBackpropFilterOp):
            op.tiling = DwTilingAttr(tiling)
    ctx = make_context()
    passes = [p for _, p in pipeline_passes(options)]
    names = [p.name for p in passes]
    for p in passes[: names.index("ascend-canonicalize")]:
        p.apply(ctx, module)
    return module


@pytest.mark.parametrize("name", LAYERS)
@pytest.mark.parametrize("cores", [1, 20])
def test_same_ir_as_xdsl_canonicalize(name: str, cores: int):
    module = _before_canonicalize(name, cores)
    ours, xdsls = module.clone(), module.clone()
    ctx = make_context()
    AscendCanonicalizePass().apply(ctx, ours)
    CanonicalizePass().apply(ctx, xdsls)
    assert str(ours) == str(xdsls)
    assert str(ours) != str(module), "canonicalize removes the dead index arithmetic"


def test_both_branches_are_exercised():
    """The layers above take the fast path (r3d50-stem) and the fallback (a pattern fires)."""
    skipped = _before_canonicalize("r3d50-stem", 20)
    fires = _before_canonicalize("r3d50-layer4-reduce", 20)
    assert not any(could_rewrite(op) for op in skipped.walk())
    assert any(could_rewrite(op) for op in fires.walk())


def _parse(body: str) -> ModuleOp:
    text = f"func.func @f(%x : index, %b : i1) {{\n{body}\n  func.return\n}}"
    return Parser(make_context(), text).parse_module()


def _binary(op: str, lhs: str, rhs: str) -> str:
    """``op`` of ``lhs`` and ``rhs`` (``%x`` or a constant's value), its result used."""
    lines, names = [], []
    for i, side in enumerate((lhs, rhs)):
        if side == "%x":
            names.append(side)
        else:
            lines.append(f"%c{i} = arith.constant {side} : index")
            names.append(f"%c{i}")
    lines.append(f"%r = arith.{op} {names[0]}, {names[1]} : index")
    lines.append('"test.op"(%r) : (index) -> ()')
    return "\n".join(lines)


def _loop(ub: str, body: str = '"test.op"(%i) : (index) -> ()') -> str:
    return (
        "%c0 = arith.constant 0 : index\n%c1 = arith.constant 1 : index\n"
        "%c7 = arith.constant 7 : index\n"
        f"scf.for %i = %c0 to {ub} step %c1 {{\n{body}\n}}"
    )


CASES = [
    # (body, could a pattern or folder of canonicalize fire)
    (_binary("muli", "%x", "1"), True),  # right unit
    (_binary("addi", "%x", "0"), True),  # right unit
    (_binary("muli", "%x", "0"), True),  # right zero
    (_binary("muli", "%x", "2"), False),
    (_binary("muli", "2", "%x"), True),  # commutative: the constant goes right
    (_binary("subi", "56", "%x"), False),  # not commutative: stays
    (_binary("floordivsi", "%x", "4"), False),
    (_binary("floordivsi", "%x", "1"), True),
    (_binary("muli", "3", "4"), True),  # constant folding
    ('%r = arith.cmpi slt, %x, %x : index\n"test.op"(%r) : (i1) -> ()', True),
    (
        "%c = arith.constant 1 : index\n%r = arith.cmpi slt, %x, %c : index\n"
        '"test.op"(%r) : (i1) -> ()',
        False,
    ),
    (_loop("%c7"), False),  # seven trips
    (_loop("%c1"), True),  # one trip: inlined
    (_loop("%c0"), True),  # no trip: erased
    (_loop("%x", '%k = arith.constant 3 : index\n"test.op"(%k) : (index) -> ()'), True),
    ('%t = arith.constant true\nscf.if %t {\n  "test.op"() : () -> ()\n}', True),
    ('scf.if %b {\n  "test.op"() : () -> ()\n}', False),
]


@pytest.mark.parametrize("body, fires", CASES)
def test_guard_matches_xdsl(body: str, fires: bool):
    """The guard says a pattern could fire exactly where xDSL's canonicalize changes more
    than dead code, and the pass's output equals xDSL's in every case."""
    module = _parse(body)
    assert any(could_rewrite(op) for op in module.walk()) == fires
    ours, xdsls = module.clone(), module.clone()
    ctx = make_context()
    AscendCanonicalizePass().apply(ctx, ours)
    CanonicalizePass().apply(ctx, xdsls)
    assert str(ours) == str(xdsls)
    if fires:
        assert str(xdsls) != str(module)
