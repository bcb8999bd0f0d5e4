"""The sandbox that runs students' code for the judge (grading/sandbox.py): its walls, its limits, its end.

Each test starts the sandbox as autograde does and runs a cell in it (grading/worker.py), then
asks what the cell could see, write and reach, how far its memory, CPU time, file size and wall
time went, and whether anything it started outlived it. Without bubblewrap they are skipped, except
under CI (``.ci/run`` installs it), where they fail.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from grading import sandbox
from grading.sandbox import Limits, Sandbox, SandboxError

from .cheats import left_behind

ROOT = Path(__file__).resolve().parent.parent
START = {"op": "start", "forbidden": [], "lasting": True, "seconds": 30}


@pytest.fixture(autouse=True)
def _bubblewrap() -> None:
    why = sandbox.problem()
    if why and os.environ.get("CI"):
        pytest.fail(why)
    if why:
        pytest.skip(why)


@pytest.fixture
def box() -> Iterator[Sandbox]:
    with Sandbox() as started:
        assert started.request(START, 120)["ok"]
        yield started


def run(box: Sandbox, source: str, timeout: float = 60) -> str:
    """Run `source` as a cell in `box`; return what it printed and the error it raised."""
    reply = box.request({"op": "cell", "source": source}, timeout)
    error = reply["error"]
    return str(reply["stdout"]) + (f"{error['ename']}: {error['evalue']}" if error else "")


def test_the_teachers_files_are_not_there(box: Sandbox) -> None:
    mine = Path.home() / ".ra-sandbox-test"
    mine.write_text("the teacher's")
    try:
        for path in (ROOT / "grading" / "answers.py", ROOT / "exercises" / "source", ROOT / "Makefile", mine):
            printed = run(box, f"import os\nprint(os.path.exists({str(path)!r}))")
            assert printed.strip() == "False", path
    finally:
        mine.unlink()
    printed = run(box, f"print(sorted(os.listdir({str(ROOT)!r})))")
    assert set(eval(printed)) <= {".venv", "ra_core", "ra_course"}, printed  # a literal list printed above


def test_only_the_scratch_folder_is_writable(box: Sandbox) -> None:
    for path in (ROOT / "ra_course" / "x", Path(sys.prefix) / "x", Path("/usr/x"), Path("/x")):
        printed = run(box, f"open({str(path)!r}, 'w')")
        assert "Error" in printed and "Permission" in printed or "Read-only" in printed, printed
    assert run(box, "open('/tmp/x', 'w').write('ok'); print(open('/tmp/x').read())").strip() == "ok"


def test_there_is_no_network(box: Sandbox) -> None:
    printed = run(box, "import socket\nsocket.create_connection(('1.1.1.1', 53), timeout=5)")
    assert "OSError" in printed or "unreachable" in printed, printed


def test_as_root_the_code_runs_as_nobody_without_privileges(box: Sandbox) -> None:
    printed = run(box, "import os\nprint(os.getuid(), os.geteuid(), os.getgid())")
    uid, euid, gid = map(int, printed.split())
    assert uid != 0 and euid != 0
    if os.geteuid() == 0:
        assert (uid, gid) == (sandbox.NOBODY, sandbox.NOBODY)
    assert "Error" in run(box, "os.setuid(0)")


def _wait(marker: str, alive: bool) -> list[str]:
    for _ in range(100):
        if bool(left_behind(marker)) == alive:
            break
        time.sleep(0.05)
    return left_behind(marker)


def test_no_process_outlives_the_sandbox() -> None:
    with Sandbox() as box:
        box.request(START, 120)
        detach = "!nohup setsid --fork {} > /dev/null 2>&1"
        run(box, detach.format("sleep 3131.5") + "\n" + detach.format("sh -c 'sleep 3131.25'"))
        assert _wait("3131.", alive=True), "the detached processes run while the sandbox does"
    assert _wait("3131.", alive=False) == [], "the kernel ends them with the sandbox's process namespace"


def test_a_cell_that_never_ends_is_stopped_at_the_judges_time() -> None:
    with Sandbox() as box:
        box.request(START, 120)
        started = time.monotonic()
        with pytest.raises(SandboxError, match="timeout"):
            box.request({"op": "cell", "source": "while True:\n    pass"}, 2)
        assert time.monotonic() - started < 10 and not box.alive


def test_memory_cpu_and_file_size_are_limited() -> None:
    limits = Limits(memory=2**30, cpu=3, file_size=2**20)
    with Sandbox(limits) as box:
        box.request(START, 120)
        assert "MemoryError" in run(box, "x = bytearray(2 * 2**30)")
        assert "File too large" in run(box, "open('/tmp/big', 'wb').write(bytes(2 * 2**20))")
        with pytest.raises(SandboxError, match="killed by"):  # over its CPU time: the kernel kills it
            box.request({"op": "cell", "source": "while True:\n    pass"}, 60)


def test_a_secret_inside_a_folder_the_sandbox_shows_stays_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = ROOT / "build" / "sandbox-test"  # not under /tmp: the sandbox's own /tmp is a scratch folder
    shutil.rmtree(shown, ignore_errors=True)
    (shown / "secret").mkdir(parents=True)
    try:
        (shown / "secret" / "key.txt").write_text("the answers")
        (shown / "open.txt").write_text("public")
        paths = sandbox.readable_paths()
        monkeypatch.setattr(sandbox, "readable_paths", lambda: [*paths, shown])
        with Sandbox(hidden=[shown / "secret"]) as box:
            box.request(START, 120)
            assert run(box, f"print(open({str(shown / 'open.txt')!r}).read())").strip() == "public"
            assert "FileNotFoundError" in run(box, f"open({str(shown / 'secret' / 'key.txt')!r})")
    finally:
        shutil.rmtree(shown)


def test_a_folder_the_sandbox_shows_may_lie_below_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A clone (and its .venv) in /tmp: what the sandbox shows from there is bound over its scratch /tmp."""
    shown = tmp_path / "clone"
    shown.mkdir()
    (shown / "module.txt").write_text("found")
    paths = sandbox.readable_paths()
    monkeypatch.setattr(sandbox, "readable_paths", lambda: [*paths, shown])
    with Sandbox() as box:
        box.request(START, 120)
        assert run(box, f"print(open({str(shown / 'module.txt')!r}).read())").strip() == "found"
        assert "Read-only file system" in run(box, f"open({str(shown / 'new.txt')!r}, 'w')")
        assert (
            run(box, "open('/tmp/scratch.txt', 'w').write('ok'); print(open('/tmp/scratch.txt').read())").strip()
            == "ok"
        )


def test_the_unsafe_mode_has_no_walls() -> None:
    with Sandbox(unsafe=True) as box:
        box.request(START, 120)
        printed = run(box, f"print(open({str(ROOT / 'grading' / 'answers.py')!r}).read(20))")
        assert "The hidden tests" in printed


def test_without_bubblewrap_it_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert "apt-get install bubblewrap" in (sandbox.problem() or "")


def test_a_forbidden_package_function_is_a_tripwire_from_the_start(box: Sandbox) -> None:
    with Sandbox() as forbidding:
        forbidding.request({**START, "forbidden": ["ra_core.analysis.odds.p_next_ra"]}, 120)
        printed = run(
            forbidding,
            "from ra_core.analysis import odds\nimport types\n"
            "copy = types.FunctionType(odds.p_next_ra.__code__, odds.__dict__)\ncopy(None)",
        )
        assert "ForbiddenCall" in printed, printed
    assert "ForbiddenCall" not in run(box, "from ra_core.analysis import odds\nodds.p_next_ra")


ROUTES = {
    "run again": "import runpy\nf = runpy.run_module('ra_core.analysis.odds')['p_next_ra']",
    "reloaded": "import importlib, ra_core.analysis.odds as m\nf = importlib.reload(m).p_next_ra",
    "read and run": "import inspect, ra_core.analysis.odds as m\n"
    "ns = {'__name__': 'ra_core.analysis.x', '__package__': 'ra_core.analysis'}\n"
    "exec(compile(open(m.__file__).read(), 'x', 'exec'), ns)\nf = ns['p_next_ra']",
    "loaded from its bytecode": "import importlib.util, marshal, ra_core.analysis.odds as m, pathlib\n"
    "ns = {'__name__': 'x'}\npyc = pathlib.Path(importlib.util.cache_from_source(m.__file__))\n"
    "exec(marshal.loads(pyc.read_bytes()[16:]), ns)\nf = ns['p_next_ra']",
    "the engine's own": "from ra_core.engine import turns\nf = lambda s: turns.chance_outcomes(s)",
}


@pytest.mark.parametrize("route", list(ROUTES))
def test_no_route_in_the_sandbox_reaches_a_working_copy_of_a_forbidden_function(route: str) -> None:
    """Sheet 3's red team ran the odds module again (runpy) and got fresh, working functions; reloading it,
    reading its source or its cached bytecode would do the same, and the engine's own chance_outcomes was
    not forbidden at all. In the sandbox each module of a forbidden function is shown rewritten, those
    functions tripwires; its bytecode is shown empty."""
    import importlib.util
    import py_compile

    import ra_core.analysis.odds
    from ra_course.exercises import sheet

    source = ra_core.analysis.odds.__file__
    py_compile.compile(source, cfile=importlib.util.cache_from_source(source), doraise=True)  # there to be loaded
    forbidden = sheet("bag").forbidden
    assert "ra_core.engine.turns.chance_outcomes" in forbidden
    with Sandbox(forbidden=forbidden) as forbidding:
        forbidding.request({**START, "forbidden": list(forbidden)}, 120)
        setup = "from ra_core import new_game\nstate = new_game(3, seed=1)\n"
        printed = run(forbidding, setup + ROUTES[route] + "\nprint('WO' + 'RKS', f(state))")
    assert "WORKS" not in printed, printed
    assert ("EOFError" if route == "loaded from its bytecode" else "ForbiddenCall") in printed, printed


HOG = """\
import os, time
children = []
for _ in range(3):  # three processes of 400 MB each: 1.2 GB in all, each under the 1 GB a process may take
    pid = os.fork()
    if pid == 0:
        block = bytearray(400 * 2**20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        time.sleep(3)
        os._exit(0)
    children.append(pid)
ended = [os.waitpid(pid, 0)[1] for pid in children]
print("all lived" if all(status == 0 for status in ended) else "killed")
"""


def test_the_whole_sandbox_is_held_to_its_memory_where_a_control_group_can_be_made() -> None:
    """4 GB per process times 512 processes was the limit: many processes each under the per-process limit
    added up without end. In a control group of its own the sandbox's processes share one limit."""
    limits = Limits(memory=2**30)
    with Sandbox(limits) as limited:
        if limited.cgroup is None:
            pytest.skip("no control group can be made here: the per-process limits stand alone")
        limited.request(START, 120)
        inside = {int(p) for f in limited.cgroup.folders for p in (f / "cgroup.procs").read_text().split()}
        assert inside, "the sandbox's processes are in its group"
        printed = run(limited, HOG)
        folders = list(limited.cgroup.folders)
    assert "all lived" not in printed, printed
    assert not any(f.exists() for f in folders), "the group is removed with the sandbox"
