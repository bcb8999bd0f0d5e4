"""Actions and their text notation.

Every decision in Ra is one of these small frozen values; `str(action)` is its notation and
`parse_action` reads it back, so ``parse_action(str(a)) == a`` for every action.

=============  ==========================  ===============================================
notation       action                      when (rule)
=============  ==========================  ===============================================
``draw``       `Draw()`                    turn: draw a tile from the bag (R22)
``ra``         `CallRa()`                  turn: call Ra and start an auction (R35, R36)
``god 3``      `UseGod(3)`                 turn: return a god, take the tile on slot 3 (R26)
``done``       `Done()`                    after a god: stop using gods, end the turn (R29)
``bid 9``      `Bid(9)`                    auction: bid the face-up sun 9 (R39)
``pass``       `Pass()`                    auction: do not bid (R40)
``discard ..`` `Discard((ART, WRITING))`   disaster: the tiles chosen to lose (R53)
``reveal ra``  `Reveal(Tile.RA)`           chance: the tile that comes out of the bag (R22)
=============  ==========================  ===============================================

Auction slots are numbered 1-8 from the left, as in the rulebook. Using several gods is
several `UseGod` steps in one turn, each resolved before the next (R29), closed by `Done`
(or automatically when no god or no target is left).

>>> parse_action("bid 9")
Bid(sun=9)
>>> str(parse_action("DISCARD Writing, art"))
'discard art writing'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from .errors import InvalidActionError
from .tiles import Tile


@dataclasses.dataclass(frozen=True, slots=True)
class Draw:
    """Draw a tile from the bag; the tile itself is the next chance outcome (R22)."""

    def __str__(self) -> str:
        return "draw"


@dataclasses.dataclass(frozen=True, slots=True)
class CallRa:
    """Call ("invoke") Ra: start an auction for the tiles on the auction track (R35, R36)."""

    def __str__(self) -> str:
        return "ra"


@dataclasses.dataclass(frozen=True, slots=True)
class UseGod:
    """Return one god tile to the box and take the tile on auction slot `slot` (1-8) (R26)."""

    slot: int

    def __str__(self) -> str:
        return f"god {self.slot}"


@dataclasses.dataclass(frozen=True, slots=True)
class Done:
    """Stop using gods; the turn ends (R29)."""

    def __str__(self) -> str:
        return "done"


@dataclasses.dataclass(frozen=True, slots=True)
class Bid:
    """Bid the face-up sun `sun` in the running auction (R39)."""

    sun: int

    def __str__(self) -> str:
        return f"bid {self.sun}"


@dataclasses.dataclass(frozen=True, slots=True)
class Pass:
    """Pass in the running auction (R40)."""

    def __str__(self) -> str:
        return "pass"


@dataclasses.dataclass(frozen=True, slots=True)
class Discard:
    """Lose these tiles to a disaster (R50, R53); `tiles` is sorted in tile order."""

    tiles: tuple[Tile, ...]

    def __str__(self) -> str:
        return "discard " + " ".join(t.label for t in self.tiles)


@dataclasses.dataclass(frozen=True, slots=True)
class Reveal:
    """Chance outcome: `tile` comes out of the bag after a draw (R22)."""

    tile: Tile

    def __str__(self) -> str:
        return f"reveal {self.tile.label}"


Action = Draw | CallRa | UseGod | Done | Bid | Pass | Discard | Reveal

# Shared instances (read-only): the engine hands out these, so most comparisons are identity checks.
DRAW = Draw()
CALL_RA = CallRa()
DONE = Done()
PASS = Pass()
BIDS: Mapping[int, Bid] = MappingProxyType({sun: Bid(sun) for sun in range(1, 17)})
GODS: Mapping[int, UseGod] = MappingProxyType({slot: UseGod(slot) for slot in range(1, 9)})
REVEALS: Mapping[Tile, Reveal] = MappingProxyType({tile: Reveal(tile) for tile in Tile})


def discard(tiles: Iterable[Tile]) -> Discard:
    """Return the `Discard` of `tiles` (in any order)."""
    return Discard(tuple(sorted(tiles)))


def sort_key(action: Action) -> tuple[int, int | tuple[int, ...]]:
    """Return the key that orders legal actions: draw, ra, done, pass, bids, gods, discards, reveals."""
    match action:
        case Draw():
            return (0, 0)
        case CallRa():
            return (1, 0)
        case Done():
            return (2, 0)
        case Pass():
            return (3, 0)
        case Bid(sun):
            return (4, sun)
        case UseGod(slot):
            return (5, slot)
        case Discard(tiles):
            return (6, tuple(tiles))
        case Reveal(tile):
            return (7, int(tile))
    raise TypeError(f"not an action: {action!r}")


_EXAMPLES = "expected e.g. 'draw', 'ra', 'god 3', 'done', 'bid 9', 'pass', 'discard art writing', 'reveal gold'"
_SIMPLE: dict[str, Action] = {
    "draw": DRAW,
    "ra": CALL_RA,
    "call ra": CALL_RA,
    "call_ra": CALL_RA,
    "invoke ra": CALL_RA,
    "done": DONE,
    "pass": PASS,
}


def _is_number(word: str) -> bool:
    """Return whether `word` is a number in ASCII digits (``int`` alone would also take "٩", "９" and "1_0")."""
    return word.isascii() and word.isdigit() and len(word) <= 2


def parse_action(text: str) -> Action:
    """Return the action written as `text` (case and extra spaces or commas do not matter).

    Raises:
        InvalidActionError: the text is not the notation of any action.
    """
    if not isinstance(text, str):
        kind = type(text).__name__
        raise InvalidActionError(f"cannot parse a {kind}: an action's text must be a str; {_EXAMPLES}")
    words = text.replace(",", " ").lower().split()
    simple = _SIMPLE.get(" ".join(words))
    if simple is not None:
        return simple
    if len(words) >= 2:
        verb, args = words[0], words[1:]
        try:
            if verb == "bid" and len(args) == 1 and _is_number(args[0]):
                sun = int(args[0])
                if sun in BIDS:
                    return BIDS[sun]
            elif verb == "god" and len(args) == 1 and _is_number(args[0]):
                slot = int(args[0])
                if slot in GODS:
                    return GODS[slot]
            elif verb == "discard":
                return discard(Tile.from_label(word) for word in args)
            elif verb == "reveal" and len(args) == 1:
                return REVEALS[Tile.from_label(args[0])]
        except ValueError:
            pass
    raise InvalidActionError(f"cannot parse {text[:40]!r}; {_EXAMPLES}")
