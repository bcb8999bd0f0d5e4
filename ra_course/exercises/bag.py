"""Sheet 3, expected value in the bag: exact chances from the bag's composition, checked by simulation.

The exact answers are stored hashed for the sheet's example (`HASHES`) and derived at check time
for practice positions by `ra_core.analysis.chance`, the engine's exact analysis, which the student's code
may not call in these tasks (`Task.forbidden`). The hidden tests of the source sheet give other
positions with their answers hashed. A simulation is run once per seed for `SEEDS` seeds: its
estimates must average within `Z` standard errors of the exact value and vary from seed to seed
like Monte Carlo estimates of that size (`ra_course.exercises.checking.simulated`).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from ra_core.analysis import chance
from ra_core.bots import random_bot
from ra_core.engine.state import Phase, State
from ra_core.play import play

from .checking import Sheet, Task, Wrong, all_close, call, canonical, is_number, matches_hash
from .sampling import simulated, uses_its_rng

__all__ = ["COLLECTORS", "EXAMPLE", "HASHES", "SEEDS", "SHEET", "TRIALS", "practice_positions"]

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

#: SHA-256 of the canonical exact answers for `EXAMPLE` (see `ra_course.exercises.checking.canonical`).
HASHES: dict[str, str] = {
    "odds": "ec9e7c42864c6537908c08f4d002f22144e3a26be0976f914b356ed0be65cbb4",
    "tiles_before_ra": "c56ad350f4a318604677006e6122b1b127c1e1cb594c2c0a13e23364c25c3639",
    "draw_or_call": "503d1495975396e8c71a0125370740670eff094efa1bae3bea127d3daad2351d",
}

#: simulated trials per estimate in the checks, and how many seeds (estimates) a check compares
TRIALS, SEEDS = 250, 40
_SEED = 2025


def practice_positions(count: int = 6, seed: int = 7) -> list[State]:
    """Return `count` turn positions of seeded random games, with at least two tiles on a track that is not full.

    Every third one is moved to the last stretch of its epoch (Ra tiles moved from the bag to
    the Ra track until one more ends the epoch), where a drawn Ra tile ends the epoch instead
    of starting an auction.
    """
    out: list[State] = []
    for game in range(count):
        record = play([random_bot] * 3, seed=seed * 1000 + game)
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
    moved = min(chance.ra_tiles_left(state) - 1, data["bag"]["ra"] - 1)
    data["ra_count"] += moved
    data["bag"]["ra"] -= moved
    return State.from_dict(data)


# -- judges ----------------------------------------------------------------------------------


def _pair(value: Any, name: str, what: str) -> tuple[Any, Any]:
    if not isinstance(value, tuple | list) or len(value) != 2 or not all(is_number(v) for v in value):
        raise Wrong(f"{name} returned {value!r}; it should return a pair of numbers ({what})")
    return value[0], value[1]


def _exact(values: tuple[Any, ...], name: str) -> None:
    if not all(isinstance(v, int | Fraction) for v in values):
        raise Wrong(
            f"{name} returned {canonical(values, 6)} as floats; this task asks for exact answers: "
            "build them with fractions.Fraction(numerator, denominator)"
        )


def _odds_answers(f: Any, state: State, where: str) -> tuple[Any, Any]:
    name = "next_tile_odds"
    mine = _pair(call(f, name, state), name, "P(Ra), P(disaster)")
    _exact(mine, name)
    return mine


def _tiles_answer(f: Any, state: State, where: str) -> Any:
    name = "expected_tiles_before_ra"
    mine = call(f, name, state)
    if not is_number(mine):
        raise Wrong(f"{name} returned {mine!r:.60}; it should return a number")
    _exact((mine,), name)
    return mine


def _draw_call_answers(f: Any, state: State, where: str) -> tuple[Any, Any]:
    name = "draw_or_call_values"
    mine = _pair(call(f, name, state), name, "call now, draw now")
    _exact(mine, name)
    return mine


def _example(f: Any, collect: Any, key: str, what: str) -> Any:
    mine = collect(f, State.from_dict(EXAMPLE), "the example")
    if not matches_hash(mine, HASHES[key]):
        raise Wrong(f"for the example you found {what} = {canonical(mine, 4)}; not all are right")
    return mine


def _judge_odds(f: Any) -> str:
    _example(f, _odds_answers, "odds", "P(Ra), P(disaster)")
    for i, s in enumerate(practice_positions()):
        got = _odds_answers(f, s, f"practice position {i + 1}")
        if tuple(got) != (chance.p_next_ra(s), chance.p_next_disaster(s)):
            raise Wrong(f"in practice position {i + 1} (bag of {sum(s.bag)}) your odds {got[0]}, {got[1]} are off")
    return "Exact for the example and six practice positions."


def _judge_tiles_before_ra(f: Any) -> str:
    _example(f, _tiles_answer, "tiles_before_ra", "the expected tiles before the next Ra tile")
    for i, s in enumerate(practice_positions()):
        got = _tiles_answer(f, s, f"practice position {i + 1}")
        if got != chance.expected_tiles_before_ra(s):
            raise Wrong(f"in practice position {i + 1} (bag of {sum(s.bag)}) you found {got!r}; it is off")
    return "Exact for the example and six practice positions."


def _judge_draw_or_call(f: Any) -> str:
    _example(f, _draw_call_answers, "draw_or_call", "(call, draw)")
    for i, s in enumerate(practice_positions()):
        got = _draw_call_answers(f, s, f"practice position {i + 1}")
        d = chance.draw_or_call(s)
        assert d.draw is not None  # a track that is not full: drawing is allowed
        if not all_close(got, (d.call, d.draw)):
            last = " (the next Ra tile ends the epoch)" if chance.ra_tiles_left(s) == 1 else ""
            raise Wrong(f"in practice position {i + 1}{last} your values {canonical(got, 4)} are off")
    return "Exact for the example and six practice positions, two of them one Ra tile from the end of an epoch."


def _variance(law: dict[int, Fraction]) -> float:
    m = chance.expectation(law)
    return float(sum(p * (v - m) ** 2 for v, p in law.items()))


def _runs(f: Any, name: str, state: State, seed: int) -> list[Any]:
    return [call(f, name, state, TRIALS, random.Random(seed * 100 + k)) for k in range(SEEDS)]


def _simulate_bag_on(f: Any, label: str, s: State, seed: int) -> None:
    name = "simulate_bag"
    runs = _runs(f, name, s, seed)
    for got in runs:
        if not isinstance(got, tuple | list) or len(got) != 3 or not all(is_number(v) for v in got):
            raise Wrong(f"{name} returned {got!r:.80}; it should return three numbers")
    ra, dis = float(chance.p_next_ra(s)), float(chance.p_next_disaster(s))
    law = chance.tiles_before_ra(s)
    checks = (
        ("share of runs whose first tile is Ra", 0, ra, ra * (1 - ra)),
        ("share of runs whose first tile is a disaster", 1, dis, dis * (1 - dis)),
        ("mean number of tiles before the Ra tile", 2, float(chance.expectation(law)), _variance(law)),
    )
    for what, i, mean, var in checks:
        simulated([r[i] for r in runs], mean, var, TRIALS, f"for {label}, your {what}")


def _simulate_draw_on(f: Any, label: str, s: State, seed: int) -> None:
    law = chance.lot_value_after_draw(s, s.turn_player)
    what = f"for {label}, your simulated value of drawing"
    simulated(_runs(f, "simulate_draw", s, seed), float(chance.expectation(law)), _variance(law), TRIALS, what)


def _judge_simulate_bag(f: Any) -> str:
    _simulate_bag_on(f, "the example", State.from_dict(EXAMPLE), _SEED)
    _simulate_bag_on(f, "practice position 3", practice_positions()[2], _SEED + 1)
    uses_its_rng(f, "simulate_bag", State.from_dict(EXAMPLE), 100)
    return f"All three estimates agree with the exact values, and vary over {SEEDS} seeds as a simulation does."


def _judge_simulate_draw(f: Any) -> str:
    _simulate_draw_on(f, "the example", State.from_dict(EXAMPLE), _SEED)
    _simulate_draw_on(f, "practice position 3", practice_positions()[2], _SEED + 1)
    uses_its_rng(f, "simulate_draw", State.from_dict(EXAMPLE), 100)
    return f"It agrees with the exact value and varies over {SEEDS} seeds as a simulation does."


def _hidden_exact(collect: Any) -> Any:
    def hidden(f: Any, data: dict[str, Any]) -> str:
        states = practice_positions(len(data["keys"]), data["seed"])
        for i, (s, key) in enumerate(zip(states, data["keys"], strict=True)):
            if not matches_hash(collect(f, s, f"hidden position {i + 1}"), key):
                raise Wrong(f"in hidden position {i + 1} (bag of {sum(s.bag)}) an answer is off")
        return f"Exact on {len(states)} hidden positions."

    return hidden


def _hidden_simulation(run: Any) -> Any:
    def hidden(f: Any, data: dict[str, Any]) -> str:
        for i, s in enumerate(practice_positions(data["positions"], data["seed"])[-2:]):
            run(f, f"hidden position {i + 1}", s, data["seed"] + i)
        return "Right on two hidden positions."

    return hidden


#: per task, what the student's function answers on a position (None: a simulation, judged by its statistics)
COLLECTORS: dict[str, Any] = {"1": _odds_answers, "2": _tiles_answer, "3": None, "4": _draw_call_answers, "5": None}

_ODDS: tuple[str, ...] = (
    "ra_core.analysis.odds.p_next_ra",
    "ra_core.analysis.odds.p_next_disaster",
    "ra_core.analysis.odds.p_next",
)
_ODDS += ("ra_core.analysis.odds.p_next_tile", "ra_core.analysis.odds.next_tile_distribution")
_BEFORE = (
    "ra_core.analysis.odds.expected_tiles_before_ra",
    "ra_core.analysis.odds.tiles_before_ra",
    "ra_core.analysis.odds.tiles_in_next_lot",
)
_DRAW: tuple[str, ...] = ("ra_core.analysis.chance.draw_or_call", "ra_core.analysis.chance.lot_value_after_draw")
_DRAW += ("ra_core.analysis.chance.expected_lot_values_after_draw",)


SHEET = Sheet(
    "bag",
    "Exercise sheet 3 · Expected value in the bag",
    (
        Task(
            "1",
            "The next tile",
            4,
            "next_tile_odds",
            _judge_odds,
            (
                "Every tile in the bag is equally likely to come out next (R22), so the chance of a kind "
                "is its share of the bag: count, then divide. `state.bag` holds a count per Tile.",
                "Equally likely outcomes: a probability is favourable over possible, as notebook 09, section 1 "
                "(is the next tile Ra?) counts it; the disasters are four kinds (notebook 05, 'The four disasters').",
            ),
            forbidden=_ODDS,
            hidden=_hidden_exact(_odds_answers),
        ),
        Task(
            "2",
            "Tiles before the next Ra",
            4,
            "expected_tiles_before_ra",
            _judge_tiles_before_ra,
            (
                "Think of the bag shuffled into a row. Take one non-Ra tile: with what chance does it come "
                "before all R Ra tiles? Then use linearity of expectation over the N non-Ra tiles.",
                "Linearity of expectation with one indicator per non-Ra tile, and symmetry among the tiles "
                "that compete to come first: notebook 09, section 2 (how many tiles come before the next Ra tile?).",
            ),
            forbidden=_BEFORE,
            hidden=_hidden_exact(_tiles_answer),
        ),
        Task(
            "3",
            "Check it by simulation",
            4,
            "simulate_bag",
            _judge_simulate_bag,
            (
                "Each trial starts from a fresh copy of the bag, `bag = list(state.bag)`, and draws with "
                "`draw(bag, rng)` until a Ra tile comes out: its first tile counts for the two shares, the "
                "tiles before the Ra tile for the mean.",
                "A Monte Carlo estimate of an expectation: independent trials, each drawing without "
                "replacement, averaged; notebook 09, sections 1 and 2 check their exact answers this way.",
            ),
            forbidden=_ODDS + _BEFORE + ("ra_core.analysis.chance.sample_draws",),
            hidden=_hidden_simulation(_simulate_bag_on),
        ),
        Task(
            "4",
            "Draw now, or call now?",
            4,
            "draw_or_call_values",
            _judge_draw_or_call,
            (
                "Calling now wins the lot as it is. Drawing first: average over every kind in the bag, "
                "weighted by its chance: a non-Ra tile joins the lot; a Ra tile starts the auction on the lot "
                "as it is, unless it is the Ra tile that ends the epoch: then the lot is lost (value 0).",
                "The expected value of a gamble, outcome by outcome (the law of total expectation), in the "
                "one-step stopping problem of notebook 09, section 4 (draw or call Ra?).",
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
                "Draw one tile at random, value what the turn player would then win under Task 4's model, "
                "and average over many trials.",
                "A Monte Carlo estimate of Task 4's expectation: one independent draw from the full bag per "
                "trial, valued under the same model (notebook 09, section 4).",
            ),
            forbidden=_DRAW,
            hidden=_hidden_simulation(_simulate_draw_on),
        ),
    ),
)
