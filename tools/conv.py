"""``ascend-conv``: the main job (arrives with the lowering issue)."""

import sys


def main() -> None:
    print("ascend-conv: the lowering has not landed yet; nothing can be compiled", file=sys.stderr)
    sys.exit(2)
