"""An opt-in profile of a server process, every thread of it, to find where its CPU goes.

    RA_CLASSROOM_PROFILE=/tmp/prof python benchmarks/classroom.py --students 200 --seconds 30
    python -m pstats /tmp/prof/server-<pid>.prof

With ``RA_CLASSROOM_PROFILE`` naming a folder, each server process profiles (`cProfile`) its
own thread and every thread it starts (the database's writer and reader, the worker pools),
and writes the profiles merged, as one `pstats` file, ``server-<pid>.prof`` in that folder when
it stops (SIGTERM, as `ServerProcess.stop` sends; it then exits with status 143). Without it
nothing is profiled and nothing costs anything. Times are each thread's CPU time
(`time.thread_time`), not the clock's: on a busy machine the clock would count the waits for a
core and for the other threads. A profiled server runs several times as slowly: read the
shares, not the times.
"""

from __future__ import annotations

import contextlib
import cProfile
import os
import pstats
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

__all__ = ["PROFILE_ENV", "profiled"]

PROFILE_ENV = "RA_CLASSROOM_PROFILE"  #: the folder to write each server process's profile in


@contextlib.contextmanager
def profiled() -> Iterator[None]:
    """Profile this process's threads while the block runs, if ``RA_CLASSROOM_PROFILE`` asks for it."""
    folder = os.environ.get(PROFILE_ENV)
    if not folder:
        yield
        return
    profiles: list[cProfile.Profile] = []
    lock = threading.Lock()

    def begin(_frame: FrameType, _event: str, _arg: Any) -> None:
        """Start a profile of the new thread that calls this first (`threading.setprofile`)."""
        sys.setprofile(None)
        mine = cProfile.Profile(time.thread_time)
        with lock:
            profiles.append(mine)
        mine.enable()

    ending: list[int] = []

    def stop(signum: int, _frame: FrameType | None) -> None:
        """End the block on SIGTERM (uvicorn raises it again once it has shut down): the profile is written.

        A second SIGTERM (a supervisor's, after the process group's) must not cut the writing short.
        """
        if not ending:
            ending.append(signum)
            raise SystemExit(128 + signum)

    main = cProfile.Profile(time.thread_time)
    profiles.append(main)
    before = signal.signal(signal.SIGTERM, stop)
    threading.setprofile(begin)
    main.enable()
    try:
        yield
    finally:
        ending.append(0)
        main.disable()
        threading.setprofile(None)
        with lock:
            taken = list(profiles)
        stats = pstats.Stats(main)
        for other in taken[1:]:
            with contextlib.suppress(TypeError):  # a thread that never ran a profiled call
                stats.add(other)
        Path(folder).mkdir(parents=True, exist_ok=True)
        stats.dump_stats(str(Path(folder) / f"server-{os.getpid()}.prof"))
        signal.signal(signal.SIGTERM, before)
