"""Property tests: invariants that hold in every reachable position, for every player count and option.

Each example plays a whole seeded game with random legal actions and checks, after every step:
the 180 tiles are all accounted for (R1), the suns are exactly 1..N (R48), legal actions are
sorted, unique and non-empty until the end, `apply` never changes its input, and chance
probabilities sum to exactly 1.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given

from ra_core import CHANCE, TERMINAL, Phase, State, new_game
from ra_core.bots import random_bot
from ra_core.engine import turns
from ra_core.engine.actions import sort_key
from ra_core.engine.invariants import check
from ra_core.engine.tiles import FULL_BAG, NUM_KINDS, TOTAL_TILES, Tile
from ra_core.play import GameRecord, play_game, sample_chance

from .strategies import ALL_RULES, RARE, make_rules, rare_position, rare_positions, seeds

MAX_STEPS = 5000  # far above any real game: each epoch ends after at most 3*ra_limit draws of Ra


def tile_totals(s: State) -> list[int]:
    """Return how many tiles of each kind are in the bag, the box, the track, the Ra track and displays."""
    totals = [s.bag[k] + s.box[k] for k in range(NUM_KINDS)]
    totals[Tile.RA] += s.ra_count
    for t in s.track:
        if t is not None:
            totals[t] += 1
    for p in s.players:
        for k, n in enumerate(p.display):
            totals[k] += n
    return totals


def check_invariants(s: State) -> None:
    """Assert the invariants of a single position: the package's own check, and more spelled out here."""
    check(s)  # ra_core.engine.invariants: what from_dict and bot authors check too
    assert tile_totals(s) == list(FULL_BAG), "R1: every one of the 180 tiles is in exactly one place"
    assert sum(s.bag) + sum(s.box) <= TOTAL_TILES
    suns = sorted([s.center_sun, *(x for p in s.players for x in p.suns_up + p.suns_down)])
    assert suns == list(range(1, s.rules.max_sun + 1)), "R48: the suns are exactly 1..N"
    size = len(s.rules.sun_groups[0])
    assert all(len(p.suns_up) + len(p.suns_down) == size for p in s.players), "R48a"
    assert all(n >= 0 for p in s.players for n in p.display)
    assert all(
        p.display[d] == 0
        for p in s.players
        for d in (Tile.RA, Tile.FUNERAL, Tile.DROUGHT, Tile.UNREST, Tile.EARTHQUAKE)
    )
    if s.rules.fame_floor:
        assert all(p.fame >= 0 for p in s.players), "R69: fame floor"
    legal = s.legal_actions()
    assert s.choices == turns.choices(s), "the choices a transition worked out agree with a fresh computation"
    assert legal == (s.choices or turns.reveals(s)), "a player's legal actions are the state's choices"
    assert list(legal) == sorted(legal, key=sort_key), "legal actions are sorted"
    assert len(set(legal)) == len(legal), "legal actions are unique"
    if s.is_terminal():
        assert legal == () and s.to_move == TERMINAL and s.winner() is not None
        assert len(s.scores) == 3
    else:
        assert legal, "legal actions are non-empty until the end"
    if s.is_chance_node():
        outcomes = s.chance_outcomes()
        assert sum(p for _, p in outcomes) == Fraction(1), "chance probabilities sum to 1"
        assert [a for a, _ in outcomes] == list(legal)
        assert s.to_move == CHANCE
    else:
        assert s.chance_outcomes() == []
    if s.phase in (Phase.ACTION, Phase.GODS):
        assert s.to_move == s.turn_player and s.players[s.turn_player].suns_up, "R17: the turn player has a sun"
    if s.phase is Phase.BID:
        assert s.auction is not None and s.to_move == s.auction.order[len(s.auction.bids)]


def play_checked(rules_players: int, variant: str, seed: int) -> tuple[State, list[str]]:
    """Play a seeded random game, checking every position; return the final state and the actions."""
    rules = make_rules(rules_players, variant)
    rng = random.Random(seed)
    s = new_game(rules_players, seed=seed, rules=rules)
    actions: list[str] = []
    for _ in range(MAX_STEPS):
        check_invariants(s)
        if s.is_terminal():
            return s, actions
        action = sample_chance(s, rng) if s.is_chance_node() else random_bot(s, rng)
        before = s.to_dict()
        child = s.apply(action)
        assert s.to_dict() == before, "apply never changes its input"
        assert child is not s
        actions.append(str(action))
        s = child
    raise AssertionError(f"game did not end within {MAX_STEPS} steps")


@pytest.mark.parametrize(("players", "variant"), ALL_RULES)
@given(seed=seeds)
def test_invariants_over_random_games(players: int, variant: str, seed: int) -> None:
    """Every game ends, and every position on the way satisfies the invariants."""
    final, actions = play_checked(players, variant, seed)
    assert final.epoch == 3 and final.is_terminal()


@pytest.mark.parametrize(("players", "variant"), ALL_RULES)
@given(seed=seeds)
def test_same_seed_same_game_and_replay(players: int, variant: str, seed: int) -> None:
    """One seed reproduces the whole game; a record replays to the identical state, also via JSON."""
    rules = make_rules(players, variant)
    first = play_game([random_bot] * players, seed=seed, rules=rules)
    second = play_game([random_bot] * players, seed=seed, rules=rules)
    assert first == second
    final = first.replay()
    assert final.is_terminal()
    assert GameRecord.from_json(first.to_json()).replay() == final


@pytest.mark.parametrize(("players", "variant"), ALL_RULES)
@given(seed=seeds)
def test_to_dict_round_trip_and_text_notation(players: int, variant: str, seed: int) -> None:
    """`from_dict(to_dict(s)) == s` at every step, and every legal action's text parses back to it."""
    from ra_core import parse_action

    record = play_game([random_bot] * players, seed=seed, rules=make_rules(players, variant))
    for s in record.states():
        assert State.from_dict(s.to_dict()) == s
        for a in s.legal_actions():
            assert parse_action(str(a)) == a


def test_games_do_not_share_state() -> None:
    """Creating and playing one game never changes another (no module-level mutable state)."""
    a = new_game(4, seed=1)
    snapshot = a.to_dict()
    play_game([random_bot] * 4, seed=2)
    b = new_game(4, seed=1)
    assert a.to_dict() == snapshot == b.to_dict()
    assert a == b and hash(a) == hash(b)


@given(start=rare_positions, seed=seeds)
def test_invariants_from_rare_positions(start: State, seed: int) -> None:
    """From god turns, disaster choices, full tracks, lone players and the last sun of epoch 3,
    random play keeps every invariant to the end (`ra_core.engine.invariants.check`)."""
    check(start)
    rng = random.Random(seed)
    s = start
    for _ in range(MAX_STEPS):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        assert legal, s
        s = s.apply(sample_chance(s, rng) if s.is_chance_node() else legal[int(rng.random() * len(legal))])
        check(s, history=False)
    assert s.is_terminal()


@pytest.mark.parametrize("kind", RARE)
def test_rare_positions_are_what_they_say(kind: str) -> None:
    s = rare_position(kind, 7)
    check(s)
    if kind == "gods_on_track":
        assert s.players[s.turn_player].display[Tile.GOD] == 2 and any(a for a in s.legal_actions() if "god" in str(a))
    elif kind == "disaster_choice":
        assert s.phase is Phase.DISCARD and s.discard is not None and s.discard.after == "gods"
    elif kind == "full_track":
        assert None not in s.track and "draw" not in [str(a) for a in s.legal_actions()]
    elif kind == "lone_player":
        assert sum(bool(p.suns_up) for p in s.players) == 1
    else:
        assert s.epoch == 3 and sum(len(p.suns_up) for p in s.players) == 1
