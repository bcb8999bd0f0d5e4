"""The public API's contract: notation, errors that explain and change nothing, saved data, records."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from ra_core import (
    CHANCE,
    Bid,
    CallRa,
    Discard,
    Done,
    Draw,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
    Pass,
    Phase,
    Reveal,
    Rules,
    State,
    Tile,
    UseGod,
    new_game,
    parse_action,
)
from ra_core.bots import random_bot
from ra_core.engine import turns
from ra_core.engine.actions import discard
from ra_core.engine.tiles import FULL_BAG
from ra_core.play import GameRecord, play_game, sample_chance

from .positions import S4

# -- notation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("draw", Draw()),
        ("ra", CallRa()),
        ("god 3", UseGod(3)),
        ("done", Done()),
        ("bid 9", Bid(9)),
        ("pass", Pass()),
        ("discard art writing", Discard((Tile.ART, Tile.WRITING))),
        ("discard step-pyramid step-pyramid", Discard((Tile.STEP_PYRAMID, Tile.STEP_PYRAMID))),
        ("reveal ra", Reveal(Tile.RA)),
    ],
)
def test_notation_round_trips(text: str, action: object) -> None:
    """Every action's text parses to it, and its str is that text."""
    assert parse_action(text) == action
    assert str(action) == text


@pytest.mark.parametrize("text", ["Call Ra", "  BID   9 ", "discard Writing, ART", "REVEAL Step_Pyramid"])
def test_notation_is_forgiving_about_case_and_spacing(text: str) -> None:
    """Case, spaces and commas do not matter; the canonical text is lower case."""
    assert parse_action(str(parse_action(text))) == parse_action(text)


@pytest.mark.parametrize("text", ["bid nine", "bid 17", "god 9", "reveal dragon", "discard", "", "jump", "bid"])
def test_unparsable_text_raises_invalid_action_error(text: str) -> None:
    """Text that is no action raises InvalidActionError (a ValueError) with examples of the notation."""
    with pytest.raises(InvalidActionError, match="expected e.g."):
        parse_action(text)
    assert issubclass(InvalidActionError, ValueError)


def test_discard_order_does_not_matter() -> None:
    """A discard is a multiset of tiles: the order written does not change the action."""
    assert discard([Tile.WRITING, Tile.ART]) == discard([Tile.ART, Tile.WRITING])


# -- illegal actions ------------------------------------------------------------------------


def test_illegal_action_message_names_action_player_phase_and_legal() -> None:
    """The error names the action, the player, the phase and every legal action, in notation."""
    s = State.from_dict({"players": S4, "track": ["nile", "flood"], "turn_player": 1}).apply("ra").apply("bid 8")
    with pytest.raises(IllegalActionError) as info:
        s.apply("bid 5")
    err = info.value
    assert str(err) == (
        "bid 5 is not legal for player 3 in phase BID (high bid 8 by player 2); legal: pass, bid 9, bid 10"
    )
    assert (err.player, err.phase, [str(a) for a in err.legal]) == (3, "BID", ["pass", "bid 9", "bid 10"])
    assert isinstance(err, ValueError)


def test_illegal_action_changes_nothing() -> None:
    """A refused action leaves the state exactly as it was."""
    s = new_game(3, seed=5)
    before = s.to_dict()
    for bad in ["bid 13", "pass", "god 1", "done", "discard art art", "reveal gold"]:
        with pytest.raises(IllegalActionError):
            s.apply(bad)
    assert s.to_dict() == before and s.legal_actions() == (Draw(), CallRa())


def test_equal_action_objects_work_like_the_engines_own() -> None:
    """`apply` takes any equal action, not only the shared objects `legal_actions` returns."""
    s = State.from_dict({"players": S4, "track": ["nile", "flood"], "turn_player": 1}).apply(CallRa())
    fresh = s.apply(Bid(8)).apply(Pass())
    shared = s.apply(next(a for a in s.legal_actions() if a == Bid(8))).apply("pass")
    assert fresh == shared and fresh.auction is not None and fresh.auction.bids == (8, None)
    with pytest.raises(IllegalActionError, match="bid 5 is not legal"):
        fresh.apply(Bid(5))


def test_reveal_outside_a_chance_node_and_decisions_at_one() -> None:
    """A chance outcome is refused where a player decides, and a decision where chance decides."""
    s = new_game(4, suns="table")
    with pytest.raises(IllegalActionError, match="player 0 in phase ACTION"):
        s.apply(Reveal(Tile.GOLD))
    chance = s.apply("draw")
    with pytest.raises(IllegalActionError, match="chance in phase REVEAL"):
        chance.apply("ra")


def test_reveal_of_a_tile_no_longer_in_the_bag_is_illegal() -> None:
    """Forcing a chance outcome keeps the bag exact: an exhausted tile kind cannot come out."""
    s = State.from_dict({"players": S4, "box": {"gold": 5}, "phase": "reveal", "turn_player": 0})
    assert Reveal(Tile.GOLD) not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="reveal gold is not legal for chance"):
        s.apply("reveal gold")


def test_game_over_refuses_everything() -> None:
    """After epoch 3 no action is legal, and the error says the game is over."""
    final = play_game([random_bot] * 3, seed=11).replay()
    with pytest.raises(IllegalActionError, match="the game is over"):
        final.apply("draw")


# -- chance ---------------------------------------------------------------------------------


def test_chance_outcomes_are_exact_bag_odds() -> None:
    """Each tile comes out with probability count / tiles left, as a Fraction (R14, R22)."""
    s = new_game(3, suns="table").apply("draw")
    odds = dict(s.chance_outcomes())
    assert odds[Reveal(Tile.RA)] == Fraction(30, 180)
    assert odds[Reveal(Tile.FUNERAL)] == Fraction(2, 180)
    assert sum(odds.values()) == 1
    assert s.current_player() == CHANCE


def test_forced_chance_outcome_keeps_the_bag_exact() -> None:
    """Forcing 'the next tile is a funeral' removes exactly one funeral from the bag."""
    s = new_game(3, suns="table").apply("draw").apply("reveal funeral")
    assert s.bag[Tile.FUNERAL] == FULL_BAG[Tile.FUNERAL] - 1
    assert sum(s.bag) == 179
    assert dict(s.apply("draw").chance_outcomes())[Reveal(Tile.FUNERAL)] == Fraction(1, 179)


def test_sample_chance_follows_the_odds() -> None:
    """sample_chance draws Ra about 1/6 of the time from a full bag (seeded, within 4 standard errors)."""
    s = new_game(3, suns="table").apply("draw")
    rng = random.Random(1)
    n = 6000
    hits = sum(sample_chance(s, rng) == Reveal(Tile.RA) for _ in range(n))
    p = 1 / 6
    assert abs(hits / n - p) < 4 * (p * (1 - p) / n) ** 0.5


# -- immutability ---------------------------------------------------------------------------


def test_state_is_immutable() -> None:
    """Fields cannot be assigned; apply returns a new state and the parent is unchanged."""
    s = new_game(3, suns="table")
    with pytest.raises(AttributeError):
        s.epoch = 2  # type: ignore[misc]
    child = s.apply("draw")
    assert s.phase is Phase.ACTION and child.phase is Phase.REVEAL


def test_states_are_hashable_values() -> None:
    """Equal positions are equal and hash alike, whatever path led to them."""
    a = new_game(4, suns="table").apply("draw").apply("reveal gold")
    b = State.from_dict(a.to_dict())
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1


# -- saved positions ------------------------------------------------------------------------


def invalid(data: dict[str, object]) -> InvalidStateError:
    with pytest.raises(InvalidStateError) as info:
        State.from_dict(data)
    return info.value


def test_from_dict_rejects_181_tiles() -> None:
    """One gold too many is refused, naming the field (R1)."""
    err = invalid(
        {"players": S4, "bag": {**{t.label: n for t, n in zip(Tile, FULL_BAG, strict=True)}, "gold": 6}, "box": {}}
    )
    assert err.field == "bag.gold" and "the game has 5" in str(err)


def test_from_dict_rejects_a_sun_owned_twice() -> None:
    """A sun in two places is refused, naming where (R48)."""
    players = [{"suns_up": [13, 6, 2]}, {"suns_up": [12, 7, 2]}, {"suns_up": [11, 8, 4]}, {"suns_up": [10, 9, 5]}]
    err = invalid({"players": players})
    assert err.field == "players[1].suns_up" and "sun 2 is owned twice" in str(err)


def test_from_dict_rejects_a_phase_that_does_not_fit() -> None:
    """A bid phase needs an auction; an auction outside the bid phase is refused."""
    assert invalid({"players": S4, "phase": "bid"}).field == "auction"
    assert invalid({"players": S4, "phase": "action", "auction": {"trigger": "ra_tile"}}).field == "auction"
    assert invalid({"players": S4, "phase": "game_over"}).field == "phase"
    assert invalid({"players": S4, "phase": "dance"}).field == "phase"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"players": "four"}, "players"),
        ({"players": S4, "epoch": 4}, "epoch"),
        ({"players": S4, "ra_count": 9}, "ra_count"),
        ({"players": S4, "track": ["ra"]}, "track[0]"),
        ({"players": S4, "track": ["gold"] * 9}, "track"),
        ({"players": S4, "turn_player": 7}, "turn_player"),
        ({"players": [*S4[:3], {"suns_up": [10, 9]}]}, "players[3].suns_up"),
        ({"players": [*S4[:3], {"suns_up": [10, 9, 5], "display": {"funeral": 1}}]}, "players[3].display.funeral"),
        ({"players": [*S4[:3], {"suns_up": [10, 9, 5], "display": {"gold": -1}}]}, "players[3].display.gold"),
        ({"players": S4, "center_sun": 2}, "center_sun"),
        ({"players": S4, "colour": "blue"}, "colour"),
        ({"players": S4, "auction": {"trigger": "call_forced"}}, "auction.trigger"),
        ({"players": S4, "auction": {"trigger": "call_voluntary", "bids": [13]}}, "auction.bids[0]"),
        ({"players": S4, "auction": {"trigger": "call_voluntary", "bids": [12, 11]}}, "auction.bids[1]"),
    ],
)
def test_from_dict_names_the_bad_field(data: dict[str, object], field: str) -> None:
    """Malformed or impossible input raises InvalidStateError whose field names the culprit."""
    assert invalid(data).field == field


def test_from_dict_defaults_make_scenarios_short() -> None:
    """Omitted fields default sensibly: bag = what is not elsewhere, the highest sun starts."""
    s = State.from_dict({"players": S4, "track": ["gold", None, "nile"]})
    assert s.turn_player == 0 and s.center_sun == 1 and s.epoch == 1
    assert s.bag[Tile.GOLD] == 4 and sum(s.bag) == 178 and sum(s.box) == 0
    assert s.track[:3] == (Tile.GOLD, None, Tile.NILE)


def test_to_dict_is_json() -> None:
    """to_dict output survives a JSON round trip."""
    s = new_game(5, seed=3).apply("draw").apply("reveal unrest")
    assert State.from_dict(json.loads(json.dumps(s.to_dict()))) == s


# -- rules objects --------------------------------------------------------------------------


def test_rules_presets_print_and_round_trip() -> None:
    """Rules presets are printable and saved as data."""
    rules = Rules.two_player(groups="c", ra_limit=6, no_penalty=True)
    assert "Ra tiles ending an epoch: 6" in str(rules) and "9-6-4-3" in str(rules)
    assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Rules.classic(2), "3-5 players"),
        (lambda: Rules.two_player(groups="d"), "groups"),
        (lambda: Rules.two_player(ra_limit=8), "ra_limit"),
        (lambda: Rules("x", ((9, 6, 5, 2), (8, 7, 4, 4)), 7), "sun_groups"),
        (lambda: Rules.classic(3, tie_break="coin"), "tie_break"),
        (lambda: Rules.classic(4, no_penalty=True), "2-player variant"),
        (lambda: new_game(3, rules=Rules.classic(4)), "for 4 players"),
        (lambda: new_game(4, suns=[[13, 6, 2], [12, 7, 3], [11, 8, 4], [10, 9, 1]]), "suns"),
    ],
)
def test_bad_rules_and_setups_are_refused(make: object, message: str) -> None:
    """Impossible rules or setups raise a ValueError that says what is wrong."""
    with pytest.raises(ValueError, match=message):
        make()  # type: ignore[operator]


def test_new_game_seed_decides_the_sun_groups() -> None:
    """The seed assigns groups at random but reproducibly; explicit suns override it (R11)."""
    assignments = {tuple(p.suns_up for p in new_game(4, seed=s).players) for s in range(40)}
    assert len(assignments) > 5
    assert new_game(4, seed=9) == new_game(4, seed=9)
    chosen = [[10, 9, 5], [13, 6, 2], [12, 7, 3], [11, 8, 4]]
    s = new_game(4, suns=chosen)
    assert [list(reversed(p.suns_up)) for p in s.players] == chosen and s.turn_player == 1


# -- records --------------------------------------------------------------------------------


def test_record_replays_and_reports_bad_actions() -> None:
    """A record replays to the same end; a corrupted one names the failing action."""
    record = play_game([random_bot] * 4, seed=21)
    assert record.replay().is_terminal()
    data = record.to_dict()
    data["actions"][3] = "bid 99"
    with pytest.raises(InvalidStateError, match=r"actions\[3\]"):
        GameRecord.from_dict(data).replay()


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("{not json", "record"),
        ('{"schema": "other"}', "schema"),
        ('{"schema": "ra-record/1", "rules": {"name": "x"}}', "rules"),
        ('{"schema": "ra-record/1", "rules": ' + json.dumps(Rules.classic(3).to_dict()) + ', "suns": [[1]]}', "suns"),
    ],
)
def test_malformed_records_raise_clear_errors(text: str, field: str) -> None:
    """Malformed saved games give InvalidStateError naming the field, never a bare traceback."""
    with pytest.raises(InvalidStateError) as info:
        GameRecord.from_json(text)
    assert info.value.field == field


# -- malformed actions never reach the state (issue: bad input never corrupts a game) -------

MALFORMED_AT_A_DRAW = [Reveal(0), Reveal(-1), Reveal(-23), Reveal("ra"), Reveal(None), Reveal(2.0), Reveal(99)]  # type: ignore[arg-type]
MALFORMED_AT_A_TURN = [
    UseGod(1.0),  # type: ignore[arg-type]
    UseGod(True),
    Bid(4.0),  # type: ignore[arg-type]
    Discard(("art", "writing")),  # type: ignore[arg-type]
    Discard([Tile.ART]),  # type: ignore[arg-type]
    None,
    5,
    b"draw",
    object(),  # named "object()" in the test's id, not by its address: each pytest-xdist worker names it alike
    ("draw",),
]


@pytest.mark.parametrize("action", MALFORMED_AT_A_DRAW, ids=repr)
def test_malformed_reveals_are_refused_and_change_nothing(action: object) -> None:
    """A reveal must carry a `Tile` still in the bag: plain ints, strings and floats are refused."""
    s = new_game(3, seed=2).apply("draw")
    before = s.to_dict()
    with pytest.raises(IllegalActionError) as info:
        s.apply(action)  # type: ignore[arg-type]
    assert "for chance in phase REVEAL" in str(info.value) and "legal: reveal ra" in str(info.value)
    assert s.to_dict() == before
    assert s.apply("reveal gold").track[0] is Tile.GOLD


@pytest.mark.parametrize("action", MALFORMED_AT_A_TURN, ids=lambda a: "object()" if type(a) is object else repr(a))
def test_malformed_decisions_are_refused_with_the_full_message(action: object) -> None:
    """Wrong types are refused as illegal actions that name the player, the phase and what is legal."""
    s = State.from_dict({"players": S4, "track": ["nile", "flood"], "turn_player": 1})
    s = s.replace(players=tuple(p._replace(display=(*p.display[:1], 1, *p.display[2:])) for p in s.players))
    before = s.to_dict()
    with pytest.raises(IllegalActionError) as info:
        s.apply(action)  # type: ignore[arg-type]
    message = str(info.value)
    assert "is not legal for player 1 in phase ACTION" in message and "legal: draw, ra, god 1, god 2" in message
    assert info.value.player == 1 and info.value.phase == "ACTION"
    assert s.to_dict() == before


def test_a_float_or_bool_bid_is_refused_and_an_int_bid_is_stored_as_the_engines_own() -> None:
    """`Bid(4.0) == Bid(4)` in Python, but only an int sun is a bid; the state keeps the engine's object."""
    s = State.from_dict({"players": S4, "track": ["nile", "flood"], "turn_player": 1}).apply("ra")
    for bad in (Bid(8.0), Bid(True)):  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError, match="a bid's sun must be an int"):
            s.apply(bad)
    after = s.apply(Bid(8))
    assert after.auction is not None and type(after.auction.bids[0]) is int
    assert State.from_dict(after.to_dict()) == after


@pytest.mark.parametrize("text", ["bid ９", "bid ٩", "bid 1_0", "god ３", "bid +9", "bid 09999"])
def test_notation_takes_ascii_digits_only(text: str) -> None:
    """Only ASCII digits make a number in the notation (Python's int() would also read other scripts)."""
    with pytest.raises(InvalidActionError):
        parse_action(text)


def test_a_state_cannot_be_changed_in_place() -> None:
    """A State has no instance dictionary and read-only fields, so nobody (a bot included) can edit it."""
    s = new_game(3, suns="table")
    assert not hasattr(s, "__dict__")
    with pytest.raises(AttributeError):
        object.__setattr__(s, "phase", Phase.BID)
    assert s.phase is Phase.ACTION


def test_every_state_of_random_games_has_fields_of_the_declared_types() -> None:
    """The engine's hot steps build states from plain tuples; every field must still have its declared type."""
    from ra_core.engine.records import Auction, EpochScore, PendingDiscard, Player, Trigger

    expected: dict[str, type | tuple[type, ...]] = {
        "rules": Rules,
        "epoch": int,
        "phase": Phase,
        "turn_player": int,
        "to_move": int,
        "bag": tuple,
        "ra_count": int,
        "track": tuple,
        "center_sun": int,
        "players": tuple,
        "auction": (Auction, type(None)),
        "discard": (PendingDiscard, type(None)),
        "box": tuple,
        "scores": tuple,
        "choices": tuple,
    }
    assert list(expected) == list(State._fields) and len(State._fields) <= 15
    rng = random.Random(3)
    for players in (2, 3, 4, 5):
        s = new_game(players, seed=players)
        while not s.is_terminal():
            for name, kind in expected.items():
                assert isinstance(getattr(s, name), kind), (name, s)
            assert all(type(e) is EpochScore for e in s.scores)
            for p in s.players:  # the winner of an auction is built like a state (game.win)
                assert type(p) is Player and len(p.display) == len(Tile) and type(p.fame) is int, p
                assert all(type(sun) is int for sun in p.suns_up + p.suns_down), p
                assert list(p.suns_up) == sorted(p.suns_up) and list(p.suns_down) == sorted(p.suns_down), p
            a = s.auction
            if a is not None:  # built like a state in the hot path (transitions._bid)
                assert type(a) is Auction and type(a.trigger) is Trigger and a.ra_player == s.turn_player, a
                assert type(a.order) is tuple and type(a.bids) is tuple and type(a.high_bid) is int, a
                assert type(a.high_bidder) is int and all(b is None or type(b) is int for b in a.bids), a
            assert all(t is None or type(t) is Tile for t in s.track)
            legal = s.legal_actions()
            s = s.apply(sample_chance(s, rng) if s.is_chance_node() else legal[int(rng.random() * len(legal))])


def test_score_now_is_what_the_epoch_end_scores() -> None:
    """`scoring.score_now` of a position is the score its epoch gets when the last Ra tile ends it now (R57)."""
    from ra_core.engine.scoring import score_now

    rng = random.Random(4)
    for seed in range(20):
        s = new_game(4, seed=seed)
        for _ in range(int(rng.random() * 60)):  # somewhere in the first epoch
            if s.is_terminal() or s.epoch > 1:
                break
            legal = s.legal_actions()
            s = s.apply(sample_chance(s, rng) if s.is_chance_node() else legal[int(rng.random() * len(legal))])
        if s.phase is not Phase.ACTION or None not in s.track:
            continue
        last_ra = s.replace(ra_count=s.rules.ra_limit - 1).apply("draw")
        assert last_ra.apply("reveal ra").scores[-1] == score_now(s) == score_now(last_ra)
    assert score_now(new_game(4, suns="table")).players[0].net == -5  # an empty display: only "no civilization" (R66)


def test_a_state_holds_the_legal_actions_of_its_player_to_move() -> None:
    """`State.choices` are the rules' legal actions (`turns.choices`); `replace` works them out again."""
    s = new_game(4, seed=5)
    bidding = s.apply("ra")
    assert bidding.choices == turns.choices(bidding) == bidding.legal_actions() and Pass() in bidding.choices
    assert s.choices == (Draw(), CallRa()) and s.apply("draw").choices == () and s.apply("draw").legal_actions()
    nobody_bid = bidding.apply("pass").apply("pass").apply("pass")  # the Ra player who called must bid (R40)
    assert Pass() not in nobody_bid.choices
    moved = bidding.replace(to_move=nobody_bid.to_move, auction=nobody_bid.auction)
    assert moved == nobody_bid and moved.choices == nobody_bid.choices
    with pytest.raises(TypeError, match="choices follow from"):
        s.replace(choices=())


def test_the_running_auction_is_one_record() -> None:
    """`State.auction` is an `Auction`; `replace(auction=...)` sets it (and its Ra player's turn), None clears it."""
    from ra_core.engine.records import Auction, Trigger

    s = new_game(4, seed=5)
    assert s.auction is None
    bidding = s.apply("ra").apply("bid 12")
    a = bidding.auction
    assert a is not None
    assert a == Auction(Trigger.CALL_VOLUNTARY, s.turn_player, a.order, (12,), 12, a.order[0])
    assert a.ra_player == bidding.turn_player and a.still_to_bid == a.order[1:] and bidding.to_move == a.order[1]
    assert s.replace(phase=Phase.BID, to_move=bidding.to_move, auction=a) == bidding
    moved = bidding.replace(auction=a._replace(ra_player=2), turn_player=bidding.turn_player)
    assert moved.turn_player == bidding.turn_player, "an explicit turn player wins over the auction's Ra player"
    assert bidding.replace(auction=a._replace(ra_player=2)).turn_player == 2
    assert bidding.replace(auction=None).auction is None
    with pytest.raises(TypeError, match="no field"):
        s.replace(auctions=None)


def test_the_hot_paths_field_tuples_are_the_records_fields() -> None:
    """The engine's hot steps build records from plain tuples typed `StateFields`, `AuctionFields`,
    `PlayerFields` and `BreakdownFields` (so mypy checks each field there): each lists its record's
    field types, in order."""
    import sys
    from typing import get_args, get_type_hints

    from ra_core.engine.records import Auction, AuctionFields, Breakdown, BreakdownFields, Player, PlayerFields
    from ra_core.engine.state import StateFields

    records = ((State, StateFields), (Auction, AuctionFields), (Player, PlayerFields), (Breakdown, BreakdownFields))
    for record, fields in records:
        declared = get_type_hints(record, vars(sys.modules[record.__module__]))
        assert tuple(declared.values()) == get_args(fields), record.__name__
