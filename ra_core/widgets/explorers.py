"""Explorers for the teaching notebooks: replay a game, explore an auction, score, disasters.

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

from .. import render
from ..actions import parse_action
from ..disasters import discard_options, resolve
from ..errors import InvalidStateError
from ..narrate import join, narrate, tile_words, tiles_words
from ..play import GameRecord
from ..rules import EPOCHS, STARTING_FAME, Rules
from ..scoring import CATEGORIES, score_epoch
from ..state import Phase, Player, State
from ..tiles import CIVILIZATIONS, DISASTER_TARGETS, DISASTERS, FULL_BAG, MONUMENTS, NUM_KINDS, Tile
from ..valuation import lot_values
from .inputs import describe_value, tile_kind, whole_number

__all__ = [
    "DISASTER_RULES",
    "SCORING_RULES",
    "AuctionExplorer",
    "DisasterExplorer",
    "ReplayController",
    "ScoringCalculator",
]


def _ul(lines: Sequence[str]) -> str:
    return "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in lines) + "</ul>"


# -- replay ------------------------------------------------------------------------------------


class ReplayController:
    """Step through a game record: first, back, forward, last, or any step.

    Args:
        record: a `GameRecord`, its JSON text, or anything with a ``record()`` method
            (a `PlayController`).
    """

    def __init__(self, record: GameRecord | str | Any) -> None:
        self.message = ""
        empty = _empty_start()
        self.states: list[State] = [empty]
        self.record = GameRecord(empty.rules, tuple(p.suns_up for p in empty.players))
        self.index = 0
        if not self.load(record):
            self.message = f"Could not read that record: {self.message}"

    def load(self, record: GameRecord | str | Any) -> bool:
        """Load a record (or its JSON); a malformed one sets `message` and changes nothing."""
        try:
            if isinstance(record, (str, bytes, bytearray)):
                record = GameRecord.from_json(record)
            elif isinstance(record, dict):
                record = GameRecord.from_dict(record)
            elif not isinstance(record, GameRecord) and hasattr(record, "record"):
                record = record.record()
            if not isinstance(record, GameRecord):
                raise InvalidStateError("record", f"expected a GameRecord or its JSON, got {type(record).__name__}")
            states = list(record.states())
        except ValueError as e:
            self.message = str(e)[:300]
            return False
        self.record, self.states, self.index, self.message = record, states, 0, ""
        return True

    @property
    def last(self) -> int:
        """Return the index of the final position (the number of actions)."""
        return len(self.states) - 1

    @property
    def state(self) -> State:
        """Return the position shown."""
        return self.states[self.index]

    def go(self, index: int) -> bool:
        """Show position `index` (clamped to 0..last); anything but a whole number sets `message`."""
        self.message = ""
        try:
            index = whole_number(index, "the step", -(2**63), 2**63)
        except ValueError as e:
            self.message = f"Not changed: {e}."
            return False
        self.index = max(0, min(self.last, index))
        return True

    def first(self) -> None:
        """Show the start."""
        self.go(0)

    def back(self) -> None:
        """Show the position one action earlier."""
        self.go(self.index - 1)

    def forward(self) -> None:
        """Show the position one action later."""
        self.go(self.index + 1)

    def end(self) -> None:
        """Show the final position."""
        self.go(self.last)

    def decision(self) -> str:
        """Return the decision taken at the position shown: who, the options, the choice."""
        s, i = self.state, self.index
        head = f"Step {i} of {self.last}."
        if i == self.last:
            return head + (" The game is over." if s.is_terminal() else " The end of the record.")
        action = self.record.actions[i]
        after = self.states[i + 1]
        if s.is_chance_node():
            tile = parse_action(action).tile  # type: ignore[union-attr]
            total = sum(s.bag)
            odds = f"{s.bag[tile]} of {total} tiles"
            told = narrate(s, action, after, names=self.record.names)
            return f"{head} Chance: a tile comes out of the bag; it is {render.tile_name(tile)} ({odds}). {told}"
        options = ", ".join(str(a) for a in s.legal_actions())
        told = narrate(s, action, after, names=self.record.names)
        return f"{head} P{s.to_move} decides among: {options}. Chosen: {action}. {told}"

    def board_html(self) -> str:
        """Return the board at the position shown."""
        return render.html(self.state, names=self.record.names)

    def text(self) -> str:
        """Return the position and the decision as plain text."""
        lines = render.facts(self.state, names=self.record.names) + [self.decision()]
        if self.message:
            lines.append(f"Message: {self.message}")
        return "\n".join(lines)


def _empty_start() -> State:
    from ..setup import new_game

    return new_game(3, suns="table")


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
            "Worth of the lot in fame (ra_core.valuation): "
            + ", ".join(f"P{q} {v:+d}" for q, v in enumerate(values))
            + "."
        )
        if self.chosen:
            lines.append("Line explored: " + ", ".join(f"{c}" for c in self.chosen) + ".")
        return lines

    def board_html(self) -> str:
        """Return the board at the position explored."""
        return render.html(self.state)

    def text(self) -> str:
        """Return the summary, the position and the options as plain text."""
        lines = self.summary() + render.facts(self.state)
        opts = self.options()
        lines += [f"  {a}: {t}" for a, t in opts] if opts else ["The auction is over."]
        if self.message:
            lines.append(f"Message: {self.message}")
        return "\n".join(lines)


# -- scoring ----------------------------------------------------------------------------------

#: The scoring rules, as the rules of record state them, with the rulebook's words ([HU], translated).
SCORING_RULES: dict[str, str] = {
    "god": "R63 Gods: +2 per god tile. Rulebook: \u201cevery god: 2 points\u201d.",
    "pharaoh": "R64 Pharaohs: all tied for the most pharaohs get +5, all tied for the fewest get \u22122; if all "
    "have the same number, nobody scores. Rulebook: \u201cwhoever has the most pharaohs gets 5 points; whoever has "
    "the fewest loses 2 points\u201d.",
    "river": "R65 Nile and floods: with at least one flood, +1 per Nile and +1 per flood; with no flood, 0. "
    "Rulebook: \u201cevery Nile and flood: 1 point, if there is at least one flood!\u201d",
    "civilization": "R66 Civilizations: none at all \u22125; 1 or 2 kinds 0; 3 kinds +5, 4 kinds +10, 5 kinds +15. "
    "Rulebook: \u201ca player who has no civilization at the end of the epoch loses 5 points\u201d.",
    "gold": "R67 Gold: +3 per gold tile.",
    "monument": "R68, R70 Monuments, after epoch 3 only: 1\u20136 kinds score 1\u20136, 7 kinds 10, 8 kinds 15; plus "
    "5/10/15 for each kind with 3/4/5 copies. Rulebook: \u201c1-6/7/8 different monuments: 1-6/10/15 points; 3/4/5 "
    "identical monuments: 5/10/15 points\u201d.",
    "sun": "R71 Suns, after epoch 3 only: each player adds up all his suns, face up and down; the highest total "
    "gets +5, the lowest \u22125; if all are equal, nobody scores.",
    "fame": "R69 The epoch's points are added to the fame; a total below 0 becomes 0. Pharaohs, Niles and "
    "monuments are kept from epoch to epoch; gods, gold, floods and civilizations are discarded (R60).",
}

#: The tiles a scoring calculator asks for, in the order of the categories.
SCORED_TILES: tuple[Tile, ...] = (Tile.GOD, Tile.PHARAOH, Tile.NILE, Tile.FLOOD, *CIVILIZATIONS, Tile.GOLD, *MONUMENTS)


class ScoringCalculator:
    """Set tile counts per player and epoch; see each category's points and the fame, epoch by epoch.

    Scoring is the engine's own (`ra_core.scoring.score_epoch`); nothing is recomputed here.
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
            {**dict(zip(CATEGORIES, b[:7], strict=True)), "net": b.net, "fame": b.fame_after} for b in score.players
        ]

    def text(self) -> str:
        """Return the points per epoch and category as plain text."""
        lines = [render.scores_text(self.scores())]
        if self.message:
            lines.append(f"Message: {self.message}")
        return "\n".join(lines)

    def html(self) -> str:
        """Return the points table and the rules quoted (the view shows `message` above it)."""
        return render.scores_html(self.scores()) + "<h4>The rules</h4>" + _ul(list(SCORING_RULES.values()))


# -- disasters ---------------------------------------------------------------------------------

#: The disaster rules of record (R50-R53), with the rulebook's words ([HU], translated).
DISASTER_RULES: tuple[str, ...] = (
    "R50 For each disaster won, the player must discard two tiles of its category; with only one he discards "
    "it, with none nothing happens. Rulebook: \u201cif he can lose two, he must lose two\u201d.",
    "R51 Funeral takes pharaohs; drought floods and Niles; unrest civilizations; earthquake monuments.",
    "R52 Drought takes floods first, and Niles only to make up the two.",
    "R53 With more than two matching tiles the player chooses which two to lose. Rulebook: \u201che may decide "
    "which two to discard. There is one exception: the drought\u201d.",
)


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
            f"{join([render.tile_name(t) for t in kinds])}.",
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

    def html(self) -> str:
        """Return the outcome, the display as tiles, and the rules quoted (the view shows `message` above it)."""
        kinds = self.targets()
        tiles = "".join(
            render.tile_svg(t, 4 + 46 * i, 4, 40) + render.svg_text(24 + 46 * i, 60, f"\u00d7{self.display[t]}", 13)
            for i, t in enumerate(kinds)
        )
        width = 46 * len(kinds) + 10
        pic = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="66" viewBox="0 0 {width} 66" '
            f'font-family="sans-serif" role="group" aria-label="the tiles this disaster can take">{tiles}</svg>'
        )
        return pic + _ul(self.lines()) + "<h4>The rules</h4>" + _ul(DISASTER_RULES)
