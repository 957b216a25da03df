"""``ascend-opt``: xdsl-opt with the ascend dialect and passes registered.

When the package is installed, its ``xdsl.universe`` entry point already registers everything
with every xDSL tool; the guards below keep ``ascend-opt`` working from a source tree where the
entry point is absent, without registering anything twice.
"""

import argparse
import dataclasses
import os
import sys
from collections.abc import Sequence
from io import BytesIO, StringIO, TextIOBase
from typing import IO, ClassVar, get_type_hints

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec, parse_pipeline
from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    ParseError,
    VerifyException,
)
from xdsl.xdsl_opt_main import xDSLOptMain

from ascend_xdsl.ir.dominance import check_dominance
from ascend_xdsl.ir.locations import CheckedParser, describe_op
from ascend_xdsl.ir.loops import check_loops
from ascend_xdsl.lowering.registry import DIALECTS, PASSES
from ascend_xdsl.runtime.reports.output import write_atomically, write_error
from ascend_xdsl.tools.errors import (
    SYSTEM_IO_ERRORS,
    describe_parse_error,
    first_line,
    read_program,
    run_tool,
)
from ascend_xdsl.version import __version__

PROG = "ascend-opt"


class _Uncloseable(TextIOBase):
    """Lets xDSL close its output stream without discarding what was written to it."""

    def __init__(self, buffer: StringIO):
        self.buffer = buffer

    def write(self, text: str) -> int:
        return self.buffer.write(text)


class AscendOptMain(xDSLOptMain):
    buffered_output: StringIO
    # xdsl-opt's --version names xDSL only; ours comes first, as on the other tools.
    version_format: ClassVar[str] = (
        f"{PROG} {__version__} (xdsl-opt built from xdsl version {{xdsl_version}})"
    )

    def register_all_dialects(self) -> None:
        super().register_all_dialects()
        for name, factory in DIALECTS.items():
            if name not in self.ctx.registered_dialect_names:
                self.ctx.register_dialect(name, factory)

    def register_all_frontends(self) -> None:
        super().register_all_frontends()

        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            text = io.read().decode("utf-8")  # get_input_stream checked it is UTF-8
            parser = CheckedParser(self.ctx, text, self.get_input_name())
            return parser.parse_module(not self.args.no_implicit_module)

        self.available_frontends["mlir"] = parse_mlir

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--debug", action="store_true", help="show the traceback of an internal error"
        )

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        """The input through :func:`read_program`: bounded in size, UTF-8, not empty, and
        every complaint names the file (xDSL reads any file to its end and decodes later)."""
        path = self.args.input_file
        text = read_program(path)
        extension = os.path.splitext(path)[1].removeprefix(".") if path else "mlir"
        return BytesIO(text.encode("utf-8")), extension

    def setup_pipeline(self) -> None:
        """Check ``-p`` before xDSL builds it: a malformed pipeline (an ``ArgSpecParseError``,
        which xDSL derives from BaseException) and an option of the wrong type or name become
        one message naming the pass and the option."""
        try:
            specs = list(parse_pipeline(self.args.passes)) if self.args.passes else []
        except ArgSpecParseError as e:
            raise PipelineSpecError(describe_spec_error(self.args.passes, e)) from None
        for spec in specs:
            factory = self.available_passes.get(spec.name)
            if factory is not None:
                check_pass_options(factory(), spec)
        super().setup_pipeline()

    def apply_passes(self, prog: ModuleOp) -> None:
        # xDSL's verifier does not check dominance; the passes and the printer assume it.
        check_dominance(prog)
        check_loops(prog)
        super().apply_passes(prog)

    def prepare_output(self) -> IO[str]:
        """``-o FILE`` collects the output in memory; :func:`main` writes it atomically once
        every pass has succeeded, so a failing run leaves no half-written FILE."""
        if self.args.output_file is None:
            return sys.stdout
        self.buffered_output = StringIO()
        return _Uncloseable(self.buffered_output)

    def register_all_passes(self) -> None:
        super().register_all_passes()
        for name, factory in PASSES.items():
            self.register_pass(name, factory)


class PipelineSpecError(ValueError):
    """A ``-p`` pipeline that cannot be built, with a one-line message."""


def describe_spec_error(spec: str, e: ArgSpecParseError) -> str:
    """One line from xDSL's four (``pass-pipeline:1:7``, the spec, a caret, the message)."""
    lines = str(e).strip().splitlines()
    where = lines[1].rsplit(":", 1)[-1] if len(lines) > 1 else "?"
    message = lines[-1].strip() if lines else "malformed"
    return f"-p: malformed pass pipeline '{spec}' at column {where}: {message}"


def check_pass_options(pass_cls: type[ModulePass], spec: ArgSpec) -> None:
    """Raise :class:`PipelineSpecError` naming the first option of ``spec`` that ``pass_cls``
    does not have or cannot take (xDSL's message names neither the pass nor the option)."""
    fields = [f.name for f in dataclasses.fields(pass_cls) if f.init and f.name != "name"]
    for option, values in spec.normalize_parameter_names().parameters.items():
        if option not in fields:
            known = ", ".join(f.replace("_", "-") for f in fields) or "none"
            raise PipelineSpecError(
                f"-p: pass '{spec.name}' has no option '{option.replace('_', '-')}' "
                f"(its options: {known})"
            )
        try:
            pass_cls.from_pass_spec(ArgSpec(spec.name, {option: values}))
        except ValueError:
            expected = get_type_hints(pass_cls).get(option)
            kind = getattr(expected, "__name__", str(expected))
            shown = " ".join(map(str, values)) if values else "nothing"
            raise PipelineSpecError(
                f"-p: pass '{spec.name}': option '{option.replace('_', '-')}' takes "
                f"{_KIND_NAMES.get(kind, kind)}, got {shown}"
            ) from None


_KIND_NAMES = {
    "int": "an integer",
    "str": 'a string (quoted: "...")',
    "bool": "a boolean (true or false)",
}


def main(args: Sequence[str] | None = None) -> int:
    """Run ``ascend-opt``; interrupts, a closed standard output and internal errors end as
    ``tools/errors.run_tool`` says."""
    return run_tool(PROG, lambda: _main(args), args)


def _main(args: Sequence[str] | None) -> int:
    """Run the driver; a bad input or a failing pass is one line on stderr and exit code 1.

    With ``--verify-diagnostics`` / ``--parsing-diagnostics`` xDSL prints the diagnostics itself
    (that is what the negative FileCheck tests read); otherwise a user gets the message, not a
    Python traceback.
    """
    driver: AscendOptMain | None = None
    try:
        driver = AscendOptMain(description="ascend-xdsl optimizer driver", args=args)
        driver.run()
        if driver.args.output_file is not None:
            try:
                write_atomically(driver.args.output_file, driver.buffered_output.getvalue())
            except OSError as e:
                print(f"{PROG}: error: {write_error(driver.args.output_file, e)}", file=sys.stderr)
                return 1
    except SystemExit as e:  # --help, or argparse's own error (already printed)
        return e.code if isinstance(e.code, int) else 0
    except BrokenPipeError:
        raise  # standard output closed: run_tool's business, not a file error
    except OSError as e:
        if e.errno in SYSTEM_IO_ERRORS and e.filename is None:
            raise  # standard output full: run_tool says so
        where = f" '{e.filename}'" if e.filename else ""
        print(f"{PROG}: error: cannot access{where}: {e.strerror or e}", file=sys.stderr)
        return 1
    except ValueError as e:  # an unknown pass, a malformed pipeline, an unreadable input
        print(f"{PROG}: error: {first_line(e)}", file=sys.stderr)
        return 1
    except RecursionError:
        source = getattr(getattr(driver, "args", None), "input_file", None) or "<stdin>"
        print(f"{PROG}: error: {source}: nested too deeply to process", file=sys.stderr)
        return 1
    except (ParseError, DiagnosticException) as e:
        if isinstance(e, ParseError):
            message = describe_parse_error(e)
        else:
            message = first_line(e)
            source = getattr(getattr(driver, "args", None), "input_file", None)
            where = getattr(e, "ascend_op", None)
            if where is not None:
                message = f"{describe_op(where)}: {message}"
            elif isinstance(e, VerifyException) and source:
                message = f"{source}: {message}"
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
