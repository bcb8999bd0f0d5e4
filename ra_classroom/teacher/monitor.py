"""The control room's live panel (ipywidgets): the room as it is now, and every control as a button.

The panel is a thin view: `monitor_html` draws a status (the API's ``GET /api/rooms/{code}``) as
HTML, every name escaped, and a thread redraws it every second. Each button calls the control
room's own method (the same call a cell makes) and shows its answer, or the refusal's reason,
in one line. A click is handled at once whenever the kernel is free, and also while a cell awaits
``room.wait()``: only a cell that computes for a long time holds it back. Tests call
`monitor_html` directly, and click the buttons without a browser.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..auctions.experiments import KINDS
from .client import ClassroomError

if TYPE_CHECKING:
    from .control import ControlRoom

__all__ = ["Monitor", "monitor_html"]


def _names(names: list[str]) -> str:
    return ", ".join(html.escape(n) for n in names) or "nobody"


def _round_line(r: dict[str, Any]) -> str:
    """Return the round's headline: its number, kind, state and clock."""
    state = "cancelled" if r["status"] == "void" else "paused" if r.get("paused") else r["status"]
    closes = ""
    if r.get("closes_in") is not None:
        left = f"{r['closes_in']:.0f} s"
        closes = f", {left} left (clock stopped)" if r.get("paused") else f", closes in {left}"
    practice = ", practice" if r.get("practice") else ""
    excluded = ", left out of the results" if r.get("excluded") else ""
    return (
        f"<p><b>Round {r['number']}</b>: {html.escape(KINDS[r['kind']])}{practice} "
        f"(<b>{html.escape(state)}</b>{closes}{excluded})</p>"
    )


def monitor_html(status: dict[str, Any]) -> str:
    """Return the room's status as an HTML fragment (names escaped)."""
    people = [p for p in status["students"] if not p.get("removed")]
    here = [p["name"] for p in people if p["present"]]
    away = [p["name"] for p in people if not p["present"]]
    ended = " The session has ended (opening a round goes on)." if status.get("ended") else ""
    out = [f"<p><b>Room {html.escape(status['room'])}</b>: {len(people)} joined, {len(here)} here.{ended}</p>"]
    out.append(f"<p>Here: {_names(here)}</p>")
    if away:
        out.append(f"<p>Away: {_names(away)}</p>")
    for p in status["students"]:
        if p.get("asking") is not None:
            out.append(
                f'<p style="font-weight:bold">A device asks to be {html.escape(p["name"])} ({p["asking"]} s ago):'
                " if it is really them, choose the name below and click <i>Let in</i>.</p>"
            )
    bots = [p["name"] for p in people if p.get("bot")]
    if bots:
        out.append(f"<p>Bots play for: {_names(bots)} (until you give the seat back)</p>")
    r = status["round"]
    if r is None:
        out.append("<p>No round yet.</p>")
        return "".join(out)
    out.append(_round_line(r))
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
    """The live panel of a control room: the room now, and a button for every control.

    Args:
        room: the control room.
        every: seconds between two refreshes.
    """

    def __init__(self, room: ControlRoom, every: float = 1.0) -> None:
        import ipywidgets as widgets

        self.room, self.every = room, every
        self.html = widgets.HTML("")
        self.message = widgets.Label("")
        # the round now
        self.close = self._button("Close now", "warning", room.close_round)
        self.pause = self._button("Pause", "", room.pause)
        self.resume = self._button("Resume", "", room.resume)
        self.extend = self._button("+30 s", "", lambda: room.extend(30))
        self.cancel = self._button("Cancel round", "danger", room.cancel_round)
        # the next round
        self.kind = widgets.Dropdown(options=[(v, k) for k, v in KINDS.items()], value="first", description="Kind")
        self.size = widgets.BoundedIntText(4, min=2, max=12, description="Group")
        self.seconds = widgets.BoundedIntText(90, min=0, max=3600, description="Seconds")
        self.noise = widgets.BoundedFloatText(10.0, min=0, max=1000, description="Noise")
        self.practice = widgets.Checkbox(False, description="Practice")
        self.open = self._button("Open round", "success", self._open_round)
        # the students
        self.who = widgets.Dropdown(options=[], description="Student")
        self.new_name = widgets.Text(placeholder="new name")
        self.let_in = self._button("Let in", "info", lambda: room.reseat(self._student()))
        self.refuse = self._button("Refuse", "", lambda: room.refuse(self._student()))
        self.remove = self._button("Remove", "danger", lambda: room.remove(self._student()))
        self.bot = self._button("Bot plays", "", lambda: room.bot_plays(self._student()))
        self.back = self._button("Give back", "", lambda: room.give_back(self._student()))
        self.rename = self._button("Rename", "", lambda: room.rename(self._student(), self.new_name.value))
        # the rounds played
        self.played = widgets.Dropdown(options=[], description="Round")
        self.exclude = self._button("Exclude", "", lambda: room.exclude_round(self._round()))
        self.include = self._button("Include", "", lambda: room.exclude_round(self._round(), False))
        box, row = widgets.VBox, widgets.HBox
        self.widget = box([
            self.html,
            row([self.close, self.pause, self.resume, self.extend, self.cancel]),
            row([self.kind, self.size, self.seconds]), row([self.noise, self.practice, self.open]),
            row([self.who, self.let_in, self.refuse, self.remove, self.bot, self.back]),
            row([self.new_name, self.rename, self.played, self.exclude, self.include]),
            self.message,
        ])  # fmt: skip
        self._stop = threading.Event()
        self.refresh()
        self._thread = threading.Thread(target=self._run, name="ra-classroom-monitor", daemon=True)
        self._thread.start()

    def _button(self, label: str, style: str, act: Callable[[], Any]) -> Any:
        import ipywidgets as widgets

        button = widgets.Button(description=label, button_style=style)
        button.on_click(lambda _b: self.act(act))
        return button

    def act(self, control: Callable[[], Any]) -> None:
        """Run one control; show what it says (or why it was refused) in the panel's message line."""
        try:
            said = control()
            self.message.value = str(said) if isinstance(said, str) else "Done."
        except (ClassroomError, ValueError) as e:
            self.message.value = str(e)
        try:
            self.refresh()
        except ClassroomError as e:
            self.message.value = str(e)

    def _student(self) -> str:
        if not self.who.value:
            raise ClassroomError("Choose a student first.")
        return str(self.who.value)

    def _round(self) -> int:
        if self.played.value is None:
            raise ClassroomError("Choose a round first.")
        return int(self.played.value)

    def _open_round(self) -> str:
        kind = str(self.kind.value)
        opened = self.room.open_round(
            kind,
            self.size.value if kind != "ra" else min(5, max(3, self.size.value)),
            seconds=(self.seconds.value or None) if kind != "ra" else None,
            noise=float(self.noise.value) if kind == "common" else 0.0,
            practice=bool(self.practice.value),
        )
        return f"Round {opened['number']} is open. {opened.get('note', '')}".strip()

    def refresh(self) -> None:
        """Redraw the panel from the server's status now."""
        status = self.room.status()
        self.html.value = monitor_html(status)
        names = [p["name"] for p in status["students"] if not p.get("removed")]
        if list(self.who.options) != names:
            keep = self.who.value if self.who.value in names else None
            self.who.options = names
            self.who.value = keep
        closed = [r for r in status["rounds"] if r["status"] == "closed"]
        played = [(f"{r['number']}: {KINDS[r['kind']]}", r["number"]) for r in closed]
        if list(self.played.options) != played:
            keep = self.played.value if self.played.value in [n for _, n in played] else None
            self.played.options = played
            self.played.value = keep

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.refresh()
            except ClassroomError as e:  # the server is down or restarting: say so, and try again
                self.message.value = str(e)
            except Exception:  # noqa: BLE001, S112 - a refresh that fails is tried again next time
                continue

    def stop(self) -> None:
        """Stop refreshing."""
        self._stop.set()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
