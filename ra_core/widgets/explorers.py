"""Explorers for the teaching notebooks: explore an auction, score epochs, try disasters.

(The game replay is in `ra_core.widgets.replay`.)

Standard library only. Each explorer keeps its state as engine values (states, a record,
tile counts) and renders by pure functions; the ipywidgets views in `views` only call them.
Bad input (a malformed record, a count out of range, a stale choice) sets `message` and
changes nothing; nothing here raises into a notebook.

>>> calc = ScoringCalculator(3)
>>> calc.set_count(1, 0, "gold", 2)
True
>>> calc.points(1)[0]["gold"]
6
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from ..analysis.valuation import lot_values
from ..engine.disasters import discard_options, resolve
from ..engine.rules import EPOCHS, STARTING_FAME, Rules
from ..engine.scoring import CATEGORIES, score_epoch
from ..engine.state import Phase, Player, State
from ..engine.tiles import CIVILIZATIONS, DISASTER_TARGETS, DISASTERS, FULL_BAG, MONUMENTS, NUM_KINDS, Tile
from ..pictures import svg, words
from ..pictures.narrate import join, narrate, tile_words, tiles_words
from .inputs import describe_value, tile_kind, whole_number
from .rule_texts import DISASTER_RULES, SCORING_RULES

__all__ = [
    "DISASTER_RULES",
    "SCORING_RULES",
    "AuctionExplorer",
    "DisasterExplorer",
    "ScoringCalculator",
]


def _ul(lines: Sequence[str]) -> str:
    return "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in lines) + "</ul>"


# -- auctions -------------------------------------------------------------------------------------

#: A small auction position to start exploring: gold, Nile and a funeral on the track.
EXAMPLE_AUCTION: dict[str, Any] = {
    "players": [
        {"suns_up": [13, 8, 5, 2], "display": {"pharaoh": 2, "flood": 1}},
        {"suns_up": [12, 9, 6, 3], "display": {"nile": 2, "art": 1}},
        {"suns_up": [11, 10, 7, 4], "display": {"pharaoh": 1, "gold": 1}},
    ],
    "track": ["gold", "nile", "funeral"],
    "turn_player": 0,
    "ra_count": 2,
}


class AuctionExplorer:
    """An auction position, its bidders in order, and what each legal bid or pass leads to.

    Args:
        state: a position in an auction, or a turn where Ra can be called (it is called),
            or None for `EXAMPLE_AUCTION`.
    """

    def __init__(self, state: State | None = None) -> None:
        self.message = ""
        if state is None:
            state = State.from_dict(EXAMPLE_AUCTION).apply("ra")
        elif state.phase is not Phase.BID:
            if state.phase is Phase.ACTION:
                state = state.apply("ra")
                self.message = f"P{state.turn_player} called Ra to start this auction."
            else:
                self.message = f"That position is not an auction (phase {state.phase.name}); nothing to explore."
        self.path: list[State] = [state]
        self.chosen: list[str] = []

    @property
    def state(self) -> State:
        """Return the position explored now."""
        return self.path[-1]

    def in_auction(self) -> bool:
        """Return whether the position shown is still an auction."""
        return self.state.phase is Phase.BID

    def options(self) -> list[tuple[str, str]]:
        """Return ``(action, what it leads to)`` for every legal bid or pass."""
        s = self.state
        if not self.in_auction():
            return []
        out = []
        for a in s.legal_actions():
            after = s.apply(a)
            text = narrate(s, a, after)
            if after.phase is Phase.BID and after.auction is not None:
                high = after.auction.high_bid
                text += f" Next: P{after.to_move} to bid" + (f" (to beat {high})." if high else " (no bid yet).")
            elif after.phase is Phase.DISCARD:
                text += f" Next: P{after.to_move} chooses the losses."
            elif after.phase is Phase.ACTION:
                text += f" Next: P{after.turn_player}'s turn."
            out.append((str(a), text))
        return out

    def choose(self, action: str) -> bool:
        """Follow `action` from the position shown; a choice that is not legal sets `message`."""
        self.message = ""
        legal = [str(a) for a in self.state.legal_actions()] if self.in_auction() else []
        if action not in legal:
            choices = ", ".join(legal) or "none (the auction is over)"
            self.message = f"Not a choice here: {describe_value(action)}. Choices: {choices}."
            return False
        self.path.append(self.state.apply(action))
        self.chosen.append(action)
        return True

    def back(self) -> bool:
        """Take back the last choice."""
        self.message = ""
        if len(self.path) == 1:
            self.message = "Already at the start of the auction."
            return False
        self.path.pop()
        self.chosen.pop()
        return True

    def reset(self) -> None:
        """Go back to the start of the auction."""
        del self.path[1:], self.chosen[:]
        self.message = ""

    def summary(self) -> list[str]:
        """Return the lot, the center sun, the bidders in order and what the lot is worth to each."""
        start = self.path[0]
        a = start.auction
        if a is None:
            return ["No auction."]
        lot = [t for t in start.track if t is not None]
        lines = [
            f"Lot: {join([tile_words(t) for t in lot]) or 'nothing but the center sun'}; "
            f"the winner also takes the center sun {start.center_sun} face down.",
            f"Bidders in order: {', '.join(f'P{q}' for q in a.order)} (P{a.ra_player}, the Ra player, bids last).",
        ]
        values = lot_values(start)
        lines.append(
            "Worth of the lot in fame (ra_core.analysis.valuation): "
            + ", ".join(f"P{q} {v:+d}" for q, v in enumerate(values))
            + "."
        )
        if self.chosen:
            lines.append("Line explored: " + ", ".join(f"{c}" for c in self.chosen) + ".")
        return lines

    def board_html(self) -> str:
        """Return the board at the position explored."""
        return svg.html(self.state)

    def text(self) -> str:
        """Return the summary, the position and the options as plain text."""
        lines = self.summary() + words.facts(self.state)
        opts = self.options()
        lines += [f"  {a}: {t}" for a, t in opts] if opts else ["The auction is over."]
        if self.message:
            lines.append(f"Message: {self.message}")
        return "\n".join(lines)


# -- scoring ----------------------------------------------------------------------------------

#: The tiles a scoring calculator asks for, in the order of the categories.
SCORED_TILES: tuple[Tile, ...] = (Tile.GOD, Tile.PHARAOH, Tile.NILE, Tile.FLOOD, *CIVILIZATIONS, Tile.GOLD, *MONUMENTS)


class ScoringCalculator:
    """Set tile counts per player and epoch; see each category's points and the fame, epoch by epoch.

    Scoring is the engine's own (`ra_core.engine.scoring.score_epoch`); nothing is recomputed here.
    Enter each player's whole display at the end of each epoch: pharaohs, Niles and monuments
    are kept between epochs (R60), so they usually grow.
    """

    def __init__(self, players: int = 3, rules: Rules | None = None) -> None:
        self.rules = rules or Rules.default(players)
        n = self.rules.players
        self.counts = [[[0] * NUM_KINDS for _ in range(n)] for _ in range(EPOCHS)]
        self.sun_totals = [sum(g) for g in self.rules.sun_groups]
        self.message = ""

    @property
    def players(self) -> int:
        """Return the number of players."""
        return self.rules.players

    def set_count(self, epoch: int, player: int, tile: Tile | str, n: int) -> bool:
        """Set how many `tile`s `player` has at the end of `epoch`; a bad value sets `message`."""
        self.message = ""
        try:
            kind = tile_kind(tile)
            if kind not in SCORED_TILES:
                raise ValueError(f"{kind.label} tiles are not scored")
            epoch = whole_number(epoch, "the epoch", 1, EPOCHS)
            player = whole_number(player, "the player", 0, self.players - 1)
            n = whole_number(n, f"the number of {kind.label} tiles (R1)", 0, FULL_BAG[kind])
        except ValueError as e:
            self.message = f"Not changed: {e}."
            return False
        self.counts[epoch - 1][player][kind] = n
        return True

    def set_sun_total(self, player: int, total: int) -> bool:
        """Set the sum of all `player`'s suns at the end of the game (for R71)."""
        self.message = ""
        try:
            player = whole_number(player, "the player", 0, self.players - 1)
            total = whole_number(total, "a sun total", 0, 200)
        except ValueError as e:
            self.message = f"Not changed: {e}."
            return False
        self.sun_totals[player] = total
        return True

    def scores(self) -> list[Any]:
        """Return the engine's `EpochScore` for each epoch, fame carried from 10 (R13, R69)."""
        fame = [STARTING_FAME] * self.players
        out = []
        for e in range(1, EPOCHS + 1):
            # One "sun" per player worth his total: R71 only adds the values up.
            players = [
                Player((self.sun_totals[i],), (), tuple(self.counts[e - 1][i]), fame[i]) for i in range(self.players)
            ]
            after, score, _ = score_epoch(players, e, self.rules)
            fame = [p.fame for p in after]
            out.append(score)
        return out

    def points(self, epoch: int) -> list[dict[str, int]]:
        """Return each player's points by category in `epoch`, with ``net`` and ``fame``."""
        score = self.scores()[epoch - 1]
        return [
            {**dict(zip(CATEGORIES, b.points, strict=True)), "net": b.net, "fame": b.fame_after} for b in score.players
        ]

    def text(self) -> str:
        """Return the points per epoch and category as plain text."""
        lines = [words.scores_text(self.scores())]
        if self.message:
            lines.append(f"Message: {self.message}")
        return "\n".join(lines)

    def html(self) -> str:
        """Return the points table and the rules quoted (the view shows `message` above it)."""
        return svg.scores_html(self.scores()) + "<h4>The rules</h4>" + _ul(list(SCORING_RULES.values()))


# -- disasters ---------------------------------------------------------------------------------


class DisasterExplorer:
    """Pick a disaster and a display; see what must go and what the player may choose (R50-R55)."""

    def __init__(self, disaster: Tile | str = "unrest", display: dict[str, int] | None = None) -> None:
        self.message = ""
        self.disaster = Tile.UNREST
        self.how_many = 1
        self.display = [0] * NUM_KINDS
        self.set_disaster(disaster)
        start = (
            display
            if display is not None
            else {"art": 1, "writing": 2, "religion": 1, "pharaoh": 3, "flood": 1, "nile": 2, "pyramid": 2, "temple": 1}
        )
        for name, n in start.items():
            self.set_count(name, n)

    def set_disaster(self, disaster: Tile | str) -> bool:
        """Choose the disaster: funeral, drought, unrest or earthquake."""
        self.message = ""
        try:
            kind = tile_kind(disaster)
        except ValueError as e:
            self.message = f"Not changed: {e}."
            return False
        if kind not in DISASTERS:
            self.message = (
                f"Not changed: {kind.label} is not a disaster; pick one of {', '.join(t.label for t in DISASTERS)}."
            )
            return False
        self.disaster = kind
        self.how_many = min(self.how_many, FULL_BAG[kind])  # 4 unrest tiles exist, 2 of each other kind
        return True

    def set_how_many(self, n: int) -> bool:
        """Set how many of this disaster the player takes at once (1 or 2; R54)."""
        self.message = ""
        limit = FULL_BAG[self.disaster]
        try:
            n = whole_number(n, f"how many {self.disaster.label} tiles ({limit} exist)", 1, limit)
        except ValueError as e:
            self.message = f"Not changed: {e}."
            return False
        self.how_many = n
        return True

    def set_count(self, tile: Tile | str, n: int) -> bool:
        """Set how many `tile`s the display holds."""
        self.message = ""
        try:
            kind = tile_kind(tile)
            if kind is Tile.RA or kind.is_disaster:
                raise ValueError(f"{kind.label} tiles are never in a display")
            n = whole_number(n, f"the number of {kind.label} tiles (R1)", 0, FULL_BAG[kind])
        except ValueError as e:
            self.message = f"Not changed: {e}."
            return False
        self.display[kind] = n
        return True

    def targets(self) -> tuple[Tile, ...]:
        """Return the tile kinds this disaster destroys (R51)."""
        return DISASTER_TARGETS[self.disaster]

    def outcome(self) -> dict[str, Any]:
        """Return what happens: ``forced`` (tiles lost without choice), ``owed`` and ``options``."""
        after, boxed, owed = resolve(self.display, [self.disaster] * self.how_many)
        forced = [self.display[t] - after[t] for t in range(NUM_KINDS)]
        options: list[tuple[Tile, ...]] = []
        if owed:
            kind, n = owed[0]
            options = discard_options(after, kind, n)
        return {"forced": forced, "owed": owed, "options": options, "after": after}

    def lines(self) -> list[str]:
        """Return the outcome in plain sentences."""
        d, k = self.disaster, self.how_many
        kinds = self.targets()
        have = [tile_words(t, self.display[t]) for t in kinds if self.display[t]]
        total = sum(self.display[t] for t in kinds)
        what = tile_words(d, k) if k > 1 else tile_words(d)
        lines = [
            f"{what[0].upper()}{what[1:]} {'take' if k > 1 else 'takes'} {2 * k} tiles from: "
            f"{join([words.tile_name(t) for t in kinds])}.",
            f"The player has {join(have) or 'none of them'} ({total} in all).",
        ]
        out = self.outcome()
        forced = [tile_words(t, out["forced"][t]) for t in kinds if out["forced"][t]]
        if not out["owed"]:
            if forced:
                lines.append(f"No choice: {join(forced)} must go.")
            else:
                lines.append("Nothing to lose: the disaster tile just goes to the box.")
        else:
            kind, n = out["owed"][0]
            options = out["options"]
            lines.append(f"The player chooses which {n} to lose ({len(options)} ways):")
            for o in options:
                lines.append("  lose " + join(tiles_words(o)))
        return lines

    def text(self) -> str:
        """Return the outcome as plain text."""
        lines = self.lines()
        if self.message:
            lines.append(f"Message: {self.message}")
        return "\n".join(lines)

    def tiles_svg(self, width: int = 0) -> str:
        """Return the tiles this disaster can take, with their counts, as one SVG picture at least `width` wide."""
        kinds = self.targets()
        tiles = "".join(
            svg.tile_svg(t, 4 + 46 * i, 4, 40)
            + svg.svg_text(24 + 46 * i, 60, f"\u00d7{self.display[t]}", 13, ink="currentColor")
            for i, t in enumerate(kinds)
        )
        width = max(width, 46 * len(kinds) + 10)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="66" viewBox="0 0 {width} 66" '
            f'font-family="sans-serif" role="group" aria-label="the tiles this disaster can take">{tiles}</svg>'
        )

    def html(self) -> str:
        """Return the outcome, the display as tiles, and the rules quoted (the view shows `message` above it)."""
        return self.tiles_svg() + _ul(self.lines()) + "<h4>The rules</h4>" + _ul(DISASTER_RULES)
