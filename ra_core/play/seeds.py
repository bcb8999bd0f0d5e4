"""Seeds and the random streams a game's seed derives: the deal, the tiles, each seat's policy.

Chance and the players are kept apart. A game's seed derives separate random streams: one
deals the sun groups (`ra_core.engine.setup.new_game`), one draws the tiles (`chance_stream`,
sampled by `sample_chance`), and one per seat is handed to that seat's policy (`bot_stream`).
So the tiles of a seeded game are a function of the seed alone, whatever the players do, and no
bot can read the next tile off the random numbers it is given.
"""

from __future__ import annotations

import random

from ..engine.actions import Action
from ..engine.safejson import MAX_INT
from ..engine.setup import lone_surrogate
from ..engine.state import Phase, State
from ..engine.turns import REVEALS_BY_INDEX

__all__ = [
    "SEED_TEXT_MAX",
    "Seed",
    "bot_stream",
    "chance_stream",
    "fresh_seed",
    "next_seed",
    "sample_chance",
    "seed_problem",
]

Seed = int | str
SEED_TEXT_MAX = 100  #: the longest text a seed may be
_REVEAL = Phase.REVEAL


def seed_problem(seed: object) -> str:
    """Return why `seed` cannot seed a game whose record saves and loads back, or "" if it can.

    A seed is an integer of at most 2**63 either way (a record keeps it as a JSON number, and
    `GameRecord.from_json` reads no larger one: see `ra_core.engine.safejson`) or a text of at
    most `SEED_TEXT_MAX` characters.

    >>> seed_problem(2**63), seed_problem("class of 2025")
    ('', '')
    >>> seed_problem(10**100)
    'a seed is an integer from -2**63 to 2**63 or a short text; this integer has 333 bits'
    """
    if type(seed) is int and abs(seed) > MAX_INT:
        return f"a seed is an integer from -2**63 to 2**63 or a short text; this integer has {seed.bit_length()} bits"
    if type(seed) is str and len(seed) > SEED_TEXT_MAX:
        return f"a seed text has at most {SEED_TEXT_MAX} characters, not {len(seed)}"
    if type(seed) is str and lone_surrogate(seed):
        return f"a seed text must be valid Unicode, not hold the lone surrogate {lone_surrogate(seed)}"
    if type(seed) not in (int, str):
        return f"a seed is an integer or a short text, not {type(seed).__name__}"
    return ""


def next_seed(seed: Seed) -> Seed:
    """Return the seed of the game after one played with `seed`.

    That is the next integer, or the text with "+1" after it; both stay seeds (`seed_problem`),
    wrapping round at the ends of the range.

    >>> next_seed(7), next_seed("class"), next_seed(2**63)
    (8, 'class+1', -9223372036854775808)
    """
    if isinstance(seed, int):
        return seed + 1 if seed < MAX_INT else -MAX_INT
    return f"{seed[: SEED_TEXT_MAX - 2]}+1"


def fresh_seed() -> int:
    """Return a new seed from the operating system's randomness: a game without a seed is by chance (R11)."""
    return random.SystemRandom().randrange(2**32)


def chance_stream(seed: Seed) -> random.Random:
    """Return the random stream that draws the tiles of the game with this `seed`."""
    return random.Random(f"ra-chance:{seed!r}")


def bot_stream(seed: Seed, seat: int) -> random.Random:
    """Return the random stream handed to the policy of `seat` in the game with this `seed`."""
    return random.Random(f"ra-seat-{seat}:{seed!r}")


def sample_chance(state: State, rng: random.Random) -> Action:
    """Return a random chance outcome of `state` with the exact bag odds, using only ``rng.random()``."""
    if state.phase is not _REVEAL:
        raise ValueError(f"{state!r} is not a chance node")
    bag = state.bag
    # The tile whose cumulative count first exceeds r: each tile is hit with probability count/total.
    # A walk from the first tile: the common kinds come first in `Tile`, so it stops after a few
    # steps, cheaper than building the cumulative counts for a bisection.
    r = int(rng.random() * sum(bag))
    tile = 0
    for count in bag:
        if r < count:
            break
        r -= count
        tile += 1
    return REVEALS_BY_INDEX[tile]
