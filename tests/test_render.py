"""The SVG/HTML board, its text twin, score tables, and the plain-words narration."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from ra_core import State, Tile, new_game
from ra_core.bots import random_bot
from ra_core.engine.textboard import text_board
from ra_core.pictures.narrate import join, narrate, tile_words
from ra_core.pictures.svg import TILE_STYLES, html, legend, scores_html, svg, tile_svg
from ra_core.pictures.words import KEPT, SCORED_EACH_EPOCH, facts, scores_text
from ra_core.play import play

SVG = "{http://www.w3.org/2000/svg}"


def _auction_position() -> State:
    s = State.from_dict(
        {
            "players": [
                {"suns_up": [13, 8, 5, 2], "display": {"pharaoh": 2, "flood": 1, "god": 1}},
                {"suns_up": [12, 9, 6, 3], "suns_down": [], "display": {"nile": 2, "art": 1, "pyramid": 3}},
                {"suns_up": [11, 10, 7, 4], "display": {"pharaoh": 1, "gold": 1}},
            ],
            "track": ["gold", "nile", "funeral"],
            "turn_player": 0,
            "ra_count": 2,
        }
    )
    return s.apply("ra").apply("bid 9")


def _labels(doc: ET.Element) -> list[str]:
    return [e.get("aria-label", "") for e in doc.iter() if e.get("aria-label")]


def test_text_board_is_unchanged() -> None:
    """The text board of a new game is the one in the doctests and golden files."""
    assert (
        text_board(new_game(3, suns="table")).splitlines()[0]
        == "epoch 1/3  ra 0/8  center sun 1  bag 180  phase ACTION"
    )


def test_svg_parses_and_shows_every_part() -> None:
    """The SVG is well-formed and carries the tracks, the center sun, every sun and tile, with labels."""
    s = _auction_position()
    doc = ET.fromstring(svg(s))
    labels = _labels(doc)
    assert doc.tag == f"{SVG}svg"
    assert any(label.startswith("Ra track: 2 of 8 Ra tiles drawn; the 8th ends the epoch") for label in labels)
    assert "center sun 1" in labels
    assert [lab for lab in labels if lab.startswith("slot ")] == [f"slot {i}" for i in (1, 2, 3)] + [
        f"slot {i} empty" for i in range(4, 9)
    ]
    suns = [lab for lab in labels if re.fullmatch(r"sun \d+, face (up|down)", lab)]
    assert len(suns) == sum(len(p.suns) for p in s.players) == 12
    for tile in ("gold", "Nile", "funeral", "pyramid, 3 tiles", "pharaoh, 2 tiles", "god", "art"):
        assert tile in labels
    assert "P2: fame 10, decides now" in labels
    assert "P0: fame 10, whose turn it is" in labels
    texts = " ".join(t.text or "" for t in doc.iter(f"{SVG}text"))
    assert "high bid 9 by P1" in texts and "still to bid: P2, P0" in texts and "Bids: P1 bid 9" in texts


def test_svg_is_byte_stable_and_scales() -> None:
    """Same state, same bytes: no dates, ids or addresses; `width` only changes the outer size."""
    s = _auction_position()
    a, b = svg(s), svg(State.from_dict(s.to_dict()))
    assert a == b
    assert not re.search(r"0x[0-9a-f]{6}|id=\"|\d{4}-\d\d-\d\d", a)
    small = svg(s, width=380)
    assert 'width="380"' in small and small.split(">", 1)[1] == a.split(">", 1)[1]
    assert a._repr_svg_() == str(a)


def test_tiles_are_told_apart_without_colour() -> None:
    """Every kind has its own face (a word or an icon); each category its own shape."""
    faces = {re.sub(r' aria-label="[^"]*"|<title>.*?</title>', "", tile_svg(t, 0, 0, 40)) for t in Tile}
    assert len(faces) == len(Tile)
    shapes = {t: TILE_STYLES[t].shape for t in Tile}
    assert len({shapes[Tile.GOD], shapes[Tile.PHARAOH], shapes[Tile.GOLD], shapes[Tile.ART], shapes[Tile.TEMPLE]}) == 5
    assert set(KEPT).isdisjoint(SCORED_EACH_EPOCH)
    doc = ET.fromstring(legend())
    assert len([e for e in doc.iter() if e.get("role") == "img"]) == len(Tile)


def test_facts_are_the_text_twin() -> None:
    """The facts name the epoch limit, the center sun, the track, the auction and every player."""
    s = _auction_position()
    lines = facts(s, you=1, names=["", "", "greedy"])
    text = "\n".join(lines)
    assert "Ra track: 2 of 8 Ra tiles drawn; the 8th ends the epoch." in lines
    assert "Auction track, 3 of 8 slots filled: slot 1 gold, slot 2 Nile, slot 3 funeral." in lines
    assert "Turn: P0. Decides now: P2 (greedy)." in lines
    assert (  # every seat by its one name, in the auction's line too
        "Auction (Ra was called) with P0 as Ra player: high bid 9 by P1 (you); bids so far: P1 (you) bid 9; "
        "still to bid: P2 (greedy), P0." in text
    )
    assert "P2 (greedy): fame 10; suns face up 4, 7, 10, 11" in text
    assert "P1 (you): fame 10; suns face up 3, 6, 9, 12; face down none; kept tiles: Nile 2, pyramid 3; " in text


def test_html_holds_picture_and_words() -> None:
    """`html` gives the SVG and the list of facts."""
    s = _auction_position()
    out = html(s)
    assert out.count("<svg") == 1 and "<details" in out and "The board in words" in out
    assert out.count("<li>") == len(facts(s))


def test_a_position_shows_as_a_picture_even_untrusted() -> None:
    """A notebook shows a `State` as its SVG, a PNG of it (shown where the notebook is not trusted) and its facts.

    No HTML: JupyterLab would prefer it, cleaned of its SVG, in an untrusted notebook.
    """
    import base64

    s = _auction_position()
    bundle = s._repr_mimebundle_()
    assert set(bundle) == {"image/svg+xml", "image/png", "text/plain"}
    assert bundle["image/svg+xml"] == str(svg(s)) and bundle["text/plain"] == "\n".join(facts(s))
    png = base64.b64decode(bundle["image/png"])
    assert png.startswith(b"\x89PNG") and int.from_bytes(png[16:20], "big") == 760  # drawn at the board's width
    from ra_core.pictures.svg import picture

    shown = picture(s, caption=["Your move: " + "a long caption " * 12])["image/svg+xml"]
    ET.fromstring(shown)  # one well-formed picture: the caption wrapped over lines, the board under it
    assert shown.count("<svg") == 2 and shown.count("Your move:") == 1


def test_game_over_and_scores() -> None:
    """At the end the board names the winner; the score tables list every epoch, player and category."""
    final = play([random_bot] * 4, seed=3).replay()
    assert "Game over" in facts(final)[0]
    ET.fromstring(svg(final))
    table = scores_text(final.scores)
    assert len(table.splitlines()) == 1 + 3 * 4
    assert table.splitlines()[0].split("  ") == [  # the categories by their one name, as on the board
        "epoch", "player", "gods", "pharaohs", "Nile and floods", "civilizations", "gold", "monuments", "suns", "net",
        "fame",
    ]  # fmt: skip
    h = scores_html(final.scores, you=0)
    assert h.count("<tr>") == 1 + 12 and "P0 (you)" in h
    assert scores_text(()) == "No epoch has been scored yet."


def test_tile_words_and_join() -> None:
    """Tiles read as plain English."""
    assert [tile_words(t) for t in (Tile.GOLD, Tile.NILE, Tile.FUNERAL, Tile.OBELISK, Tile.ART)] == [
        "gold", "Nile", "a funeral", "an obelisk", "art"
    ]  # fmt: skip
    assert tile_words(Tile.PHARAOH, 2) == "2 pharaohs" and tile_words(Tile.SPHINX, 3) == "3 sphinxes"
    assert join(["a", "b", "c"]) == "a, b and c" and join(["a"]) == "a" and join([]) == ""


def test_narrate_the_example_from_the_issue() -> None:
    """The winning bid of a lot with a funeral reads as one sentence, losses included."""
    s = State.from_dict(
        {
            "players": [
                {"suns_up": [13, 8, 5, 2]},
                {"suns_up": [11, 10, 7, 4]},
                {"suns_up": [12, 9, 6, 3], "display": {"pharaoh": 2}},
            ],
            "track": ["gold", "nile", "funeral"],
            "turn_player": 2,
        }
    )
    s = s.apply("ra").apply("pass").apply("pass")
    won = "P2 bid 9 and won gold, Nile, a funeral and the center sun 1; lost 2 pharaohs."
    assert narrate(s, "bid 9", s.apply("bid 9")) == won  # every tile and the sun taken are named


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_narrate_whole_games(players: int) -> None:
    """Every action of whole games reads as a sentence naming its player; epoch ends are scored."""
    for seed in range(3):
        record = play([random_bot] * players, seed=seed)
        states = list(record.states())
        lines = [narrate(b, a, c) for b, a, c in zip(states, record.actions, states[1:], strict=False)]
        assert all(re.match(r"P\d", line) and line.endswith(".") and "None" not in line for line in lines)
        assert sum("is scored" in line for line in lines) == 3
        assert "Game over" in lines[-1]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_position_of_whole_games_renders(players: int) -> None:
    """Every state of whole games, every phase included, gives a well-formed board and its facts."""
    from ra_core import Phase, Rules

    rules = Rules.two_player(ra_limit=6) if players == 2 else None
    phases = set()
    for seed in range(2):
        for s in play([random_bot] * players, seed=seed, rules=rules).states():
            phases.add(s.phase)
            doc = ET.fromstring(svg(s, you=0))
            labels = _labels(doc)
            assert sum(1 for lab in labels if lab.startswith("slot ")) == 8
            lines = facts(s, you=0)
            assert sum(1 for line in lines if re.match(r"P\d( \(you\))?: fame", line)) == players
            assert html(s).count("<li>") == len(lines)
    assert {Phase.ACTION, Phase.REVEAL, Phase.BID, Phase.GAME_OVER} <= phases


def test_since_last_move_tells_your_last_decision_and_everything_after_it() -> None:
    """At each of your decisions: your previous decision, then every move since, a draw and its tile as one line."""
    from ra_core.pictures.narrate import since_last_move

    record = play([random_bot] * 3, seed=4)
    states, actions = list(record.states()), list(record.actions)
    mine = [k for k in range(len(actions)) if states[k].to_move == 0]
    for before, now in zip(mine, mine[1:], strict=False):
        lines = since_last_move(states[: now + 1], actions[:now], 0, most=1000)
        told = [k for k in range(before, now) if not (actions[k] == "draw" and actions[k + 1].startswith("reveal"))]
        assert lines == [narrate(states[k], actions[k], states[k + 1], you=(0,)) for k in told]
        assert lines[0].startswith("P0 (you)")
        short = since_last_move(states[: now + 1], actions[:now], 0, most=3)
        assert short == lines if len(lines) <= 3 else short[1:] == lines[-2:] and "earlier moves" in short[0]
