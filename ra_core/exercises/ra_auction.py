"""Sheet 2, Ra's auction: what a lot is worth, what a sun costs, and the best bid by backward induction.

The tasks are checked on the sheet's example positions, whose answers are stored hashed
(`HASHES`), and on hidden positions, whose answers are derived at check time: by
`ra_core.valuation` and `ra_core.scoring` for the lot and the suns, and by the reference
backward induction `solve` for the endgames.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from ..actions import Action, Bid, Pass
from ..bots import random_bot
from ..play import play
from ..scoring import sun_points
from ..state import Phase, State
from ..valuation import lot_value
from .checking import Sheet, Task, Wrong, all_close, call, canonical, is_number, matches_hash

__all__ = [
    "ENDGAME",
    "HASHES",
    "LOT_EXAMPLE",
    "SHEET",
    "best_bid",
    "epoch3_positions",
    "hidden_endgames",
    "solve",
    "sun_change",
]

#: Task 1-3's example: epoch 3, P1 is to bid for a lot without disasters.
LOT_EXAMPLE: dict[str, Any] = {
    "epoch": 3,
    "ra_count": 5,
    "center_sun": 6,
    "turn_player": 0,
    "players": [
        {"suns_up": [2, 11], "suns_down": [5, 10], "display": {"pharaoh": 2, "nile": 3, "fortress": 2}, "fame": 27},
        {"suns_up": [4, 9, 13], "suns_down": [7], "display": {"pharaoh": 1, "flood": 1, "art": 1}, "fame": 31},
        {"suns_up": [1, 8], "suns_down": [3, 12], "display": {"pharaoh": 3, "obelisk": 2, "writing": 1}, "fame": 24},
    ],
    "track": ["flood", "obelisk", "pharaoh", "religion", "gold"],
    "auction": {"trigger": "call_voluntary"},
}

#: Task 4-5's example: near the end of the game, one Ra tile from the end; P1 bids first.
ENDGAME: dict[str, Any] = {
    "epoch": 3,
    "ra_count": 7,
    "center_sun": 7,
    "turn_player": 0,
    "players": [
        {"suns_up": [5], "suns_down": [1, 11, 12], "display": {"pharaoh": 2, "nile": 2, "fortress": 2, "art": 1},
         "fame": 30},
        {"suns_up": [6, 10], "suns_down": [2, 13], "display": {"pharaoh": 3, "gold": 1, "obelisk": 3}, "fame": 28},
        {"suns_up": [9], "suns_down": [3, 4, 8], "display": {"pharaoh": 1, "flood": 1, "nile": 1, "temple": 1},
         "fame": 31},
    ],
    "track": ["pharaoh", "obelisk", "flood", "gold"],
    "bag": {"ra": 1, "gold": 1},
    "auction": {"trigger": "call_voluntary"},
}  # fmt: skip

#: SHA-256 of the canonical answers for the examples (see `ra_core.exercises.checking.canonical`).
HASHES: dict[str, str] = {
    "lot_values": "2cc4b9d4a3194b1764cf5159f5b71b9329541cf91cb4d8179fa3dc9de6738c03",
    "winning": "f2a5503f255487fd15b8131dfd5fc7c9da61fb0413a8cd0a74943147287e9fa9",
    "solve": "1dd8fa3457ba133b1c4bda40062acf64663d27df5106e4449237861066e8b075",
    "best_bid": "da6269dfe9eafd95837cb2f747e76af2b5a1424ec86aeaefa2751fc20213638e",
}


# -- reference answers ---------------------------------------------------------------------


def sun_change(state: State, player: int, sun: int) -> int:
    """Return the change in `player`'s final sun points (R71) if he wins now with `sun` and the game ends."""
    totals = [sum(p.suns_up) + sum(p.suns_down) for p in state.players]
    after = list(totals)
    after[player] += state.center_sun - sun
    penalties = state.rules.penalties_apply(3)
    return sun_points(after, penalties)[player] - sun_points(totals, penalties)[player]


def solve(state: State, memo: dict[State, tuple[Fraction, ...]] | None = None) -> tuple[Fraction, ...]:
    """Return every player's final fame when each maximizes his own and chance is averaged (backward induction).

    Ties between actions go to the first in `State.legal_actions` order. Exact (`Fraction`s).
    """
    memo = {} if memo is None else memo
    found = memo.get(state)
    if found is not None:
        return found
    if state.is_terminal():
        value = tuple(Fraction(f) for f in state.fame)
    elif state.is_chance_node():
        acc = [Fraction(0)] * state.num_players
        for action, p in state.chance_outcomes():
            child = solve(state.apply(action), memo)
            for i, v in enumerate(child):
                acc[i] += p * v
        value = tuple(acc)
    else:
        me = state.to_move
        best: tuple[Fraction, ...] | None = None
        for action in state.legal_actions():
            child = solve(state.apply(action), memo)
            if best is None or child[me] > best[me]:
                best = child
        assert best is not None
        value = best
    memo[state] = value
    return value


def best_bid(state: State) -> Action:
    """Return the bidder's best action by `solve` (the first of equally good ones)."""
    memo: dict[State, tuple[Fraction, ...]] = {}
    me = state.to_move
    best: Action | None = None
    best_value = Fraction(0)
    for action in state.legal_actions():
        v = solve(state.apply(action), memo)[me]
        if best is None or v > best_value:
            best, best_value = action, v
    assert best is not None
    return best


def epoch3_positions(count: int = 6, seed: int = 11) -> list[State]:
    """Return `count` positions of seeded random games: epoch 3, an auction, a lot without disasters."""
    out: list[State] = []
    game = 0
    while len(out) < count:
        record = play([random_bot] * 3, seed=seed * 1000 + game)
        game += 1
        for state in record.states():
            lot = [t for t in state.track if t is not None]
            if state.epoch == 3 and state.phase is Phase.BID and lot and not any(t.is_disaster for t in lot):
                out.append(state)
                break
    return out


def hidden_endgames() -> list[State]:
    """Return the hidden endgames of Task 4-5: `ENDGAME`'s displays with other suns, lots and bags."""

    def variant(suns: list[tuple[list[int], list[int]]], **changes: Any) -> State:
        pairs = zip(ENDGAME["players"], suns, strict=True)
        players = [{**p, "suns_up": up, "suns_down": down} for p, (up, down) in pairs]
        return State.from_dict({**ENDGAME, "players": players, **changes}, strict=False)

    return [
        variant(
            [([1, 11], [4, 8]), ([13], [5, 9, 10]), ([6], [2, 7, 12])],
            center_sun=3,
            turn_player=2,
            track=["fortress", "writing", "temple"],
            bag={"ra": 1, "obelisk": 1},
            auction={"trigger": "ra_tile"},
        ),
        variant(
            [([7, 10], [2, 12]), ([4], [1, 3, 11]), ([5, 13], [6, 8])],
            center_sun=9,
            turn_player=2,
            track=["temple", "gold", "drought", "funeral", "fortress"],
            bag={"ra": 1, "gold": 1},
            auction={"trigger": "ra_tile"},
        ),
    ]


def example_answers() -> dict[str, Any]:
    """Return the examples' answers (what `HASHES` hashes); for tests and for updating `HASHES`."""
    lot = State.from_dict(LOT_EXAMPLE)
    end = State.from_dict(ENDGAME, strict=False)
    me = lot.to_move
    bids = [a.sun for a in lot.legal_actions() if isinstance(a, Bid)]
    return {
        "lot_values": tuple(lot_value(lot, p) for p in range(3)),
        "winning": tuple(lot_value(lot, me) + sun_change(lot, me, s) for s in bids),
        "solve": solve(end),
        "best_bid": best_bid(end),
    }


def _suns_after(state: State, player: int, sun: int) -> tuple[int, ...]:
    p = state.players[player]
    return tuple(sorted([s for s in p.suns_up if s != sun] + list(p.suns_down) + [state.center_sun]))


# -- judges ----------------------------------------------------------------------------------


def _int(value: Any, what: str) -> int:
    if not is_number(value) or int(value) != value:
        raise Wrong(f"{what} returned {value!r}; a value in fame is a whole number")
    return int(value)


def _bids(state: State) -> Iterator[int]:
    for a in state.legal_actions():
        if isinstance(a, Bid):
            yield a.sun


def _judge_lot(f: Any) -> str:
    name = "lot_value_now"
    example = State.from_dict(LOT_EXAMPLE)
    mine = tuple(_int(call(f, name, example, p), f"{name}(example, {p})") for p in range(3))
    if not matches_hash(mine, HASHES["lot_values"]):
        raise Wrong(f"for the example your values for P0, P1, P2 are {mine}; at least one is off")
    for i, state in enumerate(epoch3_positions()):
        for p in range(state.num_players):
            got = _int(call(f, name, state, p), f"{name}(hidden position {i + 1}, {p})")
            if got != lot_value(state, p):
                lot = " ".join(t.label for t in state.track if t is not None)
                raise Wrong(f"in hidden position {i + 1} (lot: {lot}) your value for P{p} is {got}; it is off")
    return "Right for the example and for six hidden positions."


def _judge_sun_exchange(f: Any) -> str:
    name = "sun_exchange"
    states = [State.from_dict(LOT_EXAMPLE), *epoch3_positions()]
    for i, state in enumerate(states):
        me = state.to_move
        for sun in _bids(state):
            got = call(f, name, state, me, sun)
            where = "the example" if i == 0 else f"hidden position {i}"
            if not isinstance(got, tuple | list) or len(got) != 2:
                raise Wrong(f"{name} returned {got!r}; it should return a pair (cost, suns next epoch)")
            cost, suns = got
            if not is_number(cost) or cost != sun - state.center_sun:
                raise Wrong(f"in {where}, winning with sun {sun}: your cost is {cost!r}; it is off")
            if not isinstance(suns, tuple | list) or tuple(sorted(suns)) != _suns_after(state, me, sun):
                raise Wrong(f"in {where}, winning with sun {sun}: your suns for the next epoch are {suns!r}")
    return "Right for every bid in the example and in six hidden positions."


def _judge_winning(f: Any) -> str:
    name = "value_of_winning"
    example = State.from_dict(LOT_EXAMPLE)
    me = example.to_move
    mine = tuple(_int(call(f, name, example, me, s), f"{name}(example, {me}, {s})") for s in _bids(example))
    if not matches_hash(mine, HASHES["winning"]):
        raise Wrong(f"for the example, P{me}'s values of winning with suns {tuple(_bids(example))} are {mine}")
    for i, state in enumerate(epoch3_positions()):
        me = state.to_move
        for s in _bids(state):
            got = _int(call(f, name, state, me, s), f"{name}(hidden position {i + 1}, ...)")
            if got != lot_value(state, me) + sun_change(state, me, s):
                raise Wrong(f"in hidden position {i + 1}, P{me} winning with sun {s}: your value {got} is off")
    return "Right for every bid in the example and in six hidden positions."


def _fames(value: Any, name: str, n: int) -> tuple[Any, ...]:
    if not isinstance(value, tuple | list) or len(value) != n or not all(is_number(v) for v in value):
        raise Wrong(f"{name} returned {value!r}; it should return a tuple of {n} numbers, one per player")
    return tuple(value)


def _judge_solve(f: Any) -> str:
    name = "solve"
    mine = _fames(call(f, name, State.from_dict(ENDGAME, strict=False)), name, 3)
    if not matches_hash(mine, HASHES["solve"]):
        raise Wrong(f"for the example endgame your final fames are {canonical(mine, 3)}; they are off")
    for i, state in enumerate(hidden_endgames()):
        got = _fames(call(f, name, state), name, 3)
        if not all_close(got, solve(state)):
            raise Wrong(f"for hidden endgame {i + 1} your final fames {canonical(got, 3)} are off")
    exact = all(isinstance(v, int | Fraction) for v in mine)
    return "Right for the example and two hidden endgames." + ("" if exact else " (Fractions would make it exact.)")


def _judge_best_bid(f: Any) -> str:
    name = "best_bid"
    end = State.from_dict(ENDGAME, strict=False)
    got = call(f, name, end)
    if not isinstance(got, Bid | Pass | str):
        raise Wrong(f"{name} returned {got!r}; it should return an action such as Bid(9) or Pass()")
    if not matches_hash(str(got), HASHES["best_bid"]):
        raise Wrong(f"in the example endgame your best action is {got}; it is not the best one")
    for i, state in enumerate(hidden_endgames()):
        got = call(f, name, state)
        if str(got) != str(best_bid(state)):
            raise Wrong(f"in hidden endgame {i + 1} your best action is {got}; it is not the best one")
    return "Right for the example and two hidden endgames."


SHEET = Sheet(
    "ra_auction",
    "Exercise sheet 2 · Ra's auction",
    (
        Task(
            "1",
            "What the lot is worth",
            4,
            "lot_value_now",
            _judge_lot,
            (
                "A lot's value is a difference: what the player's display scores with the lot, minus "
                "what it scores without it. In epoch 3 the final scoring counts gods, pharaohs, the river, "
                "civilizations, gold and monuments (R63-R67, R70).",
                "Copy `state.players[player].display` into a list, add 1 for each tile on the track, and "
                "score both displays with ra_core.scoring: god_points, river_points, civilization_points, "
                "gold_points, monument_points, and pharaoh_points of everybody's pharaoh counts (R64 compares "
                "players).",
            ),
        ),
        Task(
            "2",
            "The sun you give, the sun you get",
            4,
            "sun_exchange",
            _judge_sun_exchange,
            (
                "The winner gives his winning sun to the center and takes the center sun face down (R46); "
                "he can bid it only in the next epoch, when all suns turn face up again (R49).",
                "The cost is `sun - state.center_sun`. The suns of the next epoch are all his suns, face up "
                "and face down, without `sun` and with the center sun, sorted.",
            ),
        ),
        Task(
            "3",
            "The net value of winning",
            4,
            "value_of_winning",
            _judge_winning,
            (
                "In epoch 3 the suns count too: the highest sun total gets +5, the lowest -5 (R71). Winning "
                "changes your total by the center sun minus your sun.",
                "Add your lot value to the change in your sun points: `sun_points(totals_after)[player] - "
                "sun_points(totals_before)[player]`, with totals over suns up and down of every player.",
            ),
        ),
        Task(
            "4",
            "Backward induction",
            4,
            "solve",
            _judge_solve,
            (
                "Work backwards from the end: at the end of the game the values are the fames; at a chance "
                "node, the average over the tiles weighted by their probabilities; at a decision, the child "
                "that is best for the player who decides.",
                "Recursion: `if state.is_terminal(): return state.fame`; `if state.is_chance_node(): "
                "sum p * solve(state.apply(a))` over `state.chance_outcomes()`; else the `max` over "
                "`state.legal_actions()` of `solve(state.apply(a))` by the entry `state.to_move`.",
            ),
        ),
        Task(
            "5",
            "The best bid",
            4,
            "best_bid",
            _judge_best_bid,
            (
                "Compare the bidder's own final fame after each of his legal actions; the best action is "
                "the one with the highest, and a bid can be best because it is high enough that the players "
                "after you cannot beat it.",
                "For each legal action `a`, `solve(state.apply(a))` is everyone's final fame after it; keep "
                "the action whose entry for `state.to_move` is largest (the first on ties, as `max` does).",
            ),
        ),
    ),
)
