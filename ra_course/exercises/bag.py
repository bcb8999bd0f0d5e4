"""Sheet 3, expected value in the bag: exact chances from the bag's composition, checked by simulation.

None of the exact tasks asks what a function of the package computes, so that neither a call nor a
pasted copy of one answers it: Task 1 asks for two draws in a row (a pair of one kind; a disaster,
then a Ra tile), Task 2 for the mean and the variance of the number of different kinds drawn before
the next Ra tile (the engine's `ra_core.analysis.odds` counts tiles, not kinds), Task 4 for the
values of calling and drawing in the cautious model, where a Ra tile drawn costs the mover the lot
(`ra_core.analysis.chance.draw_or_call` is the hopeful model, where he wins that auction), and for
drawing twice as a fixed plan.
Their answers are stored hashed for the example and practice positions of seeded games
(`ra_course.exercises.hashes`, computed from the source sheet's solutions by
``python -m grading.keys``); the hidden tests give other positions with their hashed answers
(the teacher's ``grading/``). The simulations (Tasks 3 and 5) are replayed
(`ra_course.exercises.replay`): the check draws each tile as the sheet's ``draw(bag, rng)`` does
from the numbers the function took from its `rng`, and the answer must be the statistic of
those very draws.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ra_core.analysis.valuation import lot_value
from ra_core.bots import random_bot
from ra_core.engine.state import Phase, State
from ra_core.engine.tiles import Tile
from ra_core.play import play_game

from .checking import Hidden, Sheet, Task, Wrong, call, canonical, is_number, matches_hash
from .hashes import HASHES
from .hashing import HIDDEN
from .replay import Recorder, agrees

__all__ = ["COLLECTORS", "EXAMPLE", "SHEET", "TRIALS", "practice_positions"]

#: the sheet's example: epoch 2, P2 is to move, three Ra tiles from the end of the epoch.
EXAMPLE: dict[str, Any] = {
    "epoch": 2,
    "ra_count": 5,
    "center_sun": 2,
    "turn_player": 2,
    "track": ["gold", "unrest", "fortress", "pyramid"],
    "players": [
        {"suns_up": [6, 8, 9], "suns_down": [4], "fame": 11,
         "display": {"pharaoh": 2, "nile": 3, "writing": 1, "step-pyramid": 1, "temple": 1}},
        {"suns_up": [10, 12, 13], "suns_down": [5], "fame": 15,
         "display": {"pharaoh": 4, "nile": 1, "religion": 1, "obelisk": 1, "palace": 2, "sphinx": 1,
                     "step-pyramid": 1}},
        {"suns_up": [1, 7, 11], "suns_down": [3], "fame": 14,
         "display": {"pharaoh": 4, "nile": 1, "art": 1, "fortress": 2, "palace": 1, "statue": 2, "temple": 2}},
    ],
    "bag": {"ra": 17, "god": 7, "pharaoh": 15, "nile": 19, "flood": 10, "gold": 4, "art": 3, "agriculture": 3,
            "religion": 3, "astronomy": 4, "writing": 4, "fortress": 2, "obelisk": 4, "palace": 2, "pyramid": 4,
            "sphinx": 4, "statue": 3, "step-pyramid": 3, "temple": 2, "funeral": 1, "drought": 1, "unrest": 1,
            "earthquake": 2},
}  # fmt: skip

#: simulated trials per call in the checks of Tasks 3 and 5
TRIALS = 250
_SEED = 2025
_TILES = tuple(Tile)


def practice_positions(count: int = 6, seed: int = 7) -> list[State]:
    """Return `count` turn positions of seeded random games, with at least two tiles on a track that is not full.

    Every third one is moved to the last stretch of its epoch (Ra tiles moved from the bag to
    the Ra track until one more ends the epoch), where a drawn Ra tile ends the epoch instead
    of starting an auction.
    """
    out: list[State] = []
    for game in range(count):
        record = play_game([random_bot] * 3, seed=seed * 1000 + game)
        turns = [
            s
            for s in record.states()
            if s.phase is Phase.ACTION and None in s.track and sum(t is not None for t in s.track) >= 2
        ]
        state = turns[len(turns) * (game + 1) // (count + 1)]  # spread over the game
        if game % 3 == 2:
            state = _last_stretch(state)
        out.append(state)
    return out


def _last_stretch(state: State) -> State:
    """Return `state` with Ra tiles moved from the bag to the Ra track until the next one ends the epoch."""
    data = state.to_dict()
    moved = min(state.rules.ra_limit - state.ra_count - 1, data["bag"]["ra"] - 1)
    data["ra_count"] += moved
    data["bag"]["ra"] -= moved
    return State.from_dict(data)


def visible_positions() -> list[tuple[str, State]]:
    """Return the positions of the visible checks, with their names: the example, then six practice positions."""
    return [("the example", State.from_dict(EXAMPLE))] + [
        (f"practice position {i + 1}", s) for i, s in enumerate(practice_positions())
    ]


# -- what the student's function answers on one position (exact tasks) ----------------------------


def _exact_numbers(value: Any, name: str, count: int, what: str) -> tuple[Any, ...]:
    if not isinstance(value, tuple) or len(value) != count or not all(is_number(v) for v in value):
        raise Wrong(f"{name} returned {value!r:.80}; it should return {count} numbers ({what})")
    if not all(type(v) is int or type(v) is Fraction for v in value):
        raise Wrong(
            f"{name} returned {canonical(value, 6)} with floats; this task asks for exact answers: "
            "build them with fractions.Fraction(numerator, denominator)"
        )
    return value


def _odds_answers(f: Any, state: State, where: str) -> tuple[Any, ...]:
    name = "next_tile_odds"
    return _exact_numbers(call(f, name, state), name, 2, "P(a pair of one kind), P(a disaster, then a Ra tile)")


def _kinds_answers(f: Any, state: State, where: str) -> tuple[Any, ...]:
    name = "kinds_before_next_ra"
    return _exact_numbers(call(f, name, state), name, 2, "the mean and the variance")


def _draw_call_answers(f: Any, state: State, where: str) -> tuple[Any, ...]:
    name = "draw_or_call_values"
    return _exact_numbers(call(f, name, state), name, 3, "call now, draw once, draw twice")


def _judge(key: str) -> Any:
    """Return the visible judge of the exact task `key`: its collector on every visible position, vs hashes."""

    def judge(f: Any) -> str:
        positions = visible_positions()
        answers = [(where, state, COLLECTORS[key](f, state, where)) for where, state in positions]
        for (where, state, mine), hashed in zip(answers, HASHES["bag"][key], strict=True):
            if not matches_hash(mine, hashed):
                raise Wrong(f"in {where}, a bag of {sum(state.bag)} tiles, your answer {canonical(mine, 4)} is off")
        return f"Exact for the example and {len(positions) - 1} practice positions."

    return judge


def _hidden_exact(collect: Any) -> Any:
    def hidden(f: Any, data: Hidden) -> str:
        states = practice_positions(data.cases["count"], data.cases["seed"])
        mine = [collect(f, s, f"hidden position {i + 1}") for i, s in enumerate(states)]
        for i, (s, answer, key) in enumerate(zip(states, mine, data.answers(), strict=True)):
            if not matches_hash(answer, key, salt=HIDDEN):
                raise Wrong(f"in hidden position {i + 1} (bag of {sum(s.bag)}) an answer is off")
        return f"Exact on {len(states)} hidden positions."

    return hidden


# -- the simulations, replayed -------------------------------------------------------------------


def _pick(bag: list[int], x: float) -> Tile:
    """Return the tile the sheet's ``draw(bag, rng)`` takes for the number `x`, and take it out of `bag`."""
    i = int(x * sum(bag))
    for tile, n in zip(_TILES, bag, strict=True):
        if i < n:
            bag[tile] -= 1
            return tile
        i -= n
    raise ValueError("the bag is empty")


class _Stream:
    """The numbers a function drew, read one at a time by a replay."""

    def __init__(self, numbers: list[float], name: str) -> None:
        self.numbers, self.name, self.used = numbers, name, 0

    def next(self, why: str) -> float:
        if self.used == len(self.numbers):
            raise Wrong(f"`{self.name}` drew only {len(self.numbers):,} numbers from `rng`: {why}")
        self.used += 1
        return self.numbers[self.used - 1]

    def done(self, why: str) -> None:
        if self.used != len(self.numbers):
            raise Wrong(
                f"`{self.name}` drew {len(self.numbers):,} numbers from `rng`, {self.used:,} of them used: {why}"
            )


def _simulate_bag_on(f: Any, label: str, s: State, seed: int) -> None:
    name = "simulate_bag"
    rng = Recorder(seed)
    got = call(f, name, s, TRIALS, rng)
    if not isinstance(got, tuple) or len(got) != 3 or not all(is_number(v) for v in got):
        raise Wrong(f"{name} returned {got!r:.80}; it should return three numbers")
    stream, why = _Stream(rng.numbers(name), name), "each trial draws with `draw(bag, rng)` until a Ra tile comes out"
    pair = disaster_then_ra = kinds = 0
    for _ in range(TRIALS):
        bag = list(s.bag)
        drawn = [_pick(bag, stream.next(why))]
        while drawn[-1] is not Tile.RA:
            drawn.append(_pick(bag, stream.next(why)))
        pair += len(drawn) > 1 and drawn[0] is drawn[1]
        disaster_then_ra += len(drawn) == 2 and drawn[0].is_disaster
        kinds += len(set(drawn[:-1]))
    stream.done(why)
    checks = (
        ("share of trials whose first two tiles are a pair of one kind", pair),
        ("share of trials whose first tile is a disaster and the second a Ra tile", disaster_then_ra),
        ("mean number of different kinds before the Ra tile", kinds),
    )
    for (what, total), mine in zip(checks, got, strict=True):
        if not agrees(float(mine), total / TRIALS):
            raise Wrong(
                f"for {label}, your {what} is {float(mine):.4f}, not that of the {TRIALS} trials you drew from `rng` "
                "(the check replays your draws with the sheet's `draw`)"
            )


def _draw_run(f: Any, s: State, seed: int) -> tuple[float, list[float]]:
    """Return what `simulate_draw` answers on `s` with a `Recorder` seeded `seed`, and the numbers it drew."""
    name = "simulate_draw"
    rng = Recorder(seed)
    mine = call(f, name, s, TRIALS, rng)
    if not is_number(mine):
        raise Wrong(f"{name} returned {mine!r:.60}; it should return a number")
    return float(mine), rng.numbers(name, TRIALS, "one tile drawn with `draw(list(state.bag), rng)` per trial")


def _draw_verdict(label: str, s: State, mine: float, numbers: list[float], worth: dict[int, int]) -> None:
    """Raise `Wrong` unless `mine` is the mean value of the draws `numbers` make, each valued by `worth`."""
    mean = sum(worth[int(_pick(list(s.bag), x))] for x in numbers) / TRIALS
    if not agrees(mine, mean):
        raise Wrong(
            f"for {label}, your mean {mine:.4f} is not that of the {TRIALS} draws you made from `rng` "
            "(the check replays them with the sheet's `draw`, valued under Task 4's model)"
        )


def _judge_simulate_bag(f: Any) -> str:
    _simulate_bag_on(f, "the example", State.from_dict(EXAMPLE), _SEED)
    _simulate_bag_on(f, "practice position 3", practice_positions()[2], _SEED + 1)
    return "All three estimates are those of the trials you drew, on two positions."


def _judge_simulate_draw(f: Any) -> str:
    positions = [("the example", State.from_dict(EXAMPLE)), ("practice position 3", practice_positions()[2])]
    runs = [_draw_run(f, s, _SEED + i) for i, (_, s) in enumerate(positions)]
    for (label, s), (mine, numbers) in zip(positions, runs, strict=True):
        # what the turn player gets under Task 4's model when each kind is drawn (worked out here, not kept):
        # nothing for a Ra tile, which costs him the lot
        me, lot = s.turn_player, [t for t in s.track if t is not None]
        worth = {
            int(t): 0 if t is Tile.RA else lot_value(s, me, [*lot, t]) for t, n in zip(_TILES, s.bag, strict=True) if n
        }
        _draw_verdict(label, s, mine, numbers, worth)
    return "It is the mean value of the draws you made, on two positions."


def _hidden_simulate_bag(f: Any, data: Hidden) -> str:
    for i, s in enumerate(practice_positions(data.cases["count"], data.cases["seed"])[-2:]):
        _simulate_bag_on(f, f"hidden position {i + 1}", s, data.cases["seed"] + i)
    return "Right on two hidden positions."


def _hidden_simulate_draw(f: Any, data: Hidden) -> str:
    states = practice_positions(data.cases["count"], data.cases["seed"])[-2:]
    runs = [_draw_run(f, s, data.cases["seed"] + i) for i, s in enumerate(states)]
    for i, (s, (mine, numbers), worth) in enumerate(zip(states, runs, data.answers(), strict=True)):
        _draw_verdict(f"hidden position {i + 1}", s, mine, numbers, {int(k): v for k, v in worth})
    return "Right on two hidden positions."


#: per task, what the student's function answers on a position (None: a simulation, replayed)
COLLECTORS: dict[str, Any] = {"1": _odds_answers, "2": _kinds_answers, "3": None, "4": _draw_call_answers, "5": None}

_ODDS: tuple[str, ...] = (
    "ra_core.analysis.odds.p_next_ra",
    "ra_core.analysis.odds.p_next_disaster",
    "ra_core.analysis.odds.p_next",
)
_ODDS += ("ra_core.analysis.odds.p_next_tile", "ra_core.analysis.odds.next_tile_distribution")
_ODDS += ("ra_core.engine.state.State.chance_outcomes", "ra_core.engine.turns.chance_outcomes")  # the engine's odds
_BEFORE = (
    "ra_core.analysis.odds.expected_tiles_before_ra",
    "ra_core.analysis.odds.tiles_before_ra",
    "ra_core.analysis.odds.tiles_in_next_lot",
    "ra_core.analysis.odds.draws_until_epoch_end",
    "ra_core.analysis.odds.expected_draws_until_epoch_end",
    "ra_core.analysis.odds._failures_before",  # the law behind them, one call from the variance
)
_DRAW: tuple[str, ...] = ("ra_core.analysis.chance.draw_or_call", "ra_core.analysis.chance.lot_value_after_draw")
_DRAW += ("ra_core.analysis.chance.expected_lot_values_after_draw",)


SHEET = Sheet(
    "bag",
    "Exercise sheet 3 · Expected value in the bag",
    (
        Task(
            "1",
            "The next two tiles",
            4,
            "next_tile_odds",
            _judge("1"),
            (
                "Every tile in the bag is equally likely to come out next (R22): count the tiles of the kind "
                "asked for and all the tiles there are (`state.bag` holds a count per Tile). For two draws, "
                "ask what the first one changes in the bag the second comes from; a pair may be of any kind "
                "but Ra, so add up the kinds.",
                "Equally likely outcomes, the multiplication rule for draws without replacement, and the "
                "addition rule over disjoint events (one per kind): notebook 09, section 1 (is the next tile "
                "Ra?) counts them; the disasters are four kinds (notebook 05, 'The four disasters').",
            ),
            forbidden=_ODDS,
            hidden=_hidden_exact(_odds_answers),
        ),
        Task(
            "2",
            "Kinds before the next Ra: mean and spread",
            4,
            "kinds_before_next_ra",
            _judge("2"),
            (
                "Think of the bag shuffled into a row. A kind with n tiles shows before the R Ra tiles when, "
                "among its n tiles and the R Ra tiles, the first is one of its own; the count of kinds is the "
                "sum of these indicators. For the variance you also need the chance that two given kinds both "
                "show: count the ways that one of them, or both, do not.",
                "Linearity of expectation with one indicator per kind (notebook 09, section 2 counts the tiles "
                "before the next Ra tile the same way, one indicator per tile); the variance of a sum is the sum "
                "of all covariances of its terms, each pair counted in both orders; inclusion-exclusion gives "
                "the chance that two kinds both show.",
            ),
            forbidden=_BEFORE,
            hidden=_hidden_exact(_kinds_answers),
        ),
        Task(
            "3",
            "Check it by simulation",
            4,
            "simulate_bag",
            _judge_simulate_bag,
            (
                "Each trial starts from a fresh copy of the bag, `bag = list(state.bag)`, and draws with "
                "`draw(bag, rng)` until a Ra tile comes out: its first two tiles decide the two shares, the "
                "different kinds among the tiles before the Ra tile count for the mean.",
                "A Monte Carlo estimate of an expectation: independent trials, each drawing without "
                "replacement, averaged; notebook 09, sections 1 and 2 check their exact answers this way.",
            ),
            forbidden=_ODDS + _BEFORE + ("ra_core.analysis.chance.sample_draws",),
            hidden=_hidden_simulate_bag,
        ),
        Task(
            "4",
            "Draw now, or call now?",
            4,
            "draw_or_call_values",
            _judge("4"),
            (
                "Average over every kind in the bag, weighted by its chance: a non-Ra tile joins the lot; in this "
                "model any Ra tile costs the mover the lot (value 0), since only his own call wins it. Drawing "
                "twice repeats this from the bag and the lot after the first tile.",
                "The expected value of a gamble, outcome by outcome (the law of total expectation), in the "
                "stopping problem of notebook 09, section 4 (draw or call Ra?), with a Ra tile worth nothing "
                "to the mover here; two draws condition on the first.",
            ),
            forbidden=_DRAW,
            hidden=_hidden_exact(_draw_call_answers),
        ),
        Task(
            "5",
            "Simulate the draw",
            4,
            "simulate_draw",
            _judge_simulate_draw,
            (
                "Draw one tile with `draw(list(state.bag), rng)`, value what the turn player would then win "
                "under Task 4's model (draw once, then call: nothing for a Ra tile), and average over the trials.",
                "A Monte Carlo estimate of Task 4's second value: one independent draw from the full bag per "
                "trial, valued under the same model (notebook 09, section 4).",
            ),
            forbidden=_DRAW,
            hidden=_hidden_simulate_draw,
        ),
    ),
)
