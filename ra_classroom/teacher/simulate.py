"""Simulated students: scripted participants who join over the real websocket and bid or play by a stated rule.

They are oTree's "bots" for this classroom: the load benchmark, the tests, the control room's
rehearsal and the sample sessions of notebook 14 all use them. Their behaviour is stated
(`Behaviour.describe`), so data they make are labelled as what they are: simulated, not a class.

Each simulated student has his own random stream, derived from the seed and his name, and
draws from it only when he acts, so the same class with the same seed bids the same.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import threading
import time
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any, Protocol

import orjson

from ..kinds.registry import kind as kind_named

__all__ = ["Behaviour", "Probe", "SimStudent", "SimulatedClass", "sim_answer", "sim_bid"]

GAP = 1 / 6  #: seconds between two messages of one simulated student, at least (the server takes 8 a second)
_AGAIN = ("paused", "Too many messages")  # refusals that mean "not now": he acts again later


@dataclasses.dataclass(frozen=True)
class Behaviour:
    """How a simulated student bids and plays.

    Attributes:
        rho: first price: he bids the share (n-1)/(n-1+rho) of his value above the law's bottom,
            the equilibrium of bidders with utility money**rho (constant relative risk aversion,
            notebook 11's rho: 1 is risk-neutral; below 1 risk-averse, so above the risk-neutral line).
            First price only: in all-pay he bids the risk-neutral equilibrium (money**rho is not
            defined for the loser's loss), as `describe` says.
        rho_spread: each student has his own rho, drawn once, uniform in [rho - rho_spread,
            rho + rho_spread] (0: every student has `rho`).
        jitter: first-price and all-pay bids are multiplied by 1 + jitter * u, u uniform on [-1, 1]
            (``errors="uniform"``) or standard normal (``errors="normal"``). Other bids are not.
        errors: ``"uniform"`` or ``"normal"``: the law of u above.
        overbid: second price: in each round each student bids above his value with this
            probability, by a factor uniform in [1, 1.2]; otherwise he bids his value exactly.
        shade: common value (a first-price round): he bids his signal minus noise * s * u, u uniform
            on [0, 1]; below the break-even (s * u under (n-1)/(n+1)) he falls for the winner's curse.
        learn: common value: `shade` grows by this much after each common-value round he bid in
            (experience teaches caution), for the students who learn.
        learners: the share of students who learn (each is a learner or not, drawn once).
        think: the seconds he takes before each bid or move, drawn uniformly from this range.
        lottery_noise: Holt and Laury's lotteries: he answers as a CRRA chooser whose ρ (u = x^(1-ρ)/(1-ρ))
            is 1 - rho (the attitude behind his first-price bids, in the lotteries' convention) plus
            his own shift, drawn once uniform in [-lottery_noise, lottery_noise] (0: no shift).
        lottery_shift: his own shift (set by `student`).
    """

    rho: float = 0.5
    rho_spread: float = 0.0
    jitter: float = 0.05
    errors: str = "uniform"
    overbid: float = 0.3
    shade: float = 0.5
    learn: float = 0.0
    learners: float = 1.0
    think: tuple[float, float] = (0.2, 1.0)
    lottery_noise: float = 0.0
    lottery_shift: float = 0.0

    @property
    def lottery_rho(self) -> float:
        """Return his CRRA ρ in Holt and Laury's lotteries: 1 - rho, plus his own shift."""
        return 1 - self.rho + self.lottery_shift

    def __post_init__(self) -> None:
        if self.errors not in ("uniform", "normal"):
            raise ValueError(f"errors must be 'uniform' or 'normal', got {self.errors!r:.40}")
        if not 0 < self.rho - self.rho_spread <= self.rho + self.rho_spread <= 20:
            raise ValueError(f"every student's rho must lie in (0, 20]: rho={self.rho}, rho_spread={self.rho_spread}")

    def student(self, seed: int | str, name: str) -> Behaviour:
        """Return the behaviour of the student `name` in the class with `seed`: his own rho, and whether he learns.

        Drawn from a stream of his own (the seed and his name), apart from his bids' stream, so the
        same student has the same type in every run. Without a spread or non-learners, this behaviour.
        """
        if self.rho_spread == 0 and self.learners >= 1 and self.lottery_noise == 0:
            return self
        rng = random.Random(f"ra-classroom-type:{seed}:{name}")
        rho = self.rho + self.rho_spread * (2 * rng.random() - 1)
        learns = rng.random() < self.learners
        shift = self.lottery_noise * (2 * rng.random() - 1) if self.lottery_noise else 0.0
        return dataclasses.replace(
            self,
            rho=round(rho, 4),
            rho_spread=0.0,
            learn=self.learn if learns else 0.0,
            learners=1.0,
            lottery_noise=0.0,
            lottery_shift=round(self.lottery_shift + shift, 4),
        )

    def describe(self) -> str:
        """Return the behaviour in words, for labels and captions: what each simulated student does."""
        rho = (
            f"ρ uniform in [{self.rho - self.rho_spread:g}, {self.rho + self.rho_spread:g}], one per student"
            if self.rho_spread
            else f"ρ = {self.rho:g}"
        )
        noise = (
            f"times 1 + {self.jitter:g} u, u uniform on [-1, 1]"
            if self.errors == "uniform"
            else f"times 1 + {self.jitter:g} z, z standard normal"
        )
        top, bottom = self.rho + self.rho_spread, self.rho - self.rho_spread
        attitude = "risk-averse, " if top < 1 else "risk-loving, " if bottom > 1 else ""
        attitude = "risk-neutral, " if top == bottom == 1 else attitude
        learning = ""
        if self.learn:
            who = "" if self.learners >= 1 else f" for {self.learners:.0%} of the students"
            learning = f", s growing by {self.learn:g} after each such round{who}"
        return (
            f"simulated students: first price, {attitude}the equilibrium bid of CRRA bidders ({rho}); second "
            f"price, in each round a bid above the value with probability {self.overbid:g} (by up to 20 %), else the "
            f"value; all-pay, risk-neutral (utility x^ρ has no value for a loser's loss), the risk-neutral equilibrium "
            f"bid; first-price and all-pay bids {noise}; common value (first price), "
            f"the signal minus noise × s × u, u uniform on [0, 1], s = {self.shade:g}{learning}{self._lotteries()}; "
            f"English clock, a drop at the first price at or above the value; Dutch clock, a press at the first price "
            f"at or below the first-price bid"
        )

    def _lotteries(self) -> str:
        """Return how he answers Holt and Laury's lotteries, when that is more than 1 - rho (else empty)."""
        if not self.lottery_noise and not self.lottery_shift:
            return ""
        shift = (
            f"uniform in [-{self.lottery_noise:g}, {self.lottery_noise:g}]"
            if self.lottery_noise
            else (f"{self.lottery_shift:g}")
        )
        return f"; Holt–Laury lotteries, the choices of CRRA ρ = 1 - (his first-price ρ) + a shift of his own, {shift}"


def sim_bid(rnd: dict[str, Any], behaviour: Behaviour, rng: random.Random, common_rounds: int = 0) -> float:
    """Return a simulated student's bid in the round `rnd` of his page (its value, kind, law, group size).

    `common_rounds` is how many rounds of this kind he bid in before (see `Behaviour.learn`).
    """
    answer = sim_answer(rnd, behaviour, rng, common_rounds)
    if isinstance(answer, dict):
        raise ValueError(f"a round of kind {rnd['kind']!r} takes an action, not a bid")
    return answer


def sim_answer(
    rnd: dict[str, Any], behaviour: Behaviour, rng: random.Random, before: int = 0
) -> float | dict[str, Any]:
    """Return what a simulated student sends in the round `rnd` of his page: a bid, or his kind's action's data.

    His kind decides (`Kind.simulate`), with his error factor drawn here; `before` is how many
    rounds of this kind he played before (see `Behaviour.learn`).
    """
    u = rng.random()
    if behaviour.errors == "normal":
        wobble = 1 + behaviour.jitter * NormalDist().inv_cdf(min(max(u, 1e-12), 1 - 1e-12))
    else:
        wobble = 1 + behaviour.jitter * (2 * u - 1)
    bid = kind_named(rnd["kind"]).simulate(rnd, behaviour, rng, wobble, before)
    if isinstance(bid, dict):
        return bid
    return round(min(float(rnd["max_bid"]), max(0.0, bid)), 2)


class Probe(Protocol):
    """What the load benchmark watches: every action sent, its answer, and every view received."""

    def sent(self, who: SimStudent, key: tuple[Any, ...], msg: dict[str, Any], at: float) -> None:
        """The action `key` (the message `msg`) left the student's page."""

    def answered(self, who: SimStudent, key: tuple[Any, ...], reply: dict[str, Any], at: float) -> None:
        """The server acknowledged (``ack``) or refused (``refused``) the action `key`."""

    def viewed(self, who: SimStudent, view: dict[str, Any], at: float) -> None:
        """The student's page received a view."""

    def ticked(self, who: SimStudent, tick: dict[str, Any], at: float) -> None:
        """The student's page received a clock's tick."""


class SimStudent:
    """One simulated student.

    Args:
        name: his name in the room.
        seed: the class's seed; with the name it makes his random stream.
        behaviour: how the class bids and plays; his own (his rho, whether he learns) is
            ``behaviour.student(seed, name)``.
        probe: who watches his actions and views (the benchmark), if anyone.
    """

    def __init__(self, name: str, seed: int | str, behaviour: Behaviour, probe: Probe | None = None) -> None:
        self.name, self.behaviour, self.probe = name, behaviour.student(seed, name), probe
        self.rng = random.Random(f"ra-classroom-sim:{seed}:{name}")
        self.think = random.Random(f"ra-classroom-think:{seed}:{name}")  # timing only: bids stay seeded
        self.token: str | None = None
        self.student: int | None = None
        self.view: dict[str, Any] | None = None
        self.done: set[tuple[Any, ...]] = set()  # actions answered (ack or refusal): never sent again
        self.pending: dict[int, tuple[Any, ...]] = {}  # message id -> action, sent and not yet answered
        self.decided: dict[tuple[Any, ...], Any] = {}  # action -> what he chose: sent again (after a pause, a
        # reconnection) it is the same, so his random stream is drawn once per decision, whatever the timing
        self.joined = asyncio.Event()
        self.connections = 0
        self.played: dict[str, set[int]] = {}  # the rounds of each kind he has acted in
        self.quiet = False  # set: he reads his views but takes no new action (the end of a session)
        self.gone = False  # set: the teacher removed him, or his seat moved to another device: he stops
        self._ids = 0
        self._free_at = 0.0  # the loop's time from which he may send his next message
        self._tasks: set[asyncio.Task[None]] = set()
        self._ws: Any = None

    async def run(self, ws_url: str | Sequence[str], room: str, stop: asyncio.Event) -> None:
        """Join `room` (or come back with his token) and act on every view until `stop` is set.

        Given several addresses (server processes sharing one database), he connects to the next
        one each time he reconnects, as a reload behind a load balancer may land anywhere.
        """
        import websockets

        urls = [ws_url] if isinstance(ws_url, str) else list(ws_url)
        wait = 0.2
        while not stop.is_set() and not self.gone:
            try:
                url = urls[self.connections % len(urls)]
                async with websockets.connect(url, max_size=2**22, open_timeout=10) as ws:
                    self.connections += 1
                    wait = 0.2
                    self._ws = ws
                    await self._session(ws, room, stop)
            except (OSError, websockets.ConnectionClosed, TimeoutError):
                pass
            self._ws = None
            self.pending.clear()  # unanswered actions may be retried from the next view
            if not stop.is_set() and not self.gone:
                await asyncio.sleep(wait)
                wait = min(2.0, wait * 2)

    def drop(self) -> None:
        """Cut his connection at once, as a lost network does (he reconnects with his seat token)."""
        if self._ws is not None:
            self._ws.transport.abort()

    async def _session(self, ws: Any, room: str, stop: asyncio.Event) -> None:
        first = {"t": "hello", "token": self.token} if self.token else {"t": "join", "room": room, "name": self.name}
        await ws.send(json.dumps(first))
        closer = asyncio.ensure_future(stop.wait())
        try:
            while True:
                receive = asyncio.ensure_future(ws.recv())
                done, _ = await asyncio.wait({receive, closer}, return_when=asyncio.FIRST_COMPLETED)
                if closer in done:
                    receive.cancel()
                    return
                self._receive(ws, orjson.loads(receive.result()))
        finally:
            closer.cancel()
            for task in list(self._tasks):
                task.cancel()

    def _receive(self, ws: Any, msg: dict[str, Any]) -> None:
        now = time.perf_counter()
        kind = msg.get("t")
        if kind == "welcome":
            self.token = msg.get("token", self.token)
            self.student = msg["student"]
            self.joined.set()
        elif kind in ("ack", "refused"):
            ident = msg.get("id")
            key = self.pending.pop(ident, None) if isinstance(ident, int) else None
            if key is not None:
                if kind == "refused" and any(why in str(msg.get("why")) for why in _AGAIN):
                    asyncio.get_running_loop().call_later(1.0, self._again, ws, self.view)  # not now: a little later
                else:
                    self.done.add(key)
                if self.probe is not None:
                    self.probe.answered(self, key, msg, now)
        elif kind == "bye":
            self.gone = True
        elif kind == "view":
            self.view = msg
            if self.probe is not None:
                self.probe.viewed(self, msg, now)
            self._decide(ws, msg)
        elif kind == "tick":
            if self.probe is not None:
                self.probe.ticked(self, msg, now)
            view = self.view
            if view is not None and view["screen"] == "clock" and view["round"]["id"] == msg["round"]:
                self._press(ws, view["round"], msg)

    def _again(self, ws: Any, view: dict[str, Any] | None) -> None:
        """Decide again on `view` if no newer view came meanwhile (a newer one decides by itself)."""
        if view is not None and view is self.view:
            self._decide(ws, view)

    def _decide(self, ws: Any, view: dict[str, Any]) -> None:
        """Act on a view if it asks for an action not yet taken."""
        rnd, table = view.get("round"), view.get("table")
        if self.quiet or (rnd and rnd.get("paused")):
            return
        if view["screen"] == "bid" and rnd and rnd.get("your_bid") is None:
            key: tuple[Any, ...] = ("bid", rnd["id"])
            if key not in self.done and key not in self.pending.values():
                played = self.played.setdefault(rnd["kind"], set())
                if key not in self.decided:
                    self.decided[key] = sim_answer(rnd, self.behaviour, self.rng, len(played - {rnd["id"]}))
                played.add(rnd["id"])
                answer = self.decided[key]
                if isinstance(answer, dict):
                    self._later(ws, key, {"t": "act", "round": rnd["id"], "data": answer})
                else:
                    self._later(ws, key, {"t": "bid", "round": rnd["id"], "amount": answer})
        elif view["screen"] == "clock" and rnd and rnd.get("your_bid") is None:
            self._press(ws, rnd, rnd["clock"])
        elif view["screen"] == "ra" and table and table["yours"] and table["choices"]:
            key = ("move", table["id"], table["ply"])
            if key not in self.done and key not in self.pending.values():
                choices = table["choices"]
                if key not in self.decided:
                    self.decided[key] = choices[int(self.rng.random() * len(choices))]
                self._later(
                    ws, key, {"t": "move", "table": table["id"], "action": self.decided[key], "version": table["ply"]}
                )

    def _press(self, ws: Any, rnd: dict[str, Any], clock: dict[str, Any]) -> None:
        """Press the clock's button once its price (`clock`: a view's clock, or a tick) reaches his price.

        His price is his kind's (`Kind.simulate`: English, his value; Dutch, a shaded bid),
        decided once per round; he presses at the tick that showed it, as a page does.
        """
        key: tuple[Any, ...] = ("press", rnd["id"])
        if self.quiet or rnd.get("paused") or clock.get("stopped") or key in self.done:
            return
        if key in self.pending.values():
            return
        if key not in self.decided:
            played = self.played.setdefault(rnd["kind"], set())
            self.decided[key] = sim_answer(rnd, self.behaviour, self.rng, len(played - {rnd["id"]}))
            played.add(rnd["id"])
        target = float(self.decided[key]["press_at"])
        rising = rnd["clock"]["kind"] == "english"
        if (clock["price"] >= target) if rising else (clock["price"] <= target):
            self._later(ws, key, {"t": "press", "round": rnd["id"], "tick": clock["tick"]})

    def _later(self, ws: Any, key: tuple[Any, ...], msg: dict[str, Any]) -> None:
        self._ids += 1
        msg["id"] = self._ids
        self.pending[self._ids] = key
        low, high = self.behaviour.think
        delay = low + (high - low) * self.think.random()

        async def act() -> None:
            await asyncio.sleep(delay)
            now = asyncio.get_running_loop().time()  # never faster than the server takes (its rate limit)
            at = max(now, self._free_at)
            self._free_at = at + GAP
            await asyncio.sleep(at - now)
            if self.probe is not None:
                self.probe.sent(self, key, msg, time.perf_counter())
            try:
                await ws.send(json.dumps(msg))
            except Exception:  # noqa: BLE001 - the connection went; the next view decides again
                self.pending.pop(msg["id"], None)

        task = asyncio.ensure_future(act())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


class SimulatedClass:
    """A class of simulated students in a room, joined one after another (so their ids follow their names).

    Args:
        url: the server's address (``http://...``), or the addresses of several server processes
            sharing one database (the students are spread over them).
        room: the room code.
        count: how many students.
        seed: the class's seed.
        behaviour: how they bid and play.
        probe: who watches them (the benchmark), if anyone.
        names: their names (default ``sim01``, ``sim02``, ...).
    """

    def __init__(
        self,
        url: str | Sequence[str],
        room: str,
        count: int,
        *,
        seed: int | str = 1,
        behaviour: Behaviour | None = None,
        probe: Probe | None = None,
        names: Sequence[str] = (),
    ) -> None:
        self.ws_urls = [
            u.replace("http://", "ws://").replace("https://", "wss://").rstrip("/") + "/ws"
            for u in ([url] if isinstance(url, str) else url)
        ]
        self.room = room
        self.behaviour = behaviour or Behaviour()
        names = list(names) or [f"sim{i + 1:02d}" for i in range(count)]
        self.students = [SimStudent(n, seed, self.behaviour, probe) for n in names]
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    async def run(self, stop: asyncio.Event) -> None:
        """Join every student, one after another, then let them act until `stop` is set."""
        tasks = []
        for k, s in enumerate(self.students):
            k %= len(self.ws_urls)
            urls = self.ws_urls[k:] + self.ws_urls[:k]  # student k starts on process k, and so on round
            tasks.append(asyncio.ensure_future(s.run(urls, self.room, stop)))
            await asyncio.wait_for(s.joined.wait(), 30)
        self._ready.set()
        await asyncio.gather(*tasks)

    def start(self, timeout: float = 60) -> SimulatedClass:
        """Run the class in a thread of its own (for a notebook, whose own loop is busy); return once all joined."""

        def main() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            self._stop = asyncio.Event()
            try:
                loop.run_until_complete(self.run(self._stop))
            except BaseException as e:  # noqa: BLE001 - reported by start() or stop()
                self._error = e
                self._ready.set()
            finally:
                loop.close()

        self._thread = threading.Thread(target=main, name="simulated-class", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout) or self._error is not None:
            raise RuntimeError(f"the simulated students could not all join: {self._error!r}")
        return self

    def stop(self) -> None:
        """Disconnect every student and end the thread."""
        if self._loop is not None and self._stop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(timeout=30)

    def bids_done(self, round_id: int) -> int:
        """Return how many of the students have had a bid in round `round_id` answered."""
        return sum(("bid", round_id) in s.done for s in self.students)
