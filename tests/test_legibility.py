"""Every picture reads at the size it is shown: text of 10 px or more, full names, counts that overlap nothing.

The sizes are measured in the SVG we generate: a ``<text>``'s ``font-size`` times the picture's
scale, which is its displayed width over its ``viewBox`` width. In a notebook the board is
shown at its ``width`` attribute; in the game table, the stylesheet (``table.css``) fits it to
the board's column, so the column's width counts. Text boxes are estimated from the font
size (a bold sans-serif letter is at most 0.66 em wide on average over a word).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ra_core import State, Tile, new_game
from ra_core.bots import random_bot
from ra_core.engine.tiles import FULL_BAG
from ra_core.pictures.icons import LABELS, WORD_TILES
from ra_core.pictures.pieces import legend, tile_svg
from ra_core.pictures.svg import svg
from ra_core.pictures.words import tile_name
from ra_core.play import play_game
from ra_core.widgets import TableController
from ra_core.widgets.board import BoardClicks
from ra_core.widgets.explorers import AuctionExplorer, DisasterExplorer

NS = "{http://www.w3.org/2000/svg}"
TABLE_CSS = Path(__file__).resolve().parents[1] / "ra_core" / "widgets" / "table.css"
MIN_PX = 10.0
Box = tuple[float, float, float, float]  # left, top, right, bottom


def table_column_px() -> float:
    """Return the width of the game table's board column, read from its stylesheet."""
    found = re.search(r"grid-template-columns:\s*minmax\(0,\s*(\d+)px\)", TABLE_CSS.read_text())
    assert found, "table.css no longer sets the board column's width: update this test"
    return float(found.group(1))


def scale_of(doc: ET.Element, shown: float | None = None) -> float:
    """Return how many pixels one unit of the picture takes: the width shown over the viewBox width."""
    view = doc.get("viewBox")
    width = float(doc.get("width", "0"))
    return (shown or width) / float(view.split()[2]) if view else 1.0


def texts(node: ET.Element, scale: float = 1.0) -> Iterator[tuple[ET.Element, float]]:
    """Yield every ``<text>`` under `node` with its scale (transforms with ``scale(k)`` included)."""
    found = re.search(r"scale\(([\d.]+)", node.get("transform", ""))
    scale *= float(found.group(1)) if found else 1.0
    if node.tag == f"{NS}text":
        yield node, scale
    for child in node:
        yield from texts(child, scale)


def text_box(e: ET.Element, scale: float = 1.0) -> Box:
    """Return the estimated box of a ``<text>`` in picture units."""
    size = float(e.get("font-size", "0"))
    width = 0.66 * size * len("".join(e.itertext()))
    x, y = float(e.get("x", "0")), float(e.get("y", "0"))
    left = {"start": x, "middle": x - width / 2, "end": x - width}[e.get("text-anchor", "start")]
    return left, y - 0.75 * size, left + width, y + 0.25 * size


def shape_box(g: ET.Element) -> Box:
    """Return the box of a tile group's outline (its first polygon, rect, circle or path)."""
    shape = next(e for e in g if e.tag != f"{NS}title")
    if shape.tag == f"{NS}circle" and shape.get("fill") == "none":  # the Ra tile's rays
        shape = next(e for e in g if e.tag == f"{NS}circle" and e.get("fill") != "none")
    if shape.tag == f"{NS}rect":
        x, y = float(shape.get("x", "0")), float(shape.get("y", "0"))
        return x, y, x + float(shape.get("width", "0")), y + float(shape.get("height", "0"))
    if shape.tag == f"{NS}circle":
        cx, cy, r = (float(shape.get(k, "0")) for k in ("cx", "cy", "r"))
        return cx - r, cy - r, cx + r, cy + r
    if shape.tag == f"{NS}polygon":
        nums = [float(v) for v in re.findall(r"-?[\d.]+", shape.get("points", ""))]
    else:  # a wave: its absolute corners are the M and L points
        nums = [float(v) for v in re.findall(r"[ML](-?[\d.]+),(-?[\d.]+)", shape.get("d", "")) for v in v]
    xs, ys = nums[0::2], nums[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def tile_groups(doc: ET.Element) -> Iterator[tuple[Tile, ET.Element]]:
    """Yield every tile drawn in the picture, with its group (found by its name in the label)."""
    names = {tile_name(t): t for t in Tile}
    for g in doc.iter(f"{NS}g"):
        name = g.get("aria-label", "").split(",")[0]
        if g.get("role") == "img" and name in names:
            yield names[name], g


def boards() -> Iterator[tuple[str, str, float | None]]:
    """Yield (what, SVG, width shown or None for its width attribute): boards of whole games, in
    notebooks and in the game table, with their controls, scores and a disaster being chosen."""
    for seed in (1, 2):
        record = play_game([random_bot] * (3 + seed), seed=seed)
        states = list(record.states())
        for s in states[:: max(1, len(states) // 12)] + states[-1:]:
            yield "notebook board", str(svg(s)), None
    board = BoardClicks(TableController(3, you=0, seed=4))
    c = board.controller
    for _ in range(40):
        yield "table board", board.svg(), table_column_px()
        if c.state.is_terminal():
            break
        if board.scores_due():
            board.press(ui="dismiss")
        else:
            board.press(action=str(c.state.legal_actions()[-1]), version=c.version)
    yield "table board", piles_being_lost().svg(), table_column_px()
    yield "auction explorer", AuctionExplorer().board_html(), None
    yield "disaster explorer", DisasterExplorer("earthquake", {"temple": 12, "pyramid": 3}).html(), None
    yield "legend", str(legend()), None


def piles_being_lost() -> BoardClicks:
    """Return a table where P0 has big piles of every kind and has picked tiles to lose to an earthquake."""
    suns: list[dict[str, Any]] = [{"suns_up": list(up)} for up in ((13, 6, 2), (12, 7, 3), (11, 8, 4), (10, 9, 5))]
    kinds = (
        "pharaoh",
        "nile",
        "fortress",
        "obelisk",
        "palace",
        "pyramid",
        "sphinx",
        "statue",
        "step-pyramid",
        "temple",
        "god",
        "gold",
        "flood",
        "art",
        "agriculture",
        "religion",
        "astronomy",
        "writing",
    )
    suns[0]["display"] = {k: min(12, FULL_BAG[Tile.from_label(k)]) for k in kinds}  # two-digit piles too
    owed = {"player": 0, "owed": [["earthquake", 2]], "after": "auction"}
    s = State.from_dict({"players": suns, "phase": "discard", "turn_player": 0, "discard": owed}, strict=False)
    c = TableController(4, you=range(4), seed=1)
    c.states.append(s)
    c.version += 1
    board = BoardClicks(c)
    assert board.press(ui="pick temple", version=c.version) and board.press(ui="pick pyramid", version=c.version)
    return board


def pictures() -> Iterator[tuple[str, ET.Element, float]]:
    """Yield (what, each ``<svg>`` root, its scale) of every picture of `boards`."""
    for what, markup, shown in boards():
        for found in re.findall(r"<svg.*?</svg>", markup, re.S):
            doc = ET.fromstring(found)
            yield what, doc, scale_of(doc, shown)


def test_no_text_under_10_px_where_it_is_shown() -> None:
    """Every word and number on the boards, the explorers' pictures and the key is at least 10 px tall."""
    smallest: dict[str, float] = {}
    for what, doc, scale in pictures():
        for e, k in texts(doc, scale):
            px = float(e.get("font-size", "0")) * k
            assert px >= MIN_PX, f"{what}: {''.join(e.itertext())!r} is {px:.1f} px"
            smallest[what] = min(smallest.get(what, px), px)
    assert set(smallest) == {"notebook board", "table board", "auction explorer", "disaster explorer", "legend"}


def test_the_table_board_is_scaled_down_and_the_check_sees_it() -> None:
    """The check above measures what is shown: the table's board is narrower than its 760 units."""
    doc = ET.fromstring(BoardClicks(TableController(3, you=0, seed=4)).svg())
    assert scale_of(doc, table_column_px()) < 0.9
    small = ET.fromstring(str(svg(new_game(3, seed=1), width=380)))
    assert min(float(e.get("font-size", "0")) * k for e, k in texts(small, scale_of(small))) < MIN_PX


def test_every_tile_kind_is_told_apart_without_the_key() -> None:
    """A tile shows its full name, or an icon over its own short label; its tooltip and label give the full name.

    The labels are one per kind (no two alike), each the name itself or a part of it ("Agri.",
    "Quake"), so that the eight monuments, which share their colour and outline, are told apart
    on the board itself.
    """
    for t, word in WORD_TILES.items():
        assert word.lower() == tile_name(t).lower()
    assert set(LABELS) | set(WORD_TILES) == set(Tile) and len(set(LABELS.values())) == len(LABELS)
    for t, label in LABELS.items():
        head = label.rstrip(".").lower()
        assert head in tile_name(t).lower(), (t, label)  # a part of the name, never a new word
    seen = set()
    for what, doc, _ in pictures():
        for t, g in tile_groups(doc):
            seen.add(t)
            assert g.findtext(f"{NS}title", "").split(",")[0] == tile_name(t), what
            for e in g.iter(f"{NS}text"):
                word = "".join(e.itertext())
                allowed = (tile_name(t).lower(), LABELS.get(t, "").lower())
                assert word.lower() in allowed or re.fullmatch(r"\u00d7\d+", word), (what, t, word)
    assert seen == set(Tile)


@pytest.mark.parametrize("size", [34, 36, 40, 44])
def test_words_stay_inside_their_tile(size: int) -> None:
    """The words written on tiles ("Ra", "God", "Art") fit inside the tile's outline."""
    for t in WORD_TILES:
        g = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{tile_svg(t, 0, 0, size)}</svg>')[0]
        left, top, right, bottom = shape_box(g)
        shape = next(e for e in g if e.tag in (f"{NS}polygon", f"{NS}circle") and e.get("fill") != "none")
        for e in g.iter(f"{NS}text"):
            x0, y0, x1, y1 = text_box(e)
            corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
            if shape.tag == f"{NS}circle":
                cx, cy, r = (float(shape.get(k, "0")) for k in ("cx", "cy", "r"))
                assert all((x - cx) ** 2 + (y - cy) ** 2 <= r * r for x, y in corners), (t, size)
            else:
                assert left <= x0 and x1 <= right and top <= y0 and y1 <= bottom, (t, size)
                flat = [float(v) for v in shape.get("points", "").replace(",", " ").split()]
                assert all(_inside(flat, x, y) for x, y in corners), (t, size)


def _inside(flat: list[float], x: float, y: float) -> bool:
    pts = list(zip(flat[0::2], flat[1::2], strict=True))
    inside = False
    for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def test_counts_overlap_no_tile_and_no_word() -> None:
    """A pile's count (and a tile's mark "-1" when it is chosen to lose) covers no tile and no other word."""
    checked = 0
    for what, doc, _ in pictures():
        tiles = [shape_box(g) for _, g in tile_groups(doc)]
        words = [(e, text_box(e)) for e, _ in texts(doc)]
        for e, box in words:
            if "ra-count" not in e.get("class", ""):
                continue
            checked += 1
            assert not any(overlap(box, t) for t in tiles), (what, "".join(e.itertext()))
            others = [b for o, b in words if o is not e and overlap(box, b)]
            assert not others, (what, "".join(e.itertext()), others)
    assert checked > 50


def test_every_piece_you_may_click_is_framed_and_no_other() -> None:
    """Each clickable piece carries its blue frame, visible without hover; nothing else on the board has one."""
    framed = 0
    for what, doc, _ in pictures():
        pieces = [g for g in doc.iter(f"{NS}g") if g.get("data-action") is not None or g.get("data-ui") is not None]
        nested = {inner for g in pieces for inner in g.iter(f"{NS}g") if inner is not g and inner in pieces}
        for g in pieces:
            marks = [e for e in g if "ra-mark" in e.get("class", "")]
            if g in nested:  # a "-1" label on a pile you may click: the pile's frame holds it
                assert not marks, what
                continue
            assert len(marks) == 1, (what, g.get("aria-label"))
            assert marks[0].get("stroke-width") == "3" and marks[0].get("fill") == "none"
            framed += 1
        inside = {e for g in pieces for e in g.iter()}
        stray = [e for e in doc.iter() if "ra-mark" in e.get("class", "") and e not in inside]
        assert not stray, what
    assert framed > 40


def test_pieces_that_are_no_choice_now_are_faded_not_framed() -> None:
    """While you bid, the bag and the Ra statue are outlines only and take no click; their words keep the theme's ink.

    Not a fade of their colours: a dashed outline in the theme's ink keeps 3:1 against the
    paper in both themes (tests/browser/test_board_in_browser.py measures it).
    """
    board = BoardClicks(TableController(3, you=range(3), seed=2))
    assert board.press(action="ra")
    doc = ET.fromstring(board.svg())
    for label in ("Draw a tile: not now", "Call Ra: not now"):
        piece = next(g for g in doc.iter(f"{NS}g") if g.get("aria-label") == label)
        shapes = piece.find(f"{NS}g")
        assert shapes is not None and len(shapes) == 2
        assert all(
            e.get("class") == "ra-fade" and e.get("fill") == "none" and e.get("stroke-dasharray") for e in shapes
        )
        assert all("ra-ink" in t.get("class", "") for t in piece.iter(f"{NS}text"))  # the words, full strength


def test_the_loss_mark_crowds_nothing() -> None:
    """A tile chosen to lose carries its "-1" on the tile's corner: clear of the count under it and of other words."""
    doc = ET.fromstring(piles_being_lost().svg())
    words = [(e, text_box(e)) for e, _ in texts(doc)]
    marks = [(e, box) for e, box in words if "".join(e.itertext()).startswith("\u2212")]
    assert len(marks) == 2
    for mark, box in marks:
        assert not [o for o, b in words if o is not mark and overlap(box, b)], "".join(mark.itertext())


def test_the_key_names_every_kind_that_shows_an_icon() -> None:
    """Every tile kind drawn as an icon on a board is named in the key under it (the others carry their word)."""
    named = 0
    for what, doc, _ in pictures():
        if what not in ("notebook board", "table board"):
            continue
        words = {"".join(e.itertext()) for e, _ in texts(doc)}
        for t, _ in tile_groups(doc):
            if t not in WORD_TILES:
                assert tile_name(t) in words, (what, t)
                named += 1
    assert named > 100
