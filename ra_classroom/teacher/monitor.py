"""The control room's live panel (ipywidgets): who joined, who has bid, the tables, a button to close the round.

The panel is a thin view: `monitor_html` draws a status (the API's ``GET /api/rooms/{code}``) as
HTML, every name escaped, and a thread refreshes it every second or so. Tests call
`monitor_html` directly, and `Monitor.refresh` and the close button without a browser.
"""

from __future__ import annotations

import html
import threading
from typing import TYPE_CHECKING, Any

from ..auctions.experiments import KINDS

if TYPE_CHECKING:
    from .control import ControlRoom

__all__ = ["Monitor", "monitor_html"]


def _names(names: list[str]) -> str:
    return ", ".join(html.escape(n) for n in names) or "nobody"


def monitor_html(status: dict[str, Any]) -> str:
    """Return the room's status as an HTML fragment (names escaped)."""
    people = status["students"]
    here = [p["name"] for p in people if p["present"]]
    away = [p["name"] for p in people if not p["present"]]
    out = [f"<p><b>Room {html.escape(status['room'])}</b>: {len(people)} joined, {len(here)} here</p>"]
    out.append(f"<p>Here: {_names(here)}</p>")
    if away:
        out.append(f"<p>Away: {_names(away)}</p>")
    r = status["round"]
    if r is None:
        out.append("<p>No round yet.</p>")
        return "".join(out)
    closes = f", closes in {r['closes_in']:.0f} s" if r.get("closes_in") is not None else ""
    out.append(
        f"<p><b>Round {r['number']}</b>: {html.escape(KINDS[r['kind']])} ({html.escape(r['status'])}{closes})</p>"
    )
    if "bid" in r:
        out.append(f"<p>Have bid ({len(r['bid'])}): {_names(r['bid'])}</p>")
        out.append(f"<p>Waiting for ({len(r['waiting'])}): {_names(r['waiting'])}</p>")
        if r["sitting_out"]:
            out.append(f"<p>Sitting out: {_names(r['sitting_out'])}</p>")
    for t in status["tables"]:
        seats = ", ".join(f"{html.escape(n)} ({f})" for n, f in zip(t["seats"], t["fame"], strict=True))
        over = ", game over" if t["over"] else ""
        out.append(f"<p>Table {t['table']}: {t['moves']} moves{over}. Fame: {seats}</p>")
    return "".join(out)


class Monitor:
    """The live panel of a control room.

    Args:
        room: the control room.
        every: seconds between two refreshes.
    """

    def __init__(self, room: ControlRoom, every: float = 1.0) -> None:
        import ipywidgets as widgets

        self.room, self.every = room, every
        self.html = widgets.HTML(monitor_html(room.status()))
        self.message = widgets.Label("")
        self.close = widgets.Button(description="Close the round", button_style="warning")
        self.close.on_click(self._close)
        self.widget = widgets.VBox([self.html, widgets.HBox([self.close, self.message])])
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ra-classroom-monitor", daemon=True)
        self._thread.start()

    def refresh(self) -> None:
        """Redraw the panel from the server's status now."""
        self.html.value = monitor_html(self.room.status())

    def _close(self, _button: Any = None) -> None:
        try:
            info = self.room.close_round()
            self.message.value = f"Round closed (id {info['round']})."
        except Exception as e:  # noqa: BLE001 - the panel says why, and changes nothing
            self.message.value = str(e)
        self.refresh()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.refresh()
            except Exception:  # noqa: BLE001, S112 - the server may be restarting; try again next time
                continue

    def stop(self) -> None:
        """Stop refreshing."""
        self._stop.set()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
