"""The board as plain text: what `str(state)` prints.

Compact and byte-stable, for terminals, doctests and golden files. (Pictures and sentences
are the presentation layer's: `ra_core.pictures.svg`, `ra_core.pictures.words`.)

>>> from ra_core import new_game
>>> print(new_game(3, suns="table"))
epoch 1/3  ra 0/8  center sun 1  bag 180  phase ACTION
auction track: _ _ _ _ _ _ _ _
> P0  up 2 5 8 13   down -   fame 10  -
  P1  up 3 6 9 12   down -   fame 10  -
  P2  up 4 7 10 11  down -   fame 10  -
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .records import Phase
from .rules import EPOCHS
from .tiles import describe

if TYPE_CHECKING:
    from .state import State

__all__ = ["text_board"]


def _suns(suns: tuple[int, ...]) -> str:
    return " ".join(map(str, suns)) or "-"


def text_board(s: State) -> str:
    """Return the board as plain text: epoch, Ra track, auction track, then one line per player.

    ``>`` marks whose turn it is, ``*`` who decides now when that is somebody else (a bidder or
    a player choosing discards).
    """
    lines = [
        f"epoch {s.epoch}/{EPOCHS}  ra {s.ra_count}/{s.rules.ra_limit}  center sun {s.center_sun}"
        f"  bag {sum(s.bag)}  phase {s.phase.name}",
        "auction track: " + " ".join(t.label if t is not None else "_" for t in s.track),
    ]
    a = s.auction
    if a is not None:
        bids = ", ".join(
            f"P{p} {'pass' if b is None else 'bid ' + str(b)}" for p, b in zip(a.order, a.bids, strict=False)
        )
        high = f"high {a.high_bid} by P{a.high_bidder}" if a.high_bidder >= 0 else "no bid yet"
        lines.append(f"auction ({a.trigger.value}, Ra player P{a.ra_player}): {bids or 'no one has bid'}; {high}")
    if s.discard is not None:
        owed = ", ".join(f"{n} for {kind.label}" for kind, n in s.discard.owed)
        lines.append(f"P{s.discard.player} chooses tiles to lose: {owed}")
    up_width = max(len(_suns(p.suns_up)) for p in s.players)
    down_width = max(len(_suns(p.suns_down)) for p in s.players)
    for i, p in enumerate(s.players):
        mark = ">" if i == s.turn_player and s.phase is not Phase.GAME_OVER else " "
        if i == s.to_move and i != s.turn_player:
            mark = "*"
        lines.append(
            f"{mark} P{i}  up {_suns(p.suns_up):<{up_width}}  down {_suns(p.suns_down):<{down_width}}"
            f"  fame {p.fame:<3} {describe(p.display)}"
        )
    if s.phase is Phase.GAME_OVER:
        lines.append(f"game over: P{s.winner()} wins")
    return "\n".join(lines)
