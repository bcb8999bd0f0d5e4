"""The test vectors of docs/rules.md §3 (TV-A1..TV-A5, TV-01..TV-44), one test (or one case) each.

Every test is named after its vector (``test_tv_27_...``) and quotes the rules it checks.
Scoring vectors call the pure functions of `ra_core.engine.scoring`; turn, auction, god and
disaster vectors play the vector's actions on a real `State`.

How a vector's action is played (see `run`):

    "P1 DRAW RA"                 -> "draw", then the chance outcome "reveal ra"
    "P1 CALL_RA"                 -> "ra"
    "P2 BID 8" / "P2 PASS"       -> "bid 8" / "pass"
    "P0 USE_GODS FUNERAL@1,..."  -> "god 1", ... (one god per step; the tile on the slot is checked)

and before every step we check that the seat named in the vector ("P1") is the one to move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from ra_core import (
    Discard,
    IllegalActionError,
    Phase,
    Rules,
    State,
    Tile,
    UseGod,
    new_game,
    parse_action,
)
from ra_core.bots import random_bot
from ra_core.engine.positions import position as build
from ra_core.engine.records import Breakdown, Player, Trigger
from ra_core.engine.scoring import (
    civilization_points,
    god_points,
    gold_points,
    monument_points,
    pharaoh_points,
    river_points,
    score_epoch,
    sun_points,
)
from ra_core.engine.tiles import as_dict, counts
from ra_core.play import play_game

from .positions import S4_SUNS_UP, running

# ---------------------------------------------------------------------------------------------
# Helpers: building positions, playing vector actions, reading the result
# ---------------------------------------------------------------------------------------------


#: Vector verbs -> engine notation.
VERBS = {
    "DRAW": "draw",
    "CALL_RA": "ra",
    "BID": "bid",
    "PASS": "pass",
    "USE_GOD": "god",
    "DISCARD": "discard",
}


def tiles(names: dict[str, int]) -> dict[Tile, int]:
    """Return a vector count map ``{"PHARAOH": 2, "GOLD": 0}`` as ``{Tile.PHARAOH: 2}``.

    Zero counts are dropped, so the result compares equal to `display`.
    """
    return {Tile[name]: n for name, n in names.items() if n}


def display(state: State, seat: int) -> dict[Tile, int]:
    """Return the whole display of `seat` as ``{Tile: n}`` (zeros dropped)."""
    return as_dict(state.players[seat].display)


def boxed(before: State, after: State) -> dict[Tile, int]:
    """Return the tiles that went to the box between `before` and `after`."""
    return as_dict(tuple(a - b for a, b in zip(after.box, before.box, strict=True)))


def track(state: State) -> list[str]:
    """Return the auction track in vector notation: 8 tile names, ``"_"`` for an empty slot."""
    return [t.name if t is not None else "_" for t in state.track]


def padded(slots: Sequence[str]) -> list[str]:
    """Return a vector track padded with empty slots to the 8 auction spaces."""
    return list(slots) + ["_"] * (8 - len(slots))


def position(
    players: list[dict[str, Any]],
    *,
    track: Sequence[str] = (),
    ra_count: int = 0,
    to_act: int | None = None,
    rules: Rules | None = None,
) -> State:
    """Return a vector's position (`ra_core.engine.positions.position`; bag = every tile not placed elsewhere)."""
    fields: dict[str, Any] = {} if to_act is None else {"turn_player": to_act}
    return build(players, track=track, ra_count=ra_count, rules=rules, **fields)


def s4(
    *,
    track: Sequence[str] = (),
    ra_count: int = 0,
    to_act: int = 1,
    displays: dict[int, dict[str, int]] | None = None,
    rules: Rules | None = None,
) -> State:
    """Return the 4-player start state S4 of §3.4 with the vector's changes."""
    displays = displays or {}
    players = [{"suns_up": up, "display": displays.get(seat, {})} for seat, up in enumerate(S4_SUNS_UP)]
    return position(players, track=track, ra_count=ra_count, to_act=to_act, rules=rules)


def who(state: State) -> str:
    """Return who decides now, for messages: "P2" or "chance"."""
    return "chance" if state.is_chance_node() else f"P{state.to_move}"


def run(state: State, *actions: str) -> State:
    """Play vector actions such as ``"P1 DRAW RA"`` and return the final state.

    Before each step, the seat named in the action must be the one to move.
    """
    for text in actions:
        seat_text, verb, *rest = text.split(maxsplit=2)
        seat, arg = int(seat_text.removeprefix("P")), (rest[0] if rest else "")
        if verb == "USE_GODS":  # "FUNERAL@1,PHARAOH@2": one god per target, in order
            for target in arg.split(","):
                name, slot = target.split("@")
                assert state.to_move == seat, f"{text!r}: expected P{seat} to move, but {who(state)} is"
                assert state.track[int(slot) - 1] is Tile[name], f"{text!r}: slot {slot} holds {track(state)}"
                state = state.apply(f"god {slot}")
            continue
        assert state.to_move == seat, f"{text!r}: expected P{seat} to move, but {who(state)} is"
        if verb == "DRAW":
            state = state.apply("draw")
            assert state.is_chance_node(), f"{text!r}: a draw must be followed by a chance reveal"
            state = state.apply(f"reveal {arg}")
        else:
            state = state.apply(f"{VERBS[verb]} {arg}".strip())
    return state


def assert_legal(state: State, seat: int, expected: list[str]) -> None:
    """Check that `seat` is to move and the legal actions are exactly `expected` (vector words)."""
    assert state.to_move == seat, f"expected P{seat} to move, but {who(state)} is"
    legal = state.legal_actions()
    assert len(legal) == len(set(legal)), f"duplicate legal actions: {legal}"
    want = [parse_action(" ".join([VERBS[choice.split()[0]], *choice.split()[1:]])) for choice in expected]
    assert len(want) == len(set(want)), f"the expected list has duplicates: {expected}"
    assert set(legal) == set(want), (
        f"P{seat}: legal actions {sorted(map(str, legal))}, expected exactly {sorted(map(str, want))}"
    )


def assert_next(state: State, seat: int) -> None:
    """Check that it is now the ordinary turn (draw / call Ra / gods) of `seat`."""
    assert state.phase is Phase.ACTION, f"expected a new turn, but the phase is {state.phase.name}"
    assert state.auction is None, "the auction should be over"
    assert (state.turn_player, state.to_move) == (seat, seat), f"next should be P{seat}, but {who(state)} is"


def assert_suns(state: State, seat: int, up: list[int], down: list[int] | None = None) -> None:
    """Check the face-up (and optionally face-down) suns of `seat`."""
    p = state.players[seat]
    assert list(p.suns_up) == sorted(up), f"P{seat} face-up suns {p.suns_up}, expected {sorted(up)}"
    if down is not None:
        assert list(p.suns_down) == sorted(down), f"P{seat} face-down suns {p.suns_down}, expected {sorted(down)}"


def canon(d: dict[Tile, int]) -> tuple[tuple[Tile, int], ...]:
    """Return a display as a hashable, sortable value (for comparing sets of results)."""
    return tuple(sorted(d.items()))


def win_lot(before: dict[str, int], lot: list[str]) -> tuple[State, State]:
    """P1 of S4 owns `before`, calls Ra on a track holding `lot`, everybody passes, P1 bids 3.

    Returns the position before the call and the position right after P1's bid (which is a
    DISCARD decision if the lot holds a disaster with a real choice, R53).
    """
    start = s4(track=lot, to_act=1, displays={1: before})
    return start, run(start, "P1 CALL_RA", "P2 PASS", "P3 PASS", "P0 PASS", "P1 BID 3")


def reachable_displays(state: State, seat: int) -> list[tuple[tuple[Tile, int], ...]]:
    """Return every display `seat` can end up with.

    That is one display per legal discard choice (R53), or the one forced result.
    """
    if state.phase is Phase.DISCARD:
        assert state.to_move == seat, f"P{seat} should choose the discards, but {who(state)} is to move"
        return sorted(canon(display(state.apply(a), seat)) for a in state.legal_actions())
    return [canon(display(state, seat))]


# ---------------------------------------------------------------------------------------------
# §3.1 Examples printed in the rulebooks
# ---------------------------------------------------------------------------------------------


def test_tv_a1_monument_example() -> None:
    """TV-A1, R70: "Diversity: d points if 1 <= d <= 6 ... Multiplicity: for each type with exactly
    3 / 4 / 5 copies: +5 / +10 / +15. Every tile counts toward both parts."
    4 distinct = 4; four pyramids +10; three temples +5; the 2nd fortress scores nothing."""
    monuments = counts(tiles({"PYRAMID": 4, "TEMPLE": 3, "FORTRESS": 2, "SPHINX": 1}))
    assert monument_points(monuments) == 19


def test_tv_a2_sun_example() -> None:
    """TV-A2, R71: "Every player tied for the highest sum gets +5; every player tied for the
    lowest sum gets -5; if all sums are equal nobody scores." """
    assert sun_points([17, 25, 21, 17]) == [-5, +5, 0, -5]


@pytest.mark.parametrize(
    ("pharaohs", "expected"),
    [([4, 3, 3, 4], [+5, -2, -2, +5]), ([3, 2, 2, 3], [+5, -2, -2, +5])],
    ids=["HU-4-3-3-4", "RU-ZH-3-2-2-3"],
)
def test_tv_a3_pharaoh_example(pharaohs: list[int], expected: list[int]) -> None:
    """TV-A3, R64: "every player tied for the most Pharaohs gets +5; every player tied for the
    fewest gets -2." """
    assert pharaoh_points(pharaohs) == expected


@pytest.mark.parametrize(
    ("civs", "expected"),
    [
        ({"ASTRONOMY": 3, "AGRICULTURE": 2, "WRITING": 2}, 5),
        ({"ASTRONOMY": 1, "AGRICULTURE": 1, "WRITING": 1}, 5),  # [RU] "she would get the same"
        (
            {"ASTRONOMY": 3, "AGRICULTURE": 2, "WRITING": 2, "ART": 1},
            10,
        ),  # [HU] "had he won one Art"
    ],
    ids=["3-kinds-with-duplicates", "3-kinds", "4-kinds"],
)
def test_tv_a4_civilization_example(civs: dict[str, int], expected: int) -> None:
    """TV-A4, R66: "d = 3: +5. d = 4: +10 ... Duplicates never add anything (only one set is
    scored)." """
    assert civilization_points(counts(tiles(civs))) == expected


@pytest.mark.parametrize(
    ("flood", "nile", "expected"),
    [(1, 3, 4), (2, 0, 2), (0, 4, 0)],
    ids=["flood1-nile3", "flood2-nile0", "flood0-nile4"],
)
def test_tv_a5_river_example(flood: int, nile: int, expected: int) -> None:
    """TV-A5, R65: "if the player has at least one Flood, he scores +1 per Nile and +1 per Flood;
    with no Flood he scores 0 for the river group." """
    assert river_points(counts({Tile.FLOOD: flood, Tile.NILE: nile})) == expected


# ---------------------------------------------------------------------------------------------
# §3.2 Scoring scenarios
# ---------------------------------------------------------------------------------------------


def test_tv_01_all_equal_pharaohs_nobody_scores() -> None:
    """TV-01, R64: "if all players have the same number, nobody scores" (not +3 each)."""
    assert pharaoh_points([3, 3, 3]) == [0, 0, 0]


def test_tv_02_all_zero_pharaohs_nobody_scores() -> None:
    """TV-02, R64: "players with 0 Pharaohs are 'fewest' unless everybody has 0"."""
    assert pharaoh_points([0, 0, 0, 0]) == [0, 0, 0, 0]


def test_tv_03_zero_pharaohs_count_as_fewest() -> None:
    """TV-03, R64: "0 counts as a number: players with 0 Pharaohs are 'fewest'"."""
    assert pharaoh_points([0, 2, 0]) == [-2, +5, -2]


@pytest.mark.parametrize(
    ("pharaohs", "expected"),
    [
        ([4, 4, 4, 4, 1], [+5, +5, +5, +5, -2]),
        ([1, 1, 1, 1, 4], [-2, -2, -2, -2, +5]),
        ([5, 3, 3, 1, 1], [+5, 0, 0, -2, -2]),
    ],
    ids=["four-tied-most", "four-tied-fewest", "ties-at-both-ends"],
)
def test_tv_04_five_players_ties(pharaohs: list[int], expected: list[int]) -> None:
    """TV-04, R64: "every player tied for the most Pharaohs gets +5; every player tied for the
    fewest gets -2 ... +5 for c_i == hi, -2 for c_i == lo, 0 otherwise." """
    assert pharaoh_points(pharaohs) == expected


TWO_PLAYER_RULES = {
    "default": Rules.two_player(),
    "no_penalty-final": Rules.two_player(no_penalty=True, no_penalty_scope="final"),
    "no_penalty-all_epochs": Rules.two_player(no_penalty=True, no_penalty_scope="all_epochs"),
}


@pytest.mark.parametrize(
    ("variant", "epoch", "expected"),
    [
        ("default", 1, [+5, -2]),
        ("default", 2, [+5, -2]),
        ("default", 3, [+5, -2]),
        ("no_penalty-final", 1, [+5, -2]),
        ("no_penalty-final", 2, [+5, -2]),
        ("no_penalty-final", 3, [+5, 0]),
        ("no_penalty-all_epochs", 1, [+5, 0]),
        ("no_penalty-all_epochs", 2, [+5, 0]),
        ("no_penalty-all_epochs", 3, [+5, 0]),
    ],
)
def test_tv_05_two_player_no_penalty_pharaohs(variant: str, epoch: int, expected: list[int]) -> None:
    """TV-05, R64 + D9: optional 2-player rule "do not apply the penalty to the player with fewer
    Pharaohs ... (but do give the 5-point bonus)"; "Default when enabled: literal reading -
    suppress the -2 Pharaoh penalty ... in the epoch-3 scoring only"; scope "all_epochs" suppresses
    it in every epoch. Checked on the pure function and on a whole epoch's scoring."""
    rules = TWO_PLAYER_RULES[variant]
    assert pharaoh_points([2, 1], penalties=rules.penalties_apply(epoch)) == expected
    players = (
        Player((2, 5, 6, 9), (), counts({Tile.PHARAOH: 2}), 10),
        Player((3, 4, 7, 8), (), counts({Tile.PHARAOH: 1}), 10),
    )
    _, score, _ = score_epoch(players, epoch, rules)
    assert [b.pharaoh for b in score.players] == expected, f"{variant}, epoch {epoch}"


@pytest.mark.parametrize(
    ("civs", "expected"),
    [
        ({}, -5),
        ({"ART": 4}, 0),
        ({"ART": 1, "WRITING": 3}, 0),
        ({"ART": 2, "AGRICULTURE": 1, "RELIGION": 1, "ASTRONOMY": 1}, 10),
        ({"ART": 1, "AGRICULTURE": 1, "RELIGION": 1, "ASTRONOMY": 1, "WRITING": 1}, 15),
        ({"ART": 2, "AGRICULTURE": 2, "RELIGION": 2, "ASTRONOMY": 2, "WRITING": 2}, 15),  # not 30
    ],
    ids=["none", "1-kind", "2-kinds", "4-kinds", "5-kinds", "5-kinds-twice"],
)
def test_tv_06_civilizations(civs: dict[str, int], expected: int) -> None:
    """TV-06, R66: "No civilization tile at all: -5. d = 1 or 2: 0. d = 3: +5. d = 4: +10.
    d = 5: +15. Duplicates never add anything (only one set is scored)." """
    assert civilization_points(counts(tiles(civs))) == expected


ALL_8 = {
    m: 1
    for m in (
        "FORTRESS",
        "OBELISK",
        "PALACE",
        "PYRAMID",
        "SPHINX",
        "STATUE",
        "STEP_PYRAMID",
        "TEMPLE",
    )
}


@pytest.mark.parametrize(
    ("monuments", "expected"),
    [
        ({}, 0),
        (ALL_8, 15),
        ({m: 1 for m in list(ALL_8)[:7]}, 10),
        ({m: 1 for m in list(ALL_8)[:6]}, 6),
        ({"STATUE": 5}, 16),  # 1 distinct + 15
        ({**ALL_8, "PYRAMID": 5}, 30),
        ({"OBELISK": 3, "PALACE": 3}, 12),  # 2 + 5 + 5
        (
            {
                "TEMPLE": 4,
                "SPHINX": 4,
                "STATUE": 3,
                "FORTRESS": 1,
                "OBELISK": 1,
                "PALACE": 1,
                "PYRAMID": 1,
            },
            35,
        ),
    ],
    ids=[
        "none",
        "8-kinds",
        "7-kinds",
        "6-kinds",
        "5-statues",
        "8-kinds-5-pyramids",
        "two-triples",
        "mixed-35",
    ],
)
def test_tv_07_monuments(monuments: dict[str, int], expected: int) -> None:
    """TV-07, R70: "Diversity: d points if 1 <= d <= 6; 10 if d = 7; 15 if d = 8 (0 if none).
    Multiplicity: for each type with exactly 3 / 4 / 5 copies: +5 / +10 / +15."
    "There is no penalty for having no monuments." """
    assert monument_points(counts(tiles(monuments))) == expected


@pytest.mark.parametrize(
    ("owned", "expected"),
    [({"GOLD": 2}, 6), ({"GOD": 3}, 6), ({"NILE": 4, "FLOOD": 2}, 6), ({"NILE": 9, "FLOOD": 0}, 0)],
    ids=["2-gold", "3-gods", "4-nile-2-flood", "9-nile-no-flood"],
)
def test_tv_08_gods_river_gold(owned: dict[str, int], expected: int) -> None:
    """TV-08, R63 "Gods: +2 per God tile", R65 "+1 per Nile and +1 per Flood" only "if the player
    has at least one Flood", R67 "Gold: +3 per Gold tile". The sum of the three categories is
    checked, so a tile scoring in the wrong category is caught as well."""
    d = counts(tiles(owned))
    assert god_points(d) + river_points(d) + gold_points(d) == expected


@pytest.mark.parametrize(
    ("variant", "expected"),
    [("default", [+5, -5]), ("no_penalty-final", [+5, 0]), ("no_penalty-all_epochs", [+5, 0])],
)
def test_tv_10_two_player_no_penalty_suns(variant: str, expected: list[int]) -> None:
    """TV-10, R71 + D9: "each player sums the values of all suns he owns, face up and face down
    (the centre sun belongs to nobody). Every player tied for the highest sum gets +5; ... lowest
    sum gets -5"; the 2-player no-penalty option drops the -5 (epoch 3 is the only sun scoring).
    Sun sums 25 and 19, centre sun 1 (45 - 44)."""
    rules = TWO_PLAYER_RULES[variant]
    assert sun_points([25, 19], penalties=rules.penalties_apply(3)) == expected
    players = (  # 9+8+6+2 = 25 and 7+5+4+3 = 19; with the centre sun 1 that is 1..9.
        # Face-up sums alone would rank them the other way round (8 < 12): face-down suns count too.
        Player((2, 6), (8, 9), counts(), 10),
        Player((5, 7), (3, 4), counts(), 10),
    )
    _, score, _ = score_epoch(players, 3, rules)
    assert [b.sun for b in score.players] == expected, variant


def test_tv_11_fame_floor() -> None:
    """TV-11, R69: "it is added to his fame total, and a total that would be negative becomes 0
    ... The floor is applied once per epoch to the total after the net result."
    Fame 3 and an epoch net of -7 gives 0 (not -4); a following epoch net of +6 gives 6."""
    rules = Rules.classic(3)
    others = Player((12, 9, 6, 3), (), counts({Tile.PHARAOH: 1, Tile.ART: 1}), 10)
    # P0: no pharaoh while the others have one (-2) and no civilization (-5): net -7.
    p0 = Player((13, 8, 5, 2), (), counts(), 3)
    players = (p0, others, others._replace(suns_up=(11, 10, 7, 4)))
    after, score, _ = score_epoch(players, 1, rules)
    assert score.players[0].net == -7
    assert score.players[0].fame_after == 0, "fame 3 + (-7) must be floored at 0, not -4"
    assert after[0].fame == 0

    _, unfloored, _ = score_epoch(players, 1, Rules.classic(3, fame_floor=False))
    assert unfloored.players[0].fame_after == -4, "without the fame floor option (D4) the total is -4"

    # Epoch 2: P0 now has 1 pharaoh like everybody (0), one civilization kind (0) and 2 gold (+6).
    p0 = after[0]._replace(display=counts({Tile.PHARAOH: 1, Tile.ART: 1, Tile.GOLD: 2}))
    after2, score2, _ = score_epoch((p0, *after[1:]), 2, rules)
    assert score2.players[0].net == 6
    assert score2.players[0].fame_before == 0
    assert after2[0].fame == 6, "the next epoch starts from 0, so +6 gives 6"


# TV-13: complete end-of-epoch-1 scoring and discards, 3 players.
TV13_DISPLAYS = [
    {
        "GOD": 1,
        "PHARAOH": 3,
        "NILE": 2,
        "FLOOD": 1,
        "ART": 1,
        "WRITING": 1,
        "RELIGION": 1,
        "GOLD": 1,
        "PYRAMID": 2,
    },
    {"PHARAOH": 1, "NILE": 3, "TEMPLE": 1},
    {"GOD": 2, "PHARAOH": 3, "FLOOD": 2, "ASTRONOMY": 2, "GOLD": 2},
]
TV13_BREAKDOWN = [  # god, pharaoh, river, civilization, gold, monument, net
    (2, +5, 3, 5, 3, 0, 18),
    (0, -2, 0, -5, 0, 0, -7),
    (4, +5, 2, 0, 6, 0, 17),
]
TV13_FAME_AFTER = [28, 3, 27]
TV13_DISPLAYS_AFTER = [
    {"PHARAOH": 3, "NILE": 2, "PYRAMID": 2},
    {"PHARAOH": 1, "NILE": 3, "TEMPLE": 1},
    {"PHARAOH": 3},
]
TV13_DISCARDED = {"GOD": 3, "FLOOD": 3, "ART": 1, "WRITING": 1, "RELIGION": 1, "ASTRONOMY": 2, "GOLD": 3}  # R60


def check_tv13_breakdowns(breakdowns: Sequence[Breakdown]) -> None:
    """Check the TV-13 breakdown of every player (any epoch-1 scoring of the TV-13 displays)."""
    for seat, b in enumerate(breakdowns):
        got = (b.god, b.pharaoh, b.river, b.civilization, b.gold, b.monument, b.net)
        assert got == TV13_BREAKDOWN[seat], f"P{seat} (god, pharaoh, river, civ, gold, monument, net)"
        assert b.sun == 0, f"P{seat}: suns are scored after epoch 3 only (R71)"
        assert (b.fame_before, b.fame_after) == (10, TV13_FAME_AFTER[seat]), f"P{seat} fame before/after"


def test_tv_13_end_of_epoch_scoring_pure() -> None:
    """TV-13, R63-R69: gods +2 each; pharaohs +5 most / -2 fewest; river +1 per Nile and Flood
    with at least one Flood; civilizations -5 none, 0 for 1-2 kinds, +5 for 3; gold +3 each;
    "Monuments are not scored after epochs 1 and 2"; the net is added to fame.
    R60: "every player discards to the box all Gods, Gold, Civilizations and Floods; Pharaohs,
    Niles and Monuments are kept"."""
    groups = Rules.classic(3).sun_groups
    players = tuple(Player(g, (), counts(tiles(d)), 10) for g, d in zip(groups, TV13_DISPLAYS, strict=True))
    after, score, box = score_epoch(players, 1, Rules.classic(3))
    assert score.epoch == 1
    check_tv13_breakdowns(score.players)
    assert [p.fame for p in after] == TV13_FAME_AFTER
    for seat, p in enumerate(after):
        assert as_dict(p.display) == tiles(TV13_DISPLAYS_AFTER[seat]), f"P{seat} keeps pharaohs, niles, monuments"
    assert as_dict(box) == tiles(TV13_DISCARDED), "the discarded tiles go to the box (R56, R60)"


def test_tv_13_end_of_epoch_scoring_in_a_game() -> None:
    """TV-13 played in the engine: the 8th Ra tile ends epoch 1 of a 3-player game (R15, R57),
    then R59 "all Ra tiles -> box", R63-R69 scoring, R60 discards, R69 fame."""
    groups = Rules.classic(3).sun_groups
    start = position(
        [{"suns_up": list(g), "display": d} for g, d in zip(groups, TV13_DISPLAYS, strict=True)],
        ra_count=7,
        to_act=0,
    )
    s = run(start, "P0 DRAW RA")
    assert s.epoch == 2 and len(s.scores) == 1 and s.scores[-1].epoch == 1, "epoch 1 should be scored"
    check_tv13_breakdowns(s.scores[-1].players)
    assert list(s.fame) == TV13_FAME_AFTER
    for seat in range(3):
        assert display(s, seat) == tiles(TV13_DISPLAYS_AFTER[seat]), f"P{seat} display after the epoch"
    assert boxed(start, s) == tiles({**TV13_DISCARDED, "RA": 8})  # R59: the 8 Ra tiles too


# ---------------------------------------------------------------------------------------------
# §3.3 Disaster scenarios (the lot is won by P1 of S4: call Ra, all pass, P1 bids 3)
# ---------------------------------------------------------------------------------------------


def test_tv_16_funeral() -> None:
    """TV-16, R50: "he MUST discard two tiles of the matching category ... The disaster tile itself
    then goes to the box." R51: "Funeral -> Pharaohs." R55: "the winner first adds all tiles of the
    lot to his display, then resolves disasters"."""
    start, s = win_lot({"PHARAOH": 2}, ["FUNERAL", "PHARAOH"])
    assert s.phase is Phase.ACTION, "a funeral leaves no choice; the loss is automatic"
    assert display(s, 1) == tiles({"PHARAOH": 1})
    assert boxed(start, s) == tiles({"FUNERAL": 1, "PHARAOH": 2})
    assert_next(s, 2)


def test_tv_17_disaster_destroys_tiles_of_the_same_lot() -> None:
    """TV-17, R55: "a disaster can destroy tiles won together with it as well as tiles owned
    before"."""
    start, s = win_lot({}, ["PHARAOH", "FUNERAL", "PHARAOH"])
    assert display(s, 1) == tiles({"PHARAOH": 0}), "both pharaohs of the lot are lost to the funeral"
    assert boxed(start, s) == tiles({"FUNERAL": 1, "PHARAOH": 2})


def test_tv_18_nothing_to_lose() -> None:
    """TV-18, R50: "if he has only one, he discards that one; if none, nothing happens"; R51:
    "Disasters never affect Gods, Gold, suns or fame"."""
    start, s = win_lot({"GOLD": 0, "PHARAOH": 0}, ["FUNERAL", "GOLD"])
    assert display(s, 1) == tiles({"GOLD": 1, "PHARAOH": 0})
    assert boxed(start, s) == tiles({"FUNERAL": 1})


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ({"FLOOD": 3, "NILE": 4}, {"FLOOD": 1, "NILE": 4}),
        ({"FLOOD": 1, "NILE": 3}, {"FLOOD": 0, "NILE": 2}),
        ({"FLOOD": 0, "NILE": 1}, {"FLOOD": 0, "NILE": 0}),
        ({"FLOOD": 2, "NILE": 0}, {"FLOOD": 0, "NILE": 0}),
    ],
    ids=["3F4N", "1F3N", "0F1N", "2F0N"],
)
def test_tv_19_drought_order(before: dict[str, int], after: dict[str, int]) -> None:
    """TV-19, R52: "Drought order is forced: discard Floods first; only if fewer than 2 Floods are
    available, discard Niles to make up the two." No player choice is offered for drought."""
    start, s = win_lot(before, ["DROUGHT"])
    assert s.phase is not Phase.DISCARD, "no player choice is offered for drought"
    assert display(s, 1) == tiles(after)
    lost = {k: before[k] - after[k] for k in before}
    assert boxed(start, s) == tiles({"DROUGHT": 1, **lost})


def test_tv_22_unrest_exactly_two_players_choice() -> None:
    """TV-22, R50 "he MUST discard two tiles of the matching category", R53 "for Unrest and
    Earthquake ... if the player has more than 2 matching tiles, he chooses which two".
    Exactly four results are possible from ART 1, WRITING 2, RELIGION 1."""
    start, s = win_lot({"ART": 1, "WRITING": 2, "RELIGION": 1}, ["UNREST"])
    assert s.phase is Phase.DISCARD, "the unrest leaves a real choice (R53)"
    assert_legal(
        s,
        1,
        [
            "DISCARD ART WRITING",
            "DISCARD ART RELIGION",
            "DISCARD WRITING WRITING",
            "DISCARD WRITING RELIGION",
        ],
    )
    expected = [
        {"WRITING": 1, "RELIGION": 1},  # discarded ART+WRITING
        {"WRITING": 2},  # discarded ART+RELIGION
        {"ART": 1, "RELIGION": 1},  # discarded WRITING+WRITING
        {"ART": 1, "WRITING": 1},  # discarded WRITING+RELIGION
    ]
    assert reachable_displays(s, 1) == sorted(canon(tiles(e)) for e in expected)
    # One choice played out: the tiles and the unrest go to the box, and play goes on left of P1.
    done = s.apply("discard art writing")
    assert boxed(start, done) == tiles({"UNREST": 1, "ART": 1, "WRITING": 1})
    assert_next(done, 2)


@pytest.mark.parametrize(
    "choice",
    [Discard(()), Discard((Tile.ART,)), Discard((Tile.ART, Tile.WRITING, Tile.WRITING))],
    ids=["discard-0-tiles", "discard-1-tile", "discard-3-tiles"],
)
def test_tv_22_unrest_wrong_number_of_tiles_is_illegal(choice: Discard) -> None:
    """TV-22, R50: "He may never discard fewer than min(2, available)" - and a disaster costs two
    tiles, not more. Discarding 0, 1 or 3 tiles is illegal."""
    _, s = win_lot({"ART": 1, "WRITING": 2, "RELIGION": 1}, ["UNREST"])
    assert s.phase is Phase.DISCARD
    with pytest.raises(IllegalActionError):
        s.apply(choice)


@pytest.mark.parametrize(
    ("before", "results"),
    [
        ({"PYRAMID": 3, "TEMPLE": 1}, [{"PYRAMID": 1, "TEMPLE": 1}, {"PYRAMID": 2}]),
        ({"SPHINX": 1}, [{}]),
    ],
    ids=["3-pyramids-1-temple", "1-sphinx"],
)
def test_tv_23_earthquake(before: dict[str, int], results: list[dict[str, int]]) -> None:
    """TV-23, R50 "two tiles of the matching category ... if he has only one, he discards that one",
    R51 "Earthquake -> Monument tiles of any type(s)", R53 "he chooses which two"."""
    start, s = win_lot(before, ["EARTHQUAKE"])
    assert reachable_displays(s, 1) == sorted(canon(tiles(r)) for r in results)


# ---------------------------------------------------------------------------------------------
# §3.4 Turn, auction and epoch scenarios (base S4: P0 13-6-2, P1 12-7-3, P2 11-8-4, P3 10-9-5)
# ---------------------------------------------------------------------------------------------


def test_tv_25_drawn_ra_everybody_passes() -> None:
    """TV-25, R24 "if this Ra tile [does not end the epoch] an auction starts with the drawer as Ra
    player (trigger RA_TILE)"; R38 "starting with the left neighbour of the Ra player ... ending
    with the Ra player"; R40 "In RA_TILE ... auctions everybody, including the Ra player, MAY pass";
    R42 "RA_TILE: auction tiles stay on the track; centre sun stays"; R44 next turn "left neighbour
    of the Ra player"."""
    start = s4(track=["PHARAOH", "GOLD"], ra_count=3, to_act=1)
    s = run(start, "P1 DRAW RA")
    assert s.phase is Phase.BID and running(s).trigger is Trigger.RA_TILE
    assert running(s).order == (2, 3, 0, 1), "bidding starts left of the Ra player and ends with him"
    s = run(s, "P2 PASS", "P3 PASS", "P0 PASS", "P1 PASS")
    assert track(s) == padded(["PHARAOH", "GOLD"])
    assert s.center_sun == 1
    assert s.ra_count == 4, "ra: 4/9"
    assert s.players == start.players, "suns (and displays) unchanged"
    assert_next(s, 2)


def test_tv_26_voluntary_call_all_pass_ra_player_must_bid() -> None:
    """TV-26, R40: "in a CALL_VOLUNTARY auction, if every other player has passed ..., the Ra player
    MUST bid (any of his face-up suns is then legal)"; R41 the winner "takes all tiles on the
    auction track"; R46 "winner's bid sun -> centre (face up) ...; old centre sun -> winner
    (face down)"."""
    s = run(s4(track=["GOLD"], to_act=1), "P1 CALL_RA")
    assert running(s).trigger is Trigger.CALL_VOLUNTARY
    s = run(s, "P2 PASS", "P3 PASS", "P0 PASS")
    assert_legal(s, 1, ["BID 3", "BID 7", "BID 12"])  # PASS illegal
    with pytest.raises(IllegalActionError):
        s.apply("pass")
    s = run(s, "P1 BID 3")
    assert_suns(s, 1, up=[7, 12], down=[1])
    assert display(s, 1) == tiles({"GOLD": 1})
    assert s.center_sun == 3
    assert track(s) == padded([])
    assert_next(s, 2)


def test_tv_27_voluntary_call_someone_bid_ra_player_may_pass() -> None:
    """TV-27, R39: "a bid is one of the bidder's face-up suns, which must be higher than the current
    highest bid ... A bidder whose face-up suns are all lower than the current highest bid MUST
    pass"; R40 "If at least one other player bid, the Ra player MAY pass"; R41 winner takes the lot;
    R43 "Losing bidders take their bid suns back face up"."""
    s = run(s4(track=["NILE", "FLOOD"], to_act=1), "P1 CALL_RA", "P2 BID 8")
    assert_legal(s, 3, ["BID 9", "BID 10", "PASS"])  # BID 5 illegal
    with pytest.raises(IllegalActionError):
        s.apply("bid 5")
    s = run(s, "P3 PASS", "P0 BID 13")
    assert_legal(s, 1, ["PASS"])  # 3, 7, 12 are all lower than 13
    s = run(s, "P1 PASS")
    assert_suns(s, 0, up=[2, 6], down=[1])  # P0 won with 13
    assert display(s, 0) == tiles({"NILE": 1, "FLOOD": 1})
    assert_suns(s, 2, up=[4, 8, 11], down=[])  # the losing bid 8 is back face up
    assert_suns(s, 1, up=[3, 7, 12], down=[])
    assert display(s, 1) == {} and display(s, 2) == {}
    assert s.center_sun == 13
    assert_next(s, 2)


FULL_TRACK = ["PHARAOH", "NILE", "NILE", "GOLD", "ART", "TEMPLE", "FUNERAL", "FLOOD"]


def test_tv_28_forced_call_everybody_passes() -> None:
    """TV-28, R19: "When all 8 auction spaces are occupied, Draw is illegal; the player MUST Call Ra
    or (if he owns at least one God tile) Use God tile(s)"; R35 CALL_FORCED; R40 "In ... CALL_FORCED
    auctions everybody, including the Ra player, MAY pass"; R42 "CALL_FORCED: all 8 go to the box;
    centre sun stays"."""
    start = s4(track=FULL_TRACK, to_act=1, displays={1: {"GOD": 0}})
    assert_legal(start, 1, ["CALL_RA"])  # DRAW illegal, no gods
    s = run(start, "P1 CALL_RA")
    assert running(s).trigger is Trigger.CALL_FORCED
    s = run(s, "P2 PASS", "P3 PASS", "P0 PASS")
    assert_legal(s, 1, ["PASS", "BID 3", "BID 7", "BID 12"])  # the forced caller may pass
    s = run(s, "P1 PASS")
    assert track(s) == padded([])
    assert boxed(start, s) == {Tile[t]: FULL_TRACK.count(t) for t in FULL_TRACK}, "all 8 tiles to the box"
    assert sum(boxed(start, s).values()) == 8
    assert s.center_sun == 1
    assert s.players == start.players, "suns unchanged"
    assert_next(s, 2)
    assert "draw" in [str(a) for a in s.legal_actions()], "P2 may draw again"


def test_tv_29_full_track_player_with_a_god() -> None:
    """TV-29, R19 "the player MUST Call Ra or (if he owns at least one God tile) Use God tile(s)";
    R26 "the player returns k >= 1 of his God tiles to the box and takes, for each, one tile";
    R28 (default) a God may take a disaster; R31 "Gods may be used when the track is full ...
    afterwards the track has < 8 tiles and the next player may draw"; R32 "Gaps left by God use are
    filled by later draws (leftmost empty space)"."""
    start = s4(track=FULL_TRACK, to_act=1, displays={1: {"GOD": 1}})
    # "USE_GODS <any one slot 1..8>": slot 7 (FUNERAL) included by default (R28); DRAW illegal.
    assert_legal(start, 1, ["CALL_RA", *[f"USE_GOD {slot}" for slot in range(1, 9)]])
    s = run(start, "P1 USE_GODS TEMPLE@6")
    assert display(s, 1) == tiles({"TEMPLE": 1, "GOD": 0})
    assert boxed(start, s) == tiles({"GOD": 1}), "the used god goes to the box (R30)"
    assert track(s) == ["PHARAOH", "NILE", "NILE", "GOLD", "ART", "_", "FUNERAL", "FLOOD"]
    assert_next(s, 2)
    s = run(s, "P2 DRAW WRITING")
    assert track(s) == ["PHARAOH", "NILE", "NILE", "GOLD", "ART", "WRITING", "FUNERAL", "FLOOD"]
    assert_next(s, 3)


def test_tv_30_full_track_god_owner_calls_ra_still_forced() -> None:
    """TV-30, R35: "The player calls Ra while the auction track has 8 tiles (whether or not he owns
    Gods)" is CALL_FORCED; R40 everybody may pass; R42 "all 8 go to the box; centre sun stays"."""
    start = s4(track=FULL_TRACK, to_act=1, displays={1: {"GOD": 1}})
    s = run(start, "P1 CALL_RA")
    assert running(s).trigger is Trigger.CALL_FORCED
    s = run(s, "P2 PASS", "P3 PASS", "P0 PASS", "P1 PASS")
    assert track(s) == padded([])
    assert boxed(start, s) == {Tile[t]: FULL_TRACK.count(t) for t in FULL_TRACK}
    assert sum(boxed(start, s).values()) == 8
    assert display(s, 1) == tiles({"GOD": 1}), "P1 keeps his god"
    assert s.center_sun == 1


def test_tv_31_voluntary_call_with_an_empty_track() -> None:
    """TV-31, R36: "Calling Ra is always legal for an eligible player, including with an empty
    auction track; then the auction is for the centre sun alone"; R40 the voluntary caller must bid
    when all others passed."""
    s = run(s4(track=[], to_act=1), "P1 CALL_RA")
    assert running(s).trigger is Trigger.CALL_VOLUNTARY
    s = run(s, "P2 PASS", "P3 PASS", "P0 PASS")
    assert_legal(s, 1, ["BID 3", "BID 7", "BID 12"])
    s = run(s, "P1 BID 3")
    assert_suns(s, 1, up=[7, 12], down=[1])
    assert display(s, 1) == {}
    assert s.center_sun == 3


def test_tv_32_first_bid_not_compared_with_centre_sun() -> None:
    """TV-32, R39: "The first bid may have any value - it is not compared with the centre sun ...
    [each later bid] must be higher than the current highest bid in this auction"; R40 "If at least
    one other player bid, the Ra player MAY pass".
    3 players, centre 11. The vector lists face-up suns only; the other suns are face down."""
    start = position(
        [
            {"suns_up": [3, 7], "suns_down": [1, 4]},
            {"suns_up": [5, 13], "suns_down": [6, 8]},
            {"suns_up": [2, 9], "suns_down": [10, 12]},
        ],
        track=["GOLD"],
        to_act=1,
    )
    assert start.center_sun == 11 and start.rules.players == 3
    s = run(start, "P1 CALL_RA", "P2 BID 2")  # legal although 2 < 11
    assert_legal(s, 0, ["BID 3", "BID 7", "PASS"])
    s = run(s, "P0 BID 7")
    assert_legal(s, 1, ["BID 13", "PASS"])  # 5 < 7; someone bid, so PASS is legal
    s = run(s, "P1 PASS")
    assert list(s.players[0].suns_up) == [3], "P0 won with 7"
    assert 11 in s.players[0].suns_down, "P0 takes the centre sun 11 face down"
    assert display(s, 0) == tiles({"GOLD": 1})
    assert s.center_sun == 7
    assert_suns(s, 2, up=[2, 9])


def test_tv_35_epoch_ends_on_the_last_ra_tile_without_an_auction() -> None:
    """TV-35, R24/R57: "when the Ra tile that reaches the limit of R15 is drawn, the epoch ends
    immediately; no auction is held"; R59 "all Ra tiles -> box; all tiles remaining on the auction
    track -> box; the centre sun stays"; R61 "Ra track and auction track are empty; all suns face
    up; the holder of the highest sun starts".
    3 players, 7/8 Ra tiles, centre 5; the highest sun 13 is P2's, so neither the drawer P0 nor
    the next seat P1 should start epoch 2."""
    start = position(
        [
            {"suns_up": [3, 8, 12], "suns_down": [4]},
            {"suns_up": [2, 6, 9, 10]},
            {"suns_up": [7, 11, 13], "suns_down": [1]},
        ],
        track=["NILE", "FLOOD", "GOD"],
        ra_count=7,
        to_act=0,
    )
    assert start.center_sun == 5
    s = run(start, "P0 DRAW RA")
    assert s.auction is None and s.phase is not Phase.BID, "no auction is held"
    assert s.epoch == 2 and len(s.scores) == 1, "epoch 1 is over and scored"
    assert boxed(start, s) == tiles({"NILE": 1, "FLOOD": 1, "GOD": 1, "RA": 8})
    assert s.center_sun == 5
    # next epoch
    assert s.ra_count == 0, "ra: 0/8"
    assert track(s) == padded([])
    for seat, p in enumerate(s.players):
        assert p.suns_down == () and len(p.suns_up) == 4, f"P{seat}: all suns face up"
    assert_suns(s, 0, up=[3, 4, 8, 12])
    assert_suns(s, 2, up=[1, 7, 11, 13])
    assert_next(s, 2)  # holder of 13


@pytest.mark.parametrize(
    ("rules", "limit"),
    [
        (Rules.two_player(), 7),
        (Rules.two_player(ra_limit=6), 6),
        (Rules.classic(3), 8),
        (Rules.classic(4), 9),
        (Rules.classic(5), 10),
    ],
    ids=["2p", "2p-alternative", "3p", "4p", "5p"],
)
def test_tv_37_ra_track_lengths(rules: Rules, limit: int) -> None:
    """TV-37, R15: "The epoch ends when this Ra tile is drawn": 2 players 7th (option 6th),
    3 players 8th, 4 players 9th, 5 players 10th. Played out: the 1st..(limit-1)th Ra tiles each
    start an RA_TILE auction; the last one ends the epoch without one."""
    assert rules.ra_limit == limit
    s = new_game(rules.players, rules=rules)
    for k in range(1, limit):
        s = s.apply("draw").apply("reveal ra")
        assert s.phase is Phase.BID and running(s).trigger is Trigger.RA_TILE, f"Ra tile {k} starts an auction"
        assert s.ra_count == k and s.epoch == 1
        while s.phase is Phase.BID:  # everybody passes: the tiles stay (R42)
            s = s.apply("pass")
    s = s.apply("draw").apply("reveal ra")
    assert s.auction is None and s.phase is Phase.ACTION, f"Ra tile {limit} starts no auction"
    assert s.epoch == 2 and s.ra_count == 0 and len(s.scores) == 1, f"Ra tile {limit} ends the epoch"


def test_tv_38_god_takes_a_disaster_default_on() -> None:
    """TV-38, R28: "God taking a disaster tile - DEFAULT: allowed; the disaster is resolved
    immediately against the God user's display, then the disaster tile goes to the box";
    R50 two matching tiles are lost."""
    start = s4(track=["FUNERAL", "GOLD"], to_act=0, displays={0: {"PHARAOH": 2, "GOD": 1}})
    s = run(start, "P0 USE_GODS FUNERAL@1")
    assert display(s, 0) == tiles({"PHARAOH": 0, "GOD": 0})
    assert track(s) == padded(["_", "GOLD"])
    assert boxed(start, s) == tiles({"GOD": 1, "FUNERAL": 1, "PHARAOH": 2})
    assert_next(s, 1)


def test_tv_38_god_cannot_take_a_disaster_with_the_option_off() -> None:
    """TV-38, R28/D2: flag god_can_take_disaster = False: "P0 USE_GODS FUNERAL@1" is illegal,
    "P0 USE_GODS GOLD@2" is legal."""
    rules = Rules.classic(4, god_can_take_disaster=False)
    start = s4(track=["FUNERAL", "GOLD"], to_act=0, displays={0: {"PHARAOH": 2, "GOD": 1}}, rules=rules)
    assert_legal(start, 0, ["DRAW", "CALL_RA", "USE_GOD 2"])
    with pytest.raises(IllegalActionError):
        start.apply("god 1")
    s = run(start, "P0 USE_GODS GOLD@2")
    assert display(s, 0) == tiles({"PHARAOH": 2, "GOLD": 1})


@pytest.mark.parametrize(
    ("gods", "slots", "slot", "legal"),
    [
        (1, ["GOD", "GOLD"], 1, False),  # P0 USE_GODS GOD@1: illegal
        (1, ["GOD", "GOLD"], 2, True),  # P0 USE_GODS GOLD@2: legal
        (2, ["GOD", "GOD"], 1, False),  # P0 USE_GODS <anything>: no legal target
        (2, ["GOD", "GOD"], 2, False),
    ],
    ids=["god-on-god", "god-on-gold", "no-target-slot1", "no-target-slot2"],
)
def test_tv_40_god_targets(gods: int, slots: list[str], slot: int, legal: bool) -> None:
    """TV-40, R27: "A God can never take a God tile"; R26 "each target is a distinct tile
    currently on the track. The action is illegal if no legal target exists"."""
    start = s4(track=slots, to_act=0, displays={0: {"GOD": gods}})
    god_slots = [a.slot for a in start.legal_actions() if isinstance(a, UseGod)]
    assert god_slots == [i + 1 for i, t in enumerate(slots) if t != "GOD"], "gods may target non-god tiles only"
    if legal:
        s = start.apply(f"god {slot}")
        assert display(s, 0) == tiles({"GOLD": 1})
    else:
        with pytest.raises(IllegalActionError):
            start.apply(f"god {slot}")


def test_tv_40_one_god_takes_only_one_tile() -> None:
    """TV-40, R26: "k <= number of Gods owned" - with one God, "P0 USE_GODS GOLD@1,NILE@2" is
    illegal: after the first tile the turn is over (R33 "Using Gods ... ends the turn")."""
    start = s4(track=["GOLD", "NILE"], to_act=0, displays={0: {"GOD": 1}})
    s = start.apply("god 1")
    assert display(s, 0) == tiles({"GOLD": 1})
    assert_next(s, 1)  # P0 cannot continue with a second god
    with pytest.raises(IllegalActionError):
        s.apply("god 2")


def test_tv_40_player_without_face_up_suns_gets_no_turn() -> None:
    """TV-40, R17: "A player with no face-up sun takes no turns and does not take part in auctions
    for the rest of the epoch; his turn is skipped ... Consequently such a player also cannot use
    God tiles." P0 owns a god but all his suns are face down."""
    players = [{"suns_up": [], "suns_down": [2, 6, 13], "display": {"GOD": 1}}]
    players += [{"suns_up": up} for up in S4_SUNS_UP[1:]]
    start = position(players, track=["GOLD"], to_act=3)
    s = run(start, "P3 DRAW NILE")
    assert_next(s, 1)  # P0 skipped
    s = run(s, "P1 DRAW PHARAOH", "P2 DRAW ART", "P3 CALL_RA")
    assert running(s).order == (1, 2, 3), "P0 does not take part in the auction"
    s = run(s, "P1 PASS", "P2 PASS", "P3 BID 5")
    assert_next(s, 1)  # the left neighbour P0 of the Ra player P3 is skipped
    assert display(s, 0) == tiles({"GOD": 1}), "P0 never got to use his god"


@pytest.mark.parametrize(
    ("slots", "expected"),
    [
        (["PHARAOH", "NILE", "NILE", "GOLD", "ART", "TEMPLE", "FLOOD"], ["DRAW", "CALL_RA"]),
        (FULL_TRACK, ["CALL_RA"]),
        ([], ["DRAW", "CALL_RA"]),
    ],
    ids=["7-tiles-draw-legal", "8-tiles-draw-illegal", "0-tiles-call-ra-legal"],
)
def test_tv_42_draw_legality_vs_track_size(slots: list[str], expected: list[str]) -> None:
    """TV-42, R19: "When all 8 auction spaces are occupied, Draw is illegal"; R36 "Calling Ra is
    always legal for an eligible player, including with an empty auction track"."""
    start = s4(track=slots, to_act=1)
    assert_legal(start, 1, expected)
    if len(slots) == 8:
        with pytest.raises(IllegalActionError):
            start.apply("draw")
    else:
        assert start.apply("draw").is_chance_node()
        auction = start.apply("ra").auction
        assert auction is not None and auction.trigger is Trigger.CALL_VOLUNTARY


# TV-43: setup and invariants.
TV43_COUNTS = {
    "RA": 30, "GOD": 8, "PHARAOH": 25, "FUNERAL": 2, "NILE": 25, "FLOOD": 12, "DROUGHT": 2,
    "GOLD": 5, "ART": 5, "AGRICULTURE": 5, "RELIGION": 5, "ASTRONOMY": 5, "WRITING": 5,
    "UNREST": 4, "FORTRESS": 5, "OBELISK": 5, "PALACE": 5, "PYRAMID": 5, "SPHINX": 5, "STATUE": 5,
    "STEP_PYRAMID": 5, "TEMPLE": 5, "EARTHQUAKE": 2,
}  # fmt: skip
SUN_TOTAL = {2: 45, 3: 91, 4: 91, 5: 136}
SUNS_PER_PLAYER = {2: 4, 3: 4, 4: 3, 5: 3}


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_tv_43_setup(n: int) -> None:
    """TV-43, R1 "Tile supply: exactly 180 tiles" (table of counts); R10 suns 1-9 / 1-13 / 1-16;
    R11 starting sun groups; R12 centre sun 1; R13 "Starting fame = 10"."""
    s = new_game(n, suns="table")
    assert sum(s.bag) == 180
    assert as_dict(s.bag) == tiles(TV43_COUNTS)
    assert s.center_sun == 1
    assert sum(sum(p.suns_up) + sum(p.suns_down) for p in s.players) + s.center_sun == SUN_TOTAL[n]
    assert all(len(p.suns_up) == SUNS_PER_PLAYER[n] and p.suns_down == () for p in s.players)
    assert s.fame == (10,) * n


def test_tv_43_two_player_groups_and_first_player() -> None:
    """TV-43, R11 2-player default groups 2-5-6-9 / 3-4-7-8 (D5 option b); R16 "the player holding
    the highest sun takes the first turn" (in a 2-player game the holder of 9)."""
    assert Rules.two_player().sun_groups == ((9, 6, 5, 2), (8, 7, 4, 3))
    assert [list(p.suns_up) for p in new_game(2, suns="table").players] == [[2, 5, 6, 9], [3, 4, 7, 8]]
    for seed in range(10):
        s = new_game(2, seed=seed)
        holder = next(i for i, p in enumerate(s.players) if 9 in p.suns_up)
        assert s.to_move == s.turn_player == holder, f"seed {seed}: the holder of 9 starts"
    swapped = new_game(2, suns=[(8, 7, 4, 3), (9, 6, 5, 2)])
    assert swapped.to_move == 1


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_tv_43_invariants_through_a_whole_game(n: int) -> None:
    """TV-43, R48: "(a) every player always owns the same number of suns as at setup (3 or 4);
    (b) the multiset {all players' suns} u {centre sun} is always exactly {1...N} ..., so the total
    is constant (45, 91, 91, 136)". Also R1: the 180 tiles are always somewhere (bag, Ra track,
    auction track, displays, box). Checked in every state of a random game."""
    max_sun = {2: 9, 3: 13, 4: 13, 5: 16}[n]
    states = 0
    for s in play_game([random_bot] * n, seed=100 + n).states():  # every state of a random game
        states += 1
        suns = [x for p in s.players for x in (*p.suns_up, *p.suns_down)] + [s.center_sun]
        assert sum(suns) == SUN_TOTAL[n], f"sun total in {s!r}"
        assert sorted(suns) == list(range(1, max_sun + 1)), f"suns in {s!r}"
        assert all(len(p.suns_up) + len(p.suns_down) == SUNS_PER_PLAYER[n] for p in s.players)
        where = [s.bag, s.box, *(p.display for p in s.players), counts({Tile.RA: s.ra_count})]
        where.append(counts({t: s.track.count(t) for t in set(s.track) if t is not None}))
        total = [sum(column) for column in zip(*where, strict=True)]
        assert as_dict(tuple(total)) == tiles(TV43_COUNTS), f"tiles lost or duplicated in {s!r}"
    assert s.is_terminal() and len(s.scores) == 3
    assert states > 50


def tv44_after_auction(ra_count: int = 0) -> tuple[State, State]:
    start = s4(track=["GOD", "GOLD"], to_act=1, ra_count=ra_count)
    return start, run(start, "P1 CALL_RA", "P2 PASS", "P3 PASS", "P0 PASS", "P1 BID 3")


def test_tv_44_gods_won_are_kept_for_later_turns() -> None:
    """TV-44, R33: "Gods won in an auction may be used on any later turn of the same epoch (not
    during the auction)"; R41 the winner takes all tiles (God tiles alike)."""
    _, s = tv44_after_auction()
    assert display(s, 1) == tiles({"GOD": 1, "GOLD": 1})
    s = run(s, "P2 DRAW NILE", "P3 DRAW PHARAOH", "P0 DRAW ART")
    assert_legal(s, 1, ["DRAW", "CALL_RA", "USE_GOD 1", "USE_GOD 2", "USE_GOD 3"])
    s = run(s, "P1 USE_GODS PHARAOH@2")
    assert display(s, 1) == tiles({"GOLD": 1, "PHARAOH": 1})


def test_tv_44_unused_gods_score_then_vanish() -> None:
    """TV-44, R63 "Gods: +2 per God tile in the display"; R60 "every player discards to the box all
    Gods, Gold, Civilizations and Floods" after scoring. Here the 9th Ra tile (4 players) ends the
    epoch on P2's turn, right after P1 won the god."""
    start, s = tv44_after_auction(ra_count=8)
    s = run(s, "P2 DRAW RA")
    assert s.epoch == 2 and len(s.scores) == 1
    p1 = s.scores[-1].players[1]
    assert (p1.god, p1.gold) == (2, 3), "the unused god scores 2 (and the gold 3)"
    assert display(s, 1) == {}, "god and gold are discarded after scoring"
    assert boxed(start, s) == tiles({"RA": 9, "GOD": 1, "GOLD": 1})
