"""The one judge of a click on a seat's board: the notebook's game table and the classroom's Ra tables ask it.

Standard library only. The board (`ra_core.pictures.svg.svg` or `ra_core.pictures.portrait`
with `Controls`) marks each piece that stands for one of the deciding seat's legal actions with
that action's text (``data-action="bid 9"``), and the pieces that only prepare one with a step
(``data-ui="god"``, ``data-ui="pick art"``). A front end sends back what was clicked and the
version of the board it was clicked on. That message is read once, at the edge (`read_click`):
a move's text is parsed there into an `Action`. `judge` then decides what the click does,
making each check once, in this order:

1. the board's version: a click on an earlier board is refused;
2. the scores shown over the board (the notebook's table shows an epoch's): only closing them
   takes a click;
3. whose turn it is: one of the clicker's seats must decide now, and the table must take
   moves (a paused game or a closed round does not: the table says why, as `closed`);
4. a move's legality: it must be one of the legal actions, and the engine's own action object
   is handed on, which `State.apply` finds by identity; a step must make sense now (a god to
   use, a tile that may be lost).

The `Answer` says what happened: a move to play, a step of a choice taken, or nothing, and why,
in the words the player reads. A choice in progress has one shape, `Selection` (the god tile
chosen, the tiles picked to lose), which the table keeps between clicks: a god is used in two
clicks (the god tile, then a slot), a disaster's losses in several (each tile, then Confirm), so
that a stray click never costs a tile.

>>> from ra_core import new_game
>>> s = new_game(3, seed=1)
>>> judge(s, read_click({"ui": "god", "version": 0}), version=0, seats={s.to_move})
Answer(kind='refused', text='You have no god to use now. Click the bag to draw a tile, or the Ra statue to call Ra.')
>>> answer = judge(s, read_click({"action": "ra", "version": 0}), version=0, seats={s.to_move})
>>> answer, answer.action is s.legal_actions()[1]
(Answer(kind='played', text='ra'), True)
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Collection, Mapping, Sequence
from typing import Literal, NamedTuple

from ..engine.actions import Action, Reveal, UseGod, parse_action
from ..engine.errors import InvalidActionError
from ..engine.state import State
from ..engine.tiles import Tile
from ..pictures.controls import Controls
from ..pictures.words import player_name, tile_name

__all__ = ["Answer", "Click", "Selection", "controls", "judge", "read_click"]

_LONGEST = 200  # characters of a text a click may carry: what a piece's text can be, with room to spare


@dataclasses.dataclass(frozen=True)
class Selection:
    """A choice in progress on one seat's board, kept between clicks.

    Attributes:
        god: whether the seat's god tile is chosen (the next click on a slot takes that tile, R26).
        picked: the tiles picked so far to lose to a disaster (R53), in tile order.
    """

    god: bool = False
    picked: tuple[Tile, ...] = ()


class Click(NamedTuple):
    """A click as the edge read it (`read_click`): at most one of a move, a step, or what a stray click hit.

    Attributes:
        version: the version of the board it was made on; None for a move typed in a cell (not checked).
        move: the move's text as sent ("" if the click was no move).
        action: the move parsed, or None if the text is no action's notation.
        ui: the step of a choice (``god``, ``pick TILE``, ``unpick TILE``, ``clear``, ``dismiss``).
        label: what was clicked, in words, if it was no piece of the controls (a stray click).
        sun: the number of the sun a stray click hit (its piece's ``data-sun``), else None: a
            refusal says why that sun is no choice from the number, never from the label's words.
    """

    version: int | None
    move: str = ""
    action: Action | None = None
    ui: str = ""
    label: str = ""
    sun: int | None = None


def read_click(message: Mapping[str, object], *, versioned: bool = True) -> Click:
    """Return the click in a front end's `message` (``action`` or ``ui`` or ``label``, and ``version``).

    A stray click on a sun also names the sun (``sun``, the number its piece carries).
    The message comes from outside and is read once, here: texts are cut to 200 characters and
    anything of the wrong type is dropped (a sun must be an integer from 1 to 99); a move's text is
    parsed into an `Action`. A message
    from a board must name the board's version: one that is no integer becomes -1, which no board
    has (the click is refused as one on an earlier board). ``versioned=False`` reads a move typed
    in a cell, whose version is not checked.
    """

    def text(key: str) -> str:
        value = message.get(key)
        return value[:_LONGEST] if isinstance(value, str) else ""

    version = message.get("version")
    checked = (version if type(version) is int else -1) if versioned else None
    move = text("action")
    action = None
    if move:
        with contextlib.suppress(InvalidActionError):  # no action's notation: refused as not legal, by its text
            action = parse_action(move)
    sun = message.get("sun")
    return Click(checked, move, action, text("ui"), text("label"), sun if type(sun) is int and 0 < sun < 100 else None)


@dataclasses.dataclass(frozen=True)
class Answer:
    """What a click did: ``played`` a move, took a ``step`` of a choice, or was ``refused``.

    An answer is true unless the click was refused.

    Attributes:
        kind: ``"played"``, ``"step"`` or ``"refused"``.
        text: the move played (its notation, ``"bid 9"``), the step taken (``"pick art"``), or
            why nothing changed and where to click instead.
        action: the move to play: the engine's own legal action (None unless played).
        selection: the choice in progress after the click (none after a move).
        board: what the clicker may click on the board as judged (`controls`), the choice after
            the click included: the board to draw again after a step or a refusal (a move
            changes the position).
    """

    kind: Literal["played", "step", "refused"]
    text: str
    action: Action | None = dataclasses.field(default=None, repr=False, compare=False)
    selection: Selection = dataclasses.field(default=Selection(), repr=False, compare=False)
    board: Controls = dataclasses.field(default=Controls(()), repr=False, compare=False)

    def __bool__(self) -> bool:
        return self.kind != "refused"


def controls(
    state: State,
    seats: Collection[int],
    selection: Selection = Selection(),
    *,
    closed: str = "",
    scores_shown: bool = False,
    last: tuple[int, str] | None = None,
    legal: Sequence[Action] | None = None,
) -> Controls:
    """Return what the clicker may click now: his legal actions if one of his `seats` decides, and his choice so far.

    He has no legal action to click when the table takes no move (`closed` says why), while
    scores cover the board, or when none of his seats is to move. `last` is another player's
    last move, which the board marks. `legal`: the position's legal actions, if the caller has
    them already (a table that draws several seats' boards of one position asks the engine once).
    """
    yours = not closed and not scores_shown and state.to_move in seats  # a seat: never chance, never the end
    if not yours:
        return Controls((), selection.god, selection.picked, last)
    return Controls(tuple(state.legal_actions() if legal is None else legal), selection.god, selection.picked, last)


def judge(
    state: State,
    click: Click,
    *,
    version: int,
    seats: Collection[int],
    names: Sequence[str] = (),
    selection: Selection = Selection(),
    closed: str = "",
    scores_shown: bool = False,
    last: tuple[int, str] | None = None,
    board: Controls | None = None,
) -> Answer:
    """Judge a `click` on the board of `state`, whose version is `version`; say what it does.

    Args:
        state: the position on the board.
        click: the click, as `read_click` read it.
        version: the board's version now (the table's; each change of its position bumps it).
        seats: the clicker's seats (one in a classroom; a notebook may seat several humans).
        names: a name per seat, for saying who decides instead.
        selection: the clicker's choice in progress.
        closed: why the table takes no move now (a paused game, a closed round), or "".
        scores_shown: whether an epoch's scores cover the board (then only ``dismiss`` is taken).
        last: another player's last move, which the board marks (see `Controls`).
        board: the board as drawn, if the table kept it: `controls` of these same facts, which
            say whose turn it is; else they are worked out here.
    """
    if board is None:
        board = controls(state, seats, selection, closed=closed, scores_shown=scores_shown, last=last)
    if click.version is not None and click.version != version:
        return _refused("That click was on an earlier board; nothing changed. Look again and choose.", board)
    if scores_shown:
        if click.ui == "dismiss":
            return Answer("step", click.ui, selection=selection, board=board)
        again = "Close." if state.is_terminal() else "Continue."
        return _refused(f"First close the scores over the board: click {again}", board)
    if not board.actions:
        return _refused(closed or _not_yours(state, seats, names), board)
    if click.move:
        chosen = next((a for a in board.actions if a == click.action), None) if click.action is not None else None
        if chosen is None:
            legal = ", ".join(map(str, board.actions))
            if type(click.action) is Reveal:  # the tiles follow the game's seed: no click draws one
                why = f"The bag draws the tiles (the game's seed decides which), not a click. Your choices: {legal}."
            else:
                bid = click.move.startswith("bid ") and _sun(click.move[4:])
                reason = _why_not_sun(state, int(click.move[4:]), names) if bid else ""
                why = f"Not legal now: {_shown(click.move)}{f' ({reason})' if reason else ''}. Your choices: {legal}."
            return _refused(why, board)
        return Answer("played", str(chosen), chosen, Selection(), board)
    after = _step(board, selection, click.ui)
    if after is None:
        return _refused(_refusal(state, board, click, names), board)
    return Answer("step", click.ui, selection=after, board=board._replace(god=after.god, picked=after.picked))


def _step(board: Controls, sel: Selection, ui: str) -> Selection | None:
    """Return the choice in progress after the step `ui`, or None if the step makes no sense now."""
    step, _, arg = ui.partition(" ")
    tile = _tile(arg)
    if step == "god" and any(type(a) is UseGod for a in board.actions):
        return Selection(not sel.god, sel.picked)
    if step == "clear" and sel.picked:
        return Selection(sel.god, ())
    if step == "pick" and tile is not None and board.can_pick(tile):
        return Selection(sel.god, tuple(sorted((*sel.picked, tile))))
    if step == "unpick" and tile is not None and tile in sel.picked:
        rest = list(sel.picked)
        rest.remove(tile)
        return Selection(sel.god, tuple(rest))
    return None


def _refused(why: str, board: Controls) -> Answer:
    """Return the refusal `why`: the choice in progress and the board stay as they were."""
    return Answer("refused", why, None, Selection(board.god, board.picked), board)


def _not_yours(state: State, seats: Collection[int], names: Sequence[str]) -> str:
    """Return why none of the clicker's seats decides now: the game is over, or another seat or chance decides."""
    if state.is_terminal():
        return "The game is over: no more moves."
    if state.to_move >= 0:
        return f"Not your turn: {player_name(state.to_move, seats, names)} is to move."
    return "Not your turn: a tile is being drawn from the bag (the game's seed decides which)."


def _refusal(state: State, board: Controls, click: Click, names: Sequence[str]) -> str:
    """Return why a step (or a stray click) did nothing, and where to click instead.

    A click on a sun that is no choice says why it is none (below the high bid, face down,
    another player's, no auction running), not only what to do instead.
    """
    where = board.hint()
    step, _, arg = click.ui.partition(" ")
    tile = _tile(arg)
    if step == "god":
        return f"You have no god to use now. {where}"
    if step == "pick" and tile is not None:
        return f"{tile_name(tile).capitalize()} is not among the tiles you may lose now. {where}"
    if step or not (click.label or click.sun):
        return f"Nothing to do there now. {where}"
    shown = _shown(click.label or f"sun {click.sun}")
    if click.sun is not None:  # the number the sun's piece carries: the label is only words to show
        return f"{shown}: {_why_not_sun(state, click.sun, names)}. {where}"
    return f"{shown}: nothing to do there now. {where}"


def _sun(text: str) -> bool:
    return text.isdigit() and len(text) <= 2


def _why_not_sun(state: State, sun: int, names: Sequence[str]) -> str:
    """Return why bidding `sun` is no choice now for the player who decides (the suns' numbers are unique)."""
    if sun == state.center_sun:
        return f"sun {sun} is the center sun: the auction's winner takes it, nobody bids it"
    mover = state.to_move
    holder = next((i for i, p in enumerate(state.players) if sun in p.suns_up or sun in p.suns_down), None)
    if holder is None:
        return f"there is no sun {sun} in this game"
    if holder != mover:
        return f"sun {sun} is {player_name(holder, (), names)}'s, not yours"
    if sun in state.players[mover].suns_down:
        return f"sun {sun} is face down: it came to you in an auction this epoch, and you bid it from the next epoch"
    auction = state.auction
    if auction is None:
        return "a sun is bid only in an auction, and none is running: call Ra or draw a Ra tile to start one"
    if auction.high_bid > sun:
        return f"sun {sun} is below the high bid of {auction.high_bid}: a bid must beat it"
    return f"sun {sun} is no bid of yours now"


def _shown(text: str) -> str:
    """Return `text` as a message shows it: cut short if long."""
    return text if len(text) <= 40 else text[:37] + "..."


def _tile(text: str) -> Tile | None:
    try:
        return Tile.from_label(text) if text else None
    except ValueError:
        return None
