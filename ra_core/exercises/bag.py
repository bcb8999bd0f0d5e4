"""Sheet 3, expected value in the bag: exact chances from the bag's composition, checked by simulation.

The exact answers are stored hashed for the sheet's example (`HASHES`) and derived at check time
for hidden positions by `ra_core.chance`, the engine's exact analysis. Simulations pass within
`Z` standard errors of the exact value, the standard error coming from the exact law.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from ..bots import random_bot
from ..chance import (
    draw_or_call,
    expectation,
    expected_tiles_before_ra,
    lot_value_after_draw,
    p_next_disaster,
    p_next_ra,
    ra_tiles_left,
    tiles_before_ra,
)
from ..play import play
from ..state import Phase, State
from .checking import (
    Sheet,
    Task,
    Wrong,
    Z,
    all_close,
    call,
    canonical,
    is_number,
    matches_hash,
    too_high_or_low,
    uses_its_rng,
    within,
)

__all__ = ["EXAMPLE", "HASHES", "SHEET", "TRIALS", "Z", "example_answers", "hidden_positions"]

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

#: SHA-256 of the canonical exact answers for `EXAMPLE` (see `ra_core.exercises.checking.canonical`).
HASHES: dict[str, str] = {
    "odds": "ec9e7c42864c6537908c08f4d002f22144e3a26be0976f914b356ed0be65cbb4",
    "tiles_before_ra": "c56ad350f4a318604677006e6122b1b127c1e1cb594c2c0a13e23364c25c3639",
    "draw_or_call": "503d1495975396e8c71a0125370740670eff094efa1bae3bea127d3daad2351d",
}

#: simulated trials per estimate in the checks
TRIALS = 10_000
_SEED = 2025


def hidden_positions(count: int = 6, seed: int = 7) -> list[State]:
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
    moved = min(ra_tiles_left(state) - 1, data["bag"]["ra"] - 1)
    data["ra_count"] += moved
    data["bag"]["ra"] -= moved
    return State.from_dict(data)


def example_answers() -> dict[str, Any]:
    """Return the example's exact answers (what `HASHES` hashes); for tests and for updating `HASHES`."""
    s = State.from_dict(EXAMPLE)
    d = draw_or_call(s)
    return {
        "odds": (p_next_ra(s), p_next_disaster(s)),
        "tiles_before_ra": expected_tiles_before_ra(s),
        "draw_or_call": (d.call, d.draw),
    }


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


def _judge_odds(f: Any) -> str:
    name = "next_tile_odds"
    mine = _pair(call(f, name, State.from_dict(EXAMPLE)), name, "P(Ra), P(disaster)")
    _exact(mine, name)
    if not matches_hash(mine, HASHES["odds"]):
        raise Wrong(f"for the example you found P(Ra) = {mine[0]} and P(disaster) = {mine[1]}; not both are right")
    for i, s in enumerate(hidden_positions()):
        got = _pair(call(f, name, s), name, "P(Ra), P(disaster)")
        if tuple(got) != (p_next_ra(s), p_next_disaster(s)):
            raise Wrong(f"in hidden position {i + 1} (bag of {sum(s.bag)}) your odds {got[0]}, {got[1]} are off")
    return "Exact for the example and six hidden positions."


def _judge_tiles_before_ra(f: Any) -> str:
    name = "expected_tiles_before_ra"
    mine = call(f, name, State.from_dict(EXAMPLE))
    if not is_number(mine):
        raise Wrong(f"{name} returned {mine!r}; it should return a number")
    _exact((mine,), name)
    if not matches_hash(mine, HASHES["tiles_before_ra"]):
        raise Wrong(f"for the example you found {mine} (~{float(mine):.3f}) tiles before the next Ra tile; it is off")
    for i, s in enumerate(hidden_positions()):
        got = call(f, name, s)
        if not is_number(got) or got != expected_tiles_before_ra(s):
            raise Wrong(f"in hidden position {i + 1} (bag of {sum(s.bag)}) you found {got!r}; it is off")
    return "Exact for the example and six hidden positions."


def _variance(law: dict[int, Fraction]) -> float:
    m = expectation(law)
    return float(sum(p * (v - m) ** 2 for v, p in law.items()))


def _judge_simulate_bag(f: Any) -> str:
    name = "simulate_bag"
    for label, s in (("the example", State.from_dict(EXAMPLE)), ("hidden position 3", hidden_positions()[2])):
        got = call(f, name, s, TRIALS, random.Random(_SEED))
        if not isinstance(got, tuple | list) or len(got) != 3 or not all(is_number(v) for v in got):
            raise Wrong(f"{name} returned {got!r}; it should return three numbers")
        ra, dis = float(p_next_ra(s)), float(p_next_disaster(s))
        law = tiles_before_ra(s)
        checks = (
            ("share of draws that are Ra", got[0], ra, ra * (1 - ra)),
            ("share of draws that are disasters", got[1], dis, dis * (1 - dis)),
            ("mean number of tiles before the next Ra", got[2], float(expectation(law)), _variance(law)),
        )
        for what, value, mean, var in checks:
            if not within(value, mean, var, TRIALS):
                side = too_high_or_low(float(value), mean)
                raise Wrong(f"for {label} your {what} is {float(value):.4f}: {side} (more than {Z:g} standard errors)")
    uses_its_rng(f, name, State.from_dict(EXAMPLE), 500)
    return f"All three estimates are within {Z:g} standard errors of the exact values."


def _judge_draw_or_call(f: Any) -> str:
    name = "draw_or_call_values"
    mine = _pair(call(f, name, State.from_dict(EXAMPLE)), name, "call now, draw once more")
    _exact(mine, name)
    if not matches_hash(mine, HASHES["draw_or_call"]):
        raise Wrong(f"for the example you found call = {mine[0]}, draw = {mine[1]}; not both are right")
    for i, s in enumerate(hidden_positions()):
        got = _pair(call(f, name, s), name, "call now, draw once more")
        d = draw_or_call(s)
        assert d.draw is not None
        if not all_close(got, (d.call, d.draw)):
            last = " (the next Ra tile ends the epoch)" if ra_tiles_left(s) == 1 else ""
            raise Wrong(f"in hidden position {i + 1}{last} your values {canonical(got, 4)} are off")
    return "Exact for the example and six hidden positions, two of them one Ra tile from the end of an epoch."


def _judge_simulate_draw(f: Any) -> str:
    name = "simulate_draw"
    cases = (("the example", State.from_dict(EXAMPLE)), ("hidden position 3", hidden_positions()[2]))
    for label, s in cases:
        got = call(f, name, s, TRIALS, random.Random(_SEED))
        law = lot_value_after_draw(s, s.turn_player)
        mean = float(expectation(law))
        if not within(got, mean, _variance(law), TRIALS):
            shown = f"{float(got):.4f}" if is_number(got) else repr(got)
            raise Wrong(f"for {label} your simulated value of drawing is {shown}: more than {Z:g} standard errors off")
    uses_its_rng(f, name, State.from_dict(EXAMPLE), 500)
    return f"Within {Z:g} standard errors of the exact value, also one Ra tile from the end of an epoch."


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
                "P(Ra) = Fraction(state.bag[Tile.RA], sum(state.bag)); for disasters add the counts of "
                "the kinds with `Tile(i).is_disaster` (funeral, drought, unrest, earthquake).",
            ),
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
                "That tile and the R Ra tiles are in a random order, so it is first of those R+1 tiles "
                "with probability 1/(R+1). Sum this over the N non-Ra tiles.",
            ),
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
                "Per trial: `tile = draw(bag, rng)`; add `tile is Tile.RA` and `tile.is_disaster` to two "
                "counters; then `while tile is not Tile.RA: before += 1; tile = draw(bag, rng)`. Divide "
                "the three totals by `trials`.",
            ),
        ),
        Task(
            "4",
            "Draw once more or call Ra now?",
            4,
            "draw_or_call_values",
            _judge_draw_or_call,
            (
                "Calling now wins the lot as it is. Drawing first: average over every kind in the bag, "
                "weighted by its chance: a non-Ra tile joins the lot; a Ra tile starts the auction on the lot "
                "as it is, unless it is the Ra tile that ends the epoch: then the lot is lost (value 0).",
                "Value a lot with `lot_value(state, state.turn_player, tiles)`. The epoch ends with the next "
                "Ra tile when `state.rules.ra_limit - state.ra_count == 1`. Weight each kind by "
                "Fraction(count, total).",
            ),
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
                "Per trial: `tile = draw(list(state.bag), rng)`; if it is not Ra, value the lot plus that tile; "
                "if it is Ra, the lot as it is, or 0 when that Ra tile ends the epoch. Average the values.",
            ),
        ),
    ),
)
