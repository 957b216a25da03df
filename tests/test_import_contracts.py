"""The layering of docs/architecture.md, checked by import-linter (contracts in pyproject.toml).

`test_lint_imports` runs the `lint-imports` command exactly as .ci/run does, so the one test
command covers the layering. The other tests show that the contracts as configured catch what
they are meant to: each adds one forbidden import to the real import graph and expects the
contract to break. Without them, a contract that names no real module (a typo, a moved package)
would pass silently.
"""

import subprocess
import sys
from copy import deepcopy
from pathlib import Path

import grimp
import pytest
from importlinter import api
from importlinter.contracts.independence import IndependenceContract
from importlinter.contracts.layers import LayersContract

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
# A test dependency, installed with the test extra next to this interpreter; a missing one is a
# broken environment, not a reason to skip.
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _config() -> dict:
    return api.read_configuration(str(PYPROJECT))


def _contract(contract_id: str) -> dict:
    for options in _config()["contracts_options"]:
        if options.get("id") == contract_id:
            return options
    raise AssertionError(f"pyproject.toml has no import-linter contract with id '{contract_id}'")


@pytest.fixture(scope="module")
def real_graph() -> grimp.ImportGraph:
    return grimp.build_graph(*_config()["session_options"]["root_packages"], cache_dir=None)


@pytest.fixture
def graph(real_graph: grimp.ImportGraph) -> grimp.ImportGraph:
    return deepcopy(real_graph)  # each test adds its own forbidden import


def _kept(contract_cls: type, contract_id: str, graph: grimp.ImportGraph) -> bool:
    options = _contract(contract_id)
    contract = contract_cls(options["name"], _config()["session_options"], options)
    return contract.check(graph, verbose=False).kept


def test_lint_imports():
    assert LINT_IMPORTS.is_file(), f"{LINT_IMPORTS} is missing: pip install -e '.[test]'"
    result = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo", str(PYPROJECT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout, result.stdout


def test_graph_has_every_module(graph):
    # The package's folders are linked into one tree by the strict editable install; a folder
    # missing from it would leave its modules out of every contract.
    folders = ("package", "dialects", "passes", "lowering", "runtime", "tuning", "emit", "tools")
    folders += ("ir", "hw")
    sources = [p for folder in folders for p in (ROOT / folder).rglob("*.py")]
    assert len(graph.modules) == len(sources)
    assert "ascend_xdsl.lowering.registry" in graph.modules


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("ascend_xdsl.dialects.types", "ascend_xdsl.tools.errors"),
        ("ascend_xdsl.lowering.pipeline", "ascend_xdsl.tools.opt"),
        ("ascend_xdsl.lowering.build", "ascend_xdsl.runtime.api"),
        ("ascend_xdsl.passes.plan_buffers", "ascend_xdsl.lowering.index_arith"),
        ("ascend_xdsl.hw", "ascend_xdsl.dialects.conv_shape"),
        ("ascend_xdsl.passes.tile_conv3d_bp_filter", "ascend_xdsl.tuning.cached_search"),
        ("ascend_xdsl.runtime.api", "ascend_xdsl.tuning.search"),
        ("ascend_xdsl.tuning.search", "ascend_xdsl.tools.tune"),
        ("ascend_xdsl.emit.ascendc", "ascend_xdsl.tools.conv"),
        ("ascend_xdsl.runtime.api", "ascend_xdsl.emit.check"),
        # the IR queries sit below the simulator, the emitter and the passes, above the dialects
        ("ascend_xdsl.ir.program", "ascend_xdsl.runtime.reports.check"),
        ("ascend_xdsl.ir.locations", "ascend_xdsl.passes.insert_sync"),
        ("ascend_xdsl.dialects.types", "ascend_xdsl.ir.locations"),
        # the siblings are independent
        ("ascend_xdsl.tuning.search", "ascend_xdsl.emit.check"),
        ("ascend_xdsl.emit.ascendc", "ascend_xdsl.tuning.cached_search"),
    ],
)
def test_layers_contract_catches_upward_import(graph, importer, imported):
    graph.add_import(importer=importer, imported=imported)
    assert not _kept(LayersContract, "layers", graph)


@pytest.mark.parametrize(
    ("contract_id", "importer", "imported"),
    [
        (
            "lowering-passes",
            "ascend_xdsl.lowering.convert_conv_to_api",
            "ascend_xdsl.lowering.legalize_formats",
        ),
        ("level-passes", "ascend_xdsl.passes.insert_sync", "ascend_xdsl.passes.plan_buffers"),
    ],
)
def test_independence_contract_catches_import(graph, contract_id, importer, imported):
    graph.add_import(importer=importer, imported=imported)
    assert not _kept(IndependenceContract, contract_id, graph)


def test_downward_import_keeps_the_layers(graph):
    # The control of the tests above: the same check on an allowed import passes, so a broken
    # contract there is the added import's doing.
    graph.add_import(importer="ascend_xdsl.tools.conv", imported="ascend_xdsl.hw")
    graph.add_import(importer="ascend_xdsl.lowering.build", imported="ascend_xdsl.passes.hardware")
    assert _kept(LayersContract, "layers", graph)
    assert _kept(IndependenceContract, "level-passes", graph)
