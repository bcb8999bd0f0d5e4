"""The bots. A bot is a policy: called as ``bot(state, rng)``, it returns a legal action.

Bots never touch global randomness: all chance comes from the `random.Random` passed in, so
one seed reproduces a whole game. Every bot is picklable (a module-level function or an
instance of a module-level class), so a process pool can run it, and every bot class carries
its own ``name`` for tournament tables.

* `random_bot` (`ra_core.bots.uniform`): a uniformly random legal action.
* `PlanBot` (`ra_core.bots.plan`): the plan the value-based bots share: bid the lowest
  winning sun when the lot nets enough, call Ra when it nets enough per empty slot, or, as the
  lone player (R21) whom the next Ra tile would stop, when calling beats drawing on.
* `heuristic_bot`, a `HeuristicBot` (`ra_core.bots.heuristic`): the plan with the lot valued
  by the scoring rules (`appraise`, `bid_value` and `explain` show why it bids).
* `greedy_bot`, a `GreedyBot` (`ra_core.bots.greedy`): the plan with a fast, rough valuation
  (`quick_lot_value`); the Monte Carlo bot's rollout policy.
* The Monte Carlo bot, which plays many of these games forward, is in `ra_core.bots.montecarlo`.
"""

from .greedy import GreedyBot, greedy_bot, quick_lot_value
from .heuristic import WEIGHTS, Appraisal, HeuristicBot, Weights, appraise, bid_value, explain, heuristic_bot
from .plan import PlanBot
from .uniform import random_bot

__all__ = [
    "WEIGHTS",
    "Appraisal",
    "GreedyBot",
    "HeuristicBot",
    "PlanBot",
    "Weights",
    "appraise",
    "bid_value",
    "explain",
    "greedy_bot",
    "heuristic_bot",
    "quick_lot_value",
    "random_bot",
]
