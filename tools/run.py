"""``ascend-run``: interpret an ascend IR program (arrives with the runtime issue)."""

import sys


def main() -> None:
    print("ascend-run: the runtime has not landed yet; nothing can be executed", file=sys.stderr)
    sys.exit(2)
