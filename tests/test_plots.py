"""Plots (`ra_core.pictures.plots`): what each figure shows, its labels and colours, and byte-stable SVG."""

from __future__ import annotations

import dataclasses
import functools
import random
import re
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any, ParamSpec

import matplotlib
import matplotlib.pyplot as plt
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex
from matplotlib.figure import Figure

from ra_core import State, Tile, new_game
from ra_core.analysis import chance as C
from ra_core.bots import random_bot
from ra_core.engine.scoring import CATEGORIES
from ra_core.pictures import plots
from ra_core.pictures.charts import Chart
from ra_core.pictures.plots import (
    FRAME,
    HATCHES,
    INK,
    PALETTE,
    SVG_HASHSALT,
    svg_setup,
    to_svg,
)
from ra_core.pictures.plotstyle import HALO, TEXT
from ra_core.pictures.words import CATEGORY_NAMES
from ra_core.play import GameRecord, play_game

_P = ParamSpec("_P")


def _figures(plot: Callable[_P, Figure | Chart]) -> Callable[_P, Figure]:
    """The plot function as it draws here, where matplotlib is installed: its picture is a `Figure`."""

    @functools.wraps(plot)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> Figure:
        fig = plot(*args, **kwargs)
        assert isinstance(fig, Figure), type(fig)
        return fig

    return run


plot_fame = _figures(plots.plot_fame)
plot_win_rates = _figures(plots.plot_win_rates)
plot_distribution = _figures(plots.plot_distribution)
plot_curves = _figures(plots.plot_curves)

OKABE_ITO = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442"}  # and black
NEUTRAL = {to_hex(INK), to_hex(FRAME)}  # reference lines, whiskers and outlines


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return play_game([random_bot] * 3, seed=5, names=["ann", "ben", "cleo"])


def panels(fig: Figure) -> list[Any]:
    """Return the figure's axes, untyped (matplotlib's artist types are too loose to check here)."""
    return list(fig.axes)


def labelled(fig: Figure) -> None:
    """Check that every panel says what it shows: a title and both axis labels."""
    for ax in panels(fig):
        assert ax.get_title(), "a panel without a title"
        assert ax.get_xlabel() or ax.get_xticklabels(), "a panel without an x label"
        assert ax.get_ylabel() or ax.get_yticklabels(), "a panel without a y label"


def legend(fig: Figure) -> list[str]:
    """Return the entries of the figure's legend, and check that it hides no data.

    The legend sits under the axes, outside every panel (plots put it there so that it never
    covers a bar, a line or a label of the data).
    """
    (box,) = fig.legends
    outside = box.get_window_extent()
    for ax in panels(fig):
        assert not outside.overlaps(ax.get_window_extent()), "the legend covers a panel"
        assert ax.get_legend() is None, "a legend inside a panel"
    return [t.get_text() for t in box.get_texts()]


def colours(fig: Figure) -> set[str]:
    """Return the hex colours of every line and bar of the figure's data."""
    out = set()
    for ax in panels(fig):
        out |= {to_hex(line.get_color()) for line in ax.get_lines()}
        out |= {to_hex(patch.get_facecolor()) for patch in ax.patches}
    return out


def test_importing_ra_core_does_not_import_matplotlib() -> None:
    code = (
        "import sys, ra_core, ra_core.analysis.chance, ra_core.analysis.valuation\n"
        "import ra_core.play, ra_core.engine.scoring\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported'\n"
        "assert 'ra_core.pictures.plots' not in sys.modules, 'plots imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# -- fame over a game ---------------------------------------------------------------------------


def test_fame_from_a_record(record: GameRecord) -> None:
    fig = plot_fame(record)
    line_panel, bar_panel = panels(fig)
    assert fig.get_suptitle() == "Fame over the game"
    assert line_panel.get_ylabel() == "fame (points)"
    assert "actions played" in line_panel.get_xlabel()
    assert legend(fig) == ["P0 (ann)", "P1 (ben)", "P2 (cleo)"]  # one entry per player, named as on the board
    final = record.replay()
    steps = [line for line in line_panel.get_lines() if line.get_label().startswith("P")]
    assert [line.get_ydata()[-1] for line in steps] == list(final.fame)  # each line ends at the final fame
    assert len(steps[0].get_xdata()) == len(record.actions) + 1
    assert [t.get_text() for t in bar_panel.get_xticklabels()] == list(CATEGORY_NAMES)  # as the scores name them
    # One bar per player and category, with the category points summed over the three epochs.
    heights = [p.get_height() for p in bar_panel.patches]
    expected = [sum(getattr(sc.players[p], c) for sc in final.scores) for p in range(3) for c in CATEGORIES]
    assert heights == expected
    labelled(fig)


def test_fame_from_states_and_from_one_state(record: GameRecord) -> None:
    states = list(record.states())
    fig = plot_fame(states, names=["a", "b", "c"], title="A game", categories=False)
    assert len(panels(fig)) == 1 and fig.get_suptitle() == "A game"
    fig = plot_fame(states[-1])
    line_panel = panels(fig)[0]
    assert [t.get_text() for t in line_panel.get_xticklabels()] == [
        "start",
        "after epoch 1",
        "after epoch 2",
        "after epoch 3",
    ]
    assert [list(line.get_ydata()) for line in line_panel.get_lines()] == [
        [10] + [sc.players[p].fame_after for sc in states[-1].scores] for p in range(3)
    ]


def test_fame_before_any_scoring() -> None:
    fig = plot_fame(new_game(4, seed=1))
    texts = [t.get_text() for t in panels(fig)[1].texts]
    assert "no epoch scored yet" in texts


def test_fame_checks_names(record: GameRecord) -> None:
    with pytest.raises(ValueError, match="2 names for 3 players"):
        plot_fame(record, names=["a", "b"])
    with pytest.raises(ValueError, match="at least one state"):
        plot_fame([])


def test_fame_is_colour_blind_safe(record: GameRecord) -> None:
    fig = plot_fame(record)
    line_panel, bar_panel = panels(fig)
    assert colours(fig) <= OKABE_ITO | NEUTRAL
    lines = [line for line in line_panel.get_lines() if line.get_label().startswith("P")]
    assert len({str(line.get_linestyle()) for line in lines}) == 3  # not by colour alone
    assert len({p.get_hatch() for p in bar_panel.patches}) == 3


# -- win rates --------------------------------------------------------------------------------


@dataclasses.dataclass
class Row:
    """A tournament-like row (duck-typed: name, win_rate, win_low, win_high, baseline)."""

    name: str
    win_rate: float
    win_low: float
    win_high: float
    baseline: float


class Result:
    """A tournament-like result: rows from `stats()`."""

    def stats(self) -> list[Row]:
        return [Row("heuristic", 0.5, 0.4, 0.6, 1 / 3), Row("random", 0.2, 0.15, 0.26, 1 / 3)]


def bars_and_whiskers(fig: Figure) -> tuple[list[str], list[float], list[tuple[float, float]]]:
    """Return, from the top row down, the names, the bar lengths and the error bars' (low, high)."""
    (ax,) = panels(fig)
    ticks = sorted(zip(ax.get_yticks(), [t.get_text() for t in ax.get_yticklabels()], strict=True), reverse=True)
    bars = {round(p.get_y() + p.get_height() / 2, 6): p.get_width() for p in ax.patches}
    whiskers = {}
    for collection in ax.collections:
        for (x0, y0), (x1, _) in collection.get_segments():
            whiskers[round(y0, 6)] = (x0, x1)
    return (
        [name for _, name in ticks],
        [bars[round(y, 6)] for y, _ in ticks],
        [whiskers[round(y, 6)] for y, _ in ticks],
    )


@pytest.mark.parametrize(
    ("results", "baseline"),
    [
        ({"heuristic": (0.5, 0.4, 0.6), "random": (0.2, 0.15, 0.26)}, None),
        ([("heuristic", 0.5, 0.4, 0.6), ("random", 0.2, 0.15, 0.26)], None),
        (Result(), 1 / 3),
        (Result().stats(), 1 / 3),
    ],
    ids=["mapping", "tuples", "stats-object", "row-objects"],
)
def test_win_rates_accept_every_form(results: Any, baseline: float | None) -> None:
    fig = plot_win_rates(results)
    names, widths, whiskers = bars_and_whiskers(fig)
    assert names == ["heuristic", "random"]  # the first row on top
    assert widths == pytest.approx([0.5, 0.2])
    assert whiskers == [pytest.approx((0.4, 0.6)), pytest.approx((0.15, 0.26))]
    (ax,) = panels(fig)
    assert ax.get_title() == "Win rates" and "confidence interval" in ax.get_xlabel()
    assert colours(fig) <= OKABE_ITO | NEUTRAL
    lines = [line.get_xdata()[0] for line in ax.get_lines() if line.get_label().startswith("baseline")]
    assert lines == ([] if baseline is None else [pytest.approx(baseline)])  # a tournament's rows carry it


def test_win_rates_baseline_and_checks() -> None:
    fig = plot_win_rates({"a": (0.3, 0.2, 0.4)}, baseline=0.25, title="A vs the field")
    (ax,) = panels(fig)
    assert ax.get_title() == "A vs the field"
    assert legend(fig) == ["baseline 25.0%"]
    with pytest.raises(ValueError, match="must contain the rate"):
        plot_win_rates({"a": (0.5, 0.6, 0.7)})
    with pytest.raises(ValueError, match="at least one row"):
        plot_win_rates({})
    with pytest.raises(TypeError, match="needs a name attribute"):
        plot_win_rates([object()])
    with pytest.raises(TypeError, match="needs a rate attribute"):
        plot_win_rates({"a": object()})


# -- probability laws --------------------------------------------------------------------------


def test_distribution_bars_mean_and_simulated_overlay() -> None:
    suns = [{"suns_up": [13, 8, 5, 2]}, {"suns_up": [12, 9, 6, 3]}, {"suns_up": [11, 10, 7, 4]}]
    s = State.from_dict({"players": suns, "bag": {"ra": 5, "gold": 5, "nile": 20}}, strict=False)
    law = C.tiles_before_ra(s)
    rng = random.Random(3)
    samples = [len(C.sample_draws(s, rng)) - 1 for _ in range(500)]
    fig = plot_distribution(law, simulated=samples, xlabel="non-Ra tiles before the next Ra", title="Before Ra")
    (ax,) = panels(fig)
    assert (ax.get_title(), ax.get_ylabel()) == ("Before Ra", "probability")
    assert ax.get_xlabel() == "non-Ra tiles before the next Ra"
    assert [p.get_height() for p in ax.patches] == pytest.approx([float(p) for p in law.values()])
    assert [p.get_x() + p.get_width() / 2 for p in ax.patches] == pytest.approx(list(law))
    entries = legend(fig)
    assert entries[0] == f"mean {float(C.expected_tiles_before_ra(s)):.2f}"
    assert "exact" in entries and "simulated (n = 500, 95 % bars)" in entries
    assert colours(fig) <= OKABE_ITO | NEUTRAL


def test_distribution_of_tiles_is_categorical() -> None:
    s = new_game(3, seed=1)
    law = C.next_tile_distribution(s)
    fig = plot_distribution(law, xlabel="next tile", simulated={Tile.RA: Fraction(1, 6), Tile.GOD: Fraction(5, 6)})
    (ax,) = panels(fig)
    assert [t.get_text() for t in ax.get_xticklabels()] == [t.label for t in law]
    assert [p.get_height() for p in ax.patches] == pytest.approx([float(p) for p in law.values()])
    assert "mean" not in " ".join(legend(fig))  # no mean of categories


def test_distribution_trims_a_thin_tail() -> None:
    law = {0: Fraction(1, 2), 1: Fraction(1, 2) - Fraction(1, 10**6), 100: Fraction(1, 10**6)}
    (ax,) = panels(plot_distribution(law))
    assert ax.get_xlim()[1] < 50
    (ax,) = panels(plot_distribution(law, tail=0))
    assert ax.get_xlim()[1] > 100


def test_distribution_checks() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        plot_distribution({})
    with pytest.raises(ValueError, match="not in the law"):
        plot_distribution({Tile.RA: 1}, simulated=[Tile.GOLD])


# -- style and SVG -----------------------------------------------------------------------------


def three_figures(record: GameRecord) -> list[Figure]:
    return [
        plot_fame(record),
        plot_win_rates({"a": (0.5, 0.4, 0.6), "b": (0.25, 0.2, 0.3)}, baseline=1 / 3),
        plot_distribution({0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}, simulated=[0, 1, 0, 2]),
    ]


def contrast(a: str, b: str) -> float:
    """Return the WCAG contrast ratio of two colours."""

    def lum(c: str) -> float:
        rgb = [int(c[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_figures_are_transparent_with_ink_for_light_and_dark_themes(record: GameRecord) -> None:
    """Readable on light and dark themes: no background of their own; every axis in a grey of 3 : 1
    or more on white and on JupyterLab Dark's #111111, and every word 4.5 : 1 or more on both: near-black
    on white, and on the dark theme over its own white halo (no one grey reaches 4.5 : 1 on both)."""
    assert contrast(INK, "#ffffff") >= 3 and contrast(INK, "#111111") >= 3
    assert contrast(TEXT, "#ffffff") >= 4.5 and contrast(TEXT, HALO) >= 4.5 and HALO == "#FFFFFF"
    for fig in three_figures(record):
        assert to_hex(fig.get_facecolor(), keep_alpha=True).endswith("00")
        svg = to_svg(fig)
        assert "fill: #ffffff" not in svg.lower() and "fill: #000000" not in svg.lower()
        words = [t for t in fig.findobj(matplotlib.text.Text) if t.get_text() and t.get_visible()]
        for text in words:
            assert to_hex(text.get_color()) == to_hex(TEXT), text
            effects: Any = text.get_path_effects()
            assert effects and to_hex(effects[0]._gc["foreground"]) == to_hex(HALO), text  # its white halo
        for ax in panels(fig):
            assert to_hex(ax.get_facecolor(), keep_alpha=True).endswith("00")
        labelled(fig)


def test_the_baseline_crosses_no_label() -> None:
    """A win rate's words start right of the baseline when the baseline runs right of its whisker (notebook 08)."""
    fig = plot_win_rates({"a": (0.30, 0.26, 0.33), "b": (0.5, 0.4, 0.6)}, baseline=1 / 3)
    ax = fig.axes[0]
    renderer = FigureCanvasAgg(fig).get_renderer()  # type: ignore[no-untyped-call]
    line = next(x for x in ax.get_lines() if str(x.get_label()).startswith("baseline"))
    xs: Any = line.get_xdata()
    at = ax.transData.transform((float(xs[0]), 0.0))[0]
    for text in ax.texts:
        box = text.get_window_extent(renderer)
        assert not box.x0 < at < box.x1, (text.get_text(), box.x0, at, box.x1)


def test_plots_fit_a_900_px_output_area(record: GameRecord) -> None:
    """Every figure, saved as the notebooks show it (tight box, 72 points = 96 px per inch), is at most 900 px wide."""
    for fig in [*three_figures(record), plot_fame(record, categories=False)]:
        width = re.search(r'<svg[^>]* width="([\d.]+)pt"', to_svg(fig))
        assert width and float(width.group(1)) * 96 / 72 <= 900, width


def test_figures_are_not_kept_by_pyplot(record: GameRecord) -> None:
    """Closed for pyplot: a notebook shows each figure once, when it is a cell's value."""
    before = plt.get_fignums()
    three_figures(record)
    assert plt.get_fignums() == before


def test_svg_is_byte_stable_and_has_no_date(record: GameRecord) -> None:
    first = three_figures(record)
    second = three_figures(record)
    for a, b in zip(first, second, strict=True):
        svg = to_svg(a)
        assert svg == to_svg(a)  # the same figure twice
        assert svg == to_svg(b)  # and a figure built again from the same data
        assert "<dc:date>" not in svg and "<svg" in svg


def test_svg_setup_sets_the_hash_salt() -> None:
    with matplotlib.rc_context():
        matplotlib.rcParams["svg.hashsalt"] = None
        svg_setup()  # outside IPython only the rcParam is set
        assert matplotlib.rcParams["svg.hashsalt"] == SVG_HASHSALT


def test_palette_is_okabe_ito() -> None:
    assert {c.lower() for c in PALETTE} == OKABE_ITO | {to_hex(INK)}  # grey for Okabe-Ito's black
    assert len(set(HATCHES)) == len(HATCHES)


def test_distribution_overlay_with_text_keys() -> None:
    """A law keyed by words (not numbers) can carry a simulated overlay."""
    fig = plot_distribution({"ra": 0.25, "other": 0.75}, simulated=["ra", "other", "other", "other"])
    assert fig.axes


def test_no_word_of_the_fame_plot_is_cut_off() -> None:
    """Every title, axis label, tick label and legend entry of the fame plot lies inside the figure."""
    for players, names in ((3, ["ann", "ben", "cleo"]), (5, None)):
        fig = plot_fame(play_game([random_bot] * players, seed=2, names=names))
        renderer = FigureCanvasAgg(fig).get_renderer()  # type: ignore[no-untyped-call]
        inside = fig.bbox
        words = [t for t in fig.findobj(matplotlib.text.Text) if t.get_visible() and t.get_text().strip()]
        assert len(words) > 30
        for t in words:
            box = t.get_window_extent(renderer)
            assert inside.x0 - 0.5 <= box.x0 and box.x1 <= inside.x1 + 0.5, t.get_text()
            assert inside.y0 - 0.5 <= box.y0 and box.y1 <= inside.y1 + 0.5, t.get_text()


def test_the_epoch_ends_are_named_above_the_fame_axes(record: GameRecord) -> None:
    """The words "epoch k scored" sit above the axes, so they never cover a line or the final markers."""
    fig = plot_fame(record)
    ax = panels(fig)[0]
    renderer = FigureCanvasAgg(fig).get_renderer()  # type: ignore[no-untyped-call]
    top = ax.get_window_extent(renderer).y1
    labels = [t for child in ax.child_axes for t in child.get_xticklabels() if t.get_text()]
    assert [t.get_text() for t in labels] == ["epoch 1\nscored", "epoch 2\nscored", "epoch 3\nscored"]
    assert all(t.get_window_extent(renderer).y0 >= top for t in labels)


# -- curves and estimates ------------------------------------------------------------------------


def test_curves_draw_theory_as_lines_and_estimates_with_their_intervals() -> None:
    def draw() -> Figure:
        fig = plot_curves(
            {"exact": ([0, 0.5, 1], [0, 0.25, 1])},
            {"simulated": ([0.2, 0.8], [0.05, 0.6], [0.01, 0.5], [0.1, 0.7]), "marks": ([0.4], [0.2])},
            vlines={0.5: "half"},
            hlines={0: None},
            xticks=[0, 0.5, 1],
            title="Squares",
            xlabel="x",
            ylabel="x squared",
        )
        return fig

    fig = draw()
    (ax,) = panels(fig)
    assert legend(fig) == ["exact", "simulated", "marks", "half"]
    assert (ax.get_title(), ax.get_xlabel(), ax.get_ylabel()) == ("Squares", "x", "x squared")
    assert list(ax.get_xticks()) == [0, 0.5, 1]
    exact = next(line for line in ax.get_lines() if line.get_label() == "exact")
    assert list(exact.get_ydata()) == [0, 0.25, 1] and to_hex(exact.get_color()) == PALETTE[0].lower()
    assert colours(fig) >= {PALETTE[0].lower(), PALETTE[1].lower(), PALETTE[2].lower()}
    caps = [line for line in ax.get_lines() if line.get_marker() == "_"]  # the error bars' caps: at each low and high
    assert sorted(y for line in caps for y in line.get_ydata()) == pytest.approx([0.01, 0.1, 0.5, 0.7])
    assert to_svg(fig) == to_svg(draw())
