"""The one style of every matplotlib figure: colours, markers, sizes, and byte-stable SVG.

Every figure reads on JupyterLab's light and dark themes alike. JupyterLab shows a figure (SVG
or PNG) as an image, into which the page's CSS variables cannot reach, so a plot cannot take the
theme's colours the way the board does (`ra_core.pictures.theme`). Instead it has a transparent
background, mid-grey axes (`INK`) and near-black words over a white halo (`HALO`, which `finish`
puts on, so a line that crosses a word passes under its halo; an opaque white card would glare in
the dark), and its series take the Okabe-Ito palette with markers, line styles and hatches: the
choices and their contrast are in `ra_core.pictures.palette`, shared with the standard-library
charts (`ra_core.pictures.charts`). `to_svg` and `svg_setup` make SVG output byte for byte the
same on every run (a fixed ``svg.hashsalt``, no date), so notebooks can compare plots.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Sequence
from typing import Any, ParamSpec, TypeVar, cast

import matplotlib
import matplotlib.pyplot as plt
from cycler import cycler
from matplotlib import patheffects
from matplotlib.figure import Figure
from matplotlib.text import Text

from .palette import (
    FRAME,
    GRID,
    HALO,
    HALO_WIDTH,
    HATCHES,
    INK,
    LINESTYLES,
    MARKERS,
    PALETTE,
    SVG_HASHSALT,
    TEXT,
    series_style,
)

__all__ = [
    "FRAME",
    "GRID",
    "HATCHES",
    "HALO",
    "INK",
    "LINESTYLES",
    "MARKERS",
    "PALETTE",
    "STYLE",
    "SVG_HASHSALT",
    "SVG_KWARGS",
    "TEXT",
    "figure",
    "finish",
    "legend_below",
    "series_style",
    "styled",
    "svg_setup",
    "to_svg",
]

SVG_KWARGS: dict[str, Any] = {"metadata": {"Date": None}, "bbox_inches": "tight"}

STYLE: dict[str, Any] = {
    "figure.facecolor": "none",
    "axes.facecolor": "none",
    "savefig.facecolor": "none",
    "savefig.transparent": True,
    "legend.labelcolor": TEXT,
    "axes.titleweight": "bold",
    "text.color": TEXT,
    "axes.labelcolor": TEXT,
    "axes.titlecolor": TEXT,
    "axes.edgecolor": FRAME,
    "xtick.color": INK,
    "ytick.color": INK,
    "xtick.labelcolor": TEXT,
    "ytick.labelcolor": TEXT,
    "axes.grid": True,
    "grid.color": GRID,
    "grid.linewidth": 0.8,
    "axes.axisbelow": True,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "font.size": 10,
    "axes.titlesize": 11,
    "hatch.linewidth": 0.8,
    "axes.prop_cycle": cycler(color=PALETTE),
}


_P = ParamSpec("_P")
_R = TypeVar("_R")


def styled(plot: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run `plot` with `STYLE` in force, so that every part it draws (ticks, legend, labels) takes it."""

    @functools.wraps(plot)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with matplotlib.rc_context(cast(Any, STYLE)):
            return plot(*args, **kwargs)

    return run


# -- SVG output ----------------------------------------------------------------------------


def to_svg(fig: Figure) -> str:
    """Return `fig` as SVG text that is the same bytes every time (fixed ids, no date)."""
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": SVG_HASHSALT}):
        fig.savefig(buffer, format="svg", **SVG_KWARGS)
    return buffer.getvalue()


def svg_setup() -> None:
    """Make every figure a byte-stable SVG: for `savefig` and, in IPython, for inline display.

    Sets ``rcParams["svg.hashsalt"]``; in an IPython kernel it also runs the notebook recipe of
    NOTEBOOKS.md, with a PNG beside each SVG: ``%config InlineBackend.figure_formats = ['svg', 'png']``
    and ``%config InlineBackend.print_figure_kwargs = {'metadata': {'Date': None}, 'bbox_inches': 'tight'}``.
    JupyterLab shows the SVG in a trusted notebook and the PNG in an untrusted one (it never shows
    an untrusted SVG); nbval compares the SVG and leaves the PNG out.
    Call it once at the top of a notebook.
    """
    matplotlib.rcParams["svg.hashsalt"] = SVG_HASHSALT
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is optional
        return
    shell = get_ipython()
    if shell is None or not hasattr(shell, "run_line_magic"):
        return
    shell.run_line_magic("config", "InlineBackend.figure_formats = ['svg', 'png']")
    shell.run_line_magic("config", f"InlineBackend.print_figure_kwargs = {SVG_KWARGS!r}")


def figure(width: float, height: float, ncols: int = 1, **gridspec: Any) -> tuple[Figure, Any]:
    """Return a styled figure and its axes, already closed for pyplot (see the module docstring)."""
    with matplotlib.rc_context(cast(Any, STYLE)):
        fig, axes = plt.subplots(1, ncols, figsize=(width, height), layout="constrained", gridspec_kw=gridspec or None)
    plt.close(fig)
    return fig, axes


def finish(fig: Figure) -> Figure:
    """Lay `fig` out once and fix that layout, so that every rendering gives the same bytes; give every word its halo.

    A constrained layout is recomputed at every draw, and with ``bbox_inches="tight"`` it does
    not settle: two renderings of one figure would differ in the last digits. The halo (see the
    module docstring) is put on every text the layout made, tick labels included.
    """
    fig.draw_without_rendering()
    fig.set_layout_engine("none")
    halo: list[patheffects.AbstractPathEffect] = [patheffects.withStroke(linewidth=HALO_WIDTH, foreground=HALO)]
    for text in fig.findobj(Text):
        if text.get_text():
            text.set_path_effects(halo)
    return fig


def legend_below(fig: Figure, handles: Sequence[Any] = (), labels: Sequence[str] = (), **kw: Any) -> None:
    """Put the figure's legend under the axes, outside them, so that it never hides data.

    Without `handles`, the entries are those of the first panel's labelled lines and bars.
    """
    if not handles:
        handles, labels = fig.axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(len(handles), 5), fontsize=9, **kw)
