"""Sheet 2, Ra's auction: what a lot is worth, what a sun costs, and the best bid by backward induction.

The tasks are checked on the sheet's example positions and on practice positions from seeded
games, whose answers are stored hashed (`ra_course.exercises.hashes`: the SHA-256 of what the
source sheet's solutions answer, computed by ``python -m grading.keys``); the package holds no
function that computes an answer. The hidden tests of a graded cell give other positions (the
teacher's ``grading/cases.py``) and compare with their hashed answers (``grading/answers.py``),
loaded only after the student's function has returned.

Each answer is rebuilt from Python's own types before it is compared (`ra_course.exercises.checking.plain`):
a number must be an int (or a `Fraction` where exact), an action one of the engine's.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from ra_core.bots import random_bot
from ra_core.engine.actions import Bid, Pass
from ra_core.engine.state import Phase, State
from ra_core.play import play_game

from .checking import Hidden, Sheet, Task, Wrong, call, canonical, is_number, matches_hash
from .hashes import HASHES
from .hashing import HIDDEN

__all__ = ["CATEGORIES", "COLLECTORS", "ENDGAME", "LOT_EXAMPLE", "SHEET", "epoch3_positions", "visible_positions"]

#: Task 1: the categories of the final scoring a lot can change, the keys of the answer's dict (R63-R67, R70)
CATEGORIES = ("god", "pharaoh", "river", "civilization", "gold", "monument")

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


def epoch3_positions(count: int = 6, seed: int = 11) -> list[State]:
    """Return `count` positions of seeded random games: epoch 3, an auction, a lot without disasters."""
    out: list[State] = []
    game = 0
    while len(out) < count:
        record = play_game([random_bot] * 3, seed=seed * 1000 + game)
        game += 1
        for state in record.states():
            lot = [t for t in state.track if t is not None]
            if state.epoch == 3 and state.phase is Phase.BID and lot and not any(t.is_disaster for t in lot):
                out.append(state)
                break
    return out


def visible_positions(key: str) -> list[tuple[str, State]]:
    """Return the positions of a task's visible check, with their names: the example, then practice positions."""
    if key in ("4", "5"):
        return [("the example endgame", State.from_dict(ENDGAME, strict=False))]
    practice = [(f"practice position {i + 1}", s) for i, s in enumerate(epoch3_positions())]
    return [("the example", State.from_dict(LOT_EXAMPLE)), *practice]


def hidden_positions(cases: dict[str, Any]) -> list[State]:
    """Return the positions of a hidden test: ``cases["positions"]`` (saved positions) or ``cases["seed"]``'s games."""
    if "positions" in cases:
        return [State.from_dict(p, strict=False) for p in cases["positions"]]
    return epoch3_positions(cases["count"], cases["seed"])


def _bids(state: State) -> Iterator[int]:
    for a in state.legal_actions():
        if isinstance(a, Bid):
            yield a.sun


def _lot(state: State) -> str:
    return " ".join(t.label for t in state.track if t is not None)


# -- what the student's function answers on one position: one answer per player or per bid ----------


def _int(value: Any, what: str) -> int:
    if type(value) is not int:
        raise Wrong(f"{what} returned {value!r:.60}; points in fame are a whole number (an int)")
    return value


def _lot_answers(f: Any, state: State, where: str) -> tuple[Any, ...]:
    name, out = "lot_points", []
    for p in range(state.num_players):
        got = call(f, name, state, p)
        if not isinstance(got, dict) or set(got) != set(CATEGORIES):
            raise Wrong(
                f"{name}({where}, {p}) returned {got!r:.80}; it should return a dict with the keys "
                + ", ".join(repr(c) for c in CATEGORIES)
            )
        out.append(tuple(_int(got[c], f"{name}({where}, {p})[{c!r}]") for c in CATEGORIES))
    return tuple(out)


def _exchange_answers(f: Any, state: State, where: str) -> tuple[Any, ...]:
    name, me, out = "sun_exchange", state.to_move, []
    for sun in _bids(state):
        got = call(f, name, state, me, sun)
        if not isinstance(got, tuple) or len(got) != 2:
            raise Wrong(f"{name} returned {got!r:.60}; it should return a pair (cost, suns next epoch)")
        cost, suns = got
        if type(cost) is not int or not isinstance(suns, tuple) or not all(type(x) is int for x in suns):
            raise Wrong(f"in {where}, winning with sun {sun}: {name} returned {got!r:.60}, not (int, tuple of ints)")
        out.append((cost, tuple(sorted(suns))))
    return tuple(out)


def _winning_answers(f: Any, state: State, where: str) -> tuple[int, ...]:
    name, me = "value_of_winning", state.to_move
    return tuple(_int(call(f, name, state, me, s), f"{name}({where}, {me}, {s})") for s in _bids(state))


def _solve_answer(f: Any, state: State, where: str) -> tuple[Any, ...]:
    value = call(f, "solve", state)
    n = state.num_players
    if not isinstance(value, tuple) or len(value) != n or not all(is_number(v) for v in value):
        raise Wrong(f"solve({where}) returned {value!r:.60}; it should return a tuple of {n} numbers, one per player")
    return value


def _best_bid_answer(f: Any, state: State, where: str) -> str:
    got = call(f, "best_bid", state)
    if not isinstance(got, Bid | Pass):
        raise Wrong(f"best_bid({where}) returned {got!r:.60}; it should return an action: Bid(sun) or Pass()")
    return str(got)


#: the tasks whose answer on a position has one element per player (Task 1) or per bid (2, 3), each hashed
_ELEMENTS = ("1", "2", "3")


def _judge(key: str) -> Any:
    """Return the visible judge of task `key`: its collector on the example and practice positions, vs hashes."""

    def judge(f: Any) -> str:
        collect, positions = COLLECTORS[key], visible_positions(key)
        answers = [(where, state, collect(f, state, where)) for where, state in positions]
        for (where, state, mine), keys in zip(answers, HASHES["ra_auction"][key], strict=True):
            elements = mine if key in _ELEMENTS else (mine,)
            for i, (element, hashed) in enumerate(zip(elements, keys, strict=True)):
                if not matches_hash(element, hashed):
                    raise Wrong(_off(key, where, state, i, element))
        if key == "4":
            exact = all(isinstance(v, int | Fraction) for v in answers[0][2])
            return "Right for the example endgame." + ("" if exact else " (Fractions would make it exact.)")
        if key == "5":
            return "Right for the example endgame."
        return f"Right for the example and for {len(positions) - 1} practice positions."

    return judge


def _off(key: str, where: str, state: State, i: int, element: Any) -> str:
    """Return what a wrong element of an answer is (never the right value)."""
    if key == "1":
        points = canonical(element, 0)
        return f"in {where} (lot: {_lot(state)}) your points for P{i} by category, {points}, are not all right"
    if key == "2":
        sun = list(_bids(state))[i]
        return f"in {where}, P{state.to_move} winning with sun {sun}: your (cost, suns) {canonical(element, 0)} is off"
    if key == "3":
        sun = list(_bids(state))[i]
        return f"in {where}, P{state.to_move} winning with sun {sun}: your value {element} is off"
    if key == "4":
        return f"for {where} your final fames are {canonical(element, 3)}; not all are right"
    return f"for {where} your best action is {element}"


def _hidden(collect: Any) -> Any:
    """Return the hidden-test judge: `collect` on each hidden position, then compared with the hashed answers."""

    def hidden(f: Any, data: Hidden) -> str:
        states = hidden_positions(data.cases)
        mine = [collect(f, state, f"hidden position {i + 1}") for i, state in enumerate(states)]
        for i, (state, answer, key) in enumerate(zip(states, mine, data.answers(), strict=True)):
            if not matches_hash(answer, key, salt=HIDDEN):
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

#: the package functions that value a lot: Tasks 1 and 3 ask for that work. Neither task asks what they
#: compute, so a pasted copy of one does not answer it either: Task 1 asks for the points category by
#: category (`lot_value` gives their sum), Task 3 for the change in the winner's lead over the best of
#: the others (the others' pharaoh and sun points move too; `lot_value` is the winner's own gain)
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
            "What the lot is worth, category by category",
            4,
            "lot_points",
            _judge("1"),
            (
                "Each category's change is a difference: what the player's display scores in it with the lot, "
                "minus what it scores without it. In epoch 3 the final scoring counts gods, pharaohs, the "
                "river, civilizations, gold and monuments (R63-R67, R70).",
                "A marginal value, category by category: score the display twice, as notebook 06 does "
                "(sections 'Every epoch: five categories' and 'After epoch 3 only'). Pharaohs are scored "
                "against the other players' counts (R64), so a player's lot can change his pharaoh points "
                "without a pharaoh in it.",
            ),
            forbidden=_VALUERS,
            hidden=_hidden(_lot_answers),
        ),
        Task(
            "2",
            "The sun you give, the sun you get",
            4,
            "sun_exchange",
            _judge("2"),
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
            _judge("3"),
            (
                "Score the end of the game twice, for every player: as it stands, and with the lot in the "
                "winner's display and his sun swapped for the center sun (R46, R71). His lead is his final fame "
                "minus the best of the others'; the answer is how much it changes.",
                "A relative payoff: in a game won by rank (R73) a prize is worth what it does to the gap to the "
                "strongest rival (notebook 08, section 8; notebook 06, 'After epoch 3 only: monuments and suns'). "
                "The pharaoh points (R64) and the sun points (R71) compare every player's count, so the others' "
                "points move when yours do; the fame floor of R69 applies to every player.",
            ),
            forbidden=_VALUERS,
            hidden=_hidden(_winning_answers),
        ),
        Task(
            "4",
            "Backward induction",
            4,
            "solve",
            _judge("4"),
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
            _judge("5"),
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
