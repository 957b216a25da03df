"""passes/cleanup.py: ``ascend-canonicalize`` gives exactly xDSL's ``canonicalize`` output.

The pipeline runs ``ascend-canonicalize`` where it ran xDSL's ``canonicalize``; the kernels of
the tuner's candidates must not change by a byte. The reference is xDSL's pass itself, run on
a copy of the same module (the ``ascend-insert-sync``+``licm`` output of real layers, tilings
of one and of every core), and the guard (``could_rewrite``) is checked against small modules
where each pattern does or does not apply.

``lowering/index_arith.py`` folds a division by a constant 1 when it builds it, the one pattern
that fired on real kernels: the module is then the one ``canonicalize`` made of the unfolded
lowering, byte for byte, and ``ascend-canonicalize`` takes its cheap path on it.
"""

import dataclasses
import json
import sys
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from pathlib import Path

import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition, traits_def
from xdsl.parser import Parser
from xdsl.traits import EffectInstance, MemoryEffect, MemoryEffectKind, get_effects
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

from ascend_xdsl.dialects.attributes import DwTilingAttr
from ascend_xdsl.dialects.op_level import Conv3DBackpropFilterOp
from ascend_xdsl.hw import load
from ascend_xdsl.lowering import index_arith
from ascend_xdsl.lowering.build import build_module, shape_from_torch_args
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import make_context, pipeline_passes
from ascend_xdsl.passes.cleanup import (
    AscendCanonicalizePass,
    AscendCSEPass,
    could_rewrite,
    effects_memoized,
)
from ascend_xdsl.passes.dw_tiling_heuristic import heuristic_tiling

HW = "atlas-a2-910b2"
ROWS = {
    r["name"]: r
    for r in json.loads(
        (Path(__file__).resolve().parents[1] / "benchmarks" / "layers.json").read_text()
    )
}
# The two slowest layers to tune and layers whose heuristic tilings divide by one (a floor
# division: r3d50-layer4-reduce, a rounded-up one: x3d-dw-res2, c3d-conv3b on 20 cores).
LAYERS = ["r3d50-stem", "i3d-conv1", "r3d50-layer4-reduce", "x3d-dw-res2", "c3d-conv3b"]
UNIT_DIVISOR = ["r3d50-layer4-reduce", "x3d-dw-res2", "videomae-tubelet", "r2plus1d-temporal"]


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


@pytest.fixture
def unfolded(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The lowering as it was before ``index_arith`` folded a division by one: every loaded
    module of the package that holds ``floordiv``, ``ceildiv`` or ``IDX_ARITH`` gets the bare
    op builders (which emit ``arith.floordivsi``/``arith.ceildivsi`` whatever the divisor)."""
    _before_canonicalize("r3d50-stem", 1)  # imports every lowering module (lazily registered)
    bare = {
        id(index_arith.floordiv): index_arith._floordivsi,
        id(index_arith.ceildiv): index_arith._ceildivsi,
        id(index_arith.IDX_ARITH): dataclasses.replace(
            index_arith.IDX_ARITH, floordiv=index_arith._floordivsi
        ),
    }
    patched = 0
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("ascend_xdsl"):
            for name, obj in list(vars(module).items()):
                if id(obj) in bare:
                    monkeypatch.setattr(module, name, bare[id(obj)])
                    patched += 1
    assert patched >= 5, "the lowering modules import the helpers by name"
    yield


def _pipeline_outputs(name: str, cores: int) -> tuple[ModuleOp, str, str]:
    """A layer's module before ``ascend-canonicalize``, after it, and after ``cse``."""
    module = _before_canonicalize(name, cores)
    before = module.clone()
    ctx = make_context()
    AscendCanonicalizePass().apply(ctx, module)
    canonical = str(module)
    CommonSubexpressionElimination().apply(ctx, module)
    return before, canonical, str(module)


@pytest.mark.parametrize("name", UNIT_DIVISOR)
@pytest.mark.parametrize("cores", [1, 20])
def test_division_by_one_folded_as_canonicalize_did(
    name: str, cores: int, request: pytest.FixtureRequest
):
    """Folding a division by one at build time gives, byte for byte, the kernel that xDSL's
    full ``canonicalize`` made of the unfolded lowering (the fallback it forced), and the
    folded module takes the cheap path."""
    folded_before, folded, folded_cse = _pipeline_outputs(name, cores)
    assert not any(could_rewrite(op) for op in folded_before.walk()), "cheap path"
    request.getfixturevalue("unfolded")
    unfolded_before, unfolded, unfolded_cse = _pipeline_outputs(name, cores)
    fired = {op.name for op in unfolded_before.walk() if could_rewrite(op)}
    assert fired and fired <= {"arith.floordivsi", "arith.ceildivsi"}, fired
    assert str(folded_before) != str(unfolded_before)
    assert folded == unfolded
    assert folded_cse == unfolded_cse


def test_both_branches_are_exercised():
    """The layers above take the cheap path (no pattern can fire on any suite layer's
    heuristic kernel any more); the fallback runs on the unfolded lowering (above) and the
    small modules below."""
    for name in ("r3d50-stem", "r3d50-layer4-reduce"):
        module = _before_canonicalize(name, 20)
        assert not any(could_rewrite(op) for op in module.walk())


@pytest.mark.parametrize(
    "op, divisor, expected",
    [
        ("floordiv", 1, 7),
        ("ceildiv", 1, 7),
        ("floordiv", 4, 1),  # 7 // 4
        ("ceildiv", 4, 2),  # 7 / 4 rounded up
    ],
)
def test_division_by_one_is_its_dividend(op: str, divisor: int, expected: int):
    """A dynamic dividend over a constant 1 is the dividend itself, no op built; any other
    divisor builds its constant and the division. ``rem`` by one is left alone, as
    ``canonicalize`` leaves ``arith.remsi``."""
    build = getattr(index_arith, op)
    block = Block(arg_types=[IndexType()])
    x = block.args[0]
    with ImplicitBuilder(block):
        got = build(x, divisor)
        kept = index_arith.rem(x, 1)
    ops = [o.name for o in block.ops]
    if divisor == 1:
        assert got is x
        assert ops == ["arith.constant", "arith.remsi"]
    else:
        assert ops == ["arith.constant", f"arith.{op}si", "arith.constant", "arith.remsi"]
    assert kept is not x
    assert build(7, divisor) == expected


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


# --- ascend-cse ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", LAYERS)
@pytest.mark.parametrize("cores", [1, 20])
def test_same_ir_as_xdsl_cse(name: str, cores: int):
    """``ascend-cse`` on the pipeline's ``ascend-canonicalize`` output is xDSL's ``cse``'s."""
    module = _before_canonicalize(name, cores)
    ctx = make_context()
    AscendCanonicalizePass().apply(ctx, module)
    ours, xdsls = module.clone(), module.clone()
    AscendCSEPass().apply(ctx, ours)
    CommonSubexpressionElimination().apply(ctx, xdsls)
    assert str(ours) == str(xdsls)
    assert str(ours) != str(module), "cse shares the repeated index arithmetic"


_ASKS: list[str] = []


class _Reads(MemoryEffect):
    """An effect trait that is none of xDSL's fixed ones: it reads, and counts the asks."""

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        _ASKS.append(op.name)
        return frozenset((EffectInstance(MemoryEffectKind.READ),))


class _ReadsPerInstance(MemoryEffect):
    """The same, its ``get_effects`` an instance method."""

    def get_effects(self, op: Operation) -> AbstractSet[EffectInstance]:  # type: ignore[override]
        _ASKS.append(op.name)
        return frozenset((EffectInstance(MemoryEffectKind.READ),))


@irdl_op_definition
class _AskedOp(IRDLOperation):
    name = "test.asked"
    traits = traits_def(_Reads())


@irdl_op_definition
class _AskedPerInstanceOp(IRDLOperation):
    name = "test.asked_per_instance"
    traits = traits_def(_ReadsPerInstance())


def test_effects_memoized_matches_get_effects():
    """Every op of a real kernel has the effects ``get_effects`` gives it, and an op's are
    computed once; an op of another effect trait, and the loop around it, are asked again."""
    module = _before_canonicalize("r3d50-layer2-3x3", 20)
    effects = effects_memoized()
    ops = list(module.walk())
    answers = [effects(op) for op in ops]
    assert None in answers and set() in answers, "unknown effects (hardware ops) and none"
    for op in ops:
        assert effects(op) == get_effects(op), op.name
    loops = [op for op in ops if isinstance(op, scf.ForOp) and effects(op) is not None]
    assert loops and all(effects(op) is effects(op) for op in loops), "kept, not recomputed"

    block = Block()
    lb = arith.ConstantOp(IntegerAttr(0, IndexType()))
    body = Block([_AskedOp(), _AskedPerInstanceOp(), scf.YieldOp()], arg_types=[IndexType()])
    loop = scf.ForOp(lb.result, lb.result, lb.result, [], body)
    block.add_ops([lb, loop])
    effects = effects_memoized()
    _ASKS.clear()
    for _ in range(3):
        assert effects(loop) == get_effects(loop) == {EffectInstance(MemoryEffectKind.READ)}
    assert len(_ASKS) == 12, "both asked each time, by effects_memoized and get_effects"
