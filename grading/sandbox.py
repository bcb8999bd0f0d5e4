"""A sandboxed Python process for a student's code: what it may read, how long it may run, and its end.

The teacher's judge (`grading.judge`) runs no code of a student's. Each submission's code runs in
a process of its own, started here, that

* sees only what Python needs: the system's programs and libraries (``/usr``), this Python's
  installation and site-packages, and the installed ``ra_core`` and ``ra_course``. Not the
  course folder, not ``grading/``, the gradebook, the source sheets, other submissions or the
  teacher's home: they are not in its file system at all;
* writes only to a scratch folder of its own (``/tmp``, in memory, gone at the end);
* has no network (a network namespace of its own, with no interface but loopback);
* runs as the unprivileged user ``nobody`` when the judge runs as root (CI does), and as the
  teacher's own user, with no capabilities, in a user namespace otherwise;
* has limits on memory, CPU time, file size and open files (`Limits`), and the judge's own clock
  on every request;
* ends with every process it started: it has a process namespace of its own whose first process
  dies with the judge's handle on it (bubblewrap's ``--die-with-parent``), and when that process
  ends the kernel kills the rest, detached or not.

This is bubblewrap (``bwrap``, Debian's package ``bubblewrap``), which an ordinary user can run
where the kernel allows user namespaces. Where it is missing or cannot run, `problem` says why, and
the judge refuses to grade unless the teacher asks for it plainly (``unsafe=True``: the student's
code then runs as the teacher, in a plain process with the same limits but no walls).

The process runs a copy of ``grading/worker.py`` (the one file of ``grading/`` it can read) and
speaks JSON lines with it: `Sandbox.request` sends one request and waits, within its time, for the
one reply.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import resource
import select
import shutil
import signal
import site
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .cgroup import Cgroup
from .overlay import overlays

__all__ = ["Limits", "Sandbox", "SandboxError", "command", "problem"]

WORKER = Path(__file__).with_name("worker.py")
#: where the sandbox shows its copy of the worker
INSIDE = "/opt/ra-grading/worker.py"
#: the unprivileged user and group the student's code runs as when the judge runs as root
NOBODY = 65534
#: the longest reply the judge reads (a line of JSON)
MAX_REPLY = 64 * 2**20


class SandboxError(Exception):
    """The sandboxed process failed: it died, gave no reply within its time, or replied with garbage."""


@dataclasses.dataclass(frozen=True)
class Limits:
    """What one sandbox may use.

    Attributes:
        memory: bytes of memory of the whole sandbox, all its processes together, where a control group can
            be made (`grading.cgroup`); and bytes of address space of each of its processes (``RLIMIT_AS``).
        cpu: seconds of CPU time of each of its processes (``RLIMIT_CPU``).
        file_size: bytes of the largest file it may write (``RLIMIT_FSIZE``), in its scratch folder.
        scratch: bytes of its scratch folder (a tmpfs).
        files: open files at once (``RLIMIT_NOFILE``).
        processes: processes and threads of the whole sandbox at once, where a control group can be made; and
            of the user ``nobody`` at once (``RLIMIT_NPROC``), when it runs as that user.
    """

    memory: int = 4 * 2**30
    cpu: int = 1800
    file_size: int = 64 * 2**20
    scratch: int = 256 * 2**20
    files: int = 256
    processes: int = 512

    def apply(self, as_root: bool) -> None:
        """Set these limits on the current process (called in the child before it runs bubblewrap)."""
        limits = {
            resource.RLIMIT_AS: self.memory,
            resource.RLIMIT_CPU: self.cpu,
            resource.RLIMIT_FSIZE: self.file_size,
            resource.RLIMIT_NOFILE: self.files,
            resource.RLIMIT_CORE: 0,
        }
        if as_root:  # the count is per real user: only ``nobody``'s is the sandboxes' alone
            limits[resource.RLIMIT_NPROC] = self.processes
        for which, value in limits.items():
            resource.setrlimit(which, (value, value))


def _bwrap() -> str | None:
    return shutil.which("bwrap")


def problem() -> str | None:
    """Return why no sandbox can be made here, or None if one can (bubblewrap is there and runs)."""
    bwrap = _bwrap()
    if bwrap is None:
        return "bubblewrap (`bwrap`) is not installed: on Debian or Ubuntu, `sudo apt-get install bubblewrap`"
    try:
        done = subprocess.run(
            command(["/bin/true"], python=False),
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"bubblewrap could not be started: {e}"
    if done.returncode != 0:
        why = " ".join(done.stderr.split())[:300]
        return (
            f"bubblewrap cannot make a sandbox on this machine ({why}); it needs user namespaces, which some "
            "systems switch off (sysctl kernel.unprivileged_userns_clone=1, or AppArmor's "
            "kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu 24.04)"
        )
    return None


def readable_paths() -> list[Path]:
    """Return the folders the sandbox shows, read-only: this Python, its site-packages and the course's packages."""
    import ra_core
    import ra_course

    paths = [Path(sys.base_prefix), Path(sys.base_exec_prefix), Path(sys.prefix), Path(sys.exec_prefix)]
    user = site.getusersitepackages()  # in the teacher's home, and unused there: the sandbox's Python runs with -I
    paths += [Path(p) for p in sys.path if p.endswith(("site-packages", "dist-packages")) and p != user]
    paths += [Path(ra_core.__file__).parent, Path(ra_course.__file__).parent]
    out: list[Path] = []
    for path in sorted({p.resolve() for p in paths if p.is_dir()}, key=lambda p: len(p.parts)):
        if not any(path == seen or seen in path.parents for seen in out) and str(path) != "/":
            out.append(path)
    return out


def _packages() -> str:
    """Return the folder that holds the judge's ``ra_course``: the worker imports the package from there too.

    (Its Python runs isolated, ``-I``: an editable install's path file may name another copy of the package.)
    """
    import ra_course

    return str(Path(ra_course.__file__).resolve().parent.parent)


def _system() -> list[str]:
    """Return bubblewrap's arguments for the system's programs and libraries: /usr, and /bin, /lib... beside it."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    for name in ("/etc/alternatives", "/etc/ld.so.cache", "/etc/localtime"):  # what programs look up there
        args += ["--ro-bind-try", name, name]
    return args


def _folders(paths: Iterable[Path], hidden: Iterable[Path]) -> list[str]:
    """Return bubblewrap's arguments that show `paths` read-only, at their own place, and hide `hidden` inside them."""
    args: list[str] = []
    made: set[Path] = {Path("/"), Path("/tmp")}  # /tmp: the scratch folder, made before
    for path in paths:
        if path.parts[1:2] in (("usr",), ("proc",), ("dev",)) or not path.exists():
            continue
        for parent in reversed(path.parents):
            if parent not in made:  # readable by the student's user, whatever the teacher's folders allow
                args += ["--perms", "0755", "--dir", str(parent)]
                made.add(parent)
        args += ["--ro-bind", str(path), str(path)]
        made.add(path)
    for secret in hidden:
        for path in paths:
            if path in secret.parents and secret.exists():
                args += ["--tmpfs", str(secret)] if secret.is_dir() else ["--ro-bind", "/dev/null", str(secret)]
    return args


def command(
    program: list[str],
    *,
    python: bool = True,
    hidden: Iterable[Path] = (),
    files: dict[str, Path] | None = None,
    shown: dict[str, Path] | None = None,
    scratch: int = 256 * 2**20,
) -> list[str]:
    """Return the command that runs `program` (this Python's arguments if `python`) in a sandbox.

    `hidden`: files and folders that must stay unreadable even where they lie inside a folder the
    sandbox shows (the course folder, ``grading/``, the gradebook): an empty folder or file is put
    over each. `files`: single files shown read-only inside, by the path they have there. `shown`: files
    shown in place of files of a folder the sandbox shows (`grading.overlay`: the package's modules
    with the sheet's forbidden functions rewritten as tripwires).
    """
    bwrap = _bwrap() or "bwrap"
    as_root = os.geteuid() == 0
    args = [bwrap, "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]
    if not as_root:
        args += ["--unshare-user", "--cap-drop", "ALL"]
    args += ["--die-with-parent", "--new-session", *_system(), "--proc", "/proc", "--dev", "/dev"]
    # The scratch folder first: what is shown next may lie below /tmp (a clone, and its .venv, in /tmp).
    args += ["--perms", "1777", "--size", str(scratch), "--tmpfs", "/tmp"]
    args += _folders(readable_paths() if python else [], [Path(p).resolve() for p in hidden])
    for inside, outside in (shown or {}).items():
        args += ["--ro-bind", str(outside), inside]
    for inside, outside in (files or {}).items():
        args += [x for parent in reversed(Path(inside).parents[:-1]) for x in ("--perms", "0755", "--dir", str(parent))]
        args += ["--ro-bind", str(outside), inside]
    args += ["--chdir", "/tmp"]
    env = {"HOME": "/tmp", "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "USER": "student"}
    env |= {"MPLBACKEND": "Agg", "MPLCONFIGDIR": "/tmp", "PYTHONDONTWRITEBYTECODE": "1", "TMPDIR": "/tmp"}
    args += ["--clearenv", *(x for k, v in env.items() for x in ("--setenv", k, v))]
    args.append("--")
    if as_root:  # no user namespace as root: the student's code runs as the real user nobody
        setpriv = shutil.which("setpriv") or "/usr/bin/setpriv"
        args += [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
        args += ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    return args + ([sys.executable, "-I", *program] if python else program)


class Sandbox:
    """One sandboxed process running ``grading/worker.py``: JSON requests in, one reply each, killed at the end.

    Use it as a context manager, or call `close`. With ``unsafe=True`` the worker runs as a plain
    process of the teacher's (the same limits and replies, no walls).
    """

    def __init__(
        self,
        limits: Limits | None = None,
        *,
        unsafe: bool = False,
        hidden: Iterable[Path] = (),
        forbidden: Iterable[str] = (),
    ) -> None:
        self.limits = limits or Limits()
        self.unsafe = unsafe
        self._scratch = tempfile.TemporaryDirectory(prefix="ra-sandbox-")
        worker = Path(self._scratch.name) / "worker.py"  # a copy: the sandbox shows this one file of grading/
        worker.write_text(WORKER.read_text(encoding="utf-8"), encoding="utf-8")
        if unsafe:
            argv = [sys.executable, "-I", str(worker), _packages()]
        else:
            shown = overlays(forbidden, Path(self._scratch.name))
            argv = command(
                [INSIDE, _packages()], hidden=hidden, files={INSIDE: worker}, shown=shown, scratch=self.limits.scratch
            )
        self._log = open(Path(self._scratch.name) / "stderr", "w+b")  # noqa: SIM115 (closed in close())
        as_root = os.geteuid() == 0
        #: the sandbox's control group, where one can be made: its memory and processes limited all together
        self.cgroup = None if unsafe else Cgroup.make(self.limits.memory, self.limits.processes)

        def prepare() -> None:
            if self.cgroup is not None:
                self.cgroup.join()
            self.limits.apply(as_root and not unsafe)

        self._process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            cwd=self._scratch.name,
            env=None
            if not unsafe
            else {"HOME": self._scratch.name, "PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8"},
            preexec_fn=prepare,
            start_new_session=True,
        )
        self._buffer = b""
        self._next = 0

    @property
    def alive(self) -> bool:
        """Return whether the process still runs."""
        return self._process.poll() is None

    def request(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send `message` and return the reply, within `timeout` seconds; raise `SandboxError` if there is none.

        After a `SandboxError` the process is killed: the next request needs a new sandbox.
        """
        return self.receive(self.send(message), timeout)

    def send(self, message: dict[str, Any]) -> int:
        """Send `message` without waiting for its reply; return its number, for `receive`."""
        self._next += 1
        try:
            self._write(json.dumps({**message, "id": self._next}, separators=(",", ":")).encode() + b"\n")
        except OSError as e:  # the process is gone
            self.close()
            raise SandboxError(f"the process ended{self._why()} ({type(e).__name__})") from None
        except SandboxError:
            self.close()
            raise
        return self._next

    def _write(self, data: bytes) -> None:
        """Write `data` to the process, reading its replies meanwhile (a full pipe each way would block both)."""
        assert self._process.stdin is not None and self._process.stdout is not None
        into, out = self._process.stdin.fileno(), self._process.stdout.fileno()
        os.set_blocking(into, False)
        view, deadline = memoryview(data), time.monotonic() + 120
        while view:
            if time.monotonic() > deadline:
                raise SandboxError("timeout")
            readable, writable, _ = select.select([out], [into], [], 1.0)
            if readable:
                chunk = os.read(out, 1 << 20)
                if not chunk:
                    raise SandboxError(f"the process ended{self._why()}")
                self._buffer += chunk
            if writable:
                with contextlib.suppress(BlockingIOError):
                    view = view[os.write(into, view) :]

    def receive(self, number: int, timeout: float) -> dict[str, Any]:
        """Return the reply to the request `number`, within `timeout` seconds; raise `SandboxError` if none comes."""
        try:
            deadline = time.monotonic() + timeout
            while True:
                reply = json.loads(self._line(deadline))
                if type(reply) is dict and reply.get("id") == number:
                    return reply
        except SandboxError:
            self.close()
            raise
        except (OSError, ValueError, RecursionError) as e:  # a broken pipe, a reply that is not JSON
            self.close()
            raise SandboxError(f"the process gave no readable reply ({type(e).__name__})") from None
        except BaseException:  # an interruption (a game's time limit): the reply would come late
            self.close()
            raise

    def _line(self, deadline: float) -> bytes:
        stdout = self._process.stdout
        assert stdout is not None
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise SandboxError("timeout")
            ready, _, _ = select.select([stdout], [], [], left)
            if ready:
                chunk = os.read(stdout.fileno(), 1 << 20)
                if not chunk:
                    raise SandboxError(f"the process ended{self._why()}")
                self._buffer += chunk
                if len(self._buffer) > MAX_REPLY:
                    raise SandboxError("a reply longer than the judge reads")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _why(self) -> str:
        """Say how the process ended, once its output has: its exit follows, so wait for it a moment."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=5)
        code = self._process.poll()
        if code is None:
            return ""
        number = -code if code < 0 else code - 128 if not self.unsafe and code > 128 else 0  # bubblewrap: 128 + n
        if number and number in signal.valid_signals():
            return f" (killed by {signal.Signals(number).name}: a limit of CPU time or memory?)"
        return f" (exit status {code})"

    def errors(self) -> str:
        """Return the last lines the process wrote to its standard error (for the teacher's log)."""
        self._log.flush()
        self._log.seek(max(0, self._log.seek(0, os.SEEK_END) - 2000))
        return self._log.read().decode("utf-8", "replace")

    def close(self) -> None:
        """Kill the process and, with it, everything it started."""
        if self._process.poll() is None:
            with contextlib.suppress(ProcessLookupError):  # bubblewrap's session: its namespace dies with it
                os.killpg(self._process.pid, signal.SIGKILL)
        self._process.wait()
        if self.cgroup is not None:
            self.cgroup.close()
        for stream in (self._process.stdin, self._process.stdout):
            if stream is not None:
                stream.close()
        self._log.close()
        self._scratch.cleanup()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
