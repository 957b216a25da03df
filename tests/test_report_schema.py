"""One versioned JSON report (runtime/reports/document.py, docs/report.schema.json): what every
tool writes validates against the schema, no key goes missing when a program launches nothing,
and the Python objects carry the JSON's names."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import jsonschema
import pytest

from ascend_xdsl.dialects.conv3d_tiling import Conv3DTiling
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.runtime.reports.document import SCHEMA_VERSION
from ascend_xdsl.tools import conv, run, tune

ROOT = Path(__file__).parent.parent
SCHEMA = json.loads((ROOT / "docs" / "report.schema.json").read_text())
SMALL = ["--input", "1,16,3,6,6", "--weight", "16,16,2,3,3", "--padding", "1", "--cores", "2"]


def validate(document: dict) -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(document)


def _json(capsys, main, *argv) -> dict:
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


@pytest.fixture(scope="module")
def hw_program(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("schema") / "hw.mlir"
    assert conv.main(["bp-filter", *SMALL, "--emit", "hw", "-o", str(path)]) == 0
    return path


def test_the_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$defs"]["run"]["properties"]["schema_version"]["const"] == SCHEMA_VERSION
    # the tiling's required fields are DwTiling's, the forward tiling's Conv3DTiling's
    assert set(SCHEMA["$defs"]["tiling"]["required"]) <= set(DwTiling.field_names())
    forward = {f.name for f in dataclasses.fields(Conv3DTiling)}
    assert set(SCHEMA["$defs"]["conv3d_tiling"]["required"]) <= forward


def test_ascend_conv_reports_validate(capsys):
    full = _json(capsys, conv.main, "bp-filter", *SMALL, "--report", "json")
    validate(full)
    assert full["tool"] == "ascend-conv" and full["tiling_strategy"] == "heuristic"
    assert full["problem"]["op"] == "bp-filter"
    assert full["check"]["ok"] and full["check"]["max_abs_error"] >= 0
    assert DwTiling.from_dict(full["tiling"]).core_num == 2
    assert full["launches"] == [full["cost"]]
    # the critical path's flag share has a key of its own
    assert "flag" in full["cost"]["critical_path"]
    shares = sum(v["share"] for v in full["cost"]["critical_path"].values())
    assert shares == pytest.approx(1.0)
    cost_only = _json(capsys, conv.main, "bp-filter", *SMALL, "--cost-only", "--report", "json")
    validate(cost_only)
    assert cost_only["cost_only"] and cost_only["check"] is None
    assert cost_only["cost"]["extrapolated_iterations"] >= 0


def test_the_forward_reports_validate(capsys, tmp_path):
    """ascend-conv forward --report json (a grouped layer: one launch per group) and ascend-run
    --report json on a forward hardware-level program follow the same schema, op forward."""
    grouped = ["--input", "1,16,3,6,6", "--weight", "16,8,2,3,3", "--padding", "1"]
    full = _json(capsys, conv.main, "forward", *grouped, "--groups", "2", "--report", "json")
    validate(full)
    assert full["problem"]["op"] == "forward" and full["problem"]["groups"] == 2
    assert full["tiling"]["org_ci"] == 8 and full["tiling_strategy"] == "heuristic"
    assert len(full["launches"]) == 2 and full["cost"] == full["launches"][-1]
    assert full["check"]["ok"] and full["check"]["max_abs_error"] <= full["check"]["tolerance"]
    cost_only = _json(capsys, conv.main, "forward", *grouped, "--groups", "2", "--cost-only",
                      "--report", "json")  # fmt: skip
    validate(cost_only)
    assert cost_only["cost_only"] and cost_only["check"] is None
    assert len(cost_only["launches"]) == 2
    # a forward tiling is no dW tiling, and the other way round: the schema tells them apart
    with pytest.raises(jsonschema.ValidationError):
        validate({**cost_only, "tiling": {**cost_only["tiling"], "org_do": None}})
    program = tmp_path / "fwd.mlir"
    assert conv.main(["forward", *SMALL[:6], "--emit", "hw", "-o", str(program)]) == 0
    checked = _json(
        capsys, run.main, program, "--random-inputs", "--check", "--report", "json",
        "--output-dir", tmp_path,
    )  # fmt: skip
    validate(checked)
    assert checked["problem"]["op"] == "forward" and checked["check"]["ok"]
    assert checked["tiling"] is None  # the hardware level keeps no record of it


def test_ascend_run_reports_validate_with_and_without_a_launch(capsys, hw_program, tmp_path):
    checked = _json(
        capsys, run.main, hw_program, "--random-inputs", "--check", "--sanitize",
        "--report", "json", "--output-dir", tmp_path,
    )  # fmt: skip
    validate(checked)
    assert checked["hazards"] == [] and checked["tiling"] is None  # hw keeps no tiling
    assert checked["check"]["max_abs_error"] <= checked["check"]["tolerance"]
    no_launch = _json(
        capsys, run.main, ROOT / "examples" / "op_level.mlir", "--random-inputs",
        "--report", "json", "--output-dir", tmp_path,
    )  # fmt: skip
    validate(no_launch)
    assert set(no_launch) == set(checked)  # no key dropped without a launch
    assert no_launch["cost"] is None and no_launch["launches"] == []
    assert no_launch["hazards"] is None  # no --sanitize
    cost_only = _json(capsys, run.main, hw_program, "--cost-only", "--report", "json")
    validate(cost_only)
    assert cost_only["cost_only"] and len(cost_only["launches"]) == 1


def test_ascend_tune_report_validates(capsys, tmp_path):
    layers = tmp_path / "layers.json"
    layers.write_text(json.dumps([{"input": [1, 16, 4, 8, 8], "weight": [16, 16, 3, 3, 3]}]))
    document = _json(capsys, tune.main, layers, "--format", "json", "--budget", "3")
    validate(document)
    (row,) = document["layers"]
    assert row["problem"]["input"] == [1, 16, 4, 8, 8] and isinstance(row["cached"], bool)
    assert row["op"] == "bp-filter" and row["network"] is None and "networks" not in document
    # the descriptive keys pass through, and --network adds the totals
    described = {"network": "n", "source": "a paper", "notes": "x"}
    layers.write_text(
        json.dumps([{**described, "input": [1, 16, 4, 8, 8], "weight": [16, 16, 3, 3, 3]}])
    )
    document = _json(capsys, tune.main, layers, "--format", "json", "--budget", "3", "--network")
    validate(document)
    assert {k: document["layers"][0][k] for k in described} == described
    (total,) = document["networks"]
    assert total["network"] == "n" and total["layers"] == 1
    document["networks"][0]["extra"] = 1
    with pytest.raises(jsonschema.ValidationError):
        validate(document)


def test_a_report_with_a_missing_or_unknown_key_is_refused(capsys):
    document = _json(capsys, conv.main, "bp-filter", *SMALL, "--cost-only", "--report", "json")
    del document["check"]
    with pytest.raises(jsonschema.ValidationError):
        validate(document)
    document["check"] = None
    document["cost"]["pipe_ratios"] = {}
    with pytest.raises(jsonschema.ValidationError):
        validate(document)


def test_cost_report_attributes_are_the_json_keys():
    from ascend_xdsl.lowering.build import shape_from_torch_args
    from ascend_xdsl.runtime.api import compiled_levels, model_cost

    problem = shape_from_torch_args((1, 16, 3, 6, 6), (16, 16, 2, 3, 3), padding=1)
    modules = compiled_levels(problem, "atlas-a2-910b2", "heuristic", 2, "")
    (cost,) = model_cost(modules["hw"], problem=problem)
    document = cost.to_json()
    for key, value in document.items():
        attribute = getattr(cost, key)
        assert not callable(attribute), key
        if key == "cores":
            assert [c.to_json() for c in attribute] == value
        else:
            assert attribute == value, key
    assert len(repr(cost)) < 200 and "cycles" in repr(cost)
    html = cost._repr_html_()
    assert html.startswith("<div>") and "<table>" in html and "mte1" in html
