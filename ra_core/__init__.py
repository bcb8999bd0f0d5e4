"""ra_core: an exact, fast rules engine for Reiner Knizia's auction game Ra.

The rules of record are the project's rules document, docs/rules.md (R1-R74, options D1-D10,
worked examples and test vectors). Each rule's code is one jump away:

==================================  ============  =================================================
rulebook section                    rules         code
==================================  ============  =================================================
components: tiles, suns, track      R1-R8         `ra_core.tiles`, `ra_core.records`, `ra_core.rules`
setup                               R9-R16        `ra_core.setup` (`new_game`), `ra_core.turns`
turn structure                      R17-R21       `ra_core.turns` (the choices), `ra_core.game`
drawing                             R22-R25       `ra_core.game` (`reveal`), `ra_core.turns` (odds)
god tiles                           R26-R34       `ra_core.turns` (targets), `ra_core.game`
auctions                            R35-R45       `ra_core.auction` (order, legal bids), `ra_core.game` (`_bid`)
sun exchange                        R46-R49       `ra_core.game` (`win`)
disasters                           R50-R56       `ra_core.disasters`
end of an epoch                     R57-R62       `ra_core.game` (`_end_epoch`)
scoring, every epoch and the last   R63-R72       `ra_core.scoring`
winner                              R73           `ra_core.scoring` (`winner`)
information                         R74           `ra_core.state` (the position is all public)
options                             D1-D10        `ra_core.rules` (`Rules`)
==================================  ============  =================================================

The package is layered, and imports only point down (tests/test_layers.py checks it):

* engine: the modules above, plus `ra_core.state` (the position), `ra_core.actions` (the
  notation), `ra_core.serialize` (saved positions), `ra_core.play` and `ra_core.history`
  (playing and recording games);
* analysis: `ra_core.chance`, `ra_core.valuation`, the bots, `ra_core.montecarlo`, tournaments;
  `ra_core.drawcall` (draw or call Ra with the others acting between your draws) and
  `ra_core.endgame` (small endgames solved exactly, best responses, exploitability);
* presentation: `ra_core.words` (positions in words), `ra_core.pieces` and `ra_core.svg` (the
  board picture), `ra_core.narrate` (actions in words), `ra_core.plots`;
* widgets (`ra_core.widgets`), then the exercise checks and the command line.

The engine, bots, analysis and rendering use the standard library only; only the plots and the
widgets need matplotlib and ipywidgets.
"""

from __future__ import annotations

from . import svg as _svg  # noqa: F401  (draws `State._repr_html_`: the board in notebooks)
from .actions import Action, Bid, CallRa, Discard, Done, Draw, Pass, Reveal, UseGod, parse_action
from .errors import BotError, IllegalActionError, InvalidActionError, InvalidStateError
from .records import CHANCE, TERMINAL, Auction, PendingDiscard, Phase, Player, Resume, Trigger
from .rules import Rules
from .setup import new_game
from .state import State
from .tiles import Tile

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Auction",
    "Bid",
    "BotError",
    "CallRa",
    "Discard",
    "Done",
    "Draw",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidStateError",
    "Pass",
    "PendingDiscard",
    "Phase",
    "Player",
    "Resume",
    "Reveal",
    "Rules",
    "State",
    "Tile",
    "Trigger",
    "UseGod",
    "new_game",
    "parse_action",
]
