"""Sheet 2, Ra's auction: what a lot is worth, what a sun costs, and the best bid by backward induction.

The tasks are checked on the sheet's example positions, whose answers are stored hashed
(`HASHES`), and on practice positions from seeded games, whose answers the checks derive from
the scoring rules (`ra_core.analysis.valuation`, `ra_core.engine.scoring`) at check time. The endgame tasks have
no practice positions: the package holds no solver for them. The hidden tests of the source
sheet give other positions with their answers hashed (`hidden_positions`, `answer_hash`).

Each task forbids the package functions that compute its answer (`Task.forbidden`): a student's
`lot_value_now` that calls `ra_core.analysis.valuation.lot_value` earns nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from ra_core.analysis.valuation import lot_value
from ra_core.bots import random_bot
from ra_core.engine.actions import Bid, Pass
from ra_core.engine.scoring import sun_points
from ra_core.engine.state import Phase, State
from ra_core.play import play

from .checking import Sheet, Task, Wrong, call, canonical, is_number, matches_hash

__all__ = ["COLLECTORS", "ENDGAME", "HASHES", "LOT_EXAMPLE", "SHEET", "epoch3_positions", "hidden_positions"]

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

#: SHA-256 of the canonical answers for the examples (see `ra_course.exercises.checking.canonical`).
HASHES: dict[str, str] = {
    "lot_values": "2cc4b9d4a3194b1764cf5159f5b71b9329541cf91cb4d8179fa3dc9de6738c03",
    "winning": "f2a5503f255487fd15b8131dfd5fc7c9da61fb0413a8cd0a74943147287e9fa9",
    "solve": "1dd8fa3457ba133b1c4bda40062acf64663d27df5106e4449237861066e8b075",
    "best_bid": "da6269dfe9eafd95837cb2f747e76af2b5a1424ec86aeaefa2751fc20213638e",
}


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


def hidden_positions(data: dict[str, Any]) -> list[State]:
    """Return the positions of a hidden test: ``data["positions"]`` (saved positions) or ``data["seed"]``'s games."""
    if "positions" in data:
        return [State.from_dict(p, strict=False) for p in data["positions"]]
    return epoch3_positions(len(data["keys"]), data["seed"])


def _suns_after(state: State, player: int, sun: int) -> tuple[int, ...]:
    p = state.players[player]
    return tuple(sorted([s for s in p.suns_up if s != sun] + list(p.suns_down) + [state.center_sun]))


# -- judges ----------------------------------------------------------------------------------


def _int(value: Any, what: str) -> int:
    if not is_number(value) or int(value) != value:
        raise Wrong(f"{what} returned {value!r:.60}; a value in fame is a whole number")
    return int(value)


def _bids(state: State) -> Iterator[int]:
    for a in state.legal_actions():
        if isinstance(a, Bid):
            yield a.sun


def _sun_change(state: State, player: int, sun: int) -> int:
    totals = [sum(p.suns_up) + sum(p.suns_down) for p in state.players]
    after = list(totals)
    after[player] += state.center_sun - sun
    penalties = state.rules.penalties_apply(3)
    return sun_points(after, penalties)[player] - sun_points(totals, penalties)[player]


# -- what the student's function answers on one position (what the checks compare or hash) --------


def _lot_answers(f: Any, state: State, where: str) -> tuple[int, ...]:
    name = "lot_value_now"
    return tuple(_int(call(f, name, state, p), f"{name}({where}, {p})") for p in range(state.num_players))


def _exchange_answers(f: Any, state: State, where: str) -> tuple[Any, ...]:
    name, me, out = "sun_exchange", state.to_move, []
    for sun in _bids(state):
        got = call(f, name, state, me, sun)
        if not isinstance(got, tuple | list) or len(got) != 2:
            raise Wrong(f"{name} returned {got!r:.60}; it should return a pair (cost, suns next epoch)")
        cost, suns = got
        if not is_number(cost) or not isinstance(suns, tuple | list) or not all(is_number(x) for x in suns):
            raise Wrong(f"in {where}, winning with sun {sun}: {name} returned {got!r:.60}, not (number, suns)")
        out.append((cost, tuple(sorted(suns))))
    return tuple(out)


def _winning_answers(f: Any, state: State, where: str) -> tuple[int, ...]:
    name, me = "value_of_winning", state.to_move
    return tuple(_int(call(f, name, state, me, s), f"{name}({where}, {me}, {s})") for s in _bids(state))


def _solve_answer(f: Any, state: State, where: str) -> tuple[Any, ...]:
    value = call(f, "solve", state)
    n = state.num_players
    if not isinstance(value, tuple | list) or len(value) != n or not all(is_number(v) for v in value):
        raise Wrong(f"solve({where}) returned {value!r:.60}; it should return a tuple of {n} numbers, one per player")
    return tuple(value)


def _best_bid_answer(f: Any, state: State, where: str) -> str:
    got = call(f, "best_bid", state)
    if not isinstance(got, Bid | Pass | str):
        raise Wrong(f"best_bid({where}) returned {got!r:.60}; it should return an action such as Bid(9) or Pass()")
    return str(got)


# -- judges ----------------------------------------------------------------------------------


def _example(f: Any, collect: Any, key: str, state: State, what: str) -> Any:
    mine = collect(f, state, "the example")
    if not matches_hash(mine, HASHES[key]):
        raise Wrong(f"for the example {what} {canonical(mine, 3)}; not all are right")
    return mine


def _judge_lot(f: Any) -> str:
    _example(f, _lot_answers, "lot_values", State.from_dict(LOT_EXAMPLE), "your values for P0, P1, P2 are")
    for i, state in enumerate(epoch3_positions()):
        got = _lot_answers(f, state, f"practice position {i + 1}")
        for p, value in enumerate(got):
            if value != lot_value(state, p):
                lot = " ".join(t.label for t in state.track if t is not None)
                raise Wrong(f"in practice position {i + 1} (lot: {lot}) your value for P{p} is {value}; it is off")
    return "Right for the example and for six practice positions."


def _judge_sun_exchange(f: Any) -> str:
    states = [State.from_dict(LOT_EXAMPLE), *epoch3_positions()]
    for i, state in enumerate(states):
        where = "the example" if i == 0 else f"practice position {i}"
        me = state.to_move
        for sun, (cost, suns) in zip(_bids(state), _exchange_answers(f, state, where), strict=True):
            if cost != sun - state.center_sun:
                raise Wrong(f"in {where}, winning with sun {sun}: your cost is {cost!r}; it is off")
            if suns != _suns_after(state, me, sun):
                raise Wrong(f"in {where}, winning with sun {sun}: your suns for the next epoch are {suns!r}")
    return "Right for every bid in the example and in six practice positions."


def _judge_winning(f: Any) -> str:
    example = State.from_dict(LOT_EXAMPLE)
    bids = tuple(_bids(example))
    _example(f, _winning_answers, "winning", example, f"P{example.to_move}'s values of winning with suns {bids} are")
    for i, state in enumerate(epoch3_positions()):
        me = state.to_move
        for s, got in zip(_bids(state), _winning_answers(f, state, f"practice position {i + 1}"), strict=True):
            if got != lot_value(state, me) + _sun_change(state, me, s):
                raise Wrong(f"in practice position {i + 1}, P{me} winning with sun {s}: your value {got} is off")
    return "Right for every bid in the example and in six practice positions."


def _judge_solve(f: Any) -> str:
    mine = _example(f, _solve_answer, "solve", State.from_dict(ENDGAME, strict=False), "your final fames are")
    exact = all(isinstance(v, int | Fraction) for v in mine)
    return "Right for the example endgame." + ("" if exact else " (Fractions would make it exact.)")


def _judge_best_bid(f: Any) -> str:
    _example(f, _best_bid_answer, "best_bid", State.from_dict(ENDGAME, strict=False), "your best action is")
    return "Right for the example endgame."


def _hidden(collect: Any) -> Any:
    """Return the hidden-test judge: `collect` on each hidden position, compared with its hashed answer."""

    def hidden(f: Any, data: dict[str, Any]) -> str:
        states = hidden_positions(data)
        for i, (state, key) in enumerate(zip(states, data["keys"], strict=True)):
            if not matches_hash(collect(f, state, f"hidden position {i + 1}"), key):
                raise Wrong(
                    f"in hidden position {i + 1} (epoch {state.epoch}, P{state.to_move} to bid) an answer is off"
                )
        return f"Right on {len(states)} hidden positions."

    return hidden


#: per task, what the student's function answers on a position (what the hidden tests hash)
COLLECTORS: dict[str, Any] = {
    "1": _lot_answers,
    "2": _exchange_answers,
    "3": _winning_answers,
    "4": _solve_answer,
    "5": _best_bid_answer,
}

#: the package functions that value a lot: Tasks 1 and 3 ask for that work
_VALUERS = (
    "ra_core.analysis.valuation.lot_value",
    "ra_core.analysis.valuation.lot_values",
    "ra_core.analysis.valuation.display_worth",
    "ra_core.bots.appraise",
    "ra_core.bots.quick_lot_value",
)


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
                "A marginal value: score the display twice, category by category, as notebook 06 does "
                "(sections 'Every epoch: five categories' and 'After epoch 3 only'). Pharaohs are scored "
                "against the other players' counts (R64).",
            ),
            forbidden=_VALUERS,
            hidden=_hidden(_lot_answers),
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
                "The sun swap as a price paid in future bidding power: notebook 08, section 6, and notebook 03, "
                "'Winning: the lot and the sun swap'. Count every sun he will own, face up or down.",
            ),
            hidden=_hidden(_exchange_answers),
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
                "Again a difference, now of the sun points of R71 before and after the swap: notebook 06, "
                "'After epoch 3 only: monuments and suns'. The sun points compare every player's total.",
            ),
            forbidden=_VALUERS,
            hidden=_hidden(_winning_answers),
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
                "Backward induction over a game tree with chance nodes (expectimax): notebook 09, section 4 "
                "(draw or call Ra? a stopping problem) solves a smaller tree the same way, and notebook 08's "
                "'What to take away' names it. The function calls itself on the children.",
            ),
            hidden=_hidden(_solve_answer),
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
                "A best response, judged by looking ahead to everything that follows: notebook 08, section 8 "
                "(the advantage of bidding last). Only the bidder's own entry of each value of Task 4 counts, "
                "and ties go to the first action.",
            ),
            hidden=_hidden(_best_bid_answer),
        ),
    ),
)
