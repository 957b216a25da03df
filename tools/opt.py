"""``ascend-opt``: xdsl-opt with the ascend dialect and passes registered.

When the package is installed, its ``xdsl.universe`` entry point already registers everything
with every xDSL tool; the guards below keep ``ascend-opt`` working from a source tree where the
entry point is absent, without registering anything twice.
"""

from collections.abc import Sequence

from xdsl.xdsl_opt_main import xDSLOptMain

from ascend_xdsl.tools.registry import DIALECTS, PASSES


class AscendOptMain(xDSLOptMain):
    def register_all_dialects(self) -> None:
        super().register_all_dialects()
        for name, factory in DIALECTS.items():
            if name not in self.ctx.registered_dialect_names:
                self.ctx.register_dialect(name, factory)

    def register_all_passes(self) -> None:
        super().register_all_passes()
        for name, factory in PASSES.items():
            self.register_pass(name, factory)


def main(args: Sequence[str] | None = None) -> None:
    AscendOptMain(description="ascend-xdsl optimizer driver", args=args).run()


if __name__ == "__main__":
    main()
