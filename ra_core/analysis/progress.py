"""Progress bars for long runs (tournaments), drawn by tqdm when it is installed.

`tqdm.auto` draws a text bar in a terminal and a widget bar in a notebook. tqdm is optional
(the ``notebooks`` extra installs it): without it there is simply no bar, and the engine never
needs it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

__all__ = ["Progress", "no_progress", "progress_bar"]

#: A progress callback: called with (done, total) after every chunk of work.
Progress = Callable[[int, int], Any]


def no_progress(done: int, total: int) -> None:
    """Show nothing."""


def progress_bar(
    progress: Progress | bool | None = True, *, unit: str = "game", file: TextIO | None = None
) -> Progress:
    """Return the progress callback for a `progress` argument.

    Args:
        progress: a callable ``(done, total)`` (used as it is); True for a bar; False for none;
            None for a bar only when stderr is a terminal (the default of command-line runs).
        unit: what is counted, shown by the bar.
        file: where a text bar goes (default stderr); in a notebook tqdm draws a widget instead.
    """
    if callable(progress):
        return progress
    if progress is None:
        progress = bool(getattr(sys.stderr, "isatty", lambda: False)())
    if not progress:
        return no_progress
    try:
        from tqdm.auto import tqdm
    except ImportError:  # tqdm is optional: no bar
        return no_progress
    bar: Any = None

    def update(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = tqdm(total=total, unit=unit, file=file, leave=True)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return update
