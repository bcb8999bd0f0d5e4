"""The scores over the board: each epoch's scoring, and the final screen, until the player closes them.

Standard library only; SVG drawn with the board's pieces, so that the table keeps one renderer
and the scores are read by screen readers like the rest of the board (each row is labelled).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape

from ..engine.records import Phase
from ..engine.state import State
from ..pictures.pieces import button_svg, target, text_element
from ..pictures.words import CATEGORY_NAMES, player_name, signed

__all__ = ["scores_overlay", "tie_break_words"]

#: The columns: the player, the seven categories (R63-R71), the epoch's net points and the fame after.
_COLUMNS = (
    ("player", 118),
    *zip(CATEGORY_NAMES, (48, 68, 104, 90, 40, 80, 40), strict=True),
    ("net", 44),
    ("fame", 50),
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


def scores_overlay(s: State, names: Sequence[str] = (), you: Collection[int] = (), width: int = 760) -> str:
    """Return the last scored epoch's breakdown (and, after epoch 3, the winner) as SVG over the board.

    The Continue button (``data-ui="dismiss"``) closes it; nothing else on the board takes a
    click while it is shown.
    """
    score = s.scores[-1]
    over = s.phase is Phase.GAME_OVER
    rows = len(score.players)
    height = 150 + 26 * rows
    x0, y0 = (width - 720) / 2, 40
    if over:
        w = s.winner()
        title = f"Game over: {player_name(w or 0, you, names)} wins with {s.players[w or 0].fame} fame"
    else:
        title = f"Epoch {score.epoch} is scored"
    out = [
        f'<g class="ra-overlay" role="dialog" aria-label="{escape(title)}">',
        f'<rect class="ra-veil" x="0" y="0" width="{width}" height="100%" fill="#ffffff" opacity="0.75"/>',
        f'<rect class="ra-card ra-strong" x="{x0:.1f}" y="{y0}" width="720" height="{height}" rx="10" fill="#fdfaf3" '
        'stroke="#000" stroke-width="2"/>',
        text_element(x0 + 16, y0 + 30, title, 18, "bold"),
    ]
    tie = tie_break_words(s, names, you)
    out.append(
        text_element(x0 + 16, y0 + 52, tie or f"Points of epoch {score.epoch} by category, and fame after it:", 13)
    )
    y = y0 + 82
    x = x0 + 16
    for name, w_col in _COLUMNS:
        out.append(
            text_element(
                x if name == "player" else x + w_col - 4, y, name, 12, "bold", "start" if name == "player" else "end"
            )
        )
        x += w_col
    for i, b in enumerate(score.players):
        y += 26
        who = player_name(i, you, names)
        values = [signed(v) for v in b[:7]] + [signed(b.net), str(b.fame_after)]
        label = f"{who}: " + ", ".join(f"{n} {v}" for (n, _), v in zip(_COLUMNS[1:], values, strict=True))
        out.append(f'<g role="row" aria-label="{escape(label)}">')
        x = x0 + 16
        out.append(text_element(x, y, who, 13, "bold"))
        x += _COLUMNS[0][1]
        for (name, w_col), v in zip(_COLUMNS[1:], values, strict=True):
            out.append(text_element(x + w_col - 4, y, v, 13, "bold" if name in ("net", "fame") else "normal", "end"))
            x += w_col
        out.append("</g>")
    word, label = ("Close", "Close the final scores") if over else ("Continue", "Continue: close the scores")
    out.append(target(button_svg(x0 + 720 - 116, y0 + height - 40, 100, word, "#F0E442"), label, ui="dismiss"))
    out.append("</g>")
    return "".join(out)
