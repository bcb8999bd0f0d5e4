"""Rule-by-rule tests of docs/rules.md: every rule R1-R74, every option D1-D10, every edge case E1-E20.

Each test names the rule it checks (``test_r21_...``) and quotes it in a few words in its
docstring; edge cases of the digest (§1.N) are named ``E<n>`` in the docstring of the test
that answers them. The tests are grouped like the rulebook: components, setup, turn, drawing,
gods, auctions, sun exchange, disasters, end of epoch, scoring, winner, information, options,
and a small "perft" count of the game tree at the end.

Positions are built with `position(...)`, a thin wrapper of `State.from_dict` whose default is
the 4-player start "S4" of docs/rules.md §3 (P0 13-6-2, P1 12-7-3, P2 11-8-4, P3 10-9-5, centre 1,
empty displays, empty track, no Ra tile drawn). `run(state, "ra", "pass", ...)` applies action
texts one after another. A draw is two steps, ``"draw"`` then ``"reveal <tile>"``: the test
decides which tile comes out of the bag.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction
from typing import Any

import pytest

from ra_core import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    InvalidStateError,
    Phase,
    Reveal,
    Rules,
    State,
    Tile,
    new_game,
    parse_action,
)
from ra_core.bots import random_bot
from ra_core.engine import scoring
from ra_core.engine.auction import bid_order
from ra_core.engine.positions import position as build
from ra_core.engine.records import Trigger
from ra_core.engine.tiles import CIVILIZATIONS, DISASTERS, FULL_BAG, MONUMENTS, as_dict, counts
from ra_core.play import play_game

from .positions import S4_SUNS_UP, owing, running

# -- helpers -------------------------------------------------------------------------------

#: The starting suns of R11 (docs/rules.md), seat by seat (seat i gets group i without a seed).
S2 = ([9, 6, 5, 2], [8, 7, 4, 3])
S3 = ([13, 8, 5, 2], [12, 9, 6, 3], [11, 10, 7, 4])
S4 = S4_SUNS_UP
S5 = ([16, 7, 2], [15, 8, 3], [14, 9, 4], [13, 10, 5], [12, 11, 6])

#: The 8 tiles of the full track used by TV-28/TV-29/TV-30.
FULL_TRACK = ["pharaoh", "nile", "nile", "gold", "art", "temple", "funeral", "flood"]

#: Only P1 has face-up suns (R21): everybody else has spent theirs.
LONE_P1 = (
    {"suns_down": [13, 6, 2]},
    {"suns_up": [12, 7, 3]},
    {"suns_down": [11, 8, 4]},
    {"suns_down": [10, 9, 5]},
)


def position(*, players: Any = None, **fields: Any) -> State:
    """Return the scenario `ra_core.engine.positions.position` builds; the default players are S4."""
    return build(players or S4, **fields)


def last_ra(**kw: Any) -> State:
    """Return `position(**kw)` one Ra tile before the end of the epoch (ra_count = limit - 1)."""
    rules = kw.get("rules") or Rules.default(len(kw.get("players") or S4))
    return position(ra_count=rules.ra_limit - 1, **kw)


def scored(**kw: Any) -> State:
    """Return the state just after the epoch of `last_ra(**kw)` ended: the turn player drew the last Ra."""
    return run(last_ra(**kw), "draw", "reveal ra")


def run(state: State, *texts: str) -> State:
    """Apply the action texts one after another and return the final state."""
    for text in texts:
        state = state.apply(text)
    return state


def legal(state: State) -> list[str]:
    """Return the legal actions as texts, in the engine's order."""
    return [str(a) for a in state.legal_actions()]


def shown(count_tuple: tuple[int, ...]) -> dict[str, int]:
    """Return the non-zero entries of a count tuple as ``{label: n}``."""
    return {t.label: n for t, n in as_dict(count_tuple).items()}


def display(state: State, seat: int) -> dict[str, int]:
    """Return a player's display as ``{label: n}``."""
    return shown(state.players[seat].display)


def newly_boxed(before: State, after: State) -> dict[str, int]:
    """Return the tiles that went to the box between two states."""
    return shown(tuple(a - b for a, b in zip(after.box, before.box, strict=True)))


def track(state: State) -> list[str | None]:
    """Return the auction track as labels (None = empty slot), slots 1..8."""
    return [t.label if t is not None else None for t in state.track]


def win_lot(lot: list[str], before: dict[str, int] | None = None) -> State:
    """P1 calls Ra on a track holding `lot`, everybody else passes, P1 must bid 3 and wins it (S4)."""
    s = position(track=lot, turn_player=1, displays={1: before or {}})
    return run(s, "ra", "pass", "pass", "pass", "bid 3")


def column(state: State, category: str, epoch: int = -1) -> list[int]:
    """Return one scoring category (or fame_after) of an epoch's breakdown, seat by seat."""
    return [getattr(b, category) for b in state.scores[epoch].players]


# == 1.A Components ========================================================================


def test_r1_supply_is_exactly_180_tiles() -> None:
    """R1: the supply is exactly 180 tiles, counts as in the table (30 Ra, 8 God, 25 Pharaoh, ...)."""
    expected = {
        Tile.RA: 30, Tile.GOD: 8, Tile.PHARAOH: 25, Tile.FUNERAL: 2, Tile.NILE: 25, Tile.FLOOD: 12,
        Tile.DROUGHT: 2, Tile.UNREST: 4, Tile.GOLD: 5, Tile.EARTHQUAKE: 2,
        **{t: 5 for t in CIVILIZATIONS}, **{t: 5 for t in MONUMENTS},
    }  # fmt: skip
    assert len(expected) == 23
    assert as_dict(FULL_BAG) == expected
    assert sum(FULL_BAG) == 180
    for n in (2, 3, 4, 5):
        s = new_game(n, suns="table")
        assert s.bag == FULL_BAG, f"R1: a {n}-player game starts with all 180 tiles in the bag"
        assert sum(s.box) == 0 and not any(s.track)


def test_r1_no_position_holds_more_tiles_of_a_kind_than_exist() -> None:
    """R1: there are only 5 gold tiles, so 6 gold between displays and track is impossible."""
    with pytest.raises(InvalidStateError):
        position(displays={0: {"gold": 6}})
    with pytest.raises(InvalidStateError):
        position(displays={0: {"gold": 3}, 1: {"gold": 2}}, track=["gold"])
    position(displays={0: {"gold": 3}, 1: {"gold": 1}}, track=["gold"])  # exactly 5 is fine


def test_r2_d7_monuments_are_eight_types_of_five_copies() -> None:
    """R2 / D7: "5 x 8 monuments" means 8 monument types with 5 copies each, not 5 types x 8."""
    assert {t.label for t in MONUMENTS} == {
        "fortress", "obelisk", "palace", "pyramid", "sphinx", "statue", "step-pyramid", "temple",
    }  # fmt: skip
    assert [FULL_BAG[t] for t in MONUMENTS] == [5] * 8
    # a sixth statue does not exist: one type never has more than 5 copies
    with pytest.raises(InvalidStateError):
        position(displays={0: {"statue": 6}})
    assert scoring.monument_points(counts({Tile.STATUE: 5})) == 1 + 15


def test_r3_civilizations_are_five_types_of_five_copies() -> None:
    """R3: "5 x 5 civilizations": art, agriculture, religion, astronomy, writing, 5 copies each."""
    assert [t.label for t in CIVILIZATIONS] == ["art", "agriculture", "religion", "astronomy", "writing"]
    assert [FULL_BAG[t] for t in CIVILIZATIONS] == [5] * 5


def test_r4_ten_disaster_tiles_of_four_kinds() -> None:
    """R4: disasters: Funeral x2, Drought x2, Unrest x4, Earthquake x2 (10 in all)."""
    assert {t.label: FULL_BAG[t] for t in DISASTERS} == {"funeral": 2, "drought": 2, "unrest": 4, "earthquake": 2}
    assert sum(FULL_BAG[t] for t in DISASTERS) == 10
    assert {t for t in Tile if t.is_disaster} == set(DISASTERS)


@pytest.mark.parametrize(
    ("disaster", "lost"),
    [
        ("funeral", {"pharaoh"}),
        ("drought", {"flood", "nile"}),
        ("unrest", {"art", "writing"}),
        ("earthquake", {"pyramid", "temple"}),
    ],
)
def test_r4_r51_each_disaster_hits_only_its_own_category(disaster: str, lost: set[str]) -> None:
    """R4 / R51: Funeral -> Pharaohs, Drought -> Floods/Niles, Unrest -> Civilizations,
    Earthquake -> Monuments; never Gods, Gold, suns or fame."""
    before = {t: 1 for t in ("god", "pharaoh", "nile", "flood", "gold", "art", "writing", "pyramid", "temple")}
    s = win_lot([disaster], before)
    expected = {t: n for t, n in before.items() if t not in lost}
    assert display(s, 1) == expected, f"R51: {disaster} destroys exactly {sorted(lost)}"
    assert s.players[1].suns_up == (7, 12) and s.players[1].suns_down == (1,)
    assert s.players[1].fame == 10


def test_r5_the_sixteen_suns_are_unique_so_bids_never_tie() -> None:
    """R5: 16 suns valued 1..16, every value unique (so no two bids can be equal)."""
    presets = [Rules.classic(3), Rules.classic(4), Rules.classic(5)]
    presets += [Rules.two_player(groups=g) for g in "abc"]
    for rules in presets:
        suns = sorted([1, *(s for g in rules.sun_groups for s in g)])
        assert suns == list(range(1, rules.max_sun + 1)), f"R5: {rules.name} uses each sun once"
    assert Rules.classic(5).max_sun == 16
    with pytest.raises(ValueError):
        Rules("duplicate", ((13, 6, 2), (13, 7, 3), (11, 8, 4), (10, 9, 5)), 9)


def test_r6_fame_is_an_uncapped_integer() -> None:
    """R6: fame is an integer per player; the 48 tablets (226 points) are change only, no cap."""
    s = scored(players=[{"suns_up": [13, 6, 2], "fame": 250, "display": {"gold": 5}}, *S4[1:]])
    # P0: gold 5 x 3 = +15, no civilization -5, pharaohs all equal 0 -> +10
    assert s.fame[0] == 260 and type(s.fame[0]) is int


def test_r7_board_has_8_auction_spaces_and_10_ra_spaces() -> None:
    """R7: a Ra track of 10 spaces, an auction track of 8 spaces, and a centre sun space."""
    s = new_game(4, suns="table")
    assert len(s.track) == 8 and s.track == (None,) * 8
    assert s.center_sun == 1
    assert max(Rules.classic(n).ra_limit for n in (3, 4, 5)) == 10
    with pytest.raises(ValueError):
        Rules("eleven Ra spaces", Rules.classic(4).sun_groups, 11)
    with pytest.raises(InvalidStateError):
        position(track=["nile"] * 9)


def test_r8_ra_figure_marks_the_ra_player_of_the_current_auction() -> None:
    """R8: the Ra figure marks the Ra player; the engine records `auction.ra_player`."""
    called = run(position(turn_player=1), "ra")
    assert running(called).ra_player == 1
    drawn = run(position(turn_player=2, ra_count=1), "draw", "reveal ra")
    assert running(drawn).ra_player == 2
    done = run(drawn, "pass", "pass", "pass", "pass")
    assert done.auction is None, "the figure is put away when the auction is over"


# == 1.B Setup =============================================================================


def test_r9_two_to_five_players_classic_is_three_to_five() -> None:
    """R9: original game 3-5 players; 2 players only through the community variant."""
    for n in (2, 3, 4, 5):
        assert new_game(n, suns="table").num_players == n
    for n in (1, 6):
        with pytest.raises(ValueError):
            new_game(n, suns="table")
    with pytest.raises(ValueError):
        Rules.classic(2)
    assert Rules.default(2).name == "two-player"
    assert all(Rules.default(n).name == "classic" for n in (3, 4, 5))


@pytest.mark.parametrize(("n", "top"), [(2, 9), (3, 13), (4, 13), (5, 16)])
def test_r10_suns_in_play_by_player_count(n: int, top: int) -> None:
    """R10: 3 or 4 players use suns 1-13, 5 players 1-16, 2 players 1-9."""
    s = new_game(n, suns="table")
    assert s.rules.max_sun == top
    owned = [x for p in s.players for x in p.suns_up + p.suns_down]
    assert sorted([s.center_sun, *owned]) == list(range(1, top + 1))


@pytest.mark.parametrize(
    ("groups", "sums"),
    [(S2, [22, 22]), (S3, [28, 30, 32]), (S4, [21, 22, 23, 24]), (S5, [25, 26, 27, 28, 29])],
)
def test_r11_starting_sun_groups_face_up(groups: tuple[list[int], ...], sums: list[int]) -> None:
    """R11: the sun groups of the table (2p default 2-5-6-9 / 3-4-7-8), dealt face up."""
    s = new_game(len(groups), suns="table")
    for seat, group in enumerate(groups):
        assert s.players[seat].suns_up == tuple(sorted(group)), f"R11: seat {seat} gets group {seat + 1}"
        assert s.players[seat].suns_down == (), "R11: suns start face up"
    assert [sum(p.suns_up) for p in s.players] == sums


def test_r11_groups_are_assigned_at_random() -> None:
    """R11: which player gets which group is decided at random (here: by the seed)."""
    seen = set()
    for seed in range(40):
        s = new_game(4, seed=seed)
        groups = tuple(p.suns_up for p in s.players)
        assert sorted(groups) == sorted(tuple(sorted(g)) for g in S4), "every group is dealt once"
        seen.add(groups)
    assert len(seen) > 1, "R11: different seeds deal the groups differently"


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_r12_the_centre_sun_starts_as_sun_1(n: int) -> None:
    """R12: the sun 1 starts face up on the centre space."""
    assert new_game(n, suns="table").center_sun == 1
    assert all(1 not in p.suns_up + p.suns_down for p in new_game(n, suns="table").players)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_r13_starting_fame_is_10(n: int) -> None:
    """R13: every player starts with 10 fame (two face-down 5-point tablets)."""
    assert new_game(n, suns="table").fame == (10,) * n


def test_r14_r22_a_draw_is_uniform_and_without_replacement() -> None:
    """R14 / R22: each draw is uniformly random without replacement from the remaining supply."""
    s = run(new_game(4, suns="table"), "draw")
    assert s.is_chance_node() and s.current_player() == CHANCE
    odds = dict(s.chance_outcomes())
    assert len(odds) == 23
    assert odds[Reveal(Tile.RA)] == Fraction(30, 180)
    assert odds[Reveal(Tile.GOLD)] == Fraction(5, 180)
    assert odds[Reveal(Tile.EARTHQUAKE)] == Fraction(2, 180)
    s = run(s, "reveal gold", "draw")
    odds = dict(s.chance_outcomes())
    assert odds[Reveal(Tile.GOLD)] == Fraction(4, 179), "the drawn gold is not put back"
    assert odds[Reveal(Tile.RA)] == Fraction(30, 179)


def test_r14_an_exhausted_kind_cannot_come_out_of_the_bag() -> None:
    """R14: a draw comes from the remaining supply: with all 5 gold on display, no gold is drawn."""
    s = run(position(displays={2: {"gold": 5}}), "draw")
    assert Reveal(Tile.GOLD) not in dict(s.chance_outcomes())
    with pytest.raises(IllegalActionError):
        s.apply("reveal gold")


@pytest.mark.parametrize(
    ("rules", "limit", "unused"),
    [
        (Rules.two_player(), 7, 3),
        (Rules.two_player(ra_limit=6), 6, 4),
        (Rules.classic(3), 8, 2),
        (Rules.classic(4), 9, 1),
        (Rules.classic(5), 10, 0),
    ],
)
def test_r15_the_epoch_ends_on_the_nth_ra_tile(rules: Rules, limit: int, unused: int) -> None:
    """R15 (TV-37, D6): the 7th (2p; option 6th), 8th (3p), 9th (4p), 10th (5p) Ra tile ends the
    epoch; every earlier Ra tile starts an auction."""
    assert rules.ra_limit == limit and 10 - rules.ra_limit == unused
    s = new_game(rules.players, rules=rules)
    auctions = 0
    for _ in range(limit + 2):
        s = run(s, "draw", "reveal ra")
        if s.epoch == 2:
            break
        assert s.phase is Phase.BID and running(s).trigger is Trigger.RA_TILE
        auctions += 1
        while s.phase is Phase.BID:
            s = s.apply("pass")
    assert s.epoch == 2, "R15: the epoch must have ended"
    assert auctions == limit - 1, f"R15: Ra tiles 1..{limit - 1} start auctions, the {limit}th ends the epoch"
    assert s.box[Tile.RA] == limit


@pytest.mark.parametrize(("n", "top"), [(2, 9), (3, 13), (4, 13), (5, 16)])
def test_r16_the_holder_of_the_highest_sun_starts(n: int, top: int) -> None:
    """R16: the player holding the highest sun (9 / 13 / 16) takes the first turn."""
    for seed in range(12):
        s = new_game(n, seed=seed)
        assert top in s.players[s.turn_player].suns_up, f"seed {seed}: the holder of {top} starts"
        assert s.to_move == s.turn_player and s.phase is Phase.ACTION


def test_r16_e19_the_highest_sun_holder_starts_epoch_2_not_the_next_player() -> None:
    """R16 / E19: epochs 2 and 3 start with the holder of the highest sun (face down in epoch 1
    counts, it is turned up), not with the player after the last actor."""
    players = [
        {"suns_up": [6, 2], "suns_down": [1]},
        S4[1],
        S4[2],
        {"suns_up": [10, 9], "suns_down": [13]},
    ]  # centre 5
    s = scored(players=players, turn_player=0)
    assert s.epoch == 2
    assert s.turn_player == 3, "R16: P3 holds 13 (won face down in epoch 1); P1 merely sits next"


def test_r16_the_centre_sun_belongs_to_nobody() -> None:
    """R16: the centre sun is ignored when finding the start player (centre 13 -> holder of 12)."""
    players = [{"suns_up": [6, 2], "suns_down": [1]}, *S4[1:]]  # centre 13
    s = scored(players=players, turn_player=2)  # P2 draws the last Ra tile, so the drawer does not start
    assert s.center_sun == 13 and s.epoch == 2
    assert s.turn_player == 1, "R16: P1 holds 12, the highest sun owned by a player"


# == 1.C Turn structure ====================================================================


def test_r17_e13_a_player_without_face_up_suns_is_skipped_even_with_a_god() -> None:
    """R17 / E13: a player with no face-up sun takes no turns (so cannot use his God)."""
    players = [S4[0], S4[1], {"suns_down": [11, 8, 4]}, S4[3]]
    s = position(players=players, displays={2: {"god": 1}}, track=["gold"], turn_player=1)
    s = run(s, "draw", "reveal nile")
    assert s.turn_player == 3, "R17: P2's turn is skipped"
    s = run(s, "draw", "reveal nile", "draw", "reveal nile")
    assert s.turn_player == 1
    assert display(s, 2) == {"god": 1}, "E13: P2 never got to use the god"
    with pytest.raises(InvalidStateError):
        position(players=players, displays={2: {"god": 1}}, turn_player=2)


def test_r17_r37_a_player_without_face_up_suns_is_not_in_the_auction() -> None:
    """R17 / R37: participants are the players with at least one face-up sun."""
    players = [S4[0], S4[1], {"suns_down": [11, 8, 4]}, S4[3]]
    s = run(position(players=players, track=["gold"], turn_player=1), "ra")
    assert running(s).order == (3, 0, 1)
    assert s.to_move == 3


def test_r18_e14_exactly_one_action_per_turn() -> None:
    """R18 / E14: the player performs exactly one of draw, call Ra, use God(s); a God cannot be
    used on the same turn as drawing."""
    s = position(displays={1: {"god": 1}}, track=["gold"], turn_player=1)
    assert legal(s) == ["draw", "ra", "god 1"]
    for not_an_action in ("pass", "done", "bid 3", "discard art"):
        with pytest.raises(IllegalActionError):
            s.apply(not_an_action)
    after = run(s, "draw", "reveal nile")
    assert after.turn_player == 2 and after.phase is Phase.ACTION, "E14: the draw ended P1's turn"
    assert display(after, 1) == {"god": 1}


def test_r18_e14_no_draw_or_call_after_using_a_god() -> None:
    """R18 / E14: after a God the player may only use more Gods or be done; no draw, no Ra call."""
    s = run(position(displays={1: {"god": 2}}, track=["gold", "nile"], turn_player=1), "god 1")
    assert s.phase is Phase.GODS
    assert legal(s) == ["done", "god 2"]


def test_r19_e3_full_track_without_gods_forces_a_ra_call() -> None:
    """R19 / E3: with all 8 auction spaces occupied, Draw is illegal; without Gods only Ra remains."""
    s = position(track=FULL_TRACK, turn_player=1)
    assert legal(s) == ["ra"]
    with pytest.raises(IllegalActionError):
        s.apply("draw")


def test_r19_e4_full_track_with_a_god_call_ra_or_use_it() -> None:
    """R19 / E4 (TV-29): on a full track a God owner may call Ra or use the God (any slot)."""
    s = position(track=FULL_TRACK, turn_player=1, displays={1: {"god": 1}})
    assert legal(s) == ["ra", *(f"god {i}" for i in range(1, 9))]


def test_r19_r26_full_track_of_untakeable_tiles_leaves_only_ra() -> None:
    """R19 / R26 / R27: a God owner on a full track with no legal God target must call Ra
    (7 Gods can never be taken; with D2 off, neither can the Funeral)."""
    rules = Rules.classic(4, god_can_take_disaster=False)
    s = position(rules=rules, track=["god"] * 7 + ["funeral"], turn_player=1, displays={1: {"god": 1}})
    assert legal(s) == ["ra"]


def test_r19_seven_tiles_still_allow_a_draw() -> None:
    """R19 (TV-42): with 7 tiles on the track drawing is still legal."""
    assert legal(position(track=FULL_TRACK[:7], turn_player=1)) == ["draw", "ra"]


def test_r20_the_turn_passes_clockwise() -> None:
    """R20: after the action the turn passes to the next player clockwise (P3 -> P0 wraps)."""
    s = position(turn_player=1)
    order = []
    for _ in range(5):
        s = run(s, "draw", "reveal nile")
        order.append(s.turn_player)
    assert order == [2, 3, 0, 1, 2]


def test_r20_after_an_auction_the_left_neighbour_of_the_ra_player_moves() -> None:
    """R20: after an auction the turn belongs to the Ra player's left neighbour, whoever won."""
    base = position(track=["gold"], turn_player=1)
    p0_wins = run(base, "ra", "pass", "pass", "bid 13", "pass")
    p1_wins = run(base, "ra", "pass", "pass", "pass", "bid 3")
    p3_wins = run(base, "ra", "pass", "bid 10", "pass", "pass")
    assert [display(x, w) for x, w in ((p0_wins, 0), (p1_wins, 1), (p3_wins, 3))] == [{"gold": 1}] * 3
    assert p0_wins.turn_player == p1_wins.turn_player == p3_wins.turn_player == 2


def test_r21_e6_lone_player_takes_every_turn() -> None:
    """R21 / E6: when exactly one player has face-up suns, he takes all the turns."""
    s = position(players=LONE_P1, turn_player=1)
    for _ in range(3):
        s = run(s, "draw", "reveal nile")
        assert s.turn_player == 1 and s.phase is Phase.ACTION


def test_r21_e6_lone_player_calling_ra_must_bid() -> None:
    """R21 / E6: a lone player who calls Ra (voluntarily) is the only bidder and must bid."""
    s = run(position(players=LONE_P1, track=["gold"], turn_player=1), "ra")
    assert running(s).order == (1,)
    assert legal(s) == ["bid 3", "bid 7", "bid 12"]
    s = run(s, "bid 7")
    assert display(s, 1) == {"gold": 1} and s.turn_player == 1


def test_r21_e6_lone_player_may_pass_on_a_drawn_ra() -> None:
    """R21 / E6: a Ra tile drawn by the lone player lets him pass; the tiles stay."""
    s = run(position(players=LONE_P1, track=["gold"], turn_player=1), "draw", "reveal ra")
    assert legal(s) == ["pass", "bid 3", "bid 7", "bid 12"]
    s = run(s, "pass")
    assert track(s)[0] == "gold" and s.turn_player == 1 and s.ra_count == 1


def test_r21_e6_lone_player_may_pass_on_a_forced_call() -> None:
    """R21 / E6: on a full track the lone player's Ra call is forced; he may pass, tiles are boxed."""
    s = run(position(players=LONE_P1, track=FULL_TRACK, turn_player=1), "ra")
    assert running(s).trigger is Trigger.CALL_FORCED
    assert legal(s)[0] == "pass"
    s = run(s, "pass")
    assert s.track == (None,) * 8 and s.turn_player == 1


# == 1.D Drawing ===========================================================================


def test_r22_a_draw_reveals_one_tile_from_the_supply() -> None:
    """R22: Draw = take one random tile from the supply and reveal it (a chance node)."""
    s = position(turn_player=1)
    drawing = run(s, "draw")
    assert drawing.phase is Phase.REVEAL and drawing.to_move == CHANCE
    assert drawing.bag == s.bag, "nothing leaves the bag before the reveal"
    revealed = run(drawing, "reveal temple")
    assert revealed.bag[Tile.TEMPLE] == s.bag[Tile.TEMPLE] - 1
    assert sum(revealed.bag) == sum(s.bag) - 1


def test_r23_r32_a_drawn_tile_goes_to_the_leftmost_empty_space() -> None:
    """R23 / R32: a non-Ra tile goes on the leftmost empty auction space (gaps are filled first)."""
    s = position(track=["gold", None, "nile"], turn_player=1)
    s = run(s, "draw", "reveal pharaoh")
    assert track(s)[:4] == ["gold", "pharaoh", "nile", None]
    s = run(s, "draw", "reveal pyramid")
    assert track(s)[:4] == ["gold", "pharaoh", "nile", "pyramid"]


def test_r23_disasters_and_gods_are_placed_like_any_tile() -> None:
    """R23: disaster and God tiles are placed on the track like any other tile; the turn ends."""
    s = run(position(turn_player=1), "draw", "reveal funeral", "draw", "reveal god")
    assert track(s)[:2] == ["funeral", "god"]
    assert s.turn_player == 3 and all(display(s, i) == {} for i in range(4))


def test_r24_a_ra_tile_counts_and_starts_an_auction_without_entering_the_lot() -> None:
    """R24: a Ra tile goes to the Ra track (ra_count + 1), never to the auction track or a lot,
    and starts an auction with the drawer as Ra player."""
    s = run(position(track=["gold"], turn_player=1, ra_count=2), "draw", "reveal ra")
    assert s.ra_count == 3
    assert track(s)[:2] == ["gold", None]
    assert running(s).trigger is Trigger.RA_TILE and running(s).ra_player == 1
    s = run(s, "bid 8", "pass", "pass", "pass")
    assert display(s, 2) == {"gold": 1}, "the lot is the auction track only, no Ra tile"
    assert s.ra_count == 3, "R24: the Ra tile stays on the Ra track until the epoch ends"


def test_r25_e16_the_supply_cannot_run_out() -> None:
    """R25 / E16: 3 epochs x ra_limit <= 30 Ra tiles, so a Ra tile is in the bag at every draw."""
    for rules in (Rules.two_player(), Rules.classic(3), Rules.classic(4), Rules.classic(5)):
        assert 3 * rules.ra_limit <= 30
    # The tightest case (5 players: exactly 30 = 3 x 10): the very last Ra tile is still in the bag.
    last = position(players=S5, epoch=3, ra_count=9, bag={"ra": 1})
    assert legal(last)[0] == "draw"
    assert run(last, "draw").chance_outcomes() == [(Reveal(Tile.RA), Fraction(1))]
    assert run(last, "draw", "reveal ra").is_terminal()
    for n, seed in ((2, 3), (3, 4), (4, 5), (5, 6)):
        for s in play_game([random_bot] * n, seed=seed).states():
            if s.is_chance_node():
                assert s.bag[Tile.RA] >= 1, f"E16: {n}p seed {seed}: a draw with no Ra tile left"


# == 1.E God tiles =========================================================================


def test_r26_a_god_takes_one_tile_and_goes_to_the_box() -> None:
    """R26: the player returns a God to the box and takes one tile of the track into his display."""
    s = position(displays={0: {"god": 1}}, track=["gold", "nile"])
    after = run(s, "god 1")
    assert display(after, 0) == {"gold": 1}
    assert track(after)[:2] == [None, "nile"]
    assert newly_boxed(s, after) == {"god": 1}
    assert after.turn_player == 1, "with no God left the turn ends at once"


def test_r26_r29_several_gods_in_one_action() -> None:
    """R26 / R29: k Gods take k distinct tiles, one exchange after another, in the player's order."""
    s = position(displays={0: {"god": 2}}, track=["gold", "nile", "pharaoh"])
    s = run(s, "god 1")
    assert s.phase is Phase.GODS and s.to_move == 0
    assert legal(s) == ["done", "god 2", "god 3"], "slot 1 is empty now: each target is distinct"
    s = run(s, "god 3")
    assert display(s, 0) == {"pharaoh": 1, "gold": 1}
    assert track(s)[:3] == [None, "nile", None]
    assert s.turn_player == 1 and s.phase is Phase.ACTION


def test_r26_a_god_owner_may_stop_early() -> None:
    """R26 / R29: k >= 1 is the player's choice: "done" keeps the remaining God for later."""
    s = run(position(displays={0: {"god": 2}}, track=["gold", "nile"]), "god 1", "done")
    assert display(s, 0) == {"god": 1, "gold": 1}
    assert s.turn_player == 1


def test_r26_using_a_god_needs_a_god_and_a_legal_target() -> None:
    """R26: the action is illegal without a God tile or without a legal target."""
    with pytest.raises(IllegalActionError):
        position(track=["gold"]).apply("god 1")
    assert legal(position(displays={0: {"god": 2}}, track=["god", "god"])) == ["draw", "ra"]
    assert legal(position(displays={0: {"god": 1}})) == ["draw", "ra"], "an empty track has no target"


def test_r27_a_god_never_takes_a_god() -> None:
    """R27: a God can never take a God tile (and Ra tiles are never on the track)."""
    s = position(displays={0: {"god": 1}}, track=["god", "gold"])
    assert legal(s) == ["draw", "ra", "god 2"]
    with pytest.raises(IllegalActionError):
        s.apply("god 1")


def test_r28_e1_d2_a_god_takes_a_disaster_resolved_at_once() -> None:
    """R28 / E1 / D2 (TV-38): by default a God may take a disaster; it is resolved immediately
    against the God user."""
    s = position(displays={0: {"pharaoh": 2, "god": 1}}, track=["funeral", "gold"])
    assert "god 1" in legal(s)
    after = run(s, "god 1")
    assert display(after, 0) == {}
    assert track(after)[:2] == [None, "gold"]
    assert newly_boxed(s, after) == {"god": 1, "pharaoh": 2, "funeral": 1}


def test_r28_d2_option_god_cannot_take_a_disaster() -> None:
    """R28 / D2: with god_can_take_disaster=False the disaster is not a legal God target."""
    rules = Rules.classic(4, god_can_take_disaster=False)
    s = position(rules=rules, displays={0: {"pharaoh": 2, "god": 1}}, track=["funeral", "gold"])
    assert legal(s) == ["draw", "ra", "god 2"]
    with pytest.raises(IllegalActionError):
        s.apply("god 1")


def test_r28_r29_a_god_taken_disaster_with_a_choice_then_more_gods() -> None:
    """R28 / R29 / R53: a God-taken Unrest asks for the discard choice, then the God turn goes on."""
    s = position(displays={0: {"god": 2, "art": 1, "writing": 1, "religion": 1}}, track=["unrest", "gold"])
    s = run(s, "god 1")
    assert s.phase is Phase.DISCARD and s.to_move == 0 and owing(s).after == "gods"
    assert legal(s) == ["discard art religion", "discard art writing", "discard religion writing"]
    s = run(s, "discard art writing")
    assert s.phase is Phase.GODS and legal(s) == ["done", "god 2"]
    assert display(s, 0) == {"god": 1, "religion": 1}


def test_r29_the_order_of_god_exchanges_matters() -> None:
    """R29: each exchange is completed before the next, so the order can change the result."""
    s = position(displays={0: {"god": 2, "pharaoh": 1}}, track=["funeral", "pharaoh"])
    pharaoh_first = run(s, "god 2", "god 1")  # 2 pharaohs, then the funeral takes both
    funeral_first = run(s, "god 1", "god 2")  # the funeral takes the 1 pharaoh, then +1
    assert display(pharaoh_first, 0) == {}
    assert display(funeral_first, 0) == {"pharaoh": 1}


def test_r30_used_gods_leave_the_game_and_the_space_stays_empty() -> None:
    """R30: the used God goes to the box; it does not take the freed auction space."""
    s = position(track=FULL_TRACK, turn_player=1, displays={1: {"god": 1}})
    after = run(s, "god 6")
    assert after.track[5] is None
    assert Tile.GOD not in after.track
    assert after.box[Tile.GOD] == s.box[Tile.GOD] + 1
    assert display(after, 1) == {"temple": 1}


def test_r31_r32_gods_on_a_full_track_then_the_next_player_may_draw() -> None:
    """R31 / R32 (TV-29): a God used on a full track leaves 7 tiles; the next player may draw and
    the drawn tile fills the gap."""
    s = run(position(track=FULL_TRACK, turn_player=1, displays={1: {"god": 1}}), "god 6")
    assert display(s, 1) == {"temple": 1}
    assert s.turn_player == 2 and legal(s) == ["draw", "ra"]
    s = run(s, "draw", "reveal writing")
    assert track(s) == ["pharaoh", "nile", "nile", "gold", "art", "writing", "funeral", "flood"]
    assert s.turn_player == 3


def test_r31_gods_may_also_be_used_on_a_track_that_is_not_full() -> None:
    """R31: Gods may be used on any turn, not only when the track is full."""
    s = position(displays={0: {"god": 1}}, track=["gold"])
    assert legal(s) == ["draw", "ra", "god 1"]


def test_r33_a_god_won_in_an_auction_is_used_on_a_later_turn() -> None:
    """R33 (TV-44): Gods won in an auction may be used on any later turn of the epoch."""
    s = run(position(track=["god", "gold"], turn_player=1), "ra", "pass", "pass", "pass", "bid 3")
    assert display(s, 1) == {"god": 1, "gold": 1}
    assert s.turn_player == 2, "winning does not give an extra turn to use the God"
    s = run(s, "draw", "reveal nile", "draw", "reveal pharaoh", "draw", "reveal flood")
    assert s.turn_player == 1
    assert legal(s) == ["draw", "ra", "god 1", "god 2", "god 3"]


def test_r33_gods_cannot_be_used_during_an_auction() -> None:
    """R33: a God owner bidding in an auction can only bid or pass, not use the God."""
    s = run(position(track=["gold"], turn_player=1, displays={2: {"god": 1}}), "ra")
    assert s.to_move == 2
    assert legal(s) == ["pass", "bid 4", "bid 8", "bid 11"]


def test_r33_a_god_action_starts_no_auction() -> None:
    """R33: using Gods does not start an auction and ends the turn."""
    s = run(position(displays={0: {"god": 1}}, track=["gold", "nile"]), "god 2")
    assert s.auction is None and s.phase is Phase.ACTION and s.turn_player == 1
    assert s.players[0].suns_up == (2, 6, 13) and s.center_sun == 1


def test_r34_a_god_action_never_ends_an_epoch() -> None:
    """R34: Gods never spend a sun nor add a Ra tile, so a God action cannot end an epoch."""
    s = last_ra(displays={0: {"god": 1}}, track=["gold"])
    after = run(s, "god 1")
    assert after.epoch == 1 and after.ra_count == s.ra_count
    assert [p.suns_up for p in after.players] == [p.suns_up for p in s.players]
    assert run(after, "draw", "reveal ra").epoch == 2, "the next Ra tile does end it"


def test_r34_a_lone_player_may_use_gods() -> None:
    """R34: a lone player (R21) may use Gods like anybody else, and then moves again."""
    s = position(players=LONE_P1, displays={1: {"god": 1}}, track=["gold"], turn_player=1)
    assert "god 1" in legal(s)
    s = run(s, "god 1")
    assert display(s, 1) == {"gold": 1} and s.turn_player == 1


# == 1.F Auctions ==========================================================================


def test_r35_a_drawn_ra_tile_starts_a_ra_tile_auction() -> None:
    """R35: a drawn Ra tile that does not end the epoch starts a RA_TILE auction."""
    s = run(position(track=FULL_TRACK[:7], turn_player=1), "draw", "reveal ra")
    assert running(s).trigger is Trigger.RA_TILE


def test_r35_calling_ra_on_fewer_than_8_tiles_is_voluntary() -> None:
    """R35: calling Ra with fewer than 8 tiles on the track is CALL_VOLUNTARY."""
    s = run(position(track=FULL_TRACK[:7], turn_player=1), "ra")
    assert running(s).trigger is Trigger.CALL_VOLUNTARY


def test_r35_e4_calling_ra_on_a_full_track_is_forced_even_with_gods() -> None:
    """R35 / E4: calling Ra on a full track is CALL_FORCED, whether or not the caller owns Gods."""
    without = run(position(track=FULL_TRACK, turn_player=1), "ra")
    with_god = run(position(track=FULL_TRACK, turn_player=1, displays={1: {"god": 1}}), "ra")
    assert running(without).trigger is Trigger.CALL_FORCED
    assert running(with_god).trigger is Trigger.CALL_FORCED


def test_r36_e5_ra_may_be_called_on_an_empty_track_for_the_centre_sun() -> None:
    """R36 / E5 (TV-31): calling Ra is always legal, also with an empty track; the prize is the sun."""
    s = position(turn_player=1)
    assert "ra" in legal(s)
    s = run(s, "ra", "pass", "pass", "pass")
    assert legal(s) == ["bid 3", "bid 7", "bid 12"], "E5: voluntary, so the Ra player must bid"
    s = run(s, "bid 3")
    assert s.players[1].suns_up == (7, 12) and s.players[1].suns_down == (1,)
    assert display(s, 1) == {} and s.center_sun == 3


def test_r36_e18_calling_ra_does_not_advance_the_ra_track() -> None:
    """R36 / E18: calling Ra places no Ra tile (ra_count unchanged)."""
    s = position(track=["gold"], turn_player=1, ra_count=3)
    called = run(s, "ra")
    assert called.ra_count == 3
    assert run(called, "bid 8", "pass", "pass", "pass").ra_count == 3
    assert called.bag[Tile.RA] == s.bag[Tile.RA]


def test_r38_bid_order_starts_left_of_the_ra_player_and_ends_with_him() -> None:
    """R38: once around the table from the Ra player's left neighbour, the Ra player last,
    one chance each."""
    s = run(position(turn_player=1, ra_count=1), "draw", "reveal ra")
    assert running(s).order == (2, 3, 0, 1)
    seen = []
    while s.phase is Phase.BID:
        seen.append(s.to_move)
        s = s.apply("pass")
    assert seen == [2, 3, 0, 1], "each bidder gets exactly one opportunity"
    assert s.phase is Phase.ACTION


def test_r38_bid_order_with_five_and_two_players() -> None:
    """R38: 5 players, Ra player P3: P4, P0, P1, P2, P3; 2 players, Ra player P0: P1, P0."""
    five = run(position(players=S5, turn_player=3), "ra")
    assert running(five).order == (4, 0, 1, 2, 3)
    two = run(position(players=S2, turn_player=0), "ra")
    assert running(two).order == (1, 0)
    assert bid_order(new_game(5, suns="table").players, 4) == (0, 1, 2, 3, 4)


def test_r39_e12_the_first_bid_is_not_compared_with_the_centre_sun() -> None:
    """R39 / E12 (TV-32): the first bid may be any value; later bids must beat the high bid."""
    players = [
        {"suns_up": [3, 7], "suns_down": [4, 12]},
        {"suns_up": [5, 13], "suns_down": [1, 6]},
        {"suns_up": [2, 9], "suns_down": [8, 10]},
    ]  # 3 players, centre 11
    s = run(position(players=players, track=["gold"], turn_player=1), "ra")
    assert s.center_sun == 11
    assert legal(s) == ["pass", "bid 2", "bid 9"]
    s = run(s, "bid 2")  # E12: legal although 2 < 11
    assert legal(s) == ["pass", "bid 3", "bid 7"], "the face-down 4 and 12 can never be bid"
    s = run(s, "bid 7")
    assert legal(s) == ["pass", "bid 13"], "5 does not beat 7"
    s = run(s, "pass")
    assert s.players[0].suns_up == (3,) and 11 in s.players[0].suns_down
    assert s.center_sun == 7 and s.players[2].suns_up == (2, 9)


def test_r39_a_bidder_who_cannot_beat_the_high_bid_must_pass() -> None:
    """R39 (TV-27): a bidder whose face-up suns are all lower than the high bid must pass."""
    s = run(position(track=["nile", "flood"], turn_player=1), "ra", "bid 8", "pass", "bid 13")
    assert s.to_move == 1 and legal(s) == ["pass"]
    with pytest.raises(IllegalActionError):
        s.apply("bid 12")


def test_r39_a_bid_must_be_a_face_up_sun_of_the_bidder() -> None:
    """R39: a bid is one of the bidder's own face-up suns."""
    s = run(position(track=["gold"], turn_player=1), "ra")
    for foreign in ("bid 13", "bid 12", "bid 5", "bid 1"):
        with pytest.raises(IllegalActionError):
            s.apply(foreign)


def test_r40_e7_voluntary_call_ra_player_must_bid_when_all_others_pass() -> None:
    """R40 / E7 (TV-26): in a CALL_VOLUNTARY auction in which every other player passed, the Ra
    player MUST bid (any face-up sun)."""
    s = run(position(track=["gold"], turn_player=1), "ra", "pass", "pass", "pass")
    assert legal(s) == ["bid 3", "bid 7", "bid 12"]
    with pytest.raises(IllegalActionError):
        s.apply("pass")


def test_r40_e7_voluntary_call_ra_player_may_pass_after_another_bid() -> None:
    """R40 / E7: if at least one other player bid, the voluntary Ra player MAY pass."""
    s = run(position(track=["gold"], turn_player=1), "ra", "bid 8", "pass", "pass")
    assert legal(s) == ["pass", "bid 12"]
    s = run(s, "pass")
    assert display(s, 2) == {"gold": 1}


def test_r40_e7_drawn_ra_everybody_may_pass() -> None:
    """R40 / E7: in a RA_TILE auction everybody, the Ra player included, may pass."""
    s = run(position(track=["gold"], turn_player=1), "draw", "reveal ra", "pass", "pass", "pass")
    assert s.to_move == 1 and legal(s)[0] == "pass"


def test_r40_e7_forced_call_everybody_may_pass() -> None:
    """R40 / E7: in a CALL_FORCED auction everybody, the Ra player included, may pass."""
    s = run(position(track=FULL_TRACK, turn_player=1), "ra", "pass", "pass", "pass")
    assert s.to_move == 1 and legal(s)[0] == "pass"


def test_r41_the_winner_takes_every_tile_then_exchanges_suns() -> None:
    """R41: the winner takes all tiles (good, God, disaster) of the track, takes the centre sun
    face down, puts his bid on the centre, and resolves the disasters."""
    s = position(track=["pharaoh", "god", "funeral", "gold", "nile"], turn_player=1, displays={2: {"pharaoh": 2}})
    after = run(s, "ra", "bid 8", "pass", "pass", "pass")
    assert display(after, 2) == {"god": 1, "pharaoh": 1, "nile": 1, "gold": 1}, "3 pharaohs - 2 (funeral)"
    assert after.track == (None,) * 8
    assert after.players[2].suns_up == (4, 11) and after.players[2].suns_down == (1,)
    assert after.center_sun == 8
    assert newly_boxed(s, after) == {"pharaoh": 2, "funeral": 1}


def test_r42_drawn_ra_all_pass_the_tiles_stay() -> None:
    """R42 (TV-25): RA_TILE auction, no bid: the tiles and the centre sun stay, the Ra tile counts."""
    s = position(track=["pharaoh", "gold"], ra_count=3, turn_player=1)
    after = run(s, "draw", "reveal ra", "pass", "pass", "pass", "pass")
    assert track(after)[:3] == ["pharaoh", "gold", None]
    assert after.center_sun == 1 and after.ra_count == 4
    assert [p.suns_up for p in after.players] == [p.suns_up for p in s.players]
    assert after.turn_player == 2


def test_r42_e3_forced_call_all_pass_the_tiles_go_to_the_box() -> None:
    """R42 / E3 (TV-28): CALL_FORCED auction, no bid: all 8 tiles go to the box, the centre sun stays."""
    s = position(track=FULL_TRACK, turn_player=1)
    after = run(s, "ra", "pass", "pass", "pass", "pass")
    assert after.track == (None,) * 8
    assert newly_boxed(s, after) == {
        "pharaoh": 1, "nile": 2, "flood": 1, "gold": 1, "art": 1, "temple": 1, "funeral": 1,
    }  # fmt: skip
    assert after.center_sun == 1
    assert [p.suns_up for p in after.players] == [p.suns_up for p in s.players]
    assert after.turn_player == 2 and "draw" in legal(after)


def test_r42_e4_forced_call_by_a_god_owner_all_pass() -> None:
    """R42 / E4 (TV-30): a God owner who calls Ra on a full track holds a forced auction; all pass
    -> the 8 tiles are boxed, he keeps his God."""
    s = position(track=FULL_TRACK, turn_player=1, displays={1: {"god": 1}})
    after = run(s, "ra", "pass", "pass", "pass", "pass")
    assert after.track == (None,) * 8 and sum(newly_boxed(s, after).values()) == 8
    assert display(after, 1) == {"god": 1} and after.center_sun == 1


def test_r43_losing_bidders_take_their_suns_back_face_up() -> None:
    """R43 (TV-27): losing bidders keep their bid suns face up, usable again this epoch."""
    s = run(position(track=["nile", "flood"], turn_player=1), "ra", "bid 8", "pass", "bid 13", "pass")
    assert display(s, 0) == {"nile": 1, "flood": 1}
    assert s.players[0].suns_up == (2, 6) and s.players[0].suns_down == (1,)
    assert s.players[2].suns_up == (4, 8, 11) and s.players[2].suns_down == ()
    assert s.center_sun == 13 and s.turn_player == 2
    s = run(s, "ra", "pass", "pass", "pass")
    assert "bid 8" in legal(s), "R43: P2 may bid the 8 again"


def test_r44_after_the_auction_players_without_suns_are_skipped() -> None:
    """R44: the next turn is the Ra player's left neighbour, skipping players without face-up suns."""
    players = [S4[0], S4[1], {"suns_up": [4], "suns_down": [8, 11]}, S4[3]]
    s = run(position(players=players, track=["gold"], turn_player=1), "ra", "bid 4", "pass", "pass", "pass")
    assert s.players[2].suns_up == () and display(s, 2) == {"gold": 1}
    assert s.turn_player == 3, "R44: P2 spent his last sun, so P3 moves"


def test_r45_disaster_choice_comes_before_the_epoch_end_check() -> None:
    """R45: after an auction: lot, sun exchange, disaster resolution (with the winner's choice),
    and only then the epoch-end check (R58) and scoring."""
    players = [{"suns_down": [13, 6, 2]}, {"suns_up": [12], "suns_down": [7, 3]}, *LONE_P1[2:]]
    civilizations = {"art": 1, "writing": 1, "religion": 1}
    s = position(players=players, displays={1: civilizations}, track=["unrest"], turn_player=1)
    s = run(s, "ra", "bid 12")
    assert s.phase is Phase.DISCARD and s.to_move == 1
    assert s.epoch == 1 and s.scores == (), "R45: the epoch is not scored before the discard"
    assert s.center_sun == 12 and s.players[1].suns_down == (1, 3, 7), "the suns were exchanged first"
    s = run(s, "discard art writing")
    assert s.epoch == 2
    assert column(s, "civilization")[1] == 0, "one civilization type left after the discard -> 0, not +5"


# == 1.G Sun exchange ======================================================================


def test_r46_the_winning_sun_goes_to_the_centre_the_old_one_face_down() -> None:
    """R46 (TV-26): the winner's bid sun goes face up to the centre; the old centre sun comes to
    him face down."""
    s = run(position(track=["gold"], turn_player=1), "ra", "pass", "pass", "pass", "bid 3")
    assert s.players[1].suns_up == (7, 12) and s.players[1].suns_down == (1,)
    assert s.center_sun == 3


def test_r47_face_down_suns_cannot_be_bid_this_epoch() -> None:
    """R47: face-down suns cannot be bid until the next epoch."""
    players = [S4[0], {"suns_up": [12, 7], "suns_down": [1]}, S4[2], S4[3]]
    s = run(position(players=players, track=["gold"], turn_player=0), "ra")
    assert s.to_move == 1 and legal(s) == ["pass", "bid 7", "bid 12"]
    with pytest.raises(IllegalActionError):
        s.apply("bid 1")


@pytest.mark.parametrize(("n", "total", "size"), [(2, 45, 4), (3, 91, 4), (4, 91, 3), (5, 136, 3)])
def test_r48_sun_invariants_over_a_whole_game(n: int, total: int, size: int) -> None:
    """R48: (a) every player always owns as many suns as at setup; (b) the suns with the centre are
    always 1..N (total 45/91/91/136); (c) a sun turns face down only by being won from the centre."""
    states = list(play_game([random_bot] * n, seed=100 + n).states())
    for s in states:
        assert all(len(p.suns) == size for p in s.players), "R48a"
        suns = [s.center_sun, *(x for p in s.players for x in p.suns)]
        assert sorted(suns) == list(range(1, s.rules.max_sun + 1)) and sum(suns) == total, "R48b"
    won = 0
    for prev, cur in itertools.pairwise(states):
        if cur.epoch != prev.epoch or cur.is_terminal():
            continue
        for before, after in zip(prev.players, cur.players, strict=True):
            if after.suns_down == before.suns_down:
                assert after.suns_up == before.suns_up, "R48c: face-up suns only change by winning"
            else:
                won += 1
                assert sorted(after.suns_down) == sorted((*before.suns_down, prev.center_sun)), "R48c"
                assert set(before.suns_up) - set(after.suns_up) == {cur.center_sun}, "R46"
    assert won > 0, "the game had auctions"


def test_r49_e17_epoch_transition_centre_stays_all_suns_face_up() -> None:
    """R49 / E17: the centre sun stays; after scoring all suns are turned face up; unused face-up
    suns carry over unchanged."""
    players = [S4[0], {"suns_up": [12, 7], "suns_down": [1]}, S4[2], S4[3]]  # centre 3
    s = scored(players=players, turn_player=0)
    assert s.epoch == 2 and s.center_sun == 3
    assert s.players[1].suns_up == (1, 7, 12) and s.players[1].suns_down == ()
    assert [p.suns_up for p in s.players] == [(2, 6, 13), (1, 7, 12), (4, 8, 11), (5, 9, 10)]
    assert all(p.suns_down == () for p in s.players)


# == 1.H Disasters =========================================================================


def test_r50_a_disaster_costs_two_tiles_of_its_category() -> None:
    """R50 (TV-16): for each disaster the player discards two matching tiles; the disaster is boxed."""
    before = position(track=["funeral", "pharaoh"], turn_player=1, displays={1: {"pharaoh": 2}})
    after = win_lot(["funeral", "pharaoh"], {"pharaoh": 2})
    assert display(after, 1) == {"pharaoh": 1}
    assert newly_boxed(before, after) == {"funeral": 1, "pharaoh": 2}


def test_r50_only_one_matching_tile_loses_only_that_one() -> None:
    """R50: with only one matching tile the player discards that one."""
    assert display(win_lot(["drought"], {"nile": 1, "gold": 1}), 1) == {"gold": 1}


def test_r50_no_matching_tile_nothing_happens() -> None:
    """R50 (TV-18): with no matching tile nothing happens; only the disaster goes to the box."""
    before = position(track=["funeral", "gold"], turn_player=1)
    after = win_lot(["funeral", "gold"])
    assert display(after, 1) == {"gold": 1}
    assert newly_boxed(before, after) == {"funeral": 1}


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ({"flood": 3, "nile": 4}, {"flood": 1, "nile": 4}),
        ({"flood": 1, "nile": 3}, {"nile": 2}),
        ({"nile": 1}, {}),
        ({"flood": 2}, {}),
    ],
)
def test_r52_e2_drought_takes_floods_first_then_niles(before: dict[str, int], after: dict[str, int]) -> None:
    """R52 / E2 (TV-19): Drought discards Floods first, Niles only to make up the two; no choice."""
    s = win_lot(["drought"], before)
    assert s.phase is Phase.ACTION, "R53: drought never offers a choice"
    assert display(s, 1) == after


def test_r53_unrest_the_player_chooses_which_two() -> None:
    """R53 (TV-22): with more than 2 civilizations of several types the player chooses two."""
    s = win_lot(["unrest"], {"art": 1, "writing": 2, "religion": 1})
    assert s.phase is Phase.DISCARD and s.to_move == 1
    assert legal(s) == [
        "discard art religion", "discard art writing", "discard religion writing", "discard writing writing",
    ]  # fmt: skip
    for wrong in ("discard art", "discard art writing religion", "discard art art", "discard pharaoh pharaoh"):
        with pytest.raises(IllegalActionError):
            s.apply(wrong)
    s = run(s, "discard art writing")
    assert display(s, 1) == {"religion": 1, "writing": 1}
    assert s.phase is Phase.ACTION and s.turn_player == 2


def test_r53_earthquake_the_player_chooses_which_two() -> None:
    """R53 (TV-23): Earthquake with 3 pyramids and a temple: keep {pyramid, temple} or {pyramid x2}."""
    s = win_lot(["earthquake"], {"pyramid": 3, "temple": 1})
    assert legal(s) == ["discard pyramid pyramid", "discard pyramid temple"]
    assert display(run(s, "discard pyramid pyramid"), 1) == {"pyramid": 1, "temple": 1}
    assert display(run(s, "discard pyramid temple"), 1) == {"pyramid": 2}


@pytest.mark.parametrize(
    ("lot", "before", "after"),
    [
        (["unrest"], {"art": 3}, {"art": 1}),  # one type only: nothing to choose
        (["unrest"], {"art": 1, "writing": 1}, {}),  # exactly two: both go
        (["earthquake"], {"sphinx": 1}, {}),  # TV-23: fewer than two
        (["funeral"], {"pharaoh": 5}, {"pharaoh": 3}),  # pharaohs are all alike
    ],
)
def test_r53_no_decision_without_a_real_choice(lot: list[str], before: dict[str, int], after: dict[str, int]) -> None:
    """R53: a discard decision is offered only when the matching tiles outnumber the loss and span
    at least 2 types; otherwise the loss is automatic."""
    s = win_lot(lot, before)
    assert s.phase is Phase.ACTION and s.discard is None
    assert display(s, 1) == after


def test_r54_two_droughts_remove_up_to_four_river_tiles_floods_first() -> None:
    """R54: several disasters are each resolved: two droughts cost 4 river tiles, floods first."""
    assert display(win_lot(["drought", "drought"], {"flood": 1, "nile": 4}), 1) == {"nile": 1}
    assert display(win_lot(["funeral", "funeral"], {"pharaoh": 3}), 1) == {}, "fewer if not available"


def test_r53_r54_two_unrests_choose_four_only_when_there_is_a_choice() -> None:
    """R53 / R54: two Unrests cost 4 civilizations: automatic with exactly 4, a choice with 5."""
    forced = win_lot(["unrest", "unrest"], {"art": 2, "writing": 2})
    assert forced.phase is Phase.ACTION and display(forced, 1) == {}
    choice = win_lot(["unrest", "unrest"], {"art": 2, "writing": 2, "religion": 1})
    assert legal(choice) == [
        "discard art art religion writing", "discard art art writing writing", "discard art religion writing writing",
    ]  # fmt: skip
    assert display(run(choice, "discard art art writing writing"), 1) == {"religion": 1}


def test_r54_unrest_and_earthquake_in_one_lot_two_choices() -> None:
    """R54: an Unrest and an Earthquake in one lot are both resolved, each with its own choice."""
    s = win_lot(["unrest", "earthquake"], {"art": 1, "writing": 1, "religion": 1, "pyramid": 2, "temple": 1})
    assert legal(s) == ["discard art religion", "discard art writing", "discard religion writing"]
    s = run(s, "discard art religion")
    assert s.phase is Phase.DISCARD
    assert legal(s) == ["discard pyramid pyramid", "discard pyramid temple"]
    s = run(s, "discard pyramid temple")
    assert display(s, 1) == {"writing": 1, "pyramid": 1}
    assert s.phase is Phase.ACTION and s.turn_player == 2


def test_r55_e15_a_disaster_hits_tiles_won_in_the_same_lot() -> None:
    """R55 / E15 (TV-17): the whole lot is added first, so a disaster destroys tiles won with it."""
    assert display(win_lot(["pharaoh", "funeral", "pharaoh"]), 1) == {}
    assert display(win_lot(["art", "unrest", "gold"], {"art": 2}), 1) == {"art": 1, "gold": 1}


def test_r56_discarded_tiles_go_to_the_box() -> None:
    """R56: discarded tiles and disaster tiles go to the box, out of the game."""
    before = position(track=["unrest"], turn_player=1, displays={1: {"art": 1, "writing": 1, "religion": 1}})
    chosen = run(win_lot(["unrest"], {"art": 1, "writing": 1, "religion": 1}), "discard art writing")
    assert newly_boxed(before, chosen) == {"art": 1, "writing": 1, "unrest": 1}
    assert chosen.bag == before.bag, "nothing returns to the supply"


# == 1.I End of an epoch ===================================================================


def test_r57_the_last_ra_tile_ends_the_epoch_without_an_auction() -> None:
    """R57 (TV-35): when the Ra tile reaching the limit is drawn the epoch ends at once, no auction."""
    players = [{"suns_up": [13, 8, 2], "suns_down": [1]}, *S3[1:]]  # 3 players, centre 5
    s = scored(players=players, track=["nile", "flood", "god"], turn_player=0)
    assert s.epoch == 2 and s.phase is Phase.ACTION and s.auction is None
    assert len(s.scores) == 1
    assert all(display(s, i) == {} for i in range(3)), "nobody won the track: no auction was held"
    assert s.players[0].suns_up == (1, 2, 8, 13), "no sun was spent"


def test_r58_the_epoch_ends_when_no_player_has_a_face_up_sun() -> None:
    """R58: when after an auction nobody has a face-up sun, the epoch ends."""
    players = [
        {"suns_down": [13, 6, 2]},
        {"suns_up": [3], "suns_down": [12, 7]},
        {"suns_up": [4], "suns_down": [11, 8]},
        {"suns_down": [10, 9, 5]},
    ]
    s = run(position(players=players, track=["gold"], turn_player=1), "ra", "bid 4", "pass")
    assert s.epoch == 1 and s.turn_player == 1, "P1 still has the 3"
    s = run(s, "ra")
    assert legal(s) == ["bid 3"]
    s = run(s, "bid 3")
    assert s.epoch == 2 and len(s.scores) == 1, "R58: the last sun was spent, the epoch is over"
    assert s.center_sun == 3 and s.ra_count == 0


def test_r59_e8_cleanup_boxes_the_ra_tiles_and_the_track_centre_stays() -> None:
    """R59 / E8 (TV-35): at the epoch end the Ra tiles and the auction tiles left go to the box;
    the centre sun stays."""
    players = [{"suns_up": [13, 8, 2], "suns_down": [1]}, *S3[1:]]  # centre 5
    before = last_ra(players=players, track=["nile", "flood", "god"], turn_player=0)
    after = run(before, "draw", "reveal ra")
    assert newly_boxed(before, after) == {"ra": 8, "god": 1, "nile": 1, "flood": 1}
    assert after.track == (None,) * 8 and after.ra_count == 0
    assert after.center_sun == 5


def test_r59_under_condition_b_the_track_is_empty() -> None:
    """R59: when the epoch ends because all suns are spent, the last winner took the whole track."""
    players = [{"suns_down": [13, 6, 2]}, {"suns_up": [12], "suns_down": [7, 3]}, *LONE_P1[2:]]
    s = run(position(players=players, track=["gold", "nile"], turn_player=1), "ra", "bid 12")
    assert s.epoch == 2 and s.track == (None,) * 8
    assert column(s, "gold", 0)[1] == 3, "P1 won the gold before the epoch was scored"


@functools.cache
def epoch1() -> tuple[State, State]:
    """A 4-player epoch 1 just before and just after its scoring (used by R60-R69 tests).

    P0: 2 gods, 2 pharaohs, 3 niles + 1 flood, 4 civilization types, 2 gold, 3 pyramids.
    P1: 1 pharaoh, 4 niles (no flood). P2: 2 pharaohs, 2 floods, 2 agriculture, 1 gold.
    P3: 1 art.
    """
    displays = {
        0: {"god": 2, "pharaoh": 2, "nile": 3, "flood": 1, "art": 1, "writing": 1, "religion": 1,
            "astronomy": 1, "gold": 2, "pyramid": 3},
        1: {"pharaoh": 1, "nile": 4},
        2: {"pharaoh": 2, "flood": 2, "agriculture": 2, "gold": 1},
        3: {"art": 1},
    }  # fmt: skip
    before = last_ra(displays=displays, turn_player=2)  # P2 draws the last Ra; P0 (13) starts epoch 2 (R61)
    return before, run(before, "draw", "reveal ra")


def test_r60_gods_gold_civilizations_floods_discarded_the_rest_kept() -> None:
    """R60: after scoring every player discards Gods, Gold, Civilizations and Floods; Pharaohs,
    Niles and Monuments are kept."""
    before, after = epoch1()
    assert [display(after, i) for i in range(4)] == [
        {"pharaoh": 2, "nile": 3, "pyramid": 3},
        {"pharaoh": 1, "nile": 4},
        {"pharaoh": 2},
        {},
    ]
    assert newly_boxed(before, after) == {
        "ra": 9, "god": 2, "flood": 3, "gold": 3, "art": 2, "agriculture": 2, "religion": 1,
        "astronomy": 1, "writing": 1,
    }  # fmt: skip


def test_r61_the_next_epoch_starts_clean_with_fame_carried_over() -> None:
    """R61: next epoch: empty Ra and auction tracks, suns face up, holder of the highest sun starts,
    fame totals carry over."""
    _, after = epoch1()
    assert after.epoch == 2 and after.ra_count == 0 and after.track == (None,) * 8
    assert after.phase is Phase.ACTION and after.turn_player == 0
    assert list(after.fame) == column(after, "fame_after") == [39, 5, 20, 8]


def test_r62_the_game_ends_after_the_scoring_of_epoch_3() -> None:
    """R62: exactly 3 epochs; the game ends after the epoch-3 scoring."""
    second = scored(epoch=2)
    assert second.epoch == 3 and not second.is_terminal()
    final = scored(epoch=3)
    assert final.is_terminal() and final.phase is Phase.GAME_OVER
    assert final.current_player() == TERMINAL and final.legal_actions() == ()
    with pytest.raises(IllegalActionError):
        final.apply("draw")
    record = play_game([random_bot] * 3, seed=5)
    end = record.replay()
    assert end.is_terminal() and [e.epoch for e in end.scores] == [1, 2, 3]


# == 1.J Scoring after every epoch =========================================================


def test_r63_two_points_per_god() -> None:
    """R63: +2 per God tile in the display."""
    assert scoring.god_points(counts({Tile.GOD: 3})) == 6
    assert column(epoch1()[1], "god") == [4, 0, 0, 0]


def test_r64_e11_pharaohs_most_plus_5_fewest_minus_2() -> None:
    """R64 / E11: all tied for most +5, all tied for fewest -2, all equal -> nobody; 0 counts."""
    assert scoring.pharaoh_points([4, 3, 3, 4]) == [5, -2, -2, 5]
    assert scoring.pharaoh_points([3, 3, 3]) == [0, 0, 0], "E11: all equal: nobody scores"
    assert scoring.pharaoh_points([0, 0, 0, 0]) == [0, 0, 0, 0]
    assert scoring.pharaoh_points([0, 2, 0]) == [-2, 5, -2], "E11: 0 pharaohs is 'fewest'"
    assert scoring.pharaoh_points([2, 1]) == [5, -2]
    assert column(epoch1()[1], "pharaoh") == [5, 0, 5, -2]


@pytest.mark.parametrize(
    ("pharaohs", "expected"),
    [
        ([4, 4, 4, 4, 1], [5, 5, 5, 5, -2]),
        ([1, 1, 1, 1, 4], [-2, -2, -2, -2, 5]),
        ([5, 3, 3, 1, 1], [5, 0, 0, -2, -2]),
    ],
)
def test_r64_e11_five_players_several_tied(pharaohs: list[int], expected: list[int]) -> None:
    """R64 / E11 (TV-04): 5 players, several tied for most or fewest, scored by the engine."""
    players = [{"suns_up": g, "display": {"pharaoh": n}} for g, n in zip(S5, pharaohs, strict=True)]
    assert column(scored(players=players), "pharaoh") == expected


def test_r65_river_scores_only_with_a_flood() -> None:
    """R65: with at least one Flood +1 per Nile and per Flood; with no Flood the river scores 0."""
    assert scoring.river_points(counts({Tile.FLOOD: 1, Tile.NILE: 3})) == 4
    assert scoring.river_points(counts({Tile.FLOOD: 2})) == 2
    assert scoring.river_points(counts({Tile.NILE: 9})) == 0
    assert column(epoch1()[1], "river") == [4, 0, 2, 0]


def test_r66_civilizations_by_distinct_types() -> None:
    """R66: none -5; 1-2 types 0; 3/4/5 types +5/+10/+15; duplicates add nothing."""
    cases = [
        ({}, -5),
        ({Tile.ART: 4}, 0),
        ({Tile.ART: 1, Tile.WRITING: 3}, 0),
        ({Tile.ASTRONOMY: 3, Tile.AGRICULTURE: 2, Tile.WRITING: 2}, 5),
        ({Tile.ART: 2, Tile.AGRICULTURE: 1, Tile.RELIGION: 1, Tile.ASTRONOMY: 1}, 10),
        ({t: 2 for t in CIVILIZATIONS}, 15),  # not 30: only one set is scored
    ]
    for civs, points in cases:
        assert scoring.civilization_points(counts(civs)) == points, civs
    assert column(epoch1()[1], "civilization") == [10, -5, 0, 0]


def test_r67_three_points_per_gold() -> None:
    """R67: +3 per Gold tile."""
    assert scoring.gold_points(counts({Tile.GOLD: 2})) == 6
    assert column(epoch1()[1], "gold") == [6, 0, 3, 0]


def test_r68_monuments_are_not_scored_after_epochs_1_and_2() -> None:
    """R68: monuments are kept but not scored after epochs 1 and 2 (nor the suns)."""
    _, after = epoch1()
    assert column(after, "monument") == [0, 0, 0, 0] and column(after, "sun") == [0, 0, 0, 0]
    assert display(after, 0)["pyramid"] == 3
    second = scored(epoch=2, displays={0: {"pyramid": 3, "temple": 1}})
    assert column(second, "monument") == [0, 0, 0, 0]
    assert display(second, 0) == {"pyramid": 3, "temple": 1}


def test_r69_net_result_is_the_sum_of_the_categories() -> None:
    """R69: the epoch result is the sum of the categories, added to the fame total."""
    _, after = epoch1()
    assert [b.net for b in after.scores[0].players] == [29, -5, 10, -2]
    assert list(after.fame) == [39, 5, 20, 8]


def test_r69_e9_d4_fame_is_floored_at_zero() -> None:
    """R69 / E9 / D4 (TV-11): a total that would be negative becomes 0."""
    s = scored(players=[S4[0], {"suns_up": [12, 7, 3], "fame": 3}, *S4[2:]])
    assert s.scores[0].players[1].net == -5
    assert s.fame[1] == 0, "E9: 3 - 5 is floored at 0, not -2"


def test_r69_the_floor_applies_once_to_the_total_not_per_category() -> None:
    """R69: the floor is applied once to the total after the net result, not per category."""
    s = scored(players=[S4[0], {"suns_up": [12, 7, 3], "fame": 2, "display": {"gold": 2}}, *S4[2:]])
    # civilization -5, gold +6: 2 - 5 + 6 = 3 (flooring after the civilizations would give 6)
    assert s.fame[1] == 3


def test_r69_d4_option_without_fame_floor() -> None:
    """R69 / D4: with fame_floor=False the fame total may become negative."""
    rules = Rules.classic(4, fame_floor=False)
    s = scored(rules=rules, players=[S4[0], {"suns_up": [12, 7, 3], "fame": 3}, *S4[2:]])
    assert s.fame[1] == -2
    with pytest.raises(InvalidStateError):
        position(players=[{"suns_up": [13, 6, 2], "fame": -1}, *S4[1:]])


# == 1.K Scoring after epoch 3 =============================================================


def test_r70_monuments_variety_plus_sets() -> None:
    """R70 (TV-A1, TV-07): d distinct types score d (1-6), 10 (7), 15 (8); each type with 3/4/5
    copies adds 5/10/15; every tile counts for both."""
    m = Tile
    cases = [
        ({}, 0),
        ({m.PYRAMID: 4, m.TEMPLE: 3, m.FORTRESS: 2, m.SPHINX: 1}, 4 + 10 + 5),
        ({t: 1 for t in MONUMENTS}, 15),
        ({t: 1 for t in MONUMENTS[:7]}, 10),
        ({t: 1 for t in MONUMENTS[:6]}, 6),
        ({m.STATUE: 5}, 1 + 15),
        ({**{t: 1 for t in MONUMENTS}, m.PYRAMID: 5}, 15 + 15),
        ({m.OBELISK: 3, m.PALACE: 3}, 2 + 5 + 5),
        ({m.TEMPLE: 4, m.SPHINX: 4, m.STATUE: 3, m.FORTRESS: 1, m.OBELISK: 1, m.PALACE: 1, m.PYRAMID: 1}, 35),
    ]
    for monuments, points in cases:
        assert scoring.monument_points(counts(monuments)) == points, monuments


def test_r71_sun_totals_highest_plus_5_lowest_minus_5() -> None:
    """R71 (TV-A2): all tied for the highest sun total +5, all tied for the lowest -5, all equal 0."""
    assert scoring.sun_points([17, 25, 21, 17]) == [-5, 5, 0, -5]
    assert scoring.sun_points([22, 22]) == [0, 0]
    assert scoring.sun_points([25, 25, 20, 21]) == [5, 5, -5, 0]


def test_r71_e20_face_down_suns_count_in_the_sun_total() -> None:
    """R71 / E20: the sum is over all suns the player owns, face up and face down."""
    players = [*S4[:3], {"suns_up": [5], "suns_down": [9, 10]}]  # sums 21, 22, 23, 24
    s = scored(epoch=3, players=players)
    assert column(s, "sun") == [-5, 0, 0, 5], "P3's face-down 9 and 10 count: 24 is the highest"


def test_r71_e20_the_centre_sun_belongs_to_nobody() -> None:
    """R71 / E20: the centre sun is nobody's; P0, who gave up the 13, has the lowest total."""
    players = [{"suns_up": [6, 2], "suns_down": [1]}, *S4[1:]]  # centre 13; sums 9, 22, 23, 24
    s = scored(epoch=3, players=players)
    assert s.center_sun == 13
    assert column(s, "sun") == [-5, 0, 0, 5]


@functools.cache
def epoch3() -> State:
    """A 4-player game right after the epoch-3 scoring (R70-R73 tests)."""
    players = [
        {"suns_up": [13, 6, 2], "fame": 20, "display": {
            "god": 1, "pharaoh": 3, "nile": 2, "flood": 1, "art": 1, "writing": 1, "religion": 1,
            "gold": 1, "pyramid": 3, "temple": 1}},
        {"suns_up": [12, 7, 3], "fame": 2, "display": {"pharaoh": 1}},
        {"suns_up": [11, 8, 4], "fame": 10, "display": {"pharaoh": 3, "astronomy": 1}},
        {"suns_up": [10, 9, 5], "fame": 10},
    ]  # fmt: skip
    return scored(epoch=3, players=players)


def test_r72_epoch_3_result_sums_every_category_then_floors_once() -> None:
    """R72: epoch 3 = R63-R67 + monuments (R70) + suns (R71), summed, then the floor of R69."""
    s = epoch3()
    rows = [
        (b.god, b.pharaoh, b.river, b.civilization, b.gold, b.monument, b.sun, b.fame_after)
        for b in s.scores[-1].players
    ]
    # P0: god 2, pharaohs 3 (most) +5, river 2+1 = 3, 3 civ types +5, gold 3, monuments
    #     2 types + 3 pyramids 5 = 7, sun total 21 (lowest) -5: net 20 -> 40.
    # P1: pharaohs 1 (neither most nor fewest) 0, no civ -5, sum 22: net -5 -> 2 - 5 floored to 0.
    # P2: pharaohs 3 +5, 1 civ type 0, sum 23: net +5 -> 15.
    # P3: pharaohs 0 (fewest) -2, no civ -5, sum 24 (highest) +5: net -2 -> 8.
    assert rows == [
        (2, 5, 3, 5, 3, 7, -5, 40),
        (0, 0, 0, -5, 0, 0, 0, 0),
        (0, 5, 0, 0, 0, 0, 0, 15),
        (0, -2, 0, -5, 0, 0, 5, 8),
    ]


# == 1.L Winner ============================================================================


def test_r73_the_most_fame_wins() -> None:
    """R73: after the epoch-3 scoring the player with the most fame wins."""
    s = epoch3()
    assert s.is_terminal() and s.fame == (40, 0, 15, 8)
    assert s.winner() == 0
    assert scored(epoch=2).winner() is None, "no winner before the game is over"
    # Empty displays: nets P0 -10, P1 -5, P2 -5, P3 0 (civ -5 each, suns -5 / +5); P3 ends on 60.
    rich = scored(epoch=3, players=[*S4[:3], {"suns_up": [10, 9, 5], "fame": 60}])
    assert rich.fame == (0, 5, 5, 60)
    assert rich.winner() == 3, "the most fame wins although P0 owns the highest sun"


#: Epoch 3, empty displays: nets are P0 -10 (civ -5, sun -5), P1 -5, P2 -5, P3 0 (civ -5, sun +5);
#: with these fames everybody ends on 10.
TIED_FAME = (20, 15, 15, 10)


def tied_final(players: list[Any], rules: Rules | None = None) -> State:
    """Return the end of a game whose 4 players all finish on 10 fame."""
    seats: list[dict[str, Any]] = [dict(p) if isinstance(p, dict) else {"suns_up": list(p)} for p in players]
    for seat, fame in zip(seats, TIED_FAME, strict=True):
        seat["fame"] = fame
    s = scored(epoch=3, players=seats, rules=rules)
    assert s.fame == (10, 10, 10, 10), "scenario: the fame totals must tie"
    return s


def test_r73_e10_d1_a_tie_goes_to_the_highest_single_sun() -> None:
    """R73 / E10 / D1: tied players: the one owning the highest single sun wins (not the sum)."""
    s = tied_final(list(S4))
    assert s.winner() == 0, "P0 owns the 13 although his sun total (21) is the lowest"


def test_r73_e20_face_down_suns_count_for_the_tie_break() -> None:
    """R73 / E20: the tie-break counts suns face up or face down."""
    s = tied_final([{"suns_up": [6, 2], "suns_down": [13]}, *S4[1:]])
    assert s.winner() == 0, "P0's 13 is face down and still wins the tie"


def test_r73_e20_the_centre_sun_never_breaks_a_tie() -> None:
    """R73 / E20: the centre sun is excluded: with the 13 in the centre the holder of 12 wins."""
    s = tied_final([{"suns_up": [6, 2], "suns_down": [1]}, *S4[1:]])
    assert s.center_sun == 13
    assert s.winner() == 1


def test_d1_option_tie_break_by_highest_sun_sum() -> None:
    """D1: with tie_break="highest_sun_sum" ([ZH] reading) the tied player with the highest sum wins."""
    s = tied_final(list(S4), rules=Rules.classic(4, tie_break="highest_sun_sum"))
    assert s.winner() == 3, "P3's suns sum to 24, the highest"


# == 1.M Information model =================================================================


def test_r74_the_supply_composition_is_derivable_from_public_information() -> None:
    """R74: the order of the supply is hidden, but its composition is public: the full supply minus
    every tile revealed so far; and the box is everything that left the supply and is no longer in
    sight (displays, auction track, Ra track)."""
    record = play_game([random_bot] * 4, seed=74)
    revealed = [0] * len(Tile)
    states = record.states()
    s = next(states)
    for text, s in zip(record.actions, states, strict=True):
        action = parse_action(text)
        if isinstance(action, Reveal):
            revealed[action.tile] += 1
        assert s.bag == tuple(f - r for f, r in zip(FULL_BAG, revealed, strict=True))
        in_sight = [sum(p.display[k] for p in s.players) for k in range(len(Tile))]
        for t in s.track:
            if t is not None:
                in_sight[t] += 1
        in_sight[Tile.RA] += s.ra_count
        assert s.box == tuple(r - v for r, v in zip(revealed, in_sight, strict=True))
    assert s.is_terminal() and sum(revealed) > 0


def test_r74_chance_odds_depend_only_on_public_composition() -> None:
    """R74: two positions with the same public information have the same draw odds."""
    a = run(position(turn_player=1, displays={0: {"gold": 2}}), "draw")
    b = run(position(turn_player=1, track=["gold", "gold"]), "draw")
    assert a.chance_outcomes() == b.chance_outcomes()
    assert dict(a.chance_outcomes())[Reveal(Tile.GOLD)] == Fraction(3, 178)


# == 2. Options and variants ===============================================================


def test_d2_default_god_can_take_disaster() -> None:
    """D2: the default is god_can_take_disaster=True (see R28 for both settings in play)."""
    assert Rules.classic(4).god_can_take_disaster is True
    assert Rules.two_player().god_can_take_disaster is True


def test_d3_after_an_all_pass_the_left_neighbour_moves_not_the_ra_player() -> None:
    """D3: play resumes with the Ra player's left neighbour; the Ra player never chains turns."""
    s = run(position(track=["gold"], turn_player=1), "draw", "reveal ra", "pass", "pass", "pass", "pass")
    assert s.turn_player == 2
    s = run(position(players=S2, turn_player=0), "draw", "reveal ra", "pass", "pass")
    assert s.turn_player == 1, "2 players: the other player moves after P0's auction"


@pytest.mark.parametrize(
    ("groups", "suns", "sums"),
    [
        ("a", [(2, 4, 6, 9), (3, 5, 7, 8)], [21, 23]),
        ("b", [(2, 5, 6, 9), (3, 4, 7, 8)], [22, 22]),
        ("c", [(3, 4, 6, 9), (2, 5, 7, 8)], [22, 22]),
    ],
)
def test_d5_two_player_sun_group_options(groups: str, suns: list[tuple[int, ...]], sums: list[int]) -> None:
    """D5: 2-player sun groups (a) 2-4-6-9 / 3-5-7-8, (b) 2-5-6-9 / 3-4-7-8 (default), (c) 3-4-6-9 / 2-5-7-8."""
    s = new_game(2, rules=Rules.two_player(groups=groups), suns="table")
    assert [p.suns_up for p in s.players] == suns
    assert [sum(p.suns_up) for p in s.players] == sums
    assert s.turn_player == 0, "R16: the holder of 9 starts"


def test_d5_the_default_two_player_groups_are_b() -> None:
    """D5: the default 2-player groups are (b) 2-5-6-9 / 3-4-7-8; other options are refused."""
    assert Rules.default(2).sun_groups == ((9, 6, 5, 2), (8, 7, 4, 3))
    with pytest.raises(ValueError):
        Rules.two_player(groups="d")


def test_d6_two_player_ra_track_7_by_default_6_as_option() -> None:
    """D6: 2-player epochs end on the 7th Ra tile by default, 6th as the "exciting" option."""
    assert Rules.default(2).ra_limit == 7
    assert Rules.two_player(ra_limit=6).ra_limit == 6
    with pytest.raises(ValueError):
        Rules.two_player(ra_limit=5)
    short = position(players=S2, rules=Rules.two_player(ra_limit=6), ra_count=5)
    assert run(short, "draw", "reveal ra").epoch == 2
    normal = position(players=S2, ra_count=5)
    assert run(normal, "draw", "reveal ra").phase is Phase.BID, "the 6th Ra starts an auction by default"


@pytest.mark.parametrize(("players", "first"), [(S2, 0), (S3, 0), (S5, 0)])
def test_d8_r19_no_draw_on_a_full_track_for_every_player_count(players: Any, first: int) -> None:
    """D8 / R19: the full-track draw ban is the same in every edition and player count."""
    s = position(players=players, track=FULL_TRACK, turn_player=first)
    assert legal(s) == ["ra"]


@pytest.mark.parametrize(
    ("scope", "epoch", "pharaoh", "sun"),
    [
        (None, 1, [5, -2], [0, 0]),
        (None, 3, [5, -2], [-5, 5]),
        ("final", 1, [5, -2], [0, 0]),
        ("final", 2, [5, -2], [0, 0]),
        ("final", 3, [5, 0], [0, 5]),
        ("all_epochs", 1, [5, 0], [0, 0]),
        ("all_epochs", 3, [5, 0], [0, 5]),
    ],
)
def test_d9_two_player_no_penalty_option(scope: str | None, epoch: int, pharaoh: list[int], sun: list[int]) -> None:
    """D9 (TV-05, TV-10): the optional 2-player rule drops the -2 pharaoh and -5 sun penalties,
    bonuses kept; scope "final" = epoch 3 only (default when enabled), "all_epochs" = always."""
    rules = Rules.two_player() if scope is None else Rules.two_player(no_penalty=True, no_penalty_scope=scope)
    players = [
        {"suns_up": [9, 6, 5], "suns_down": [1], "display": {"pharaoh": 2}},  # sum 21
        {"suns_up": [8, 7, 4, 3], "display": {"pharaoh": 1}},  # sum 22; centre 2
    ]
    s = scored(rules=rules, players=players, epoch=epoch)
    assert column(s, "pharaoh") == pharaoh
    assert column(s, "sun") == sun
    assert rules.penalties_apply(epoch) == (pharaoh[1] == -2)


def test_d10_two_player_discards_are_the_same_as_classic() -> None:
    """D10: the kept / discarded tile kinds after an epoch are the same in every variant."""
    shown_tiles = {"god": 1, "pharaoh": 1, "nile": 1, "flood": 1, "gold": 1, "art": 1, "pyramid": 1}
    kept = {"pharaoh": 1, "nile": 1, "pyramid": 1}
    two = scored(players=S2, displays={0: shown_tiles})
    five = scored(players=S5, displays={0: shown_tiles})
    assert display(two, 0) == display(five, 0) == kept


# == 2-player and 5-player specifics =======================================================


def test_r9_r10_r16_two_player_game_setup() -> None:
    """R9 / R10 / R11 / R16 (TV-43): 2 players: suns 1-9, 4 each, sum 45 with the centre,
    Ra limit 7, the holder of 9 starts."""
    s = new_game(2, suns="table")
    assert s.rules.max_sun == 9 and s.rules.ra_limit == 7
    assert [len(p.suns_up) for p in s.players] == [4, 4]
    assert s.center_sun + sum(sum(p.suns_up) for p in s.players) == 45
    assert s.turn_player == 0 and 9 in s.players[0].suns_up


def test_r9_r10_r16_five_player_game_setup() -> None:
    """R9 / R10 / R11 / R15 / R16: 5 players: suns 1-16, 3 each, sum 136, Ra limit 10 (no unused
    Ra space), the holder of 16 starts."""
    s = new_game(5, suns="table")
    assert s.rules.max_sun == 16 and s.rules.ra_limit == 10
    assert [len(p.suns_up) for p in s.players] == [3] * 5
    assert s.center_sun + sum(sum(p.suns_up) for p in s.players) == 136
    assert s.turn_player == 0 and 16 in s.players[0].suns_up


def test_r40_two_player_voluntary_call_all_pass() -> None:
    """R40 (2 players): the other player passes, so the voluntary Ra player must bid."""
    s = run(position(players=S2, track=["gold"], turn_player=0), "ra", "pass")
    assert legal(s) == ["bid 2", "bid 5", "bid 6", "bid 9"]


# == Perft: counting the game tree by hand =================================================


def perft(state: State, depth: int) -> list[int]:
    """Return the number of nodes at each depth 0..`depth` below `state`; every legal action is
    one branch, chance reveals included (each tile kind still in the bag is one branch)."""
    level = [state]
    sizes = [1]
    for _ in range(depth):
        level = [s.apply(a) for s in level for a in s.legal_actions()]
        sizes.append(len(level))
    return sizes


def test_perft_from_the_3_player_start() -> None:
    """Perft to depth 3 from new_game(3, suns="table"), counted by hand from R16, R18, R22-R24, R35-R40.

    Depth 1 (2): P0 holds 13 and starts (R16); no gods, empty track: "draw" or "ra" (R18).
    Depth 2 (28):
      * after "draw": a chance node; all 23 tile kinds are in the bag: 23 reveals (R22).
      * after "ra": voluntary auction, bid order P1, P2, P0 (R38); P1 (3, 6, 9, 12) may pass
        or bid any of his 4 suns (R39): 5.  23 + 5 = 28.
    Depth 3 (67):
      * 22 non-Ra reveals: the tile goes to slot 1 and the turn passes to P1 (R23), who may
        "draw" or "ra": 22 x 2 = 44.
      * reveal Ra: 1st Ra of 8 -> RA_TILE auction, P1 bids first: pass + 4 bids = 5 (R24).
      * after "ra" + P1's choice, P2 (4, 7, 10, 11) must beat the high bid or pass:
        P1 passed -> 5, P1 bid 3 -> 5, bid 6 -> 4 (7, 10, 11), bid 9 -> 3, bid 12 -> 1 (pass
        only): 18.  44 + 5 + 18 = 67.
    """
    assert perft(new_game(3, suns="table"), 3) == [1, 2, 28, 67]


def test_perft_from_a_mid_game_position() -> None:
    """Perft to depth 3 from a mid-game position, counted by hand (R17-R29, R38-R40, R50-R53).

    4 players, epoch 1, 4 Ra tiles drawn, P1 to act: P1 up 12, 7 (down 1, centre 3) and owns
    2 gods, a pharaoh, art, writing, religion; the track holds gold, unrest, god, nile.

    Depth 1 (5): "draw", "ra", and a god on slots 1 (gold), 2 (unrest: default R28) and
    4 (nile) -- not slot 3, a god (R27).
    Depth 2 (36):
      * draw: every one of the 23 kinds is still in the bag: 23.
      * ra: voluntary auction, P2 (4, 8, 11) first: pass + 3 bids = 4.
      * god 1 (gold): one god left, targets slots 2 and 4: "done", "god 2", "god 4" = 3.
      * god 2 (unrest): 3 civilizations of 3 types, 2 to lose: a choice (R53) of
        art+religion, art+writing, religion+writing = 3.
      * god 4 (nile): one god left, targets slots 1 and 2: 3.   23 + 4 + 3 + 3 + 3 = 36.
    Depth 3 (83):
      * draw: 22 non-Ra reveals go to slot 5, then P2 (no god) may "draw" or "ra": 44; the Ra
        reveal (5th of 9) starts a RA_TILE auction with P2 first: 4.  48.
      * ra: P3 (5, 9, 10) after P2's pass -> 4, after bid 4 -> 4, bid 8 -> 3, bid 11 -> 1: 12.
      * god 1 then: "done" -> P2: 2; "god 2" (last god, unrest) -> choice of 3; "god 4" (last
        god) -> P2: 2.  7.
      * god 2 then each of the 3 discards -> one god left, targets gold and nile: "done",
        "god 1", "god 4" = 3 each: 9.
      * god 4 then: "done" -> 2; "god 1" -> P2: 2; "god 2" -> choice of 3.  7.
      48 + 12 + 7 + 9 + 7 = 83.
    """
    s = position(
        players=[S4[0], {"suns_up": [12, 7], "suns_down": [1]}, S4[2], S4[3]],
        displays={1: {"god": 2, "pharaoh": 1, "art": 1, "writing": 1, "religion": 1}},
        track=["gold", "unrest", "god", "nile"],
        ra_count=4,
        turn_player=1,
    )
    assert s.center_sun == 3
    assert perft(s, 3) == [1, 5, 36, 83]
