"""What every pass shares about its target: the ``hw=`` option, loaded or reported as a pass
failure, and the one rule for how many of the target's cores a kernel may use; and what the
tilers share about a tiling file (their ``tiling-file=`` option): its reading and the one-line
errors about it."""

import json
from typing import Any, Protocol, TypeVar

from xdsl.context import Context
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, PassFailedException, VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from ascend_xdsl.hw import HwConfig, UnknownHardwareError, load
from ascend_xdsl.ir.files import InputFileError, read_text

MAX_TILING_FILE_BYTES = 64 * 1024
"""A tiling file holds one attribute of about 1 kB; a bound keeps /dev/zero from being read."""


def load_hw(hw_name: str) -> HwConfig:
    """The description of ``hw_name``; an unknown name fails the pass with the known names."""
    try:
        return load(hw_name)
    except UnknownHardwareError as e:
        raise PassFailedException(str(e)) from None


def cores_error(cores: int, hw: HwConfig) -> str | None:
    """Why ``cores`` AI cores cannot be used on ``hw`` (None: they can). The tiler's text option
    and the typed compile options (``lowering/options.py``) both check through this."""
    if not 1 <= cores <= hw.aic_count:
        return f"cores must be in [1, {hw.aic_count}] for {hw.name}, got {cores}"
    return None


def read_tiling_text(path: str) -> str:
    """The text of the tiling file at ``path``; a pass failure naming it when it cannot be read
    (regular files only: a FIFO would block the open, ``ir/files.py``)."""
    try:
        return read_text(path, MAX_TILING_FILE_BYTES, regular_only=True, what="tiling file")
    except InputFileError as e:
        raise PassFailedException(str(e)) from None


def not_a_tiling(e: ParseError, attribute: str) -> PassFailedException:
    """The pass failure for a tiling file that does not parse as ``#ascend.<attribute>``: its
    location and the parser's first line."""
    message = (e.msg.strip().splitlines() or ["parse error"])[0]
    return PassFailedException(f"{e.span.get_location()}: not a #ascend.{attribute}: {message}")


def first_line_of(e: BaseException) -> str:
    """The first line of ``e``'s message (its class name when it has none)."""
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


T = TypeVar("T")


class TilingAttr(Protocol[T]):
    """A tiling attribute: built from its record, verified, and giving the record back."""

    def __init__(self, tiling: T) -> None: ...

    def verify(self) -> None: ...

    @property
    def tiling(self) -> T: ...


class TilingRecord(Protocol[T]):
    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> T: ...


def read_tiling_file(
    ctx: Context,
    path: str,
    attr_type: type[TilingAttr[T]],
    record_type: type[TilingRecord[T]],
    attribute: str,
) -> T:
    """The tiling in the file at ``path``: one ``#ascend.<attribute><...>``, or JSON (an object
    of ``record_type``'s fields, or a report with one under ``tiling``, what ``ascend-conv
    forward|bp-input --report json`` writes). Errors name the file (both op tilers'
    ``fixed`` strategy)."""
    text = read_tiling_text(path)
    fields = record_type.__name__
    if text.lstrip().startswith(("{", "[")):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise PassFailedException(
                f"{path}:{e.lineno}:{e.colno}: invalid JSON: {e.msg}"
            ) from None
        if isinstance(data, dict) and "tiling" in data:
            data = data["tiling"]
        if not isinstance(data, dict):
            raise PassFailedException(
                f"{path}: expected a JSON object of {fields} fields, or a report with a 'tiling'"
            )
        try:
            attr = attr_type(record_type.from_dict(data))  # type: ignore[arg-type]
        except ValueError as e:  # from_dict's unknown, missing or non-integer fields
            raise PassFailedException(f"{path}: {e}") from None
        except VerifyException as e:
            raise PassFailedException(f"{path}: {first_line_of(e)}") from None
    else:
        parser = Parser(ctx, text, name=path)
        try:
            parsed: Attribute = parser.parse_attribute()
        except ParseError as e:
            raise not_a_tiling(e, attribute) from None
        except VerifyException as e:
            raise PassFailedException(f"{path}: {first_line_of(e)}") from None
        if not isinstance(parsed, attr_type):
            raise PassFailedException(f"{path}: expected #ascend.{attribute}<...>, got {parsed}")
        # One tiling and nothing after it (a second tiling, a truncated edit: a mistake).
        if parser._current_token.kind != MLIRTokenKind.EOF:
            raise PassFailedException(f"{path}: expected the end of the file after the tiling")
        attr = parsed
    try:
        attr.verify()
    except VerifyException as e:
        raise PassFailedException(f"{path}: {first_line_of(e)}") from None
    return attr.tiling
