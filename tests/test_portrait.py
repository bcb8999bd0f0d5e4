"""The phone's board (ra_core.pictures.portrait): the same choices as the landscape board, all big enough to tap.

At every decision of whole games (hot seat, so every kind of decision comes up, the steps of a
god and of a disaster's losses included) the portrait board offers exactly the pieces the
landscape board offers; each piece's frame is at least 49 units square (44 CSS px and more when
the 400-unit board is 360 px wide or wider) and lies inside the picture, the "put back" of a tile
picked to lose included (no piece nested in another); and the board's height
does not change when an auction starts or ends.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ra_core.bots import random_bot
from ra_core.engine.actions import Discard, UseGod
from ra_core.pictures.portrait import WIDTH, portrait_svg
from ra_core.widgets import TableController
from ra_core.widgets.board import BoardClicks

NS = "{http://www.w3.org/2000/svg}"
SMALLEST = 49  #: units: 44 CSS px at 360 px for the 400-unit board across the screen


def targets(svg: str) -> set[str]:
    return {f"{k}:{v}" for k, v in re.findall(r'data-(action|ui)="([^"]*)"', svg)}


def frames(svg: str) -> tuple[float, list[tuple[str, float, float, float, float]]]:
    """Return the picture's height and each outermost piece's frame box (what, left, top, width, height)."""
    doc = ET.fromstring(svg)
    height = float(doc.get("height", "0"))
    pieces = [g for g in doc.iter(f"{NS}g") if g.get("data-action") or g.get("data-ui")]
    nested = [inner for g in pieces for inner in g.iter(f"{NS}g") if inner is not g and inner in pieces]
    assert not nested, f"a piece inside another, too small to tap on its own: {nested[0].get('aria-label')}"
    out = []
    for g in pieces:
        mark = next(e for e in g if "ra-mark" in e.get("class", ""))
        if mark.tag == f"{NS}circle":
            cx, cy, r = (float(mark.get(k, "0")) for k in ("cx", "cy", "r"))
            box = (cx - r, cy - r, 2 * r, 2 * r)
        else:
            box = tuple(float(mark.get(k, "0")) for k in ("x", "y", "width", "height"))  # type: ignore[assignment]
        out.append((g.get("data-action") or g.get("data-ui") or "", *box))
    return height, out


def check(board: BoardClicks) -> float:
    """Check the portrait board at this position against the landscape one; return its height."""
    phone = board.svg(portrait=True)
    assert targets(phone) == targets(board.svg()), board.controller.text()
    height, boxes = frames(phone)
    for what, x, y, w, h in boxes:
        assert w >= SMALLEST and h >= SMALLEST, (what, w, h)
        assert x >= 0 and x + w <= WIDTH and y >= 0 and y + h <= height, (what, x, y, w, h)
    return height


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_phone_board_offers_every_choice_big_enough_to_tap(players: int) -> None:
    """Whole games: the same pieces as the landscape board, each framed 49 units or more, inside the board."""
    for seed in range(2):
        board = BoardClicks(TableController(players, you=range(players), seed=seed, bots=random_bot))
        c = board.controller
        rng = c.bot_rngs[0]
        kinds: set[str] = set()
        while not c.state.is_terminal():
            board.scored = len(c.state.scores)
            before = check(board)
            legal = c.state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
            kinds.add(type(action).__name__)
            if isinstance(action, UseGod):
                assert board.press(ui="god")
                check(board)
            elif isinstance(action, Discard) and action.tiles:
                for tile in action.tiles:
                    assert board.press(ui=f"pick {tile.label}")
                    check(board)
            auction = c.state.auction is not None
            assert board.press(action=str(action)), c.message
            board.scored = len(c.state.scores)
            if (c.state.auction is not None) != auction and not c.state.is_terminal():
                kept = sum(1 for t in c.state.players[c.state.to_move].display if t) < 15
                assert check(board) == before or not kept, "the board's height moved as an auction began or ended"
        assert {"Draw", "CallRa", "Bid", "Pass"} <= kinds


def test_the_phone_board_is_well_formed_and_scales_to_a_phone() -> None:
    """One picture, 400 units wide at 400 px (so a unit is about a CSS pixel on a phone), with its title."""
    from ra_core import new_game

    s = new_game(4, seed=2)
    doc = ET.fromstring(str(portrait_svg(s, you=1)))
    assert doc.get("width") == str(WIDTH) and doc.get("viewBox", "").startswith(f"0 0 {WIDTH} ")
    assert "P1 (you)" in "".join(doc.itertext())


@pytest.mark.parametrize(("players", "names"), [(3, []), (4, ["Ann", "P1", "Bo (P1)", ""]), (5, ["a\x00b"] * 5)])
def test_boards_drawn_together_are_each_the_board_drawn_alone(players: int, names: list[str]) -> None:
    """`Portraits` draws what the seats' boards share once; each seat's board is still `portrait_svg`'s, byte for byte.

    Every position of whole games, every seat in a new order each time, with what differs
    between seats: his name "(you)", his clicks (a god chosen, tiles picked to lose), the other
    player's last move marked, a seat with no controls, no names, names that look like one
    another, names that the words told once for every seat cannot stand for. Each position's
    boards take the pieces that did not change from the boards of the position before.
    """
    import random

    from ra_core import new_game
    from ra_core.pictures.controls import Controls
    from ra_core.pictures.portrait import Portraits

    for seed in range(2):
        s, rng = new_game(players, seed=seed), random.Random(seed)
        last: tuple[int, str] | None = None
        boards = None
        while not s.is_terminal():
            if s.is_chance_node():
                s = s.apply(s.legal_actions()[0])
                continue
            legal = tuple(s.legal_actions())
            discard = next((a for a in legal if isinstance(a, Discard) and a.tiles), None)
            picked = discard.tiles[: rng.randint(0, len(discard.tiles))] if discard else ()
            god = any(isinstance(a, UseGod) for a in legal) and rng.random() < 0.5
            boards = Portraits(s, names, before=boards)
            seats: list[int | None] = [*range(players), None]
            rng.shuffle(seats)
            for you in seats:
                mine = you == s.to_move
                controls = Controls(legal if mine else (), god and mine, picked if mine else (), last)
                for kept in (controls, None):
                    alone = portrait_svg(s, you=you, names=names, controls=kept)
                    assert boards.board(you=you, controls=kept) == alone, (seed, you, s.epoch)
            action = legal[rng.randrange(len(legal))]
            last = (s.to_move, str(action))
            s = s.apply(action)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(["a", "Bob", " ", "  ", "-", "\t", "\u00a0", "é", "(you)", ";", "w" * 30, "x" * 61])))
def test_the_board_wraps_its_words_as_textwrap_does(parts: list[str]) -> None:
    """The board's own cut of its words into rows is textwrap's, for words and spaces and for anything else."""
    import textwrap

    from ra_core.pictures.portrait import _wrapped

    line = "".join(parts)
    assert _wrapped(line) == tuple(textwrap.wrap(line, 60))
