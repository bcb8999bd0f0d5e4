"""Positions in words: tile and player names, the facts of a board, scores as text.

The text twin of the board picture (`ra_core.pictures.svg`): one plain sentence per fact, for screen
readers, for printing and for tests. Pure functions of a `State`, standard library only.

>>> from ra_core import new_game
>>> for line in facts(new_game(3, suns="table"))[:3]:
...     print(line)
Epoch 1 of 3: P0 takes a turn (draw or call Ra).
Ra track: 0 of 8 Ra tiles drawn; the 8th ends the epoch.
Center sun: 1.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from ..engine.actions import CallRa, Draw, UseGod
from ..engine.records import Phase, Trigger
from ..engine.rules import EPOCHS, TRACK_SIZE
from ..engine.scoring import CATEGORIES
from ..engine.tiles import CIVILIZATIONS, MONUMENTS, Tile

if TYPE_CHECKING:
    from ..engine.actions import Action
    from ..engine.scoring import EpochScore
    from ..engine.state import State

__all__ = [
    "CATEGORY_NAMES",
    "CATEGORY_WORDS",
    "KEPT",
    "TRIGGER_WORDS",
    "SCORED_EACH_EPOCH",
    "bids_words",
    "facts",
    "named",
    "owed_words",
    "player_name",
    "ra_track_words",
    "scores_rows",
    "scores_text",
    "seat_set",
    "seat_tokens",
    "seats_words",
    "signed",
    "status_lines",
    "turn_choices",
    "tile_name",
]

KEPT: tuple[Tile, ...] = (Tile.PHARAOH, Tile.NILE, *MONUMENTS)
#: The tiles scored and then discarded at the end of every epoch (R60), on the right.
SCORED_EACH_EPOCH: tuple[Tile, ...] = (Tile.GOD, Tile.GOLD, Tile.FLOOD, *CIVILIZATIONS)

_NAMES = {Tile.NILE: "Nile", Tile.RA: "Ra"}


def owed_words(owed: Sequence[tuple[Tile, int]]) -> str:
    """Return the discards still owed in words: ``'2 to unrest and 1 to earthquake'`` (R53)."""
    return " and ".join(f"{n} to {tile_name(kind)}" for kind, n in owed)


def tile_name(t: Tile) -> str:
    """Return the tile's name in words: ``'step pyramid'``, ``'Nile'``."""
    return _NAMES.get(t, t.label.replace("-", " "))


# -- the facts in words ----------------------------------------------------------------------


def player_name(seat: int, you: Collection[int] = (), names: Sequence[str] = ()) -> str:
    """Return the seat's one name, used for it everywhere: ``'P1'``, ``'P1 (you)'`` or ``'P1 (greedy)'``.

    A name that is the seat's own (``names[1] == "P1"``) adds nothing: ``'P1'``, never ``'P1 (P1)'``.
    """
    if seat in you:
        return f"P{seat} (you)"
    if 0 <= seat < len(names) and names[seat] not in ("", f"P{seat}"):
        return f"P{seat} ({names[seat]})"
    return f"P{seat}"


_TOKENS = tuple(f"\x00{q}\x00" for q in range(8))  # a name per seat that no player's holds (a NUL each side)
_TOLD = re.compile("P([0-7]) \\(\x00\\1\x00\\)")  # a seat's `player_name` told with its token: "P1 (<token 1>)"


def seat_tokens(players: int) -> tuple[str, ...]:
    """Return a name per seat that no player's name holds, to tell words once for several readers (see `named`)."""
    return _TOKENS[:players]


def named(lines: Sequence[str], you: Collection[int] = (), names: Sequence[str] = ()) -> list[str]:
    """Return `lines`, told with `seat_tokens` as the names, as `you` read them with `names`: "P1 (you)", "P2 (Ann)".

    What every seat at a table reads of one position (its facts, the auction in words, a move's
    sentence) is told once with the tokens, then named for each reader: the words he would have
    been told alone, as long as no name holds a NUL character.

    >>> from ra_core import new_game
    >>> s = new_game(3, seed=1)
    >>> told = facts(s, names=seat_tokens(3))
    >>> named(told, {1}, ["Ann", "Bob", "Cy"]) == facts(s, you={1}, names=["Ann", "Bob", "Cy"])
    True
    """
    found: dict[str, str] = {}  # each seat's name for these readers, found once

    def name(m: re.Match[str]) -> str:
        q = m.group(1)
        told = found.get(q)
        if told is None:
            told = found[q] = player_name(int(q), you, names)
        return told

    return [_TOLD.sub(name, line) if "\x00" in line else line for line in lines]


def ra_track_words(drawn: int, limit: int) -> str:
    """Return the Ra track in words: how many Ra tiles are drawn, and which one ends the epoch (R15)."""
    return f"Ra track: {drawn} of {limit} Ra tiles drawn; the {_ordinal(limit)} ends the epoch"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _tiles_words(display: tuple[int, ...], kinds: Sequence[Tile]) -> str:
    return ", ".join(f"{tile_name(t)} {display[t]}" for t in kinds if display[t]) or "none"


def seats_words(seats: Sequence[int], you: Collection[int] = (), names: Sequence[str] = ()) -> str:
    """Return seats as words, each by its `player_name`: "P0, P2", or "nobody"."""
    return ", ".join(player_name(q, you, names) for q in seats) or "nobody"


def bids_words(s: State, you: Collection[int] = (), names: Sequence[str] = ()) -> tuple[str, str, str]:
    """Return the running auction in words: the high bid, the bids so far, and who is still to bid."""
    a = s.auction
    if a is None:
        return "", "", ""
    high = f"high bid {a.high_bid} by {player_name(a.high_bidder, you, names)}" if a.high_bidder >= 0 else "no bid yet"
    done = ", ".join(
        f"{player_name(q, you, names)} {'passed' if b is None else 'bid ' + str(b)}"
        for q, b in zip(a.order, a.bids, strict=False)
    )
    return high, done, seats_words(a.still_to_bid, you, names)


TRIGGER_WORDS = {
    Trigger.RA_TILE: "a Ra tile was drawn",
    Trigger.CALL_VOLUNTARY: "Ra was called",
    Trigger.CALL_FORCED: "Ra was called on a full track",
}


def seat_set(you: int | Collection[int] | None) -> Collection[int]:
    """Return the seats `you` names (one seat, several, or None) as a collection."""
    if you is None:
        return ()
    if isinstance(you, int):
        return (you,)
    return tuple(you)


def turn_choices(s: State, legal: Sequence[Action] | None = None) -> str:
    """Return the turn player's open choices in words: ``'draw, call Ra or use a god'``, ``'draw or call Ra'``...

    `legal`: the position's legal actions, if the caller has them already (`State.legal_actions`).
    """
    kinds = {type(a) for a in (s.legal_actions() if legal is None else legal)}
    choices = [word for kind, word in ((Draw, "draw"), (CallRa, "call Ra"), (UseGod, "use a god")) if kind in kinds]
    return ", ".join(choices[:-1]) + " or " + choices[-1] if len(choices) > 1 else "".join(choices)


def facts(
    s: State,
    *,
    you: int | Collection[int] | None = None,
    names: Sequence[str] = (),
    legal: Sequence[Action] | None = None,
) -> list[str]:
    """Return the board as plain sentences, one fact each: the text twin of `svg`.

    Args:
        s: the position.
        you: the seat (or seats) to mark "(you)".
        names: a name per seat, e.g. the bots' names.
        legal: the position's legal actions, if the caller has them already (`State.legal_actions`):
            the turn player's choices are told from them.
    """
    me = seat_set(you)

    def who(q: int) -> str:
        return player_name(q, me, names)

    lines = []
    over = s.phase is Phase.GAME_OVER
    if over:
        w = s.winner() or 0
        lines.append(f"Game over after epoch {EPOCHS}: {who(w)} wins with {s.players[w].fame} fame.")
    else:
        if s.phase is Phase.ACTION:
            doing = f"{who(s.turn_player)} takes a turn ({turn_choices(s, legal)})."
        elif s.phase is Phase.REVEAL:
            doing = f"{who(s.turn_player)} draws a tile from the bag."
        elif s.phase is Phase.GODS:
            doing = f"{who(s.turn_player)} may use another god or be done."
        elif s.phase is Phase.BID:
            doing = f"auction: {who(s.to_move)} bids or passes."
        else:
            doing = f"{who(s.to_move)} chooses tiles to lose to a disaster."
        lines.append(f"Epoch {s.epoch} of {EPOCHS}: {doing}")
        limit = s.rules.ra_limit
        lines.append(ra_track_words(s.ra_count, limit) + ".")
    lines.append(f"Center sun: {s.center_sun}.")
    if not over:
        on_track = [f"slot {i + 1} {tile_name(t)}" for i, t in enumerate(s.track) if t is not None]
        count = len(on_track)
        lines.append(f"Auction track, {count} of {TRACK_SIZE} slots filled: {', '.join(on_track) or 'empty'}.")
        lines.append(f"Bag: {sum(s.bag)} tiles.")
        turn = f"Turn: {who(s.turn_player)}."
        if s.to_move >= 0 and s.to_move != s.turn_player:
            turn += f" Decides now: {who(s.to_move)}."
        lines.append(turn)
    a = s.auction
    if a is not None:
        high, done, still = bids_words(s, me, names)
        lines.append(
            f"Auction ({TRIGGER_WORDS[a.trigger]}) with {who(a.ra_player)} as Ra player: {high}; "
            f"bids so far: {done or 'none'}; still to bid: {still}."
        )
    if s.discard is not None:
        owed = owed_words(s.discard.owed)
        lines.append(f"{who(s.discard.player)} must choose tiles to lose: {owed}.")
    for i, p in enumerate(s.players):
        lines.append(
            f"{who(i)}: fame {p.fame}; suns face up {', '.join(map(str, p.suns_up)) or 'none'}; "
            f"face down {', '.join(map(str, p.suns_down)) or 'none'}; "
            f"kept tiles: {_tiles_words(p.display, KEPT)}; "
            f"this epoch's tiles: {_tiles_words(p.display, SCORED_EACH_EPOCH)}."
        )
    return lines


# -- scores ------------------------------------------------------------------------------------

#: Each scoring category (`ra_core.engine.scoring.CATEGORIES`, the first fields of a `Breakdown`) by
#: its one name, used wherever a category is shown: the rules' own headings (R63-R71).
CATEGORY_WORDS: dict[str, str] = {
    "god": "gods",
    "pharaoh": "pharaohs",
    "river": "Nile and floods",
    "civilization": "civilizations",
    "gold": "gold",
    "monument": "monuments",
    "sun": "suns",
}
assert tuple(CATEGORY_WORDS) == CATEGORIES  # one category list: the engine's order
#: The category names in `CATEGORIES` order, e.g. for table heads.
CATEGORY_NAMES = tuple(CATEGORY_WORDS.values())


def signed(v: int) -> str:
    """Return a points change as text: +5, -2, or 0."""
    return f"{v:+d}" if v else "0"


def scores_text(scores: Sequence[EpochScore], you: Collection[int] = (), names: Sequence[str] = ()) -> str:
    """Return the score breakdown per epoch and category as a plain-text table (columns by category name)."""
    if not scores:
        return "No epoch has been scored yet."
    head = ["epoch", "player", *CATEGORY_NAMES, "net", "fame"]
    rows = [head]
    for e in scores:
        for i, b in enumerate(e.players):
            who = player_name(i, you, names)
            rows.append([str(e.epoch), who, *(signed(v) for v in (*b.points, b.net)), str(b.fame_after)])
    widths = [max(len(r[c]) for r in rows) for c in range(len(head))]
    return "\n".join("  ".join(cell.rjust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows)


def scores_rows(
    scores: Sequence[EpochScore], you: Collection[int] = (), names: Sequence[str] = ()
) -> list[dict[str, object]]:
    """Return the scores per epoch and player as rows narrow enough for a phone: who, net, fame, and the rest in words.

    Each row is ``{"epoch", "who", "you", "net", "fame", "parts"}``: `who` is the player's name
    as the board writes it ("P2 (you)"), `parts` the categories that scored, in words
    ("pharaohs +5, suns -5"). Three columns and a line of words fit a 360 px screen, where
    `scores_text`'s nine columns take 730 px.

    >>> from ra_core.engine.records import Breakdown, EpochScore
    >>> rows = scores_rows([EpochScore(1, (Breakdown(2, 5, 0, 0, 0, 0, -5, 10, 12),))], you={0})
    >>> rows[0]["who"], rows[0]["net"], rows[0]["fame"], rows[0]["parts"]
    ('P0 (you)', '+2', 12, 'gods +2, pharaohs +5, suns -5')
    """
    rows: list[dict[str, object]] = []
    for e in scores:
        for i, b in enumerate(e.players):
            parts = [f"{w} {signed(v)}" for w, v in zip(CATEGORY_NAMES, b.points, strict=True) if v]
            rows.append(
                {
                    "epoch": e.epoch,
                    "who": player_name(i, you, names),
                    "you": i in you,
                    "net": signed(b.net),
                    "fame": b.fame_after,
                    "parts": ", ".join(parts) or "nothing scored",
                }
            )
    return rows


def status_lines(s: State, table: bool = False, you: Collection[int] = (), names: Sequence[str] = ()) -> list[str]:
    """Return the lines under the board's tracks: the running auction, the discard, or the winner.

    With `table` (the game table), the auction's lines also say the sun swap it will make (R44).
    """

    def who(q: int) -> str:
        return player_name(q, you, names)

    lines = []
    a = s.auction
    if a is not None:
        high, done, still = bids_words(s, you, names)
        lines.append(f"Auction: {TRIGGER_WORDS[a.trigger]}, with {who(a.ra_player)} as Ra player; {high}")
        lines.append(f"Bids: {done or 'none yet'};  still to bid: {still}")
        if table:  # the sun swap the auction will make (R44)
            swap = f"{who(a.high_bidder)} would give sun {a.high_bid} and" if a.high_bidder >= 0 else "The winner will"
            lines.append(f"{swap} take the center sun {s.center_sun} with the tiles on the track.")
    if s.discard is not None:
        owed = owed_words(s.discard.owed)
        lines.append(f"{who(s.discard.player)} must choose tiles to lose: {owed}")
    if s.phase is Phase.GAME_OVER:
        w = s.winner() or 0
        lines.append(f"Game over: {who(w)} wins with {s.players[w].fame} fame")
    return lines
