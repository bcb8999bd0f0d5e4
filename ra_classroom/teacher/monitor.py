"""The control room's live panel (an anywidget): the room as it is now, and every control as a button.

The panel is a thin view: `monitor_html` draws a status (the API's ``GET /api/rooms/{code}``) as
HTML, every name escaped, and a thread redraws it every second. A click sends one message that
carries the whole form as the teacher sees it (the student chosen, the name typed, the round
chosen, the next round's settings); `Monitor.click` runs the control room's own method with it
(the same call a cell makes) and answers with what it did, naming whom or which round, or the
refusal's reason, in one line. A click is handled at once whenever the kernel is free, and also
while a cell awaits ``room.wait()`` (ipykernel 7.4 hands comm messages to the kernel meanwhile):
only a cell that computes for a long time holds it back. Tests call `monitor_html` and
`Monitor.click` directly, without a browser.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

from ..kinds.registry import TITLES as KINDS
from ..kinds.registry import kind as kind_named
from ..kinds.registry import kinds
from .client import ClassroomError

if TYPE_CHECKING:
    from .control import ControlRoom

__all__ = ["Monitor", "PanelView", "monitor_html"]

_HERE = Path(__file__).parent


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
    if status.get("ended") and status.get("paid"):
        ended += f" Each student's paying round is drawn ({status['paid']} students): room.paid_rounds()."
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


class PanelView(anywidget.AnyWidget):
    """The panel in the notebook (``monitor.js``): Python sets what it shows; each click comes back whole.

    Attributes:
        status: the room now, as `monitor_html` draws it.
        students: the names in the Student list.
        rounds: the closed rounds in the Round list, as ``[label, number]``.
        kinds: the round kinds of the Kind list, as ``[label, kind]``.
        message: the last thing a control said (a view drawn again shows it).
    """

    _esm = _HERE / "monitor.js"
    _css = _HERE / "monitor.css"
    status = traitlets.Unicode("").tag(sync=True)
    students = traitlets.List(traitlets.Unicode()).tag(sync=True)
    rounds = traitlets.List(traitlets.List()).tag(sync=True)
    kinds = traitlets.List(traitlets.List()).tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)


class Monitor:
    """The live panel of a control room: the room now, and a button for every control.

    A click in the notebook arrives as one message with the form as the teacher saw it (`click`
    reads it): the student chosen, the new name typed, the round chosen, the next round's settings.
    The kernel never depends on a field's earlier change having reached it, which ipywidgets holds
    back while a cell awaits (`monitor.js` says why).

    Args:
        room: the control room.
        every: seconds between two refreshes.
    """

    def __init__(self, room: ControlRoom, every: float = 1.0) -> None:
        self.room, self.every = room, every
        self.widget = PanelView(kinds=[[label, kind] for kind, label in KINDS.items()])
        self.widget.on_msg(self._received)
        self._stop, self._drawing = threading.Event(), threading.Lock()
        self.refresh()
        self._thread = threading.Thread(target=self._run, name="ra-classroom-monitor", daemon=True)
        self._thread.start()

    @property
    def message(self) -> str:
        """Return the panel's message line: what the last control said."""
        return str(self.widget.message)

    def say(self, text: str) -> None:
        """Show `text` in the panel's message line."""
        self.widget.message = text

    def _received(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """Run the control a click asks for, with the form it carries; answer with what was done.

        The message comes from the page and is read as such: an unknown control is ignored, texts
        are cut to 200 characters, and a number that does not read is refused in one sentence.
        """
        if not isinstance(content, dict) or content.get("control") not in CONTROLS:
            return
        number = content.get("click")
        form = {k: content[k] for k in FORM if k in content}
        said, student = self.click(str(content["control"]), **form)
        answer = number if isinstance(number, int) and not isinstance(number, bool) else 0
        self.widget.send({"answer": answer, "said": said, "student": student})

    def click(self, control: str, **form: Any) -> tuple[str, str | None]:
        """Run `control` as the panel's button does, with the form as the teacher sees it; return what it said.

        Args:
            control: one of `CONTROLS` (``close``, ``pause``, ``rename``, ...).
            form: what the panel shows now: ``student`` (the name chosen), ``to`` (the new name
                typed), ``round`` (the closed round chosen), ``kind``, ``size``, ``seconds``,
                ``noise``, ``practice`` (the next round's settings).

        Returns:
            The sentence shown in the message line (which says whom or which round it acted on, or
            why it was refused) and the student to keep chosen afterwards.
        """
        student = _text(form.get("student"))
        keep: str | None = student or None
        try:
            said = str(self._control(control, form, student))
            if control == "rename":
                keep = _text(form.get("to")).strip()
        except (ClassroomError, ValueError) as e:
            said = str(e)
        self.say(said)
        try:
            self.refresh()
        except ClassroomError as e:
            self.say(str(e))
        return said, keep

    def _control(self, control: str, form: dict[str, Any], student: str) -> str:
        room = self.room
        if control in ROUND_CONTROLS:
            return str(ROUND_CONTROLS[control](room))
        if control == "open":
            return self._open_round(form)
        if control in ("exclude", "include"):
            number = _whole(form.get("round"), "the round", none="Choose a round first.")
            return room.exclude_round(number, control == "exclude")
        if not student:
            raise ClassroomError("Choose a student first.")
        if control == "rename":
            return room.rename(student, _text(form.get("to")))
        return str(STUDENT_CONTROLS[control](room, student))

    def _open_round(self, form: dict[str, Any]) -> str:
        try:
            k = kind_named(_text(form.get("kind")) or kinds()[0].name)
        except ValueError as e:
            raise ClassroomError(str(e)) from None
        size = _whole(form.get("size", 4), "Group")
        seconds = _whole(form.get("seconds", 90), "Seconds")
        noise = _number(form.get("noise", 10), "Noise")
        own = {s.name: _number(form[s.name], s.name) for s in k.settings if form.get(s.name) is not None}
        opened = self.room.open_round(
            k.name,
            size if k.play == "groups" and k.sizes[0] < k.sizes[1] else min(k.sizes[1], max(k.sizes[0], size)),
            seconds=(seconds or None) if k.deadline else None,
            noise=noise if k.noisy else 0.0,
            practice=form.get("practice") is True,
            settings=own,
        )
        return f"Round {opened['number']} is open. {opened.get('note', '')}".strip()

    def refresh(self) -> None:
        """Redraw the panel from the server's status now."""
        status = self.room.status()
        names = [p["name"] for p in status["students"] if not p.get("removed")]
        closed = [r for r in status["rounds"] if r["status"] == "closed"]
        played = [[f"{r['number']}: {KINDS[r['kind']]}", r["number"]] for r in closed]
        with self._drawing:  # the refresh thread and a click draw one after the other
            self.widget.status = monitor_html(status)
            if list(self.widget.students) != names:
                self.widget.students = names
            if list(self.widget.rounds) != played:
                self.widget.rounds = played

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.refresh()
            except ClassroomError as e:  # the server is down or restarting: say so, and try again
                self.say(str(e))
            except Exception:  # noqa: BLE001, S112 - a refresh that fails is tried again next time
                continue

    def stop(self) -> None:
        """Stop refreshing."""
        self._stop.set()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


#: The controls of the open round, each one call of the control room.
ROUND_CONTROLS: dict[str, Callable[[ControlRoom], Any]] = {
    "close": lambda room: room.close_round(),
    "pause": lambda room: room.pause(),
    "resume": lambda room: room.resume(),
    "extend": lambda room: room.extend(30),
    "cancel": lambda room: room.cancel_round(),
}
#: The controls of the student chosen in the panel (``rename`` also takes the new name typed).
STUDENT_CONTROLS: dict[str, Callable[[ControlRoom, str], Any]] = {
    "reseat": lambda room, name: room.reseat(name),
    "refuse": lambda room, name: room.refuse(name),
    "remove": lambda room, name: room.remove(name),
    "bot": lambda room, name: room.bot_plays(name),
    "back": lambda room, name: room.give_back(name),
}
#: Every control a click may ask for.
CONTROLS = frozenset({*ROUND_CONTROLS, *STUDENT_CONTROLS, "rename", "open", "exclude", "include"})
#: What a click carries of the form besides the control.
FORM = ("student", "to", "round", "kind", "size", "seconds", "noise", "practice")


def _text(value: Any) -> str:
    """Return a text field of a click, cut to 200 characters ('' if it is no text)."""
    return value[:200] if isinstance(value, str) else ""


def _number(value: Any, what: str) -> float:
    """Return a number field of a click (the page sends what the box shows, as text)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    try:
        number = float(_text(value))
    except ValueError:
        raise ClassroomError(f"{what} must be a number, not {_text(value)[:20]!r}.") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise ClassroomError(f"{what} must be a number, not {_text(value)[:20]!r}.")
    return number


def _whole(value: Any, what: str, none: str | None = None) -> int:
    """Return a whole-number field of a click; an empty one is refused with `none` (or as no number)."""
    if none is not None and value in (None, ""):
        raise ClassroomError(none)
    number = _number(value, what)
    if number != int(number):
        raise ClassroomError(f"{what} must be a whole number, not {number:g}.")
    return int(number)
