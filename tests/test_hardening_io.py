"""Issue #20, the input and output surfaces: check-ascendc's folder, ascend-run's result names,
``-o`` onto links, devices and FIFOs, conflicting flags, layers files, Ray, and the I/O errors
that were reported as bugs of ours (the numbers are the issue's items).

Each test failed before its fix. The security tests set a trap that creates a marker file if
g++ ever takes the checked folder's names for options again, and assert that it does not
exist. Everything runs in-process on small inputs; where g++ would be slow or is the subject,
a fake ``g++`` on PATH stands in for it.
"""

from __future__ import annotations

import errno
import os
import socket
import stat
import sys
import threading
import time
import types
from pathlib import Path

import pytest

from ascend_xdsl.emit import check as check_mod
from ascend_xdsl.emit import project as project_mod
from ascend_xdsl.emit.project import MARKER
from ascend_xdsl.tools import conv, opt, run
from ascend_xdsl.tools import tune as tune_cli
from ascend_xdsl.tuning.sweep import LayerError, parse_layers

ROOT = Path(__file__).parent.parent
HW_EXAMPLE = ROOT / "examples" / "hw_level.mlir"
SMALL = ["--input", "1,16,2,6,6", "--weight", "16,16,1,3,3", "--padding", "1", "--cores", "1"]
LAYER_JSON = '[{"name": "small", "input": [1,16,2,6,6], "weight": [16,16,1,3,3], "padding": 1}]'
KERNEL = 'extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y) {}\n'


def tool(capsys, main, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str, prefix: str, *fragments: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err and "internal error" not in err, err
    assert lines[0].startswith(prefix), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def fake_compiler(tmp_path: Path, monkeypatch, body: str) -> Path:
    """A ``g++`` first on PATH: a shell script with ``body``; returns the file it logs its
    arguments to (one a line)."""
    folder = tmp_path / "fakebin"
    folder.mkdir()
    log = tmp_path / "gxx-args.log"
    script = folder / "g++"
    script.write_text(
        f'#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a" >> "{log}"; done\n{body}\n'
    )
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return log


def small_project(folder: Path, kernel_name: str = "kernel.cpp") -> Path:
    """The two sources check-ascendc looks for (not a real emission: enough for the tests that
    never reach a real compiler)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "main.cpp").write_text("int main() { return 0; }\n")
    (folder / kernel_name).write_text(KERNEL)
    return folder


# -- 1. check-ascendc never lets the folder add options or run code ------------------------------


def test_a_response_file_name_cannot_run_a_command(capsys, tmp_path, monkeypatch):
    """The issue's trap: the kernel renamed ``@opts.cpp`` and ``opts.cpp`` holding a -wrapper
    that touches PWNED. Run from inside the folder, as the issue did, with the real g++."""
    project = small_project(tmp_path / "p", "@opts.cpp")
    (project / "opts.cpp").write_text("-wrapper /bin/sh,-c,touch${IFS}PWNED main.cpp\n")
    monkeypatch.chdir(project)
    code, _, err = tool(capsys, conv.main, "check-ascendc", ".")
    assert not (project / "PWNED").exists() and not (tmp_path / "PWNED").exists()
    assert code == 1
    one_line(err, "ascend-conv: error: check-ascendc: ", "@opts.cpp", "may not begin with")


@pytest.mark.parametrize("name", ["-o.cpp", "-wrapper.cpp", "@main.cpp"])
def test_names_that_g_plus_plus_reads_as_options_are_refused(capsys, tmp_path, monkeypatch, name):
    project = small_project(tmp_path / "p")
    (project / name).write_text("int x;\n")  # not a second kernel: g++ would get it
    log = fake_compiler(tmp_path, monkeypatch, "exit 0")
    code, _, err = tool(capsys, conv.main, "check-ascendc", project)
    assert code == 1
    one_line(err, "ascend-conv: error: check-ascendc: ", name, "may not begin with '-' or '@'")
    assert not log.exists()  # refused before any compiler ran
    assert sorted(p.name for p in project.iterdir()) == sorted(["main.cpp", "kernel.cpp", name])


def test_the_compiler_gets_only_absolute_source_paths(capsys, tmp_path, monkeypatch):
    project = small_project(tmp_path / "p")
    log = fake_compiler(tmp_path, monkeypatch, "exit 0")
    monkeypatch.chdir(project)
    code, out, _ = tool(capsys, conv.main, "check-ascendc", ".")
    assert code == 0 and "kernel.cpp, main.cpp compile" in out
    args = log.read_text().splitlines()
    sources = [a for a in args if a.endswith(".cpp")]
    assert sources == [str(project / "kernel.cpp"), str(project / "main.cpp")]
    assert not any(a.startswith("@") for a in args)
    assert [a for a in args if a.startswith("-")] == ["-std=c++17", "-fsyntax-only", "-I", "-I"] * 2


@pytest.mark.parametrize(
    ("setup", "fragment"),
    [
        (lambda p: (p / "x.cpp").mkdir(), "x.cpp': it is a folder"),
        (lambda p: (p / "kernel.cpp").write_bytes(KERNEL.encode() + b"\xff\n"), "not UTF-8"),
        (lambda p: os.mkfifo(p / "fifo.cpp"), "it is a FIFO"),
        (lambda p: (p / "kernel.cpp").write_text(KERNEL * 25_000), "larger than the 1 MiB"),
    ],
    ids=["folder-named-cpp", "non-utf8-kernel", "fifo", "1.6MB-of-declarations"],
)
def test_unreadable_sources_are_one_line(capsys, tmp_path, monkeypatch, setup, fragment):
    project = small_project(tmp_path / "p")
    setup(project)
    log = fake_compiler(tmp_path, monkeypatch, "exit 0")
    started = time.monotonic()
    code, _, err = tool(capsys, conv.main, "check-ascendc", project)
    assert time.monotonic() - started < 5
    assert code == 1 and not log.exists()
    one_line(err, "ascend-conv: error: check-ascendc: ", fragment)


def test_the_kernel_declaration_is_found_in_linear_time():
    """40,000 unclosed declaration heads: the old ``[^)]*`` regex rescanned the rest of the
    file from each (over 60 s for 1.6 MB); one pass takes milliseconds."""
    text = 'extern "C" __global__ __aicore__ void k(GM_ADDR x,\n' * 40_000
    started = time.monotonic()
    assert check_mod.kernel_declarations(text) == []
    assert time.monotonic() - started < 1.0
    assert check_mod.kernel_declarations(KERNEL * 2) == [("k", "GM_ADDR x, GM_ADDR y")] * 2


# -- 13. a compiler that never returns ------------------------------------------------------------


def test_a_hanging_compiler_is_stopped_by_the_timeout(capsys, tmp_path, monkeypatch):
    project = small_project(tmp_path / "p")
    fake_compiler(tmp_path, monkeypatch, "sleep 60")
    started = time.monotonic()
    code, _, err = tool(capsys, conv.main, "check-ascendc", project, "--timeout", "0.5")
    # The whole process group is killed: the check does not wait for sleep's 60 s.
    assert time.monotonic() - started < 10
    assert code == 1
    one_line(err, "ascend-conv: error: check-ascendc: ", "did not finish within 0.5 s", "--timeout")


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "x"])
def test_the_timeout_flag_takes_positive_seconds(capsys, value):
    code, _, err = tool(capsys, conv.main, "check-ascendc", ".", "--timeout", value)
    assert code == 2
    one_line(err, "ascend-conv: error: argument --timeout: ", "positive number of seconds")


# -- 2. ascend-run's result names never leave --output-dir ---------------------------------------


@pytest.mark.parametrize("executor", ["compiled", "interp"])
@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("../escaped", "path separator '/'"),
        ("/tmp/absolute", "path separator '/'"),
        ("a\\0Ab", "control character '\\n'"),
        ("a\\00b", "control character '\\x00'"),
        ("..", "begins with '.'"),
        ("x" * 250, "longer than 200 bytes"),
    ],
    ids=["dotdot", "absolute", "newline", "nul", "dotdot-alone", "too-long"],
)
def test_entry_names_that_cannot_be_file_names_are_refused(
    capsys, tmp_path, executor, name, fragment
):
    program = tmp_path / "p.mlir"
    program.write_text(HW_EXAMPLE.read_text().replace("@conv3d_dw(", f'@"{name}"('))
    out_dir = tmp_path / "out" / "deeper"
    code, out, err = tool(
        capsys,
        run.main,
        program,
        "--random-inputs",
        "--output-dir",
        out_dir,
        "--executor",
        executor,
    )
    assert code == 1 and out == ""
    one_line(err, "ascend-run: error: @", "cannot be a file name", fragment, "rename it")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["p.mlir"]
    assert not Path("/tmp/absolute.npy").exists()


def test_a_result_path_that_is_a_folder_is_named(capsys, tmp_path):
    (tmp_path / "conv3d_dw.npy").mkdir()
    code, _, err = tool(capsys, run.main, HW_EXAMPLE, "--random-inputs", "--output-dir", tmp_path)
    assert code == 1
    one_line(
        err, "ascend-run: error: ", f"cannot write '{tmp_path / 'conv3d_dw.npy'}': it is a folder"
    )


# -- 3. --emit ascendc -o LINK --------------------------------------------------------------------


def test_emit_ascendc_through_a_symlink_writes_only_into_its_target(capsys, tmp_path):
    target = tmp_path / "elsewhere" / "real"
    target.mkdir(parents=True)
    (tmp_path / "here").mkdir()
    link = tmp_path / "here" / "LINK"
    link.symlink_to(target)
    for _ in range(2):  # the second replaces a previous emission
        code, _, err = tool(capsys, conv.main, "bp-filter", *SMALL, "--emit", "ascendc", "-o", link)
        assert code == 0, err
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert (target / MARKER).is_file() and (target / "main.cpp").is_file()
    # Nothing beside the link, nothing beside the target: no temporary or .old folder left.
    assert [p.name for p in (tmp_path / "here").iterdir()] == ["LINK"]
    assert [p.name for p in (tmp_path / "elsewhere").iterdir()] == ["real"]


def test_a_cross_device_rename_is_one_line(capsys, tmp_path, monkeypatch):
    def exdev(src, dst):
        raise OSError(errno.EXDEV, os.strerror(errno.EXDEV), str(src), None, str(dst))

    monkeypatch.setattr(project_mod.os, "replace", exdev)
    target = tmp_path / "proj"
    code, _, err = tool(capsys, conv.main, "bp-filter", *SMALL, "--emit", "ascendc", "-o", target)
    assert code == 1
    one_line(err, "ascend-conv: error: ", f"cannot write '{target}'", "another file system")
    assert list(tmp_path.iterdir()) == []


def test_a_non_utf8_marker_is_not_a_previous_emission(capsys, tmp_path):
    target = tmp_path / "proj"
    target.mkdir()
    (target / MARKER).write_bytes(b"main.cpp\n\xff\xfe\n")
    (target / "main.cpp").write_text("mine\n")
    code, _, err = tool(capsys, conv.main, "bp-filter", *SMALL, "--emit", "ascendc", "-o", target)
    assert code == 1
    one_line(err, "ascend-conv: error: ", "not empty and is not a previous --emit ascendc")
    assert (target / "main.cpp").read_text() == "mine\n"


# -- 7. -o onto a device or a FIFO ---------------------------------------------------------------


def _read_fifo(path: Path) -> tuple[threading.Thread, list[bytes]]:
    got: list[bytes] = []

    def reader() -> None:
        with open(path, "rb") as f:
            got.append(f.read())

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    return thread, got


@pytest.mark.parametrize(
    "argv",
    [
        ["bp-filter", *SMALL, "--emit", "op", "-o", "{out}"],
        ["bp-filter", *SMALL, "--cost-only", "--trace", "{out}"],
    ],
    ids=["conv-o", "conv-trace"],
)
def test_output_into_a_fifo_is_written_in_place(capsys, tmp_path, argv):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    thread, got = _read_fifo(fifo)
    code, _, err = tool(capsys, conv.main, *[a.replace("{out}", str(fifo)) for a in argv])
    thread.join(timeout=30)
    assert code == 0, err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still the FIFO, not a regular file
    assert got and got[0].strip() and sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]


def test_tune_output_into_a_fifo_and_through_a_link_to_a_device(capsys, tmp_path):
    layers = tmp_path / "layers.json"
    layers.write_text(LAYER_JSON)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    thread, got = _read_fifo(fifo)
    assert tool(capsys, tune_cli.main, layers, "--budget", "4", "-o", fifo)[0] == 0
    thread.join(timeout=30)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and b"small" in got[0]
    # A link to /dev/null in our folder: written through (before the fix the rename replaced
    # the link, or the device node itself when named directly).
    link = tmp_path / "null"
    link.symlink_to(os.devnull)
    assert tool(capsys, tune_cli.main, layers, "--budget", "4", "-o", link)[0] == 0
    assert link.is_symlink() and stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_tune_refuses_an_empty_output_name(capsys, tmp_path):
    code, out, err = tool(capsys, tune_cli.main, tmp_path / "l.json", "-o", "")
    assert code == 2 and out == ""
    one_line(err, "ascend-tune: error: ", "--output: empty value")


# -- 8. conflicting outputs and flags that would be ignored ---------------------------------------


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--trace", "{d}/x", "-o", "{d}/x"], "--trace and -o both name"),
        (["--trace", "{d}/x", "--plot", "{d}/./x"], "--trace and --plot both name"),
        (["--plot", "{d}/p.xyz"], "PNG only"),
        (["--emit", "hw", "--report", "json"], "--report json needs a run"),
        (["--emit", "api", "--cost-only"], "--cost-only needs a run"),
        (["--emit", "api", "--seed", "3"], "--seed needs a run"),
        (["--emit", "api", "--executor", "interp"], "--executor needs a run"),
    ],
)
def test_conflicting_flags_are_refused_in_one_line(capsys, tmp_path, argv, fragment):
    if "--plot" in argv:
        pytest.importorskip("matplotlib")
    argv = [a.replace("{d}", str(tmp_path)) for a in argv]
    code, out, err = tool(capsys, conv.main, "bp-filter", *SMALL, *argv)
    assert code == 2 and out == ""
    one_line(err, "ascend-conv: error: ", fragment)
    assert list(tmp_path.iterdir()) == []


def test_ascend_run_refuses_one_file_for_trace_and_plot(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "x.png"
    code, _, err = tool(
        capsys, run.main, HW_EXAMPLE, "--random-inputs", "--trace", target, "--plot", target
    )
    assert code == 2
    one_line(err, "ascend-run: error: ", "--trace and --plot both name")


# -- 9. layers files ------------------------------------------------------------------------------


CSV_HEAD = "name,input,weight,padding\n"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (CSV_HEAD + 's,"١,16,2,6,6","16,16,1,3,3",1\n', "input must be integers"),
        (CSV_HEAD + 's,"1_0,16,2,6,6","16,16,1,3,3",1\n', "input must be integers"),
        (CSV_HEAD + 's,"1,16,2,6,6","16,16,1,3,3",+1\n', "padding must be integers"),
        (CSV_HEAD + 's,"1,,16,2,6,6","16,16,1,3,3",1\n', "input must be integers"),
        (
            "input,weight,input\n" + '"1,16,2,6,6","16,16,1,3,3",1\n',
            ":1: column(s) input given twice",
        ),
        (CSV_HEAD + 's,1,16,2,6,6,"16,16,1,3,3",1\n', ":2: layer 1: 8 cells, but the header has 4"),
        ('[{"input": "1,16,2,6,6\\u0663", "weight": [16,16,1,3,3]}]', "input must be integers"),
    ],
    ids=[
        "arabic-indic",
        "underscore",
        "plus-sign",
        "double-comma",
        "dup-column",
        "extra-cells",
        "json-string",
    ],
)
def test_layers_files_take_ascii_decimals_and_clean_tables(text, fragment):
    with pytest.raises(LayerError) as e:
        parse_layers(text, "l.csv")
    assert fragment in str(e.value) and "\n" not in str(e.value)


def test_layer_names_zero_and_newline(capsys, tmp_path):
    layers = tmp_path / "l.csv"
    layers.write_text(
        CSV_HEAD + '"a\nb","1,16,2,6,6","16,16,1,3,3",1\n0,"1,16,2,6,6","16,16,1,3,3",1\n'
    )
    assert [
        layer.name
        for layer in parse_layers(
            '[{"name": 0, "input": [1,16,2,6,6], "weight": [16,16,1,3,3]}]', "j"
        )
    ] == ["0"]
    code, out, err = tool(capsys, tune_cli.main, layers, "--budget", "4")
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 3  # the header and one row per layer
    assert lines[1].startswith("a\\nb ") and lines[2].startswith("0 ")


def test_dev_zero_as_a_layers_file_is_refused_at_the_bound(capsys):
    code, _, err = tool(capsys, tune_cli.main, "/dev/zero")
    assert code == 1
    one_line(err, "ascend-tune: error: ", "'/dev/zero': larger than the 16 MiB")


# -- 11. Ray --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "fragment"),
    [
        ("127.0.0.1:1", "cannot connect: Connection refused"),
        ("256.1.1.1:99999", "not an address"),
        ("nocolon", "not an address"),
    ],
)
def test_an_unreachable_or_malformed_ray_address_is_one_line(capsys, tmp_path, address, fragment):
    layers = tmp_path / "l.json"
    layers.write_text(LAYER_JSON)
    started = time.monotonic()
    code, _, err = tool(capsys, tune_cli.main, layers, "--ray", address, "--ray-timeout", "2")
    assert time.monotonic() - started < 10
    assert code == 1
    one_line(err, "ascend-tune: error: ", f"--ray {address}: ", fragment)


class _FakeRay(types.ModuleType):
    """What ``tuning/sweep.py`` calls of Ray, each behaviour chosen by the test."""

    class exceptions:  # Ray's module name
        class AuthenticationError(Exception):
            pass

        class GetTimeoutError(Exception):
            pass

    def __init__(self, init=None, get=None):
        super().__init__("ray")
        self._init, self._get = init, get
        self.shutdowns = 0

    def is_initialized(self) -> bool:
        return False

    def init(self, **kwargs) -> None:
        if self._init:
            self._init()

    def shutdown(self) -> None:
        self.shutdowns += 1

    def remote(self, function):
        return types.SimpleNamespace(remote=lambda *args: (function, args))

    def get(self, ref, timeout=None):
        if self._get:
            self._get(timeout)
        function, args = ref
        return function(*args)


@pytest.fixture
def listening() -> str:
    """A loopback port that accepts connections (and is not Ray)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(4)
        yield f"127.0.0.1:{s.getsockname()[1]}"


def _ray_error(capsys, tmp_path, monkeypatch, fake: _FakeRay, address: str) -> str:
    monkeypatch.setitem(sys.modules, "ray", fake)
    layers = tmp_path / "l.json"
    layers.write_text(LAYER_JSON)
    started = time.monotonic()
    code, _, err = tool(capsys, tune_cli.main, layers, "--ray", address, "--ray-timeout", "0.5")
    assert time.monotonic() - started < 10 and code == 1
    return err


def test_a_ray_connect_that_never_returns_times_out(capsys, tmp_path, monkeypatch, listening):
    fake = _FakeRay(init=lambda: time.sleep(30))
    err = _ray_error(capsys, tmp_path, monkeypatch, fake, listening)
    one_line(err, "ascend-tune: error: ", f"--ray {listening}: ", "within 0.5 s", "--ray-timeout")


def test_a_ray_auth_failure_names_cause_and_fix(capsys, tmp_path, monkeypatch, listening):
    def refuse():
        raise _FakeRay.exceptions.AuthenticationError("Authentication failed")

    err = _ray_error(capsys, tmp_path, monkeypatch, _FakeRay(init=refuse), listening)
    one_line(err, "ascend-tune: error: ", "token authentication", "RAY_AUTH_TOKEN")


def test_ray_workers_that_never_start_are_reported(capsys, tmp_path, monkeypatch, listening):
    def never(timeout):
        raise _FakeRay.exceptions.GetTimeoutError

    fake = _FakeRay(get=never)
    err = _ray_error(capsys, tmp_path, monkeypatch, fake, listening)
    one_line(err, "ascend-tune: error: ", "no Ray worker started within 0.5 s", "ray status")
    assert fake.shutdowns == 1


# -- 15. I/O errors are the system's, not bugs of ours --------------------------------------------


@pytest.mark.parametrize(
    ("main", "argv"),
    [
        (conv.main, ["bp-filter", *SMALL, "--emit", "op"]),
        (opt.main, [HW_EXAMPLE]),
        (run.main, [HW_EXAMPLE, "--cost-only"]),
        (tune_cli.main, ["{layers}", "--budget", "4"]),
        (conv.main, ["check-ascendc", "{project}"]),
    ],
    ids=["conv", "opt", "run", "tune", "check-ascendc"],
)
def test_a_full_standard_output_is_one_line(capsys, tmp_path, monkeypatch, main, argv):
    (tmp_path / "layers.json").write_text(LAYER_JSON)
    small_project(tmp_path / "p")
    fake_compiler(tmp_path, monkeypatch, "exit 0")
    argv = [str(a).replace("{layers}", str(tmp_path / "layers.json")) for a in argv]
    argv = [a.replace("{project}", str(tmp_path / "p")) for a in argv]
    with open("/dev/full", "w") as full:
        monkeypatch.setattr(sys, "stdout", full)
        code = main(argv)
    err = capsys.readouterr().err
    assert code == 1
    one_line(err, "ascend-", "error: cannot write standard output: No space left on device")


@pytest.mark.parametrize(
    ("main", "argv", "fragment"),
    [
        (conv.main, ["bp-filter", *SMALL, "--emit", "op", "-o", "{long}"], "File name too long"),
        (
            conv.main,
            ["bp-filter", *SMALL, "--emit", "ascendc", "-o", "{long}"],
            "File name too long",
        ),
        (tune_cli.main, ["{layers}", "--budget", "4", "-o", "{long}"], "File name too long"),
        (
            conv.main,
            ["bp-filter", *SMALL, "--emit", "op", "-o", "."],
            "cannot write '.': it is a folder",
        ),
        (opt.main, [HW_EXAMPLE, "-o", "."], "cannot write '.': it is a folder"),
    ],
    ids=["conv-long", "ascendc-long", "tune-long", "conv-dot", "opt-dot"],
)
def test_output_names_the_system_refuses_are_one_line(
    capsys, tmp_path, monkeypatch, main, argv, fragment
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "layers.json").write_text(LAYER_JSON)
    argv = [str(a).replace("{long}", "x" * 300).replace("{layers}", "layers.json") for a in argv]
    code, _, err = tool(capsys, main, *argv)
    assert code == 1
    one_line(err, "ascend-", fragment)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["layers.json"]


def test_a_tiling_file_that_is_a_fifo_is_refused_without_blocking(capsys, tmp_path):
    fifo = tmp_path / "tiling"
    os.mkfifo(fifo)
    tile = f'ascend-tile-conv3d-bp-filter{{strategy=fixed tiling_file="{fifo}"}}'
    pipeline = f"ascend-legalize-formats,{tile}"
    code, _, err = tool(capsys, opt.main, ROOT / "examples" / "op_level.mlir", "-p", pipeline)
    assert code == 1
    one_line(err, "ascend-opt: error: ", f"cannot read tiling file '{fifo}': it is a FIFO")
