"""Every figure a notebook's text states is computed or asserted beside it.

A teaching notebook says "the Ra player wins 64.7 % of the auctions" in a markdown cell; the
number must come from the notebook's own code, not from an earlier run or a memory. This test
reads every number in every markdown cell and fails unless the same number appears in an
output, or in an ``assert`` statement, of the code cells around it: the ``AROUND`` nearest code
cells before the markdown cell and the ``AROUND`` nearest after it.

What counts as "the same number":

* a number with decimals matches any number beside it that rounds to it (the text may round
  0.4592 to 0.46, or 77.83 % to 77.8 %); a percentage matches a share (0.778) or a percentage;
* a fraction (5/12) matches the same fraction, or a decimal rounded from its value with at least
  three significant digits (0.417, 0.4167; not 0.42);
* a whole number matches the same whole number (fractions' parts count: "4 times in 5" is
  backed by an output "4/5"), or a number with decimals that rounds to it;
* signs and thousands separators are ignored (20,000 and 20_000 are 20000).

Not figures, and so exempt (each is a name or a piece of notation, not a measurement):

* identifiers that contain digits: rule ids (R71, D1), seats (P0), ``§4.3``;
* references: "notebook 8", "notebooks 10–13", "section 4", "sheet 2", "Tasks 3 and 4", "cell [43]", "[43]";
* names of the game's pieces and phases: "sun 13", "suns 3–13", "group 13-8-5-2", "epoch 2";
* headings, list numbers at the start of a line, inline code (``game_seeds(8, 150)``), links;
* citation years ("Myerson 1981"), class times ("45 minutes"), player counts ("3 players");
* whole numbers inside a formula (``$\\frac{n-1}{n}$``, ``$v^2$``): the formula's form. Decimals
  and fractions inside a formula (``$\\frac{5}{12}$``, ``$v = 0.9$``) are figures and are checked.

``COVERED`` lists the files the test holds to this; ``missing_figures`` can be run on any other
notebook (``python -m tests.test_notebook_figures PATH ...`` prints what it finds).
"""

from __future__ import annotations

import ast
import json
import re
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
AROUND = 2  # the nearest code cells on each side of a markdown cell that may back its figures

COVERED = [
    "notebooks/01_start_here.ipynb",
    "notebooks/02_setup.ipynb",
    "notebooks/03_auctions.ipynb",
    "notebooks/04_gods.ipynb",
    "notebooks/05_disasters.ipynb",
    "notebooks/06_scoring.ipynb",
    "notebooks/07_play_a_game.ipynb",
    "notebooks/08_auction_theory.ipynb",
    "notebooks/09_expected_value.ipynb",
    "notebooks/10_first_price_and_reserve_prices.ipynb",
    "notebooks/11_when_revenue_ranking_breaks.ipynb",
    "notebooks/12_all_pay_and_common_values.ipynb",
    "notebooks/13_ra_as_a_dynamic_game.ipynb",
    "notebooks/14_your_class_as_an_experiment.ipynb",
    "notebooks/15_affiliated_values_and_linkage.ipynb",
    "notebooks/16_multi_unit_auctions.ipynb",
    "notebooks/17_sequential_auctions_and_ra_price_path.ipynb",
    "notebooks/18_clock_auctions_in_class.ipynb",
    "notebooks/classroom/control_room.ipynb",
    # The sheets as authored, solutions run: their task parameters (games, pass marks) are backed by
    # the solved checks' outputs. The student versions (exercises/release) are made from these; there
    # the same numbers stand beside a check that says "not attempted yet".
    "exercises/source/01_auctions_from_first_principles.ipynb",
    "exercises/source/02_ras_auction.ipynb",
    "exercises/source/03_expected_value_in_the_bag.ipynb",
    "exercises/source/04_write_a_bidder.ipynb",
    "exercises/source/05_reserve_prices_and_the_optimal_auction.ipynb",
    "exercises/source/06_multi_unit_auctions.ipynb",
]

_DASH = r"(?:-|–|—|,\s*|\s+to\s+|\s+and\s+|,\s+and\s+)"
_RANGE = rf"\d+(?:{_DASH}\d+)*"
# Spans of markdown that hold no figures (see the module docstring), removed before reading numbers.
_EXEMPT = [
    r"^\s*#.*$",  # headings
    r"^\s*(?:[-*]\s+)?\d+\.\s",  # list numbers
    r"`[^`]*`",  # inline code
    r"\]\([^)]*\)",  # link targets
    r"§\s?\d+(?:\.\d+)*",
    r"\[\d+\](?:\s?[-–]\s?\[\d+\])?",  # cell references
    rf"\b(?:notebooks?|sections?|sheets?|exercises?|tasks?|cells?|epochs?)\s+{_RANGE}(?:,?\s+(?:and|or)\s+{_RANGE})?",
    rf"\bsuns?\s+(?:\$k\$\s+)?{_RANGE}",
    r"\b(?:groups?\s+)?\d+(?:-\d+){2,}\b",  # sun groups such as 13-8-5-2
    r"\b[A-Z][A-Za-z]+,?\s\(?(?:19|20)\d\d\)?",  # "Myerson 1981", "Knizia (1999)"
    r"\((?:19|20)\d\d\)",
    rf"\b{_RANGE}\s+minutes\b",
    r"\b\d+[-\s]players?\b",
]
_NUMBER = re.compile(
    r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)(?:/(?P<den>\d+))?(?![\w/])(?:\.(?!\d))?(?P<pct>\s?%)?",
)
_MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+\$", re.DOTALL)


@dataclass(frozen=True)
class Figure:
    """A number read from a text: its value, how many decimals it was written with, and its kind."""

    text: str
    value: Fraction
    decimals: int
    kind: str  # "whole", "decimal", "fraction" or "percent"


def _normalise(text: str) -> str:
    text = re.sub(r"(?<=\d)[,_](?=\d{3}\b)", "", text)  # 20,000 and 20_000 are 20000
    text = re.sub(r"(?<=\d)[,_](?=\d{3}[,_])", "", text)
    return text.replace("−", "-")


def figures(text: str) -> list[Figure]:
    """Return the numbers in `text` (already stripped of exempt spans)."""
    found = []
    for m in _NUMBER.finditer(_normalise(text)):
        num, den, pct = m.group("num"), m.group("den"), m.group("pct")
        if den is not None:
            if int(den) == 0:
                continue
            found.append(Figure(m.group(0), Fraction(int(num), int(den)), 0, "fraction"))
            continue
        decimals = len(num.split(".")[1]) if "." in num else 0
        kind = "percent" if pct else ("decimal" if decimals else "whole")
        found.append(Figure(num + ("%" if pct else ""), Fraction(num), decimals, kind))
    return found


def _math_figures(formula: str) -> list[Figure]:
    """Return the figures of a formula: decimals and fractions, not its whole numbers."""
    formula = re.sub(r"\\[dt]?frac\s*\{\s*(\d+)\s*\}\s*\{\s*(\d+)\s*\}", r" \1/\2 ", formula)
    formula = re.sub(r"\\[dt]?frac\s*(\d)(\d)\b", r" \1/\2 ", formula)
    formula = re.sub(r"\\[a-zA-Z]+", " ", formula)  # commands (\cdot, \approx) are not numbers
    return [f for f in figures(formula) if f.kind != "whole"]


def markdown_figures(source: str) -> list[Figure]:
    """Return the figures of a markdown cell: its prose's numbers and its formulas' decimals and fractions."""
    found: list[Figure] = []
    for formula in _MATH.findall(source):
        found += _math_figures(formula)
    prose = _MATH.sub(" ", source)
    for pattern in _EXEMPT:
        prose = re.sub(pattern, " ", prose, flags=re.MULTILINE | re.IGNORECASE)
    return found + figures(prose)


def _assertions(source: str) -> str:
    """Return the source text of the assert statements of a code cell (empty if it does not parse)."""
    lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    code = "\n".join(lines)
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return ""
    return "\n".join(
        ast.get_source_segment(code, node) or "" for node in ast.walk(tree) if isinstance(node, ast.Assert)
    )


def _outputs(cell: dict[str, Any]) -> str:
    texts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            texts.append("".join(output.get("text", "")))
        elif "data" in output:
            texts.append("".join(output["data"].get("text/plain", "")))
    return "\n".join(texts)


def backing(cell: dict[str, Any]) -> list[Figure]:
    """Return the numbers a code cell backs: those of its outputs and of its assert statements."""
    return figures(_outputs(cell)) + figures(_assertions("".join(cell["source"])))


def _backs(figure: Figure, other: Figure) -> bool:
    target, value = abs(figure.value), abs(other.value)
    if figure.kind == "percent":
        target /= 100
    if other.kind == "percent":
        value /= 100
    if figure.kind == "whole":
        if value == target:
            return True
        if other.kind == "fraction" and target in (abs(Fraction(other.value.numerator)), other.value.denominator):
            return True
        return other.kind in ("decimal", "percent") and abs(value - target) <= Fraction(1, 2)
    if figure.kind == "fraction":
        if value == target:
            return True
        places = other.decimals + (2 if other.kind == "percent" else 0)
        significant = len(other.text.rstrip("%").replace(".", "").lstrip("0"))
        return (
            other.kind in ("decimal", "percent")
            and significant >= 3
            and abs(value - target) <= Fraction(1, 2 * 10**places)
        )
    places = figure.decimals + (2 if figure.kind == "percent" else 0)
    return abs(value - target) <= Fraction(1, 2 * 10**places) * Fraction(1001, 1000)


def missing_figures(path: Path) -> list[str]:
    """Return, for a notebook, every markdown figure with no backing output or assertion around it."""
    cells = json.loads(path.read_text())["cells"]
    code = [i for i, cell in enumerate(cells) if cell["cell_type"] == "code"]
    missing = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        before = [j for j in code if j < i][-AROUND:]
        after = [j for j in code if j > i][:AROUND]
        beside = [f for j in before + after for f in backing(cells[j])]
        for figure in markdown_figures("".join(cell["source"])):
            if not any(_backs(figure, other) for other in beside):
                missing.append(f"[{i}] {figure.text}")
    return missing


@pytest.mark.parametrize("name", COVERED)
def test_every_figure_is_computed_beside_its_sentence(name: str) -> None:
    missing = missing_figures(ROOT / name)
    assert not missing, f"{name}: figures with no output or assertion within {AROUND} code cells: {missing}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("wins 64.7 % of 3,934 auctions", ["64.7%", "3934"]),
        ("R71 gives P0 5 fame (notebook 8, section 4, cell [43])", ["5"]),
        ("Tasks 3 and 4 ask for 7 more (every category of Task 1)", ["7"]),
        ("sun 13 and group 13-8-5-2 in epoch 3; Myerson 1981", []),
        ("$\\frac{n-1}{n}v$ and $\\frac{5}{12}$ and $v = 0.9$", ["5/12", "0.9"]),
        ("the draw is worth 133/5, about 26.6.", ["133/5", "26.6"]),
    ],
)
def test_figures_are_read_as_written(text: str, expected: list[str]) -> None:
    assert [f.text for f in markdown_figures(text)] == expected


def test_rounding_backs_a_figure_and_a_wrong_number_does_not() -> None:
    [share] = markdown_figures("77.8 %")
    assert _backs(share, figures("0.7783")[0]) and not _backs(share, figures("0.7712")[0])
    [fraction] = markdown_figures("1/12")
    assert _backs(fraction, figures("0.0833")[0]) and not _backs(fraction, figures("0.08")[0])
    assert not _backs(fraction, figures("0.0822")[0])
    [whole] = markdown_figures("608,690 positions")
    assert _backs(whole, figures("608690")[0]) and not _backs(whole, figures("608,691")[0])


if __name__ == "__main__":
    for argument in sys.argv[1:]:
        for line in missing_figures(Path(argument)):
            print(f"{argument} {line}")
