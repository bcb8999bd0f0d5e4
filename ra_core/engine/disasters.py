"""Disasters: what a player must lose, and which losses are his to choose (R50-R55).

Each disaster costs two tiles of its category (fewer if he has fewer). Funeral and drought
never leave a choice (drought takes floods before niles, R52); unrest and earthquake leave one
when the player has more matching tiles than he must lose, of at least two kinds (R53).

>>> from ra_core.engine.tiles import counts
>>> after, boxed, owed = resolve(counts({Tile.FLOOD: 1, Tile.NILE: 3}), [Tile.DROUGHT])
>>> describe(after)
'nile 2'
>>> after, boxed, owed = resolve(counts({Tile.ART: 1, Tile.WRITING: 2, Tile.RELIGION: 1}), [Tile.UNREST])
>>> owed
((<Tile.UNREST: 21>, 2),)
>>> [describe(counts_of(o)) for o in discard_options(after, Tile.UNREST, 2)]
['art 1, religion 1', 'art 1, writing 1', 'religion 1, writing 1', 'writing 2']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .tiles import DISASTER_TARGETS, DISASTERS, NUM_KINDS, Tile, describe

__all__ = ["CHOOSABLE", "counts_of", "describe", "discard_options", "leaves_a_choice", "resolve"]

#: The disasters whose losses the player may choose (R53); the others take tiles in a fixed order.
CHOOSABLE = (Tile.UNREST, Tile.EARTHQUAKE)


def leaves_a_choice(display: Sequence[int], kind: Tile, n: int) -> bool:
    """Return whether losing `n` tiles to the disaster `kind` leaves the player a real choice (R53).

    Only unrest and earthquake let the player choose, and only when fewer tiles must go than he
    has of the kinds they strike, and those are of at least two kinds.
    """
    if kind not in CHOOSABLE:
        return False
    held = [display[t] for t in DISASTER_TARGETS[kind]]
    return n < sum(held) and len(held) - held.count(0) > 1


def resolve(
    display: Sequence[int], disasters: Iterable[Tile]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[Tile, int], ...]]:
    """Apply the forced part of `disasters` to `display` (R50-R54).

    The lot's other tiles must already be in `display` (R55).

    Returns:
        the display after the forced losses, the count tuple of tiles sent to the box (the
        disaster tiles and the forced losses), and ``(disaster, n)`` for each kind where the
        player still chooses `n` tiles to lose (R53).
    """
    d = list(display)
    boxed = [0] * NUM_KINDS
    owed: list[tuple[Tile, int]] = []
    disasters = list(disasters)
    for kind in DISASTERS:
        k = disasters.count(kind)
        if not k:
            continue
        boxed[kind] += k
        targets = DISASTER_TARGETS[kind]
        due = min(2 * k, sum([d[t] for t in targets]))
        if leaves_a_choice(d, kind, due):
            owed.append((kind, due))
            continue
        for t in targets:  # forced: in category order, which is floods-then-niles for drought
            if not due:
                break
            lose = min(due, d[t])
            d[t] -= lose
            boxed[t] += lose
            due -= lose
    return tuple(d), tuple(boxed), tuple(owed)


def discard_options(display: Sequence[int], disaster: Tile, n: int) -> list[tuple[Tile, ...]]:
    """Return every choice of `n` tiles the player may lose to `disaster`, sorted (R53)."""
    targets = [t for t in DISASTER_TARGETS[disaster] if display[t]]
    out: list[tuple[Tile, ...]] = []

    def extend(prefix: tuple[Tile, ...], start: int, left: int) -> None:
        if left == 0:
            out.append(prefix)
            return
        for i in range(start, len(targets)):
            t = targets[i]
            used = prefix.count(t)
            if used < display[t]:
                extend(prefix + (t,), i, left - 1)

    extend((), 0, n)
    return sorted(out)


def counts_of(tiles: Iterable[Tile]) -> tuple[int, ...]:
    """Return the count tuple of a list of tiles."""
    out = [0] * NUM_KINDS
    for t in tiles:
        out[t] += 1
    return tuple(out)
