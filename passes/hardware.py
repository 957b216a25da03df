"""What every pass shares about its target: the ``hw=`` option, loaded or reported as a pass
failure, and the one rule for how many of the target's cores a kernel may use; and what the
tilers share about a tiling file (their ``tiling-file=`` option): its reading and the one-line
errors about it."""

from xdsl.utils.exceptions import ParseError, PassFailedException

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
