"""The flag conventions the tools share: integer flags, empty values, the loop budget.

``ascend-conv``, ``ascend-run`` and ``ascend-tune`` parse with argparse (``OneLineParser``,
``tools/errors.py``); what argparse cannot say in one line about a value is said here, with
exit code 2 as for any flag that cannot be parsed.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence

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
    """An argparse ``type`` for a time limit in seconds: a finite number above 0."""
    try:
        value = float(text.strip())
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, got '{text}'")
    return value


positive_seconds.__name__ = "a number of seconds"


def add_max_iterations_flag(parser: argparse.ArgumentParser) -> None:
    """``--max-iterations``: the simulator's loop budget (``runtime/machine/budget.py``)."""
    parser.add_argument(
        "--max-iterations",
        metavar="N",
        type=int_at_least(1),
        default=DEFAULT_MAX_ITERATIONS,
        help="loop iterations the run may take before it stops with an error naming the loop "
        f"(default {DEFAULT_MAX_ITERATIONS:,}; runtime/machine/budget.py)",
    )
