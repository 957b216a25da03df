"""``ascend-tile-conv3d-bp-filter``: choose the tiling and core split of each dW op.

Runs on the format level and attaches ``tiling = #ascend.dw_tiling<…>`` to every
``ascend.conv3d_backprop_filter``. Strategies:

* ``heuristic`` (default) — the vendor host tiler re-derived in ``dw_tiling_heuristic.py``
  (hicann/asc-devkit ``conv3d_bp_filter_tiling.cpp`` and the basic-block tiling of hicann/ops-nn
  ``conv/conv3d_backprop_filter_v2/op_host/op_tiling/arch22/``), with the multi-core split over
  ``cores`` AI Cores
  (``cores=0``: every AI Cube core of ``hw``);
* ``fixed`` — the tiling in ``tiling_file`` (a file holding one ``#ascend.dw_tiling<…>`` or the
  JSON of one, see ``tiling_from_json``, what
  ``ascend-conv --tiling fixed:FILE`` passes) or, without a file, the one the op already
  carries, checked against ``hw``;
* ``tuned`` — the tiling found by the search of the tuning package (``tuning/``, above the
  runtime), which ``tiling_options.search_for`` imports by name when the strategy runs
  (``budget`` candidates at most, None: the search's default; ``use_cache`` reads its disk
  cache; ``progress`` shows its bar on a terminal); it chooses the Dk mode itself, so ``dk`` is
  not used.

``override="iterate_order=1 base_k=64"`` then replaces individual fields (``bl1_bound`` is
recomputed unless it is overridden too). Whatever the source, a tiling that does not fit the
buffers of ``hw`` fails the pass with a message naming the buffer, what it needs and what there is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import ParseError, PassFailedException, VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from ascend_xdsl.dialects.attributes import DwTilingAttr
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.dialects.op_level import Conv3DBackpropFilterOp, shape_of_conv_op
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.hw import DEFAULT_HW, HwConfig
from ascend_xdsl.passes.api_block_tiler import TilingError
from ascend_xdsl.passes.dw_tiling_heuristic import can_fuse_dk, heuristic_tiling
from ascend_xdsl.passes.hardware import (
    cores_error,
    first_line_of,
    load_hw,
    not_a_tiling,
    read_tiling_text,
)
from ascend_xdsl.passes.tiling_options import (
    DK_MODES,
    SEARCHES,
    STRATEGIES,
    SearchUnavailable,
    search_for,
)


def parse_overrides(text: str) -> dict[str, int]:
    """``"iterate_order=1 base_k=64"`` → {"iterate_order": 1, "base_k": 64}."""
    fields = set(DwTiling.field_names())
    result: dict[str, int] = {}
    for item in text.split():
        key, sep, raw = item.partition("=")
        if not sep or key not in fields:
            raise PassFailedException(
                f"override '{item}': expected FIELD=INTEGER with FIELD a dw_tiling field"
            )
        if key in result:  # taking the last one silently hides a typo in the first
            raise PassFailedException(f"override '{item}': field {key} is given twice")
        try:
            result[key] = int(raw)
        except ValueError:
            raise PassFailedException(f"override '{item}': '{raw}' is not an integer") from None
    return result


BASIC_BLOCK = ("single_core_m", "single_core_n", "single_core_k")
"""The vendor's basic block, derived by the tiler from the base and step sizes; nothing of ours
reads it, so after an override that is not about it, it is reset to 0 ("not given") rather than
left stale."""


def apply_overrides(tiling: DwTiling, overrides: dict[str, int]) -> DwTiling:
    tiling = replace(tiling, **overrides)
    if not set(BASIC_BLOCK) & set(overrides):
        tiling = replace(tiling, **dict.fromkeys(BASIC_BLOCK, 0))
    if "bl1_bound" not in overrides:
        tiling = replace(tiling, bl1_bound=tiling.required_bl1_bound)
    return tiling


def read_tiling_file(ctx: Context, path: str) -> DwTiling:
    """The tiling written in the file at ``path``: one ``#ascend.dw_tiling<...>`` (what
    ``ascend-conv --emit tiling`` writes), or JSON (:func:`tiling_from_json`)."""
    text = read_tiling_text(path)
    if text.lstrip().startswith(("{", "[")):
        return tiling_from_json(text, path)
    parser = Parser(ctx, text, name=path)
    try:
        attr = parser.parse_attribute()
        # One tiling and nothing after it: trailing text is a mistake (a second tiling, a
        # truncated edit), not something to ignore.
        if parser._current_token.kind != MLIRTokenKind.EOF:
            parser.raise_error("expected the end of the file after the tiling")
    except ParseError as e:
        raise not_a_tiling(e, "dw_tiling") from None
    except VerifyException as e:
        raise PassFailedException(f"{path}: {first_line_of(e)}") from None
    if not isinstance(attr, DwTilingAttr):
        raise PassFailedException(f"{path}: expected #ascend.dw_tiling<...>, got {attr}")
    return attr.tiling


def tiling_from_json(text: str, path: str) -> DwTiling:
    """A tiling given as JSON: an object of DwTiling fields (the tuner's ``tiling``), or a
    report holding one under ``tiling`` (``--report json`` of ascend-conv, a row of
    ``ascend-tune --format json``), or an ascend-tune report of one layer
    (docs/report.schema.json)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PassFailedException(f"{path}:{e.lineno}:{e.colno}: invalid JSON: {e.msg}") from None
    if isinstance(data, dict) and isinstance(data.get("layers"), list):
        if len(data["layers"]) != 1:
            raise PassFailedException(
                f"{path}: an ascend-tune report of {len(data['layers'])} layers: which tiling? "
                "save the 'tiling' of one layer"
            )
        data = data["layers"][0]
    if isinstance(data, dict) and "tiling" in data:
        data = data["tiling"]
    if not isinstance(data, dict):
        raise PassFailedException(
            f"{path}: expected a JSON object of DwTiling fields, or a report with a 'tiling'"
            + (
                " (this report has none: the hardware level keeps no tiling)"
                if data is None
                else ""
            )
        )
    try:
        tiling = DwTiling.from_dict(data)
        DwTilingAttr(tiling).verify()
    except ValueError as e:  # from_dict's unknown, missing or non-integer fields
        raise PassFailedException(f"{path}: {e}") from None
    except VerifyException as e:
        raise PassFailedException(f"{path}: {first_line_of(e)}") from None
    return tiling


def check_tiling_fits(tiling: DwTiling, hw: HwConfig) -> None:
    """Fail the pass unless ``tiling`` fits the buffers and the core count of ``hw``."""
    errors = tiling.errors(hw.l1_size, hw.l0a_size, hw.l0b_size, hw.l0c_size)
    if errors:
        raise PassFailedException(f"tiling does not fit {hw.name}: {errors[0]}")
    if tiling.core_num > hw.aic_count:
        raise PassFailedException(
            f"tiling uses {tiling.core_num} cores, {hw.name} has {hw.aic_count}"
        )


@dataclass(frozen=True)
class TileConv3DBpFilterPass(ModulePass):
    """Attach a ``#ascend.dw_tiling`` to every format-level dW op."""

    name = "ascend-tile-conv3d-bp-filter"

    strategy: str = "heuristic"
    hw: str = DEFAULT_HW
    cores: int = 0
    override: str = ""
    tiling_file: str = ""
    dk: str = "separate"
    """``separate`` (a kd driver loop, as the DEVKIT API) or ``fused`` (kD in N, as the
    operator does when groups is 1 and dilation D is 1)."""
    budget: int | None = None
    """``tuned``: candidates the search scores at most (None: its default)."""
    use_cache: bool = True
    """``tuned``: take the answer from the tuning cache when it has one."""
    progress: bool = False
    """``tuned``: a progress bar on standard error when it is a terminal."""

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        if self.strategy not in STRATEGIES:
            raise PassFailedException(
                f"unknown tiling strategy '{self.strategy}' "
                f"(expected one of {', '.join(STRATEGIES)})"
            )
        hw = load_hw(self.hw)
        cores = self.cores or hw.aic_count  # the text option's 0: every core of hw
        if (error := cores_error(cores, hw)) is not None:
            raise PassFailedException(error)
        if self.dk not in DK_MODES:
            raise PassFailedException(
                f"unknown dk mode '{self.dk}' (expected one of {', '.join(DK_MODES)})"
            )
        overrides = parse_overrides(self.override)
        for conv in [o for o in op.walk() if isinstance(o, Conv3DBackpropFilterOp)]:
            if not isinstance(conv.x.type, GmTensorType):
                raise PassFailedException(
                    "ascend-tile-conv3d-bp-filter runs on the format level: run "
                    "ascend-legalize-formats first"
                )
            if self.strategy == "fixed" and self.tiling_file:
                tiling = read_tiling_file(ctx, self.tiling_file)
            elif self.strategy == "fixed":
                if conv.tiling is None:
                    raise PassFailedException(
                        "strategy=fixed needs a tiling on the op (tiling #ascend.dw_tiling<...>)"
                    )
                tiling = conv.tiling.tiling
            elif self.strategy in SEARCHES:
                tiling = self.searched_tiling(shape_of_conv_op(conv), hw, cores)
            else:
                try:
                    problem = shape_of_conv_op(conv)
                    fuse = self.dk == "fused"
                    if fuse and (reason := can_fuse_dk(problem)) is not None:
                        raise PassFailedException(f"dk=fused is not possible: {reason}")
                    tiling = heuristic_tiling(problem, hw, cores, fuse_dk=fuse)
                except TilingError as e:
                    raise PassFailedException(f"no tiling found: {e}") from None
            if overrides:
                tiling = apply_overrides(tiling, overrides)
            check_tiling_fits(tiling, hw)
            conv.tiling = DwTilingAttr(tiling)

    def searched_tiling(self, problem: ConvBpFilterShape, hw: HwConfig, cores: int) -> DwTiling:
        """The tiling the search of :attr:`strategy` finds (``tiling_options.SEARCHES``)."""
        budget = {} if self.budget is None else {"budget": self.budget}
        try:
            search = search_for(self.strategy)
            found = search(
                problem, hw.name, cores, use_cache=self.use_cache, progress=self.progress, **budget
            )
        except SearchUnavailable as e:
            raise PassFailedException(str(e)) from None
        except ValueError as e:  # TilingError is one
            raise PassFailedException(f"no tuned tiling found: {e}") from None
        return found.tuned
