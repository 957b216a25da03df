"""``ascend-opt``: xdsl-opt with the ascend dialect and passes registered.

When the package is installed, its ``xdsl.universe`` entry point already registers everything
with every xDSL tool; the guards below keep ``ascend-opt`` working from a source tree where the
entry point is absent, without registering anything twice.
"""

import sys
from collections.abc import Sequence
from io import StringIO, TextIOBase
from typing import IO

from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.xdsl_opt_main import xDSLOptMain

from ascend_xdsl.lowering.registry import DIALECTS, PASSES
from ascend_xdsl.runtime.output import write_atomically
from ascend_xdsl.tools.errors import describe_parse_error, first_line

# Registers the tiling search behind ascend-tile-conv3d-bp-filter{strategy=tuned}.
from ascend_xdsl.tuning import tune as _tune  # noqa: F401


class _Uncloseable(TextIOBase):
    """Lets xDSL close its output stream without discarding what was written to it."""

    def __init__(self, buffer: StringIO):
        self.buffer = buffer

    def write(self, text: str) -> int:
        return self.buffer.write(text)


class AscendOptMain(xDSLOptMain):
    buffered_output: StringIO

    def register_all_dialects(self) -> None:
        super().register_all_dialects()
        for name, factory in DIALECTS.items():
            if name not in self.ctx.registered_dialect_names:
                self.ctx.register_dialect(name, factory)

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


def main(args: Sequence[str] | None = None) -> None:
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
                print(
                    f"ascend-opt: error: cannot write '{driver.args.output_file}': "
                    f"{e.strerror or e}",
                    file=sys.stderr,
                )
                sys.exit(1)
    except OSError as e:  # the input file, or the folder of -o
        where = f" '{e.filename}'" if e.filename else ""
        print(f"ascend-opt: error: cannot access{where}: {e.strerror or e}", file=sys.stderr)
        sys.exit(1)
    except ValueError as e:  # an unknown pass or a malformed pass pipeline
        print(f"ascend-opt: error: {first_line(e)}", file=sys.stderr)
        sys.exit(1)
    except (ParseError, DiagnosticException) as e:
        if isinstance(e, ParseError):
            message = describe_parse_error(e)
        else:
            message = first_line(e)
            source = getattr(getattr(driver, "args", None), "input_file", None)
            if isinstance(e, VerifyException) and source:
                message = f"{source}: {message}"
        print(f"ascend-opt: error: {message}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
