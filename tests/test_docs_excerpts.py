"""The excerpts of docs/passes.md are what the commands shown there print now.

Every fenced block that starts with `$ ascend-opt ...` is run (`IN` is the default layer at the
format level). The lines after the command in the same block, and every fenced excerpt after it up
to the next command or heading, must appear in what the command prints (stdout and stderr):

* `...` on a line of its own marks left-out lines; lines not separated by one are consecutive in
  the output, and the excerpt's parts come in the output's order;
* `...` inside a line marks left-out text; the object type may be shortened to `!obj`;
* an excerpt introduced by "Before:" alone shows the command's input file and is checked
  against it; a block introduced as "`NAME` holds" is the file NAME that later commands read.

The op counts and the `cores=24` split quoted in the prose are checked too.
"""

import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

import inprocess
import pytest
from xdsl.parser import Parser

from ascend_xdsl.lowering.pipeline import make_context

ROOT = Path(__file__).parent.parent
PAGE = ROOT / "docs" / "passes.md"
IN = "tests/filecheck/Inputs/default_layer_format.mlir"
OPT = str(Path(sys.executable).parent / "ascend-opt")
OBJ_TYPE = re.compile(r"!ascend\.conv3d_bp_filter<(?:#ascend\.conv_type<[^<>]*>(?:, )?)*>")


@dataclass
class Command:
    line: str  # as shown, without the `$ `
    files: dict[str, str]  # the files the page has defined so far
    excerpts: list[list[str]] = field(default_factory=list)  # of the output
    inputs: list[list[str]] = field(default_factory=list)  # of the input file


def fenced_blocks(text: str) -> list[tuple[str, str, list[str]]]:
    """(heading, the prose just before the block, block lines) of every fenced block."""
    blocks, prose, heading, body, gap = [], [], "", None, False
    for line in text.splitlines():
        if body is not None:
            if line.startswith("```"):
                blocks.append((heading, " ".join(prose), body))
                body, prose = None, []
            else:
                body.append(line)
        elif line.startswith("```"):
            body = []
        elif line.startswith("#"):
            heading, prose = line, []
        elif line.strip():
            prose = [*([] if gap else prose), line.strip()]
        gap = not line.strip()
    return blocks


def _commands() -> list[Command]:
    commands: list[Command] = []
    files: dict[str, str] = {}
    current: Command | None = None
    current_heading = None
    for heading, intro, lines in fenced_blocks(PAGE.read_text()):
        if heading != current_heading:
            current, current_heading = None, heading
        named = re.search(r"`([\w.-]+)` holds", intro)
        if lines and lines[0].startswith("$ "):
            current = Command(lines[0][2:], dict(files))
            commands.append(current)
            if lines[1:]:
                current.excerpts.append(lines[1:])
        elif named:
            files[named.group(1)] = "\n".join(lines) + "\n"
        elif current is None:
            continue  # not after a command (the PIPELINE listing)
        elif intro == "Before:":
            current.inputs.append(lines)
        else:
            current.excerpts.append(lines)
    return commands


COMMANDS = _commands()


def _args(line: str, files: dict[str, str], tmp_path: Path) -> list[str]:
    """The arguments of a shown command, with `IN` and the page's files resolved."""
    args = shlex.split(line)
    assert args[0].removeprefix(".venv/bin/") == "ascend-opt", line  # the docs' convention
    return [IN if a == "IN" else str(tmp_path / a) if a in files else a for a in args[1:]]


def run(line: str, tmp_path: Path, files: dict[str, str] | None = None) -> str:
    """What a shown command prints, stdout then stderr (run in this process: tests/inprocess.py)."""
    for name, text in (files or {}).items():
        (tmp_path / name).write_text(text)
    args = _args(line, files or {}, tmp_path)
    result = inprocess.run([OPT, *args], cwd=ROOT)
    return result.stdout + result.stderr


def _norm(lines: list[str]) -> list[str]:
    return [OBJ_TYPE.sub("!obj", s.strip()) for s in lines if s.strip()]


def check_excerpt(excerpt: list[str], output: str) -> None:
    """Each run of lines between `...` lines occurs, consecutively, in the output, in order."""
    out = _norm(output.splitlines())
    runs: list[list[str]] = [[]]
    for s in _norm(excerpt):
        if s == "...":
            runs.append([])
        else:
            runs[-1].append(s)
    pos = 0
    for shown in filter(None, runs):
        pats = [re.compile(".*".join(map(re.escape, s.split("...")))) for s in shown]
        found = next(
            (
                p
                for p in range(pos, len(out) - len(pats) + 1)
                if all(pat.fullmatch(out[p + i]) for i, pat in enumerate(pats))
            ),
            None,
        )
        if found is None:
            absent = [
                s
                for s, pat in zip(shown, pats, strict=True)
                if not any(map(pat.fullmatch, out[pos:]))
            ]
            why = f"this line is not in it: {absent[0]}" if absent else "not consecutively"
            shown_text = "\n  ".join(shown)
            pytest.fail(f"excerpt not in the output after line {pos}, {why}:\n  {shown_text}")
        pos = found + len(pats)


def test_page_has_commands_and_excerpts():
    assert len(COMMANDS) >= 10
    assert sum(len(c.excerpts) for c in COMMANDS) >= 11


@pytest.mark.parametrize("command", COMMANDS, ids=[c.line for c in COMMANDS])
def test_excerpts_match_the_output(command: Command, tmp_path: Path):
    output = run(command.line, tmp_path, command.files)
    for excerpt in command.excerpts:
        check_excerpt(excerpt, output)
    source = ROOT / _args(command.line, command.files, tmp_path)[0]
    for excerpt in command.inputs:
        check_excerpt(excerpt, source.read_text())


def _count_ops(text: str) -> int:
    return sum(1 for _ in Parser(make_context(), text).parse_module().walk())


def _command_ending(suffix: str) -> str:
    return next(c.line for c in COMMANDS if c.line.endswith(suffix))


SYNC = "ascend-insert-sync'"


def test_op_counts_of_the_cleanup(tmp_path: Path):
    """The module sizes quoted for licm, canonicalize, cse: the ascend-insert-sync output and
    the pipeline's (every op, the module included)."""
    before, after = map(int, re.search(r"from (\d+) to (\d+) ops", PAGE.read_text()).groups())
    commands = (_command_ending(SYNC), _command_ending("'ascend-pipeline{cores=1}'"))
    assert [_count_ops(run(c, tmp_path)) for c in commands] == [before, after]


def test_pipeline_prints_the_chain(tmp_path: Path):
    chain = _command_ending(SYNC)[:-1] + ",licm,canonicalize,cse'"
    assert run(chain, tmp_path) == run("ascend-opt IN -p 'ascend-pipeline{cores=1}'", tmp_path)


def test_split_of_cores_24(tmp_path: Path):
    quoted = re.search(r"With `cores=(\d+)` the split is `([^`]*)`", PAGE.read_text())
    cores, split = quoted.groups()
    output = run(f"ascend-opt IN -p 'ascend-tile-conv3d-bp-filter{{cores={cores}}}'", tmp_path)
    for part in split.split(", ..., "):
        assert f" {part}," in output, part
