"""The one-line error messages of the command-line tools.

xDSL's exceptions carry more than their message: a parse error prints the source line and a
caret under it, a verifier or interpreter error has the whole printed module attached. A tool
reports one line, ``<tool>: error: <what>``, built from these.

:func:`run_tool` is what every tool's ``main`` runs in: interrupts, a closed standard output
and internal errors (bugs, as opposed to bad input) each end in one line and their own exit
code. :class:`CliError` is a request a tool rejects, and :class:`OneLineParser` turns
argparse's usage dumps into one. :func:`read_program` reads a program file with a size bound
and names the file in every complaint (not UTF-8, empty, only comments).
"""

import argparse
import errno
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from xdsl.utils.exceptions import ParseError

from ascend_xdsl.runtime.reports.output import write_atomically, write_error
from ascend_xdsl.version import __version__


def first_line(e: BaseException) -> str:
    """The message of ``e`` without what xDSL appends (the printed module, source context)."""
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def describe_parse_error(e: ParseError) -> str:
    """``file:line:col: message`` of a parse error, on one line (xDSL prints four), saying what
    is missing where xDSL does not:

    * at the end of the input, which brackets are still open (a truncated file);
    * an ``Expected ...`` reported at the first token of a line is placed right after the
      text before it (a missing ``:`` is an error of the line it is missing from, not of the
      next one)."""
    message = (e.msg.strip().splitlines() or ["parse error"])[0]
    text = e.span.input.content
    if not isinstance(text, str):
        return f"{e.span.get_location()}: {message}"
    name = e.span.input.name
    start = min(e.span.start, len(text))
    if not text[start:].strip():
        unclosed = _unclosed(text)
        line, col = _line_col(text, len(text.rstrip()))
        if unclosed:
            what = ", ".join(f"'{b}' of line {_line_col(text, pos)[0]}" for b, pos in unclosed[-3:])
            return (
                f"{name}:{line}:{col}: the file ends with {len(unclosed)} bracket"
                f"{'s' if len(unclosed) > 1 else ''} still open ({what}): is it truncated? "
                f"({message})"
            )
        return f"{name}:{line}:{col}: {message} (at the end of the file)"
    before = _end_of_previous_text(text, start)
    if message.startswith("Expected") and before is not None:
        line, col = _line_col(text, before)
        next_line = _line_col(text, start)[0]
        return (
            f"{name}:{line}:{col}: {message} here, at the end of the line (before line {next_line})"
        )
    return f"{e.span.get_location()}: {message}"


_CLOSING = {"{": "}", "(": ")", "[": "]", "<": ">"}


def _unclosed(text: str) -> list[tuple[str, int]]:
    """The brackets ``{ ( [ <`` still open at the end of ``text`` (outside strings and
    comments), outermost first, with their offsets. ``<`` counts only after a type or attribute
    name, where it opens parameters (``!ascend.gm_tensor<``), not as a comparison."""
    stack: list[tuple[str, int]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif c in "{([" or (c == "<" and i > 0 and (text[i - 1].isalnum() or text[i - 1] in "._")):
            stack.append((c, i))
        elif c in "})]>" and stack and _CLOSING[stack[-1][0]] == c:
            stack.pop()
        elif c == ">" and i > 0 and text[i - 1] == "-":
            pass  # an arrow
        i += 1
    return stack


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _end_of_previous_text(text: str, pos: int) -> int | None:
    """If ``pos`` is the first token of its line, the offset just after the last text (not
    blank, not a comment) of an earlier line; else None."""
    line_start = text.rfind("\n", 0, pos) + 1
    if text[line_start:pos].strip():
        return None
    lines = text[:line_start].split("\n")
    offset = line_start
    for raw in reversed(lines[:-1] if lines and lines[-1] == "" else lines):
        offset -= len(raw) + 1
        code = raw.split("//", 1)[0].rstrip() if '"' not in raw else raw.rstrip()
        if code.strip():
            return offset + len(code)
    return None


DEBUG_ENV = "ASCEND_XDSL_DEBUG"
"""Set (to anything but empty or 0) for the traceback of an internal error, like ``--debug``."""

MAX_PROGRAM_BYTES = 256 * 2**20
"""The largest program file the tools read: lowered dW kernels are a few hundred kB, and a
bound keeps ``/dev/zero`` or a mistaken multi-GB file from being read until memory runs out."""

EXIT_INTERRUPTED = 130
"""Ctrl-C: 128 + SIGINT, what a shell reports for a process the signal ended."""

EXIT_BROKEN_PIPE = 141
"""Standard output closed by its reader (``| head -1``): 128 + SIGPIPE, as for ``cat``."""

SYSTEM_IO_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS})
"""Errors of the system, not of ascend-xdsl, wherever a write meets them (``> /dev/full``, a
full disk under a cache or a temporary file): one line and exit 1, not an internal error."""


class SourceError(ValueError):
    """A program file that cannot be read as a program; the message names the file."""


def read_program(path: str | None) -> str:
    """The text of the program in ``path`` (standard input for None or ``-``), read at most
    :data:`MAX_PROGRAM_BYTES` and decoded as UTF-8; it must hold something besides comments."""
    name = "<stdin>" if path in (None, "-") else path
    try:
        if path in (None, "-"):
            data = sys.stdin.buffer.read(MAX_PROGRAM_BYTES + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_PROGRAM_BYTES + 1)
    except OSError as e:
        raise SourceError(f"cannot read '{name}': {e.strerror or e}") from None
    if len(data) > MAX_PROGRAM_BYTES:
        raise SourceError(
            f"'{name}': larger than the {MAX_PROGRAM_BYTES // 2**20} MiB a program may have "
            "(is it a program?)"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise SourceError(
            f"'{name}': not UTF-8 text (byte 0x{data[e.start]:02x} at line {line}, "
            f"byte offset {e.start})"
        ) from None
    if not any(line.strip() and not line.strip().startswith("//") for line in text.splitlines()):
        kind = "empty" if not text.strip() else "only comments"
        raise SourceError(f"'{name}': {kind}: there is no operation to read")
    return text


class CliError(Exception):
    """A request a tool rejects, reported as one line; ``exit_code`` 2 for unparsable flags,
    else 1."""

    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.exit_code = exit_code


class OneLineParser(argparse.ArgumentParser):
    """argparse, but its errors become one-line :class:`CliError` s pointing at the help to read
    (``help_for --help``; by default the parser's own, so a subcommand's names the subcommand)
    instead of usage dumps."""

    def __init__(self, *args: Any, help_for: str | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.help_for = help_for or self.prog
        if " " not in self.prog:  # the tool, not a subcommand (``ascend-conv bp-filter``)
            add_version_flag(self)

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see '{self.help_for} --help')", exit_code=2)


def write_output(path: str | None, text: str) -> None:
    """A tool's main output: into ``path`` (``-o``) atomically, or on standard output."""
    if not path:
        sys.stdout.write(text)
        return
    try:
        write_atomically(path, text)
    except OSError as e:
        raise CliError(write_error(path, e)) from None


def add_version_flag(parser: argparse.ArgumentParser) -> None:
    """``--version``: ``<tool> <version of ascend-xdsl>`` (``package/version.py``)."""
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}",
        help="print the version of ascend-xdsl and exit",
    )  # fmt: skip


def add_debug_flag(parser: argparse.ArgumentParser) -> None:
    """``--debug``: what :func:`debugging` looks for."""
    parser.add_argument(
        "--debug", action="store_true", help="show the traceback of an internal error"
    )


def debugging(argv: Sequence[str]) -> bool:
    """Whether an internal error shows its traceback: ``--debug`` or $ASCEND_XDSL_DEBUG."""
    return "--debug" in argv or os.environ.get(DEBUG_ENV, "") not in ("", "0")


def run_tool(prog: str, body: Callable[[], int], argv: Sequence[str] | None) -> int:
    """Run a tool's ``body`` and return its exit code; what it does not handle itself becomes
    one line on standard error and a fixed exit code:

    * a :class:`CliError` (a request the tool rejects): ``<prog>: error: <what>`` and its
      ``exit_code``; argparse's ``--help`` exits 0;
    * Ctrl-C: ``<prog>: interrupted`` and 130; the tools write every output file atomically
      (``runtime/reports/output.write_atomically``), so an interrupted run leaves no partial file;
    * standard output closed by its reader (``... | head -1``): nothing more, and 141;
    * a write the system refuses (:data:`SYSTEM_IO_ERRORS`: a full disk, ``> /dev/full``): one
      line naming the file (standard output when it has no name) and 1;
    * any other exception is a bug of ascend-xdsl, not of the input: one line saying so and
      how to report it, and 70 (``EX_SOFTWARE``); its traceback only with ``--debug`` or
      $ASCEND_XDSL_DEBUG set."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        code = body()
        sys.stdout.flush()  # here, not at exit, so that a closed pipe is reported below
        return code
    except CliError as e:
        _flush_quietly()  # what the tool printed comes before its error
        print(f"{prog}: error: {e}", file=sys.stderr)
        return e.exit_code
    except SystemExit as e:  # argparse's --help
        return e.code if isinstance(e.code, int) else 0
    except KeyboardInterrupt as e:
        where = f" {e}" if str(e) else ""  # the loop a run was in (runtime/machine/budget.py)
        print(f"{prog}: interrupted{where}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as e:
        if e.errno not in SYSTEM_IO_ERRORS:
            return _internal_error(prog, e, args)
        if e.filename is None:
            _silence_stdout()  # what is still buffered cannot be written either
        else:
            _flush_quietly()
        print(f"{prog}: error: {write_error(e.filename, e)}", file=sys.stderr)
        return 1
    except RecursionError:
        print(
            f"{prog}: error: the input is nested too deeply to process (Python's recursion "
            "limit was reached)",
            file=sys.stderr,
        )
        return 1
    except Exception as e:
        return _internal_error(prog, e, args)


def _internal_error(prog: str, e: Exception, args: Sequence[str]) -> int:
    _flush_quietly()
    if debugging(args):
        traceback.print_exc()
    print(
        f"{prog}: internal error (a bug in ascend-xdsl, not in your input): "
        f"{type(e).__name__}: {first_line(e)}. Please report it with the command line and "
        f"its input files; rerun with --debug or {DEBUG_ENV}=1 for the traceback",
        file=sys.stderr,
    )
    return 70


def _flush_quietly() -> None:
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        _silence_stdout()


def _silence_stdout() -> None:
    """Standard output is gone: point it at /dev/null so that the interpreter's final flush
    does not report the broken pipe a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file behind sys.stdout (tests)
        pass
