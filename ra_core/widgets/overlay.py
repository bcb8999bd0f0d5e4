"""The scores over the board: each epoch's scoring, and the final screen, until the player closes them.

Standard library only; SVG drawn with the board's pieces, so that the table keeps one renderer
and the scores are read by screen readers like the rest of the board (each row is labelled).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape

from ..engine.records import Phase
from ..engine.scoring import winner
from ..engine.state import State
from ..pictures.clickable import button_svg, frame, target
from ..pictures.pieces import text_element
from ..pictures.words import CATEGORY_NAMES, player_name, signed

__all__ = ["CARD", "ranking", "scores_overlay", "tie_break_words"]

#: The card's width (the board is 760 wide) and the columns of its table: the player, the seven
#: categories (R63-R71), the net points and the fame after, each wide enough for its head.
CARD = 744
#: The columns: the player, the seven categories (R63-R71), the epoch's net points and the fame after.
_COLUMNS = (
    ("player", 136),
    *zip(CATEGORY_NAMES, (44, 70, 108, 92, 42, 84, 44), strict=True),
    ("net", 40),
    ("fame", 44),
)


def tie_break_words(s: State, names: Sequence[str] = (), you: Collection[int] = ()) -> str:
    """Return how the winner was decided when several players end on the top fame (R73), else ""."""
    if s.phase is not Phase.GAME_OVER:
        return ""
    top = max(p.fame for p in s.players)
    tied = [i for i, p in enumerate(s.players) if p.fame == top]
    w = s.winner()
    if len(tied) < 2 or w is None:
        return ""
    who = ", ".join(player_name(i, you, names) for i in tied)
    if s.rules.tie_break == "highest_sun":
        why = f"the highest sun, {max(s.players[w].suns)}"
    else:
        why = f"the highest sum of suns, {sum(s.players[w].suns)}"
    return f"{who} tie on {top} fame; {player_name(w, you, names)} wins with {why} (R73)."


def ranking(s: State) -> list[int]:
    """Return the seats from first to last: by fame, ties broken as the engine breaks them for the winner (R73)."""
    seats = list(range(len(s.players)))
    order = []
    while seats:
        best = seats[winner([s.players[q] for q in seats], s.rules)]
        order.append(best)
        seats.remove(best)
    return order


def _place(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def scores_overlay(s: State, names: Sequence[str] = (), you: Collection[int] = (), width: int = 760) -> str:
    """Return the last scored epoch's breakdown as SVG over the board; after epoch 3, the final screen.

    The final screen ranks the players (R73 breaks ties), with each epoch's points and the fame
    after it, then the whole game's points by category. The Continue (or Close) button,
    ``data-ui="dismiss"``, closes it; nothing else on the board takes a click while it is shown.
    """
    over = s.phase is Phase.GAME_OVER
    rows = len(s.players)
    table = 26 * (rows + 1)
    height = 76 + table + (36 + table if over else 0) + 40
    x0, y0 = (width - CARD) / 2, 40
    if over:
        w = s.winner() or 0
        title = f"Game over: {player_name(w, you, names)} wins with {s.players[w].fame} fame"
    else:
        title = f"Epoch {s.scores[-1].epoch} is scored"
    out = [
        f'<g class="ra-overlay" role="dialog" aria-label="{escape(title)}">',
        f'<rect class="ra-veil" x="0" y="0" width="{width}" height="100%" fill="#ffffff" opacity="0.75"/>',
        f'<rect class="ra-card ra-strong" x="{x0:.1f}" y="{y0}" width="{CARD}" height="{height}" rx="10" '
        'fill="#fdfaf3" stroke="#000" stroke-width="2"/>',
        text_element(x0 + 16, y0 + 30, title, 18, "bold"),
    ]
    y = y0 + 52
    if over:
        tie = tie_break_words(s, names, you)
        start = s.scores[0].players[0].fame_before
        intro = f"Everyone starts with {start} fame; each epoch adds its net points (net \u2192 fame after)."
        out.append(text_element(x0 + 16, y, tie or intro, 13))
        out += _ranking_rows(s, names, you, x0 + 16, y + 30)
        y += 30 + table + 6
        out.append(text_element(x0 + 16, y, f"The whole game by category (epochs 1 to 3 added up): {_fame_sum(s)}", 13))
        out += _category_rows(s, names, you, x0 + 16, y + 30, whole=True)
    else:
        epoch = s.scores[-1].epoch
        out.append(text_element(x0 + 16, y, f"Points of epoch {epoch} by category, and fame after it:", 13))
        out += _category_rows(s, names, you, x0 + 16, y + 30, whole=False)
    word, label = ("Close", "Close the final scores") if over else ("Continue", "Continue: close the scores")
    bx, by = x0 + CARD - 116, y0 + height - 40
    out.append(target(button_svg(bx, by, 100, word, "#F0E442"), label, ui="dismiss", mark=frame(bx, by, 100, 26)))
    out.append("</g>")
    return "".join(out)


def _fame_sum(s: State) -> str:
    """Return how the final fame follows from the net points: ``"fame = 10 + net."`` (R13), or say the floor (R69)."""
    start = s.scores[0].players[0].fame_before
    nets = [sum(e.players[i].net for e in s.scores) for i in range(len(s.players))]
    if all(p.fame == start + net for p, net in zip(s.players, nets, strict=True)):
        return f"fame = {start} + net."
    return f"fame = {start} + net, but never below 0 (R69)."


def _ranking_rows(s: State, names: Sequence[str], you: Collection[int], x: float, y: float) -> list[str]:
    """Return the final ranking: place, player, each epoch's net points and fame after it, final fame."""
    columns = (("place", 44), ("player", 170), *((f"epoch {e}", 130) for e in (1, 2, 3)), ("fame", 70))
    out, right = [], x
    for name, w in columns:
        right += w
        out.append(
            text_element(
                right - 4 if name != "player" else right - w + 8,
                y,
                name,
                12,
                "bold",
                "end" if name != "player" else "start",
            )
        )
    for k, seat in enumerate(ranking(s), 1):
        y += 26
        who = player_name(seat, you, names)
        epochs = [f"{signed(e.players[seat].net)} \u2192 {e.players[seat].fame_after}" for e in s.scores]
        label = f"{_place(k)}: {who}, " + ", ".join(
            f"epoch {e.epoch} {text}" for e, text in zip(s.scores, epochs, strict=True)
        )
        label += f", fame {s.players[seat].fame}"
        out.append(f'<g role="group" aria-label="{escape(label)}">')  # a row of a drawn table
        out.append(text_element(x + 40, y, _place(k), 13, "bold", "end"))
        out.append(text_element(x + 52, y, who, 13, "bold"))
        right = x + 44 + 170
        for text in epochs:
            right += 130
            out.append(text_element(right - 4, y, text, 13, anchor="end"))
        out.append(text_element(right + 70 - 4, y, str(s.players[seat].fame), 13, "bold", "end"))
        out.append("</g>")
    return out


def _category_rows(
    s: State, names: Sequence[str], you: Collection[int], x: float, y: float, *, whole: bool
) -> list[str]:
    """Return the points by category per player: of the last epoch, or (`whole`) of the whole game added up."""
    out = []
    right = x
    for name, w_col in _COLUMNS:
        out.append(
            text_element(
                right if name == "player" else right + w_col - 4,
                y,
                name,
                12,
                "bold",
                "start" if name == "player" else "end",
            )
        )
        right += w_col
    for i in range(len(s.players)):
        y += 26
        parts = [e.players[i] for e in (s.scores if whole else s.scores[-1:])]
        points = [sum(b.points[c] for b in parts) for c in range(7)]
        net = sum(b.net for b in parts)
        who = player_name(i, you, names)
        values = [signed(v) for v in points] + [signed(net), str(parts[-1].fame_after)]
        label = f"{who}: " + ", ".join(f"{n} {v}" for (n, _), v in zip(_COLUMNS[1:], values, strict=True))
        out.append(f'<g role="group" aria-label="{escape(label)}">')  # a row of a drawn table
        out.append(text_element(x, y, who, 13, "bold"))
        right = x + _COLUMNS[0][1]
        for (name, w_col), v in zip(_COLUMNS[1:], values, strict=True):
            out.append(
                text_element(right + w_col - 4, y, v, 13, "bold" if name in ("net", "fame") else "normal", "end")
            )
            right += w_col
        out.append("</g>")
    return out
