"""Replayable tilings: ``ascend-conv --emit tiling`` writes the tiling of any strategy as
``--tiling fixed:FILE`` reads it, and ``fixed:`` also reads the tuner's and the reports' JSON;
a tuned tiling replayed gives the tuned cycles.

The small layer is the one of tests/test_tune_cli.py, with the same options: its search is
cached for the session (tests/conftest.py), so whichever file runs first pays for it once."""

from __future__ import annotations

import json

import pytest

from ascend_xdsl.tools import conv, tune

SMALL = ["--input", "1,16,4,8,8", "--weight", "16,16,3,3,3", "--padding", "1"]


def _conv(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    code = conv.main(["bp-filter", *SMALL, *(str(a) for a in argv)])
    out, err = capsys.readouterr()
    return code, out, err


def _cycles(capsys, tiling: str) -> float:
    code, out, err = _conv(capsys, "--tiling", tiling, "--cost-only", "--report", "json")
    assert code == 0, err
    return json.loads(out)["cost"]["cycles"]


def test_a_tuned_tiling_replays_to_the_same_cycles(capsys, tmp_path):
    tuned = _cycles(capsys, "tuned")
    assert tuned < _cycles(capsys, "heuristic")  # so the replay cannot pass by falling back
    text = tmp_path / "tuned.mlir"
    code, out, err = _conv(capsys, "--tiling", "tuned", "--emit", "tiling", "-o", text)
    assert code == 0 and out == "", err
    assert text.read_text().startswith("#ascend.dw_tiling<batch = 1, ")
    assert _cycles(capsys, f"fixed:{text}") == tuned
    # the JSON report of a tuned run, and the tiling object alone
    report = tmp_path / "report.json"
    code, _, err = _conv(
        capsys, "--tiling", "tuned", "--cost-only", "--report", "json", "-o", report
    )
    assert code == 0, err
    assert _cycles(capsys, f"fixed:{report}") == tuned
    alone = tmp_path / "tiling.json"
    alone.write_text(json.dumps(json.loads(report.read_text())["tiling"]))
    assert _cycles(capsys, f"fixed:{alone}") == tuned


def test_the_tuners_json_replays_to_its_tuned_cycles(capsys, tmp_path):
    layers = tmp_path / "layers.json"
    layers.write_text(json.dumps([{"input": [1, 16, 4, 8, 8], "weight": [16, 16, 3, 3, 3],
                                   "padding": 1}]))  # fmt: skip
    out = tmp_path / "tuned.json"
    assert tune.main([str(layers), "--format", "json", "-o", str(out)]) == 0
    row = json.loads(out.read_text())["layers"][0]
    assert _cycles(capsys, f"fixed:{out}") == pytest.approx(row["tuned_cycles"])


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"batch": 1}', "missing DwTiling field(s)"),
        ('{"tiling": {"nonsense": 1}}', "unknown DwTiling field(s): nonsense"),
        ('{"tiling": null}', "the hardware level keeps no tiling"),
        ('{"layers": [{}, {}]}', "an ascend-tune report of 2 layers"),
        ('{"batch": ', "invalid JSON"),
    ],
)
def test_bad_json_tilings_are_one_line_errors(capsys, tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, out, err = _conv(capsys, "--tiling", f"fixed:{path}", "--emit", "tiling")
    assert code == 1 and out == ""
    assert message in err and str(path) in err and len(err.splitlines()) == 1, err


def test_emit_tiling_of_the_heuristic_reads_back(capsys, tmp_path):
    path = tmp_path / "h.mlir"
    assert _conv(capsys, "--emit", "tiling", "-o", path)[0] == 0
    code, out, err = _conv(capsys, "--tiling", f"fixed:{path}", "--emit", "tiling")
    assert code == 0, err
    assert out == path.read_text()
