"""``ascend-tune``: layers files (JSON, CSV), the three output formats, the local pool against Ray,
one-line errors, and ``ascend-conv --tiling tuned``."""

from __future__ import annotations

import csv
import functools
import io
import json
import subprocess
import sys
from pathlib import Path

import inprocess
import pytest
import shared_runs
from test_docs_commands import SHARED, shown_commands
from test_docs_commands import _argv as shown_argv

from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.hw import DEFAULT_HW
from ascend_xdsl.hw.cost_figures import cost_figures
from ascend_xdsl.tools import tune as tune_cli
from ascend_xdsl.tuning.sweep import (
    LayerError,
    network_totals,
    parse_layers,
    read_layers,
    tune_layers,
)

TUNE = str(Path(sys.executable).parent / "ascend-tune")
CONV = str(Path(sys.executable).parent / "ascend-conv")
BUDGET = "6"
RAY_TIMEOUT = 120  # s: a Ray worker starts slowly while the suite's other worker takes a core

LAYERS = [
    {
        "name": "small",
        "network": "net",
        "source": "made up",
        "input": [1, 16, 4, 8, 8],
        "weight": [16, 16, 3, 3, 3],
        "padding": 1,
    },
    {
        "input": [1, 32, 4, 6, 6],
        "weight": [32, 16, 3, 3, 3],
        "stride": [1, 2, 2],
        "padding": 1,
        "groups": 2,
        "dtype": "bf16",
    },
]


@pytest.fixture
def layers_json(tmp_path):
    path = tmp_path / "layers.json"
    path.write_text(json.dumps(LAYERS))
    return path


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``ascend-tune ARGS``: in this process, but with a pool or Ray (tests/inprocess.py)."""
    return inprocess.run([TUNE, *args], cwd=cwd)


def test_json_output_has_the_promised_fields(layers_json):
    result = run(str(layers_json), "--format", "json", "--budget", BUDGET, "--cores", "4")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    document = json.loads(result.stdout)
    assert document["schema_version"] == 2 and document["tool"] == "ascend-tune"
    rows = document["layers"]
    assert [r["layer"] for r in rows] == ["small", "layer 2"]
    for r in rows:
        assert r["tuned_cycles"] <= r["heuristic_cycles"]
        assert r["speedup"] == pytest.approx(r["heuristic_cycles"] / r["tuned_cycles"])
        tiling = DwTiling.from_dict(r["tiling"])  # every field, and nothing else
        assert tiling.core_num <= 4
    assert rows[1]["problem"]["dtype"] == "bf16" and rows[1]["problem"]["groups"] == 2
    # the descriptive keys pass through, null when absent; the op is the default
    described = [{k: r[k] for k in ("op", "network", "source", "notes")} for r in rows]
    assert described == [
        {"op": "bp-filter", "network": "net", "source": "made up", "notes": None},
        {"op": "bp-filter", "network": None, "source": None, "notes": None},
    ]
    # end to end: the dW kernel's time moves by the cycles saved, the vector kernels stay
    clock = cost_figures(DEFAULT_HW).clock_hz
    for r in rows:
        saved = r["heuristic_kernel_seconds"] - r["tuned_kernel_seconds"]
        assert saved == pytest.approx((r["heuristic_cycles"] - r["tuned_cycles"]) / clock)
        around = r["heuristic_end_to_end_seconds"] - r["heuristic_kernel_seconds"]
        assert around > 0  # the TransData and MemSet kernels
        assert r["tuned_end_to_end_seconds"] - r["tuned_kernel_seconds"] == pytest.approx(around)


def test_table_and_csv(layers_json):
    table = run(str(layers_json), "--budget", BUDGET, "--cores", "4", "--network")
    assert table.returncode == 0, table.stderr
    layer_table, network_table = table.stdout.split("\n\n")
    header, *lines = layer_table.splitlines()
    for column in ("layer", "heuristic cycles", "tuned cycles", "speedup", "efficiency"):
        assert column in header
    assert "bottleneck" in header and header.endswith("tuned tiling")
    assert len(lines) == 2 and lines[0].startswith("small ") and "base " in lines[0]
    # --network: one line per network (the second layer names none), then all of them
    header, *lines = network_table.splitlines()
    assert header.split()[:3] == ["network", "op", "layers"] and "end to end" in header
    assert [line.split()[:3] for line in lines] == [
        ["net", "bp-filter", "1"], ["-", "bp-filter", "1"], ["all", "bp-filter", "2"]
    ]  # fmt: skip
    out = run(str(layers_json), "--format", "csv", "--budget", BUDGET, "--cores", "4")
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert [r["layer"] for r in rows] == ["small", "layer 2"]
    assert (rows[0]["network"], rows[0]["source"], rows[1]["network"]) == ("net", "made up", "")
    assert float(rows[0]["speedup"]) >= 1.0
    # the CSV keeps what the JSON has: the problem, the tuned tiling (as JSON), cached
    assert json.loads(rows[1]["problem"])["groups"] == 2
    assert DwTiling.from_dict(json.loads(rows[0]["tiling"])).core_num <= 4
    assert rows[0]["cached"] in ("True", "False")


def test_csv_layers_file_gives_the_json_results(tmp_path, layers_json):
    path = tmp_path / "layers.csv"
    path.write_text(
        "name,input,weight,stride,padding,dilation,groups,dtype,network,source\n"
        'small,"1,16,4,8,8","[16, 16, 3, 3, 3]",1,1,1,1,f16,net,made up\n'
        'layer 2,"1,32,4,6,6","32,16,3,3,3","1,2,2",1,,2,bf16,,\n'
    )
    assert read_layers(str(path)) == read_layers(str(layers_json))


def test_output_file(tmp_path, layers_json):
    target = tmp_path / "out.json"
    result = run(str(layers_json), "--format", "json", "--budget", BUDGET, "-o", str(target))
    assert result.returncode == 0 and result.stdout == ""
    assert len(json.loads(target.read_text())["layers"]) == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[", "layers.json:1:2: invalid JSON"),
        ("{}", "neither a JSON list nor a CSV"),
        ("[]", "layers.json: no layers"),
        ('[{"input": [1, 16, 4, 8, 8]}]', "layers.json: layer 1: 'weight' is missing"),
        ('[{"input": [1,16,4,8,8], "weight": [16,16,3,3,3], "bias": 1}]', "unknown key(s) bias"),
        ('[{"input": [1,16,4,8,8], "weight": [16,16,3,3,3], "network": 3}]', "network must be a"),
        (
            '[{"input": [1,16,4,8,8], "weight": [16,16,3,3,3], "op": "Forward"}]',
            "layer 1: op 'Forward' is not one of bp-filter, forward, bp-input",
        ),
        ('[{"input": [1,16,4,8,8], "weight": [16,16,3,3,3], "op": 3}]', "op must be a string"),
        ("[1]", "layers.json: layer 1: expected an object"),
        (
            '[{"input": [1,16,4,8,8], "weight": [16,16,3,3,3]}, '
            '{"input": [1,16,4,8,8], "weight": [16,8,3,3,3]}]',
            "layers.json: layer 2: illegal problem: weight has Cin/groups = 8",
        ),
        ('[{"input": "a,b", "weight": [16,16,3,3,3]}]', "input must be integers, got 'a,b'"),
        ('[{"input": [1,16,4,8,8], "weight": [16,16,3,3,3], "dtype": "f32"}]', "dtype must be"),
        ('[{"input": [1,16,4,8,8], "weight": [16,16,3,3,3], "groups": [1, 2]}]', "groups must"),
    ],
)
def test_bad_layers_files_fail_in_one_line(tmp_path, text, message):
    (tmp_path / "layers.json").write_text(text)
    result = run("layers.json", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("ascend-tune: error: ")
    assert message in result.stderr


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["missing.json"], 1, "cannot read 'missing.json'"),
        (["L", "--workers", "0"], 2, "expected a positive integer, got '0'"),
        (["L", "--format", "xml"], 2, "invalid choice: 'xml'"),
        (["L", "--hw", "nope"], 1, "unknown hardware 'nope'"),
        (["L", "--cores", "99"], 1, "--cores 99: atlas-a2-910b2 has 24"),
        ([], 2, "LAYERS is required"),
    ],
)
def test_bad_flags(layers_json, args, code, message):
    args = [str(layers_json) if a == "L" else a for a in args]
    result = run(*args, cwd=layers_json.parent)
    assert result.returncode == code, result.stderr
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_unwritable_output_leaves_no_file(tmp_path, layers_json):
    result = run(str(layers_json), "--budget", "2", "-o", str(tmp_path / "no" / "out.txt"))
    assert result.returncode == 1 and "cannot write" in result.stderr
    assert not (tmp_path / "no").exists()


def test_interrupts_and_bugs_end_in_one_line(layers_json, monkeypatch, capsys):
    """ascend-tune runs in tools/errors.run_tool as the other tools do: Ctrl-C is one line and
    130, a bug one line and 70, with no traceback."""

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(tune_cli, "run", interrupted)
    assert tune_cli.main([str(layers_json)]) == 130
    assert capsys.readouterr().err == "ascend-tune: interrupted\n"

    def buggy(args):
        raise AssertionError("a bug")

    monkeypatch.setattr(tune_cli, "run", buggy)
    assert tune_cli.main([str(layers_json)]) == 70
    err = capsys.readouterr().err
    assert err.startswith("ascend-tune: internal error") and "Traceback" not in err


def test_parse_layers_names_the_csv_line():
    with pytest.raises(LayerError, match=r"x\.csv:3: layer 2: 'weight' is missing"):
        parse_layers('input,weight\n"1,16,4,8,8","16,16,3,3,3"\n"1,16,4,8,8",\n', "x.csv")


def _same(rows):
    """The rows without what differs between runs (the wall time, whether it came from cache)."""
    return [{k: v for k, v in r.items() if k not in ("tuning_seconds", "cached")} for r in rows]


@functools.cache
def _pool_rows(text: str) -> tuple[dict, ...]:
    """The local pool's rows for the layers file ``text`` (budget 6, 4 cores, no cache): the
    same for every test that compares with it, so computed once per worker."""
    layers = parse_layers(text, "layers.json")
    return tuple(tune_layers(layers, cores=4, budget=6, use_cache=False, workers=2))


def test_local_pool_equals_one_process(layers_json):
    layers = read_layers(str(layers_json))
    one = tune_layers(layers, cores=4, budget=6, use_cache=False)
    pool = list(_pool_rows(layers_json.read_text()))
    assert _same(pool) == _same(one)


def test_ray_gives_the_local_pool_results(layers_json):
    """A local Ray instance with two CPUs, one task per layer, against the local pool."""
    pytest.importorskip("ray")
    layers = read_layers(str(layers_json))
    pool = list(_pool_rows(layers_json.read_text()))
    ray_rows = tune_layers(
        layers,
        cores=4,
        budget=6,
        use_cache=False,
        ray_address="local",
        ray_num_cpus=2,
        ray_timeout=RAY_TIMEOUT,
    )
    assert _same(ray_rows) == _same(pool)
    assert all(not r["cached"] for r in ray_rows)


def test_ray_missing_is_one_line(monkeypatch, layers_json, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    code = tune_cli.main([str(layers_json), "--ray", "--budget", "2"])
    err = capsys.readouterr().err
    assert code == 1 and "--ray needs Ray: pip install 'ascend-xdsl[ray]'" in err


# -- ascend-conv --tiling tuned ---------------------------------------------------------------
SMALL_FLAGS = ["bp-filter", "--input", "1,16,4,8,8", "--weight", "16,16,3,3,3", "--padding", "1"]


def test_conv_tiling_tuned_json_report_is_pure_json():
    """With --no-cache: searches (and stores what it found: the two tests after it read the
    layer's tuned tiling from this worker's cache instead of searching it again)."""
    args = [CONV, *SMALL_FLAGS, "--tiling", "tuned", "--report", "json", "--no-cache"]
    result = inprocess.run(args)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # a search of seconds, and no progress bar off a terminal
    report = json.loads(result.stdout)
    assert report["check"]["ok"]


def test_conv_tiling_tuned_runs_and_checks():
    result = inprocess.run([CONV, *SMALL_FLAGS, "--tiling", "tuned"])
    assert result.returncode == 0, result.stderr
    assert "tiling tuned" in result.stdout and ": OK" in result.stdout
    assert result.stderr == ""  # no progress bar off a terminal


def test_conv_tiling_tuned_is_never_slower_than_heuristic():
    def cycles(tiling: str) -> float:
        args = [CONV, *SMALL_FLAGS, "--tiling", tiling, "--cost-only", "--report", "json"]
        result = inprocess.run(args)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)["cost"]["cycles"]

    assert cycles("tuned") <= cycles("heuristic")


def test_opt_strategy_tuned(tmp_path):
    fmt = inprocess.run([CONV, *SMALL_FLAGS, "--emit", "format"])
    assert fmt.returncode == 0, fmt.stderr
    (tmp_path / "in.mlir").write_text(fmt.stdout)
    opt = str(Path(sys.executable).parent / "ascend-opt")
    result = inprocess.run(
        [opt, "in.mlir", "-p", "ascend-tile-conv3d-bp-filter{strategy=tuned cores=2}"],
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "#ascend.dw_tiling<" in result.stdout


def test_the_readme_tuning_example_is_what_the_tool_prints(tmp_path):
    """README.md, "Tuning the tiling": the command runs and prints the lines shown (`...` at the
    end of a line stands for the rest of it). With the tuning cache README's page has there in
    tests/test_docs_commands.py (empty at the page's start, then what the page's earlier
    commands of its SHARED left: the dX ``--tiling tuned`` entry): the two tests share each
    run (tests/shared_runs.py), the sweep included."""
    root = Path(__file__).parent.parent
    readme = (root / "README.md").read_text()
    section = readme.split("### Tuning the tiling", 1)[1].split("\n## ", 1)[0]
    blocks = section.split("```")[1::2]
    command = blocks[0].strip().split()
    assert command[0] == ".venv/bin/ascend-tune"
    cache = tmp_path / ".cache"
    page = [c.line for c in shown_commands(root / "README.md")]
    for line in page[: page.index(blocks[0].strip())]:
        if line in SHARED:
            done = shared_runs.run(shown_argv(line)[1], cache=cache, timeout=300)
            assert done.returncode == 0, done.stderr
    result = shared_runs.run([TUNE, *command[1:]], cache=cache, timeout=300)
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    for shown in blocks[1].strip().splitlines():
        prefix = shown.removesuffix("...")
        assert any(
            line == shown or (shown.endswith("...") and line.startswith(prefix)) for line in out
        ), (shown, out)


def test_ray_flag_of_the_tool(layers_json):
    """``ascend-tune --ray --network`` (a local instance) prints the rows and the network
    totals the pool prints: the same --network table."""
    pytest.importorskip("ray")
    common = [str(layers_json), "--format", "json", "--budget", BUDGET, "--cores", "4"]
    on_ray = run(*common, "--ray", "--ray-timeout", str(RAY_TIMEOUT), "--no-cache", "--network")
    assert on_ray.returncode == 0, on_ray.stderr
    pool = run(*common, "--workers", "2", "--no-cache", "--network")
    documents = [json.loads(r.stdout) for r in (on_ray, pool)]
    assert _same(documents[0]["layers"]) == _same(documents[1]["layers"])
    tables = [tune_cli.format_networks(d["networks"]) for d in documents]
    assert tables[0] == tables[1] and "net " in tables[0]


def test_network_totals_group_by_network_and_op():
    """Per network in order of appearance and per op, sums and speedups; an op 'all' line for
    a network of several ops, a last line over all."""
    times = ("heuristic_end_to_end_seconds", "tuned_end_to_end_seconds",
             "heuristic_kernel_seconds", "tuned_kernel_seconds")  # fmt: skip

    def row(network, op, scale):
        values = (4 * scale, 2 * scale, 2 * scale, scale)
        return {"network": network, "op": op, **dict(zip(times, values, strict=True))}

    rows = [row("b", "bp-filter", 1), row(None, "bp-filter", 1), row("b", "forward", 2),
            row("a", "bp-filter", 3), row("b", "bp-filter", 1)]  # fmt: skip
    totals = network_totals(rows)
    assert [(t["network"], t["op"], t["layers"]) for t in totals] == [
        ("b", "bp-filter", 2), ("b", "forward", 1), ("b", "all", 3), ("-", "bp-filter", 1),
        ("a", "bp-filter", 1), ("all", "all", 5),
    ]  # fmt: skip
    b_all = totals[2]
    assert b_all["heuristic_end_to_end_seconds"] == 16 and b_all["tuned_kernel_seconds"] == 4
    assert all(t["speedup"] == 2 and t["kernel_speedup"] == 2 for t in totals)
    (only,) = network_totals(rows[:1])  # one network, one op: no "all" line
    assert only["network"] == "b"
    text = tune_cli.format_networks(totals)
    assert text.splitlines()[-1].split()[:3] == ["all", "all", "5"]


@pytest.mark.parametrize(
    "op", ["forward ", " bp-filter", "bp_input", "FORWARD", "fwd", "bp-filter\n", "dx", "-", "all"]
)
def test_bad_op_values_fail_in_one_line_naming_the_layer(op):
    """A layers file's op, JSON or CSV: anything but the three names is one LayerError line
    naming the file, the layer and the value; an empty op is the default, bp-filter."""
    record = {"name": "n1", "input": [1, 16, 4, 8, 8], "weight": [16, 16, 3, 3, 3], "op": op}
    with pytest.raises(LayerError) as info:
        parse_layers(json.dumps([record]), "f.json")
    message = str(info.value)
    assert message.startswith("f.json: layer 1") and repr(op) in message
    assert "\n" not in message or repr(op) in message  # the value escaped, one line
    csv_text = f'name,input,weight,op\nn1,"1,16,4,8,8","16,16,3,3,3",{json.dumps(op)}\n'
    with pytest.raises(LayerError, match="is not one of"):
        parse_layers(csv_text, "f.csv")
    (layer,) = parse_layers(json.dumps([{**record, "op": ""}]), "f.json")
    assert layer.op == "bp-filter"
    (layer,) = parse_layers(json.dumps([{**record, "op": "forward"}]), "f.json")
    assert layer.op == "forward"


def test_the_three_ops_of_one_layer_and_their_network_totals(tmp_path, monkeypatch, capsys):
    """One tiny layer under each op (bp-input now tuned too): a row each, from its own search
    (the dX row's tiling is a Conv3DBpInputTiling), and --network's lines per op and over the
    network's three ops."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    layer = {"input": [1, 16, 2, 4, 4], "weight": [16, 16, 1, 3, 3], "padding": [0, 1, 1],
             "network": "tiny"}  # fmt: skip
    ops = ("bp-filter", "forward", "bp-input")
    path = tmp_path / "layers.json"
    path.write_text(json.dumps([{**layer, "name": f"l-{op}", "op": op} for op in ops]))
    code = tune_cli.main([str(path), "--budget", "2", "--cores", "4", "--network", "--format",
                          "json"])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0, err
    document = json.loads(out)
    rows = {r["op"]: r for r in document["layers"]}
    assert list(rows) == list(ops)
    dx = rows["bp-input"]
    assert {"base_m", "base_k", "base_n", "single_core_cin1"} <= set(dx["tiling"])
    assert dx["tuned_cycles"] <= dx["heuristic_cycles"] and dx["candidates"] <= 2
    assert dx["tiling_summary"].startswith("L0 M/K/N ")
    lines = [(t["network"], t["op"], t["layers"]) for t in document["networks"]]
    assert lines[:4] == [("tiny", op, 1) for op in ops] + [("tiny", "all", 3)]
    (dx_total,) = [t for t in document["networks"] if t["op"] == "bp-input"]
    assert dx_total["tuned_end_to_end_seconds"] == dx["tuned_end_to_end_seconds"]
    # The table names the op of each row.
    code = tune_cli.main([str(path), "--budget", "2", "--cores", "4"])
    out, _ = capsys.readouterr()
    assert code == 0 and any(line.split()[1] == "bp-input" for line in out.splitlines()[1:])
