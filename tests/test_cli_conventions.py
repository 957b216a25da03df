"""The conventions every tool keeps: --version, help text on every flag, --hw's default and
names, the tiling words explained in --help, ascend-tune's cache flags and candidate progress,
``python -m ascend_xdsl``, and notebook-sized reprs."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import numpy as np
import pytest

from ascend_xdsl.__main__ import main as dispatch
from ascend_xdsl.hw import DEFAULT_HW, available
from ascend_xdsl.tools import conv, conv_args, opt, run, run_args, tune
from ascend_xdsl.tuning import cache
from ascend_xdsl.tuning.sweep import parse_layers, tune_layers
from ascend_xdsl.version import __version__

PARSERS = {"ascend-conv": conv_args.make_parser, "ascend-run": run_args.make_parser,
           "ascend-tune": tune.make_parser}  # fmt: skip


def _actions(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from ((sub, a) for a in sub._actions)
        else:
            yield parser, action


@pytest.mark.parametrize("main", [conv.main, run.main, tune.main, opt.main])
def test_every_tool_has_version(capsys, main):
    capsys.readouterr()
    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ascend-") and __version__ in out


@pytest.mark.parametrize("tool", PARSERS)
def test_every_flag_has_help_and_hw_lists_its_names(tool):
    parser = PARSERS[tool]()
    for owner, action in _actions(parser):
        assert action.help, f"{owner.prog} {action.option_strings or action.dest} has no help"
        if "--hw" in action.option_strings:
            assert f"default {DEFAULT_HW}" in action.help
            assert all(name in action.help for name in available())


@pytest.mark.parametrize("argv", [["bp-filter", "--help"], None])
def test_help_explains_the_tiling_words(capsys, argv):
    capsys.readouterr()
    assert (conv.main(argv) if argv else tune.main(["--help"])) == 0
    out = capsys.readouterr().out
    for words in ("base M/K/N", "step M/N/Ka/Kb", "L1 2/2", "bd8xdk3", "dk separate"):
        assert words in out, words


def test_tune_cache_info_and_clear(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(cache, "cache_dir", lambda: tmp_path / "tuning")
    (tmp_path / "tuning").mkdir()
    for i in range(3):
        (tmp_path / "tuning" / f"{i}.json").write_text("{}")
    (tmp_path / "tuning" / "keep.txt").write_text("not ours")
    capsys.readouterr()
    assert tune.main(["--cache-info"]) == 0
    out = capsys.readouterr().out
    assert str(tmp_path / "tuning") in out and "3 cached searches" in out
    assert tune.main(["--clear-cache"]) == 0
    assert "cleared 3 cached searches" in capsys.readouterr().err
    assert [p.name for p in (tmp_path / "tuning").iterdir()] == ["keep.txt"]
    assert tune.main(["--cache-info", "--clear-cache"]) == 2
    assert tune.main([]) == 2 and "LAYERS is required" in capsys.readouterr().err


def test_tune_progress_counts_candidates():
    (layer,) = parse_layers(
        json.dumps([{"input": [1, 16, 4, 8, 8], "weight": [16, 16, 3, 3, 3]}]), "t"
    )
    seen: list[tuple[int, int]] = []
    (row,) = tune_layers([layer], budget=3, use_cache=False,
                         on_candidate=lambda i, n: seen.append((i, n)))  # fmt: skip
    assert seen and all(i == 0 for i, _ in seen)
    assert [n for _, n in seen] == list(range(1, len(seen) + 1))
    assert len(seen) == row["candidates"]


def test_python_dash_m_dispatches(capsys):
    capsys.readouterr()
    assert dispatch(["--version"]) == 0 and __version__ in capsys.readouterr().out
    assert dispatch(["tune", "--version"]) == 0 and "ascend-tune" in capsys.readouterr().out
    assert dispatch([]) == 2 and "conv" in capsys.readouterr().out
    assert dispatch(["nope"]) == 2 and "unknown tool 'nope'" in capsys.readouterr().err
    # the module is found as ``python -m`` finds it (a portion of the namespace package)
    done = subprocess.run([sys.executable, "-m", "ascend_xdsl", "--help"], capture_output=True,
                          text=True, check=False)  # fmt: skip
    assert done.returncode == 0 and "ascend-conv" in done.stdout


def test_the_result_repr_is_notebook_sized():
    from ascend_xdsl.runtime import run_conv3d_weight

    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 16, 3, 6, 6)).astype(np.float16)
    dy = rng.standard_normal((1, 16, 3, 6, 6)).astype(np.float16)
    result = run_conv3d_weight(x, (16, 16, 1, 1, 1), dy, cores=1)
    text = repr(result)
    assert len(text) < 600 and "\n" not in text, text
    assert "numpy float32 16x16x1x1x1" in text and "hw: " in text and "cycles" in text


def test_each_tool_says_it_has_every_op(capsys):
    """``ascend-conv --help`` names the three ops its subcommands compile, not only dW."""
    capsys.readouterr()
    assert conv.main(["--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert all(op in out for op in ("dW", "forward", "dX", "bp-filter", "bp-input"))
