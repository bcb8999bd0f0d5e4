"""A control group of its own for each sandbox: memory and processes limited for all its processes together.

``RLIMIT_AS`` limits each process of the sandbox, and a student's code may start many (a process
cap, ``RLIMIT_NPROC``, holds only for the user ``nobody`` as root, and counts every such process
of the machine). Where the judge may make a control group (as root, or where systemd delegates one
to the teacher: cgroup v2 with the memory and pids controllers enabled below the judge's own group,
or cgroup v1's memory and pids hierarchies), each sandbox runs in a group of its own: all its
processes together may use `Limits.memory` bytes (no swap) and `Limits.processes` processes and
threads, and the group is emptied and removed when the sandbox ends. Where it may not, `make`
returns None and the per-process limits stand alone (exercises/TEACHING.md, "Limits").
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from pathlib import Path

__all__ = ["Cgroup"]

ROOT = Path("/sys/fs/cgroup")


def _own() -> dict[str, Path]:
    """Return the judge's own control groups: controller ("" for cgroup v2) -> its folder."""
    found: dict[str, Path] = {}
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for controller in controllers.split(",") if controllers else [""]:
                base = ROOT if controller == "" and (ROOT / "cgroup.controllers").exists() else ROOT / controller
                found[controller] = base / path.lstrip("/")
    return found


class Cgroup:
    """The control groups (one per hierarchy) that hold one sandbox's processes."""

    def __init__(self, folders: list[Path]) -> None:
        self.folders = folders

    @classmethod
    def make(cls, memory: int, processes: int) -> Cgroup | None:
        """Return new groups limiting their processes together to `memory` bytes and `processes` tasks, or None."""
        name = f"ra-sandbox-{os.getpid()}-{secrets.token_hex(4)}"
        own, made = _own(), cls([])
        plan: list[tuple[Path, dict[str, int]]] = []
        v2 = own.get("")
        if v2 is not None and (v2 / "cgroup.subtree_control").exists():
            enabled = (v2 / "cgroup.subtree_control").read_text().split()
            if {"memory", "pids"} <= set(enabled):
                plan.append((v2 / name, {"memory.max": memory, "memory.swap.max": 0, "pids.max": processes}))
        elif "memory" in own and "pids" in own:
            plan.append((own["memory"] / name, {"memory.limit_in_bytes": memory}))
            plan.append((own["pids"] / name, {"pids.max": processes}))
        if not plan:
            return None
        try:
            for folder, settings in plan:
                folder.mkdir()
                made.folders.append(folder)
                for key, value in settings.items():
                    if (folder / key).exists():
                        (folder / key).write_text(str(value))
        except OSError:
            made.close()
            return None
        return made

    def join(self) -> None:
        """Put the calling process in the groups (called in the child before it runs bubblewrap)."""
        for folder in self.folders:
            (folder / "cgroup.procs").write_text(str(os.getpid()))

    def close(self) -> None:
        """Kill every process left in the groups and remove them."""
        for folder in self.folders:
            for _ in range(100):  # a killed process leaves its group a moment later
                with contextlib.suppress(OSError):
                    for pid in (folder / "cgroup.procs").read_text().split():
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(int(pid), signal.SIGKILL)
                    folder.rmdir()
                    break
                time.sleep(0.02)
        self.folders = []
