"""Analysis: what positions are worth, computed exactly where possible and sampled where not.

* `odds` and `chance`: exact odds of the bag (the next tile, the tiles before Ra, the epoch's
  length) and expected values, as `Fraction`s;
* `valuation`: what an auction lot is worth to each player under the scoring rules;
* `drawcall`: draw or call Ra when the other players act between your draws, solved exactly;
* `endgame`: small endgames solved exactly, best responses and exploitability;
* `tournament`, `entrants`, `stats`, `progress`: seeded tournaments between bots, bots from
  files, confidence intervals, progress bars.

Standard library only. Each module imports what it uses from `ra_core.engine`; none imports a
bot, a picture or a widget (docs/architecture.md).
"""
