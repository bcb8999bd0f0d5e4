"""What happened, in plain words: one sentence per action, from the states before and after.

>>> from ra_core import State
>>> s = State.from_dict({"players": [{"suns_up": [13, 8, 5, 2], "display": {"pharaoh": 2}},
...                                  {"suns_up": [12, 9, 6, 3]}, {"suns_up": [11, 10, 7, 4]}],
...                      "track": ["gold", "nile", "funeral"], "turn_player": 2})
>>> s = s.apply("ra")
>>> after = s.apply("bid 8")
>>> narrate(s, "bid 8", after)
'P0 bid 8.'
>>> s, after = after, after.apply("pass").apply("pass")
>>> narrate(s.apply("pass"), "pass", after)
'P2 passed; P0 won gold, Nile, a funeral and the center sun 1 with sun 8; lost 2 pharaohs.'
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TYPE_CHECKING

from ..engine.actions import Action, Bid, CallRa, Discard, Done, Draw, Pass, Reveal, UseGod, parse_action
from ..engine.disasters import counts_of, resolve
from ..engine.state import Phase, Trigger
from ..engine.tiles import NUM_KINDS, Tile
from ..engine.transitions import win
from .words import owed_words, player_name, seat_set, signed, tile_name

if TYPE_CHECKING:
    from ..engine.state import State

__all__ = ["epoch_summary", "join", "narrate", "since_last_move", "tiles_words", "tile_words"]

_MASS = {Tile.GOLD, Tile.NILE, Tile.ART, Tile.AGRICULTURE, Tile.RELIGION, Tile.ASTRONOMY, Tile.WRITING, Tile.UNREST}
_PLURAL = {Tile.SPHINX: "sphinxes", Tile.FORTRESS: "fortresses", Tile.NILE: "Niles", Tile.UNREST: "unrests"}


def tile_words(tile: Tile, n: int = 1) -> str:
    """Return `n` tiles of a kind in words: ``'a funeral'``, ``'gold'``, ``'2 pharaohs'``, ``'an obelisk'``."""
    name = tile_name(tile)
    if n == 1:
        if tile in _MASS:
            return name
        return ("an " if name[0] in "aeiou" else "a ") + name
    if tile in (Tile.GOLD, *(t for t in _MASS if t not in (Tile.NILE, Tile.UNREST))):
        return f"{n} {name}"
    return f"{n} {_PLURAL.get(tile, name + 's')}"


def join(words: Sequence[str]) -> str:
    """Return ``'a, b and c'``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def tiles_words(tiles: Iterable[Tile]) -> list[str]:
    """Return tiles in words, each kind once with its count, in tile order: ``['2 writings', 'art']``."""
    return _counted(counts_of(tiles))


def _counted(counts: Sequence[int]) -> list[str]:
    return [tile_words(Tile(t), n) for t, n in enumerate(counts) if n > 0]


def _in_order(tiles: Sequence[Tile]) -> list[str]:
    """Return the tiles in words, each kind once with its count, in the order first seen."""
    kinds = list(dict.fromkeys(tiles))
    return [tile_words(t, tiles.count(t)) for t in kinds]


def _losses(display: Sequence[int], disasters: list[Tile]) -> str:
    """Return "; lost ..." for the forced losses of `disasters` against `display`, and "; must choose ..."."""
    after, _, owed = resolve(display, disasters)
    lost = _counted([display[t] - after[t] for t in range(NUM_KINDS)])  # `display` holds no disaster tiles
    text = f"; lost {join(lost)}" if lost else ""
    if owed:
        text += f"; must choose tiles to lose: {owed_words(owed)}"
    return text


def epoch_summary(s: State, *, you: Collection[int] = (), names: Sequence[str] = ()) -> str:
    """Return the last scored epoch of `s` in words: each player's points and new fame."""
    score = s.scores[-1]
    parts = [f"{player_name(i, you, names)} {signed(b.net)} (fame {b.fame_after})" for i, b in enumerate(score.players)]
    text = f"Epoch {score.epoch} is scored: {', '.join(parts)}."
    if s.phase is Phase.GAME_OVER:
        w = s.winner() or 0
        text += f" Game over: {player_name(w, you, names)} wins with {s.players[w].fame} fame."
    return text


def _auction_result(before: State, winner: int, sun: int, *, say_sun: bool = True) -> str:
    """Return what the end of an auction did: "won ... with sun 9; lost ...", or the all-pass outcome.

    What the winner gets and loses is the engine's own rule functions applied to `before`
    (`game.win`, then `disasters.resolve` inside `_losses`): the state after an epoch-ending
    auction is already scored and cleaned up (R60), so it no longer shows what a drought or
    unrest took.
    """
    lot = before.lot
    if winner < 0:
        a = before.auction
        if a is not None and a.trigger is Trigger.CALL_FORCED:
            return "nobody bid, so the 8 tiles go to the box"
        return "nobody bid, so the tiles stay on the track" if lot else "nobody bid"
    player, disasters = win(before.players[winner], sun, before.center_sun, before.track)
    won = join([*_in_order(lot), f"the center sun {before.center_sun}"])  # every tile and the sun taken (R44)
    text = f"won {won}" + (f" with sun {sun}" if say_sun else "")
    text += _losses(player.display, disasters)
    return text


def narrate(
    before: State,
    action: Action | str,
    after: State,
    *,
    you: int | Collection[int] | None = None,
    names: Sequence[str] = (),
) -> str:
    """Return what `action` did in `before` (leading to `after`) as one or two plain sentences.

    >>> from ra_core import new_game
    >>> s = new_game(3, suns="table")
    >>> narrate(s, "draw", s.apply("draw"))
    'P0 draws a tile.'
    >>> s = s.apply("draw")
    >>> narrate(s, "reveal gold", s.apply("reveal gold"))
    'P0 drew gold; it goes to slot 1.'
    """
    me = seat_set(you)
    if isinstance(action, str):
        action = parse_action(action)

    def who(q: int) -> str:
        return player_name(q, me, names)

    actor = who(before.to_move) if before.to_move >= 0 else who(before.turn_player)
    text: str
    match action:
        case Draw():
            text = f"{actor} draws a tile."
        case Reveal(tile):
            if tile is Tile.RA:
                n, limit = before.ra_count + 1, before.rules.ra_limit
                if n == limit:
                    text = f"{actor} drew Ra ({n} of {limit}): the epoch ends at once, with no auction."
                else:
                    text = f"{actor} drew Ra ({n} of {limit}): an auction starts."
            else:
                slot = before.track.index(None) + 1
                text = f"{actor} drew {tile_words(tile)}; it goes to slot {slot}."
        case CallRa():
            if None in before.track:
                text = f"{actor} called Ra: an auction starts (the caller must bid if everybody else passes)."
            else:
                text = f"{actor} called Ra on a full track: an auction starts (if all pass, the tiles go to the box)."
        case Bid() | Pass() as bid_or_pass:
            a = before.auction
            last = a is not None and len(a.still_to_bid) == 1
            sun = bid_or_pass.sun if isinstance(bid_or_pass, Bid) else 0
            verb = f"bid {sun}" if isinstance(bid_or_pass, Bid) else "passed"
            if not last or a is None:
                text = f"{actor} {verb}."
            elif isinstance(bid_or_pass, Bid):
                text = f"{actor} bid {sun} and {_auction_result(before, before.to_move, sun, say_sun=False)}."
            elif a.high_bidder >= 0:
                text = f"{actor} passed; {who(a.high_bidder)} {_auction_result(before, a.high_bidder, a.high_bid)}."
            else:
                text = f"{actor} passed; {_auction_result(before, -1, 0, say_sun=False)}."
        case UseGod(slot):
            taken = before.track[slot - 1]
            assert taken is not None
            text = f"{actor} used a god to take {tile_words(taken)} from slot {slot}"
            if taken.is_disaster:
                display = list(before.players[before.turn_player].display)
                display[Tile.GOD] -= 1
                text += _losses(display, [taken])
            text += "."
        case Done():
            text = f"{actor} is done using gods."
        case Discard(tiles):
            kind = before.discard.owed[0][0] if before.discard is not None else None
            text = f"{actor} lost {join(tiles_words(tiles))}" + (f" to {tile_name(kind)}." if kind else ".")
        case _:
            text = f"{actor}: {action}."
    if len(after.scores) > len(before.scores):
        if not isinstance(action, Reveal):
            text += " No face-up suns are left: the epoch ends."
        text += " " + epoch_summary(after, you=me, names=names)
    return text


def since_last_move(
    states: Sequence[State],
    actions: Sequence[Action | str],
    you: int | Collection[int],
    *,
    names: Sequence[str] = (),
    most: int = 6,
    tell: Callable[[int], str] | None = None,
) -> list[str]:
    """Return what happened since your last decision, one sentence per move, oldest first.

    `states` and `actions` are a game as played (``states[k + 1]`` is ``states[k]`` after
    ``actions[k]``, chance draws included; an action or its text, parsed once by whoever keeps
    the game). The list starts with your last decision and goes on with every move after it:
    the others', the bots' and the tiles drawn (a draw and the tile it brings are one
    sentence). Before your first decision it tells the game from its start. At most the `most`
    newest sentences are kept; a first line says how many earlier ones were left out. The
    notebook's table and the classroom's page both show it beside the player's controls.
    `tell(k)`, if given, returns move k's sentence (a table that keeps each sentence once, for
    every seat and every redraw); otherwise it is narrated here.

    >>> from ra_core import new_game
    >>> s = new_game(3, suns="table")
    >>> states = [s, s.apply("draw"), s.apply("draw").apply("reveal gold")]
    >>> since_last_move(states, ["draw", "reveal gold"], 1)
    ['P0 drew gold; it goes to slot 1.']
    """
    me, most = seat_set(you), max(2, most)
    played = min(len(actions), len(states) - 1)
    start = next((k for k in range(played - 1, -1, -1) if states[k].to_move in me), 0)
    lines = []
    for k in range(start, played):
        if _is_draw(actions[k]) and k + 1 < played and _is_reveal(actions[k + 1]):
            continue  # told with the tile it brings, in the next sentence
        lines.append(
            tell(k) if tell is not None else narrate(states[k], actions[k], states[k + 1], you=me, names=names)
        )
    if len(lines) > most:
        earlier = len(lines) - most + 1
        lines = [f"({earlier} earlier moves since your last decision)", *lines[-(most - 1) :]]
    return lines


def _is_draw(action: Action | str) -> bool:
    return type(action) is Draw if not isinstance(action, str) else action == "draw"


def _is_reveal(action: Action | str) -> bool:
    return type(action) is Reveal if not isinstance(action, str) else action.startswith("reveal")
