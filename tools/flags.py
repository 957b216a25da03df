"""The flag conventions the tools share: integer flags, empty values, the run's limits.

``ascend-conv``, ``ascend-run`` and ``ascend-tune`` parse with argparse (``OneLineParser``,
``tools/errors.py``); what argparse cannot say in one line about a value is said here, with
exit code 2 as for any flag that cannot be parsed.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence

from ascend_xdsl.hw import DEFAULT_HW, available
from ascend_xdsl.runtime.machine.budget import DEFAULT_MAX_ITERATIONS
from ascend_xdsl.tools.errors import CliError


def check_no_empty_values(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """An option given an empty value (``--padding ''``, ``-o ''``) means nothing, so it is an
    error rather than a default in disguise; options whose default is empty may be emptied."""
    actions = list(parser._actions)
    while actions:
        action = actions.pop()
        if isinstance(action, argparse._SubParsersAction):
            actions += [a for sub in action.choices.values() for a in sub._actions]
            continue
        if not action.option_strings or action.default == "":
            continue
        value = getattr(args, action.dest, None)
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and not v.strip() for v in values):
            flag = max(action.option_strings, key=len)
            raise CliError(f"{flag}: empty value", exit_code=2)


def ints(flag: str, text: str, counts: Sequence[int], minimum: int) -> tuple[int, ...]:
    """The comma-separated integers of ``flag``: one of ``counts`` many, each at least
    ``minimum``; a :class:`CliError` (exit 2) saying what was expected otherwise."""
    kind = "positive" if minimum > 0 else "non-negative"
    if counts == (1,):
        expected = f"a {kind} integer"
    else:
        numbers = ", ".join(str(c) for c in counts[:-1]) + f" or {counts[-1]}"
        if len(counts) == 1:
            numbers = str(counts[0])
        expected = f"{numbers} comma-separated {kind} integers"
    parts = text.split(",")
    try:
        values = tuple(int(p.strip()) for p in parts)
    except ValueError:
        values = ()
    if len(values) not in counts or any(v < minimum for v in values):
        raise CliError(
            f"{flag}: expected {expected}, got '{text}'",
            exit_code=2,
        )
    return values


def int_at_least(minimum: int) -> Callable[[str], int]:
    """An argparse ``type`` for an integer option of at least ``minimum`` (argparse names the
    option in the error)."""
    kind = "positive" if minimum > 0 else "non-negative"

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected a {kind} integer, got '{text}'")
        return value

    parse.__name__ = f"a {kind} integer"
    return parse


def positive_seconds(text: str) -> float:
    """An argparse ``type`` for a positive, finite number of seconds."""
    try:
        value = float(text.strip())
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got '{text}'")
    return value


positive_seconds.__name__ = "a number of seconds"


def add_limit_flags(parser: argparse.ArgumentParser) -> None:
    """``--max-iterations`` and ``--max-seconds``: the simulator's loop budget and wall-clock
    limit (``runtime/machine/budget.py``)."""
    parser.add_argument(
        "--max-iterations",
        metavar="N",
        type=int_at_least(1),
        default=DEFAULT_MAX_ITERATIONS,
        help="loop iterations the run may take before it stops with an error naming the loop "
        f"(default {DEFAULT_MAX_ITERATIONS:,}; runtime/machine/budget.py)",
    )
    parser.add_argument(
        "--max-seconds",
        metavar="S",
        type=positive_seconds,
        default=None,
        help="seconds the run may last before it stops with an error naming the loop it is in "
        "(default: no limit; runtime/machine/budget.py)",
    )


def add_hw_flag(parser: argparse.ArgumentParser, what: str = "the hardware description") -> None:
    """``--hw NAME``: its default and the names there are (``hw/*.toml``) in the help."""
    parser.add_argument(
        "--hw",
        metavar="NAME",
        default=DEFAULT_HW,
        help=f"{what}: one of {', '.join(available())} (default {DEFAULT_HW})",
    )


TILING_WORDS = """\
the tiling, as the summary and ascend-tune print it (docs/passes.md, DwTiling fields):
  base M/K/N 64/128/128   the tile one mmad computes: M (Cout), K (N·Do·Ho·Wo), N (Cin·kH·kW)
                          (base_m, base_k, base_n)
  step M/N/Ka/Kb 1/1/4/4  base tiles one L1 load holds: along M (A, dy), N (B, x), and K for
                          A and B (step_m, step_n, step_ka, step_kb)
  order M / order N       the loop kept outside: M keeps dy resident in L1 (A1), N keeps x (B1)
                          (iterate_order)
  L1 2/2, L0 2, L0C 2     buffers (1 single, 2 double-buffered) of A and B in L1, of L0A/L0B,
                          and of L0C (al1_pbuffer/bl1_pbuffer, al0_pbuffer, cl0_pbuffer)
  cores bd8xdk3           how the cores split the work: bd batch·Dout, g groups, dk kD slices,
                          m, n, k the GEMM's M, N and K; 8 x 3 = 24 cores
                          (batch_dim, group_dim, dk_dim, m_dim, n_dim, k_dim)
  dk separate / fused     kD as a driver loop in the kernel, or folded into the GEMM's N
"""
"""The words of a tiling's one-line summaries, for the --help of ascend-conv and ascend-tune."""
