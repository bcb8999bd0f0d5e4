"""The standard-library SVG charts (`ra_core.pictures.charts`) and the plots drawn with them.

Where matplotlib cannot be imported (the JupyterLite site with no network), `plots` draws with
`charts`: these tests draw every plot that way here (``plots.MATPLOTLIB`` set to False), read the
SVG back with xml.etree, and check that it is valid, the same bytes every time, says every word it
should, in the palette's colours and with the contrast the style promises. One test runs a Python
in which ``import matplotlib`` fails and checks that the plots fall back by themselves.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from ra_core import new_game
from ra_core.bots import random_bot
from ra_core.pictures import plots
from ra_core.pictures.chartmarks import dash, marker_path, nice_ticks, text_width, tick_label
from ra_core.pictures.charts import Chart
from ra_core.pictures.palette import DARK, HALO, INK, PALETTE, TEXT, contrast
from ra_core.pictures.words import CATEGORY_NAMES
from ra_core.play import GameRecord, play_game

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def charts(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The plots draw with the standard-library charts, as where matplotlib cannot be imported."""
    monkeypatch.setattr(plots, "MATPLOTLIB", False)
    yield


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return play_game([random_bot] * 3, seed=5, names=["ann", "ben", "cleo"])


def drawn(picture: Any) -> Chart:
    """The picture a plot returned, which must be a chart here."""
    assert isinstance(picture, Chart), type(picture)
    return picture


def parse(svg: str) -> ET.Element:
    """Parse the SVG (it must be well-formed XML), and check its ids are unique and every reference resolves."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids)), "an id used twice"
    for ref in re.findall(r"url\(#([^)]+)\)", svg):
        assert ref in ids, ref
    return root


def words(root: ET.Element) -> list[str]:
    """Every line of words the chart writes, in order."""
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}tspan")]


def size(root: ET.Element) -> tuple[float, float]:
    _, _, w, h = (float(v) for v in (root.get("viewBox") or "").split())
    return w, h


def all_plots(record: GameRecord) -> dict[str, Any]:
    rng = random.Random(4)
    return {
        "fame": plots.plot_fame(record, title="A game"),
        "fame of one state": plots.plot_fame(record.replay(), categories=False),
        "fame at the start": plots.plot_fame(new_game(4, seed=1)),
        "win rates": plots.plot_win_rates({"cautious": (0.25, 0.18, 0.33), "eager": (0.4, 0.3, 0.5)}, baseline=1 / 3),
        "law": plots.plot_distribution(
            {0: 0.5, 1: 0.3, 2: 0.2}, simulated=[rng.choice((0, 0, 1, 2)) for _ in range(300)]
        ),
        "categories": plots.plot_distribution({"ra": 0.25, "gold": 0.5, "god": 0.25}, title="Kinds"),
        "curves": plots.plot_curves(
            {"exact": ([0, 0.5, 1], [0, 0.25, 1])},
            {"simulated": ([0.2, 0.8], [0.05, 0.6], [0.02, 0.05])},
            vlines={0.5: "half"},
            hlines={0: None},
            title="Squares",
            xlabel="x",
            ylabel="x squared",
        ),
    }


# -- the plots, drawn as charts -------------------------------------------------------------------


def test_every_plot_is_a_valid_byte_stable_chart(charts: None, record: GameRecord) -> None:
    first, second = all_plots(record), all_plots(record)
    for name, chart in first.items():
        assert isinstance(chart, Chart), name
        svg = plots.to_svg(chart)
        assert svg == chart._repr_svg_() == second[name].to_svg(), name  # the same bytes, built again too
        parse(svg)
    prefixes = {re.search(r'id="(c[0-9a-f]+)-', c.to_svg()).group(1) for c in first.values()}  # type: ignore[union-attr]
    assert len(prefixes) == len(first)  # two charts in one page never share an id


def test_the_fame_chart_says_what_the_figure_says(charts: None, record: GameRecord) -> None:
    root = parse(drawn(plots.plot_fame(record)).to_svg())
    said = words(root)
    for expected in ("Fame over the game", "Fame total by player", "fame (points)", "points", "epoch 1", "scored"):
        assert expected in said, expected
    assert "actions played (chance draws included)" in said
    assert [w for w in said if re.fullmatch(r"P\d \(\w+\)", w)] == ["P0 (ann)", "P1 (ben)", "P2 (cleo)"]  # the legend
    assert set(CATEGORY_NAMES) <= set(said)
    assert root.get("aria-label") == "Fame over the game"
    fills = {e.get("fill") for e in root.iter() if e.get("fill")}
    assert set(PALETTE[:3]) <= fills  # one colour per player, lines, markers and bars
    assert len(root.findall(f".//{SVG}pattern")) >= 2  # the second and third players' bars are hatched


def test_an_unscored_game_says_so(charts: None) -> None:
    said = words(parse(drawn(plots.plot_fame(new_game(3, seed=2))).to_svg()))
    assert "no epoch scored yet" in said and "Points by scoring category" in said


def test_the_win_rate_chart_writes_each_rate_and_interval(charts: None) -> None:
    root = parse(drawn(plots.plot_win_rates([("cautious", 0.25, 0.18, 0.33)], baseline=1 / 3, title="Bots")).to_svg())
    said = words(root)
    assert {"Bots", "cautious", "25.0%  [18.0%, 33.0%]", "baseline 33.3%", "0%", "20%"} <= set(said)


def test_the_law_chart_has_its_mean_and_simulated_estimate(charts: None) -> None:
    law = {1: 0.25, 2: 0.5, 3: 0.25}
    said = words(parse(drawn(plots.plot_distribution(law, simulated={1: 30, 2: 40, 3: 30}, xlabel="tiles")).to_svg()))
    assert {"Probability distribution", "tiles", "probability", "exact", "mean 2.00"} <= set(said)
    assert "simulated (n = 100, 95 % bars)" in said


def test_the_curves_chart(charts: None) -> None:
    chart = all_plots(play_game([random_bot] * 2, seed=1))["curves"]
    said = words(parse(chart.to_svg()))
    assert {"Squares", "x", "x squared", "exact", "simulated", "half"} <= set(said)


def test_every_word_is_near_black_on_a_white_halo_and_inside_the_picture(charts: None, record: GameRecord) -> None:
    """The style of `palette`: words at 17 : 1 on their halo, ink at 3 : 1 or more on light and dark pages."""
    assert contrast(TEXT, HALO) >= 4.5 and contrast(TEXT, HALO) > 17
    assert contrast(INK, "#FFFFFF") >= 3 and contrast(INK, DARK) >= 3
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21) and contrast(INK, INK) == 1
    for name, chart in all_plots(record).items():
        root = parse(chart.to_svg())
        width, height = size(root)
        assert root.get("width") == f"{width:g}pt"
        for text in root.iter(f"{SVG}text"):
            assert (text.get("fill"), text.get("stroke"), text.get("paint-order")) == (TEXT, HALO, "stroke"), name
            if text.get("transform"):
                continue  # turned words: checked by eye
            for span in text.iter(f"{SVG}tspan"):
                x, y, w = float(span.get("x") or 0), float(span.get("y") or 0), text_width(span.text or "", 9)
                left = {"start": x, "middle": x - w / 2, "end": x - w}[text.get("text-anchor") or "start"]
                assert left >= -1 and left + w <= width + 1 and 0 < y <= height, (name, span.text)
        strokes = {e.get("stroke") for e in root.iter() if e.get("stroke")} - {HALO}
        assert strokes <= {INK, *PALETTE}, name  # outlines and axes in ink; series in the palette


def test_charts_check_their_input() -> None:
    chart = Chart(4, 3)
    panel = chart.panels[0]
    with pytest.raises(ValueError, match="2 x values for 3 y values"):
        panel.line([0, 1], [0, 1, 2], colour=INK)
    with pytest.raises(ValueError, match="unknown marker"):
        panel.markers([0], [0], colour=INK, shape="?")
    with pytest.raises(ValueError, match="unknown hatch"):
        panel.bars([0], [1], 0.5, colour=INK, hatch="~~")
    with pytest.raises(ValueError, match="low end is above"):
        panel.errorbars([0], [2], [1])
    with pytest.raises(ValueError, match="finite"):
        panel.line([0, 1], [0, float("nan")], colour=INK)
    with pytest.raises(ValueError, match="axis"):
        panel.ticks("z", [0])
    with pytest.raises(ValueError, match="width ratios"):
        Chart(4, 3, ncols=2, width_ratios=(1,))
    panel.limits("x", 1, 1)
    with pytest.raises(ValueError, match="nothing to draw"):
        chart.to_svg()
    with pytest.raises(ValueError, match="too small"):
        tiny = Chart(0.3, 0.3, title="a title")
        tiny.panels[0].line([0, 1], [0, 1], colour=INK)
        tiny.to_svg()


def test_plot_curves_checks_its_input(charts: None) -> None:
    with pytest.raises(ValueError, match="at least one"):
        plots.plot_curves(title="t", xlabel="x", ylabel="y")
    with pytest.raises(ValueError, match="holds it"):
        plots.plot_curves(points={"p": ([0], [1], [2], [3])}, title="t", xlabel="x", ylabel="y")
    with pytest.raises(ValueError, match="2 x values for 1 y values"):
        plots.plot_curves({"c": ([0, 1], [1])}, title="t", xlabel="x", ylabel="y")


# -- the marks ------------------------------------------------------------------------------------


def test_ticks_are_round_and_labelled_with_the_decimals_they_need() -> None:
    assert nice_ticks(0, 1) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert nice_ticks(-3, 47) == [0, 10, 20, 30, 40]
    assert nice_ticks(0.2, 0.2) == [0.2]
    ticks = [0.0, 0.05, 0.1]
    assert [tick_label(t, ticks) for t in ticks] == ["0.00", "0.05", "0.10"]
    assert tick_label(-2.0, [-2.0, 0.0]) == "\u22122"  # a true minus sign
    assert tick_label(0.2, [0.0, 0.2], percent=True) == "20%"
    with pytest.raises(ValueError):
        nice_ticks(1, 0)


def test_marks_follow_matplotlibs_codes() -> None:
    assert dash("-", 2) == "" and dash(":", 1) == "1 1.65" and dash((0, (5, 1)), 2) == "10 2"
    with pytest.raises(ValueError, match="line style"):
        dash("~", 1)
    for shape in "os^vDPX*":
        assert marker_path(shape, 10, 10, 6).startswith("M")


# -- without matplotlib ---------------------------------------------------------------------------

WITHOUT_MATPLOTLIB = """
import sys
sys.modules["matplotlib"] = None  # `import matplotlib` raises ImportError, as in Pyodide offline
from ra_core.bots import random_bot
from ra_core.play import play_game
from ra_core.pictures import plots
from ra_core.pictures.charts import Chart
assert plots.MATPLOTLIB is False
plots.svg_setup()  # nothing to set: the charts are byte-stable already
fame = plots.plot_fame(play_game([random_bot] * 3, seed=5))
rates = plots.plot_win_rates({"a": (0.5, 0.4, 0.6)})
curve = plots.plot_curves({"c": ([0, 1], [0, 1])}, title="t", xlabel="x", ylabel="y")
assert all(isinstance(p, Chart) for p in (fame, rates, curve))
assert not any(m.startswith("matplotlib.") for m in sys.modules), "a part of matplotlib was imported"
assert "ra_core.pictures.plotfigures" not in sys.modules and "ra_core.pictures.plotstyle" not in sys.modules
print(plots.to_svg(fame))
"""


def test_plots_fall_back_to_charts_when_matplotlib_cannot_be_imported(charts: None, record: GameRecord) -> None:
    done = subprocess.run([sys.executable, "-c", WITHOUT_MATPLOTLIB], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    there = parse(done.stdout.strip())
    assert "Fame over the game" in words(there)
    here = drawn(plots.plot_fame(play_game([random_bot] * 3, seed=5))).to_svg()
    assert done.stdout.strip() == here.strip()  # the same chart as drawn here, byte for byte
