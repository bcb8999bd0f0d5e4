"""Playing whole games: seeds and chance, the one game loop, seeded games between policies, records.

* `seeds`: a game's seed and the random streams it derives (the deal, the tiles drawn by
  `sample_chance`, each seat's policy), and which seeds a record can keep (`seed_problem`).
* `loop`: a policy's decision under the rules and a time limit (`decide`), the one game loop
  (`steps`), and seeded games between policies (`play_game` returns the record, `play_to_end`
  the final state).
* `record`: the `GameRecord` of a game (rules, starting suns, seed, every action): saved as JSON,
  loaded with every check, replayed.
* `history`: every auction a played game held, read back from its actions (`auctions`).

>>> from ra_core.bots import heuristic_bot
>>> record = play_game([heuristic_bot] * 3, seed=7)
>>> record.replay().is_terminal(), len(record.auctions()) > 0
(True, True)
"""

from __future__ import annotations

from .history import AuctionResult, auctions
from .loop import Policy, bot_name, decide, play_game, play_to_end, steps
from .record import RECORD_SCHEMA, GameRecord
from .seeds import SEED_TEXT_MAX, Seed, bot_stream, chance_stream, fresh_seed, next_seed, sample_chance, seed_problem

__all__ = [
    "RECORD_SCHEMA",
    "SEED_TEXT_MAX",
    "AuctionResult",
    "GameRecord",
    "Policy",
    "Seed",
    "auctions",
    "bot_name",
    "bot_stream",
    "chance_stream",
    "decide",
    "fresh_seed",
    "next_seed",
    "play_game",
    "play_to_end",
    "sample_chance",
    "seed_problem",
    "steps",
]
