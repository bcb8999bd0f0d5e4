"""A kind of round defined here, in the test alone, runs through the real server, the export and the analysis.

"Lowest unique pick": each student in a group picks a whole number from 1 to ``top`` (an
action of the kind's own, not a bid); the lowest number that exactly one student picked wins
the ``prize``; nobody wins if no pick is unique. The kind is registered by importing this
module (the server gets ``--kinds tests.classroom.test_toy_kind``); no other module names it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pandas as pd
import pytest

from ra_classroom.auctions.laws import Law
from ra_classroom.auctions.matching import Assignment
from ra_classroom.auctions.settle import Entry, Outcome
from ra_classroom.kinds.base import Action, Kind, Setting
from ra_classroom.kinds.registry import kind, register, unregister
from ra_classroom.kinds.spec import RoundSpec
from ra_classroom.teacher.analysis import by_kind
from ra_classroom.teacher.client import RefusedError, TeacherClient
from ra_classroom.web.server import ServerProcess

from .conftest import SECRET
from .pages import Page, seat


class LowestUnique(Kind):
    """Lowest unique pick: the lowest number picked by exactly one member of the group wins the prize."""

    name = "lowest"
    title = "Lowest unique pick"
    settings = (
        Setting("prize", 10.0, 1, 100, about="what the winner earns"),
        Setting("top", 5, 2, 20, whole=True, about="the highest number one may pick"),
    )
    value_word = "prize"
    simple = False
    export_columns = ("pick", "unique")

    def rules(self, spec: RoundSpec) -> str:
        top, prize = spec.options["top"], spec.options["prize"]
        return (
            f"{self.title}, in a group of {spec.group_size}. Pick a whole number from 1 to {top}: the lowest"
            f" number that nobody else in your group picked wins {prize:g}; nobody wins if no number is unique."
        )

    def max_bid(self, spec: RoundSpec) -> float:
        return float(spec.options["top"])

    def deal(
        self, groups: Sequence[Sequence[int]], spec: RoundSpec, rng: random.Random
    ) -> tuple[list[Assignment], dict[int, float]]:
        prize = float(spec.options["prize"])
        return [Assignment(s, g, prize) for g, members in enumerate(groups) for s in members], {}

    def page(self, spec: RoundSpec, value: float) -> dict[str, Any]:
        return {"label": "The prize", "choices": list(range(1, int(spec.options["top"]) + 1))}

    def act(self, spec: RoundSpec, message: Mapping[str, Any]) -> Action:
        top = int(spec.options["top"])
        data = message.get("data")
        pick = data.get("pick") if message.get("t") == "act" and isinstance(data, dict) else None
        if isinstance(pick, bool) or not isinstance(pick, int) or not 1 <= pick <= top:
            raise ValueError(f"Pick a whole number from 1 to {top}.")
        return Action(float(pick), {"pick": pick})

    def settle(
        self,
        spec: RoundSpec,
        entries: Sequence[Entry],
        data: Mapping[int, dict[str, Any] | None],
        common_value: float | None,
        rng: random.Random,
    ) -> list[Outcome]:
        picks = {e.student: int(d["pick"]) for e in entries if (d := data.get(e.student)) is not None}
        counts = Counter(picks.values())
        unique = sorted(p for p, c in counts.items() if c == 1)
        best = unique[0] if unique else None
        prize = float(spec.options["prize"])
        out = []
        for e in entries:
            won = best is not None and picks.get(e.student) == best
            mine = picks.get(e.student)
            out.append(
                Outcome(
                    e.student, won, 0.0, 0.0, prize if won else 0.0, {"unique": mine is not None and counts[mine] == 1}
                )
            )
        return out

    def summary(self, spec: RoundSpec, rows: Sequence[Any], n: int) -> list[str]:
        picked = sum(x.amount is not None for x in rows)
        return [f"{picked} of {len(rows)} picked; {sum(bool(x.won) for x in rows)} won."]

    def export(self, spec: RoundSpec, data: dict[str, Any] | None, outcome: dict[str, Any] | None) -> dict[str, Any]:
        return {
            "pick": None if data is None else data["pick"],
            "unique": None if outcome is None else outcome["unique"],
        }

    def predicted(self, value: float, n: int, law: Law, spec: Mapping[str, Any]) -> float | None:
        return 1.0  # the lowest number is the one to hope for (not an equilibrium: a toy)

    def simulate(
        self, page: Mapping[str, Any], behaviour: Any, rng: random.Random, wobble: float, before: int
    ) -> float | dict[str, Any]:
        return {"pick": 1 + int(rng.random() * len(page["choices"]))}


LOWEST = register(LowestUnique())  # on import: so the server process, importing this module, has it too


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    """The kind is registered while this module's tests run, and gone after (other tests see the built-in kinds)."""
    register(LOWEST)
    yield
    unregister(LOWEST.name)


@pytest.fixture(scope="module")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server (SQLite) that loads this module's kind, as a teacher's own would be loaded."""
    folder = tmp_path_factory.mktemp("toy-kind")
    srv = ServerProcess(
        str(folder / "classroom.db"), SECRET, log=folder / "server.log", options=["--kinds", __name__]
    ).start()
    yield srv
    srv.stop()


def test_the_registry_checks_the_kinds_own_settings() -> None:
    assert kind("lowest") is LOWEST
    spec = RoundSpec.from_dict({"kind": "lowest", "group_size": 3, "prize": 20, "top": 4})
    assert spec.options == {"prize": 20.0, "top": 4} and RoundSpec.from_dict(spec.to_dict()) == spec
    with pytest.raises(ValueError, match="top must be a whole number"):
        RoundSpec.from_dict({"kind": "lowest", "top": 2.5})
    with pytest.raises(ValueError, match="unknown settings"):
        RoundSpec.from_dict({"kind": "first", "top": 4})


def test_a_toy_kind_runs_through_the_server_the_export_and_the_analysis(toy_server: ServerProcess) -> None:
    teacher = TeacherClient(toy_server.url, SECRET)
    room = teacher.create_room(seed="toy-kind")
    pages = [Page(toy_server.url) for _ in range(6)]
    try:
        seat(pages, room)
        with pytest.raises(RefusedError, match="top must be between 2 and 20"):
            teacher.open_round(room, {"kind": "lowest", "top": 50})
        opened = teacher.open_round(room, {"kind": "lowest", "group_size": 3, "prize": 20, "top": 4})
        assert opened["groups"] == 2
        views = [p.view(lambda v: v["screen"] == "bid" and v["round"]["id"] == opened["round"]) for p in pages]
        assert all(v["round"]["choices"] == [1, 2, 3, 4] and v["round"]["value"] == 20 for v in views)
        assert "Pick a whole number from 1 to 4" in views[0]["round"]["rules"]
        first = pages[0]
        refused = first.answer(first.send(t="bid", round=opened["round"], amount=2))
        assert refused["t"] == "refused" and refused["why"] == "Pick a whole number from 1 to 4."
        refused = first.answer(first.send(t="act", round=opened["round"], data={"pick": 9}))
        assert refused["t"] == "refused"
        picks = {p.student: 1 + i % 3 for i, p in enumerate(pages)}
        for p in pages:
            ack = p.answer(p.send(t="act", round=opened["round"], data={"pick": picks[p.student]}))
            assert ack["t"] == "ack"
        again = first.answer(first.send(t="act", round=opened["round"], data={"pick": 1}))
        assert again["t"] == "refused" and "already" in again["why"]
        results = [p.view(lambda v: v["screen"] == "result") for p in pages]  # every one acted: it closed itself
        rows = teacher.results(room)["bids"]
        assert len(rows) == 6 and {r["pick"] for r in rows} == {1, 2, 3}
        for group in {r["group"] for r in rows}:
            members = [r for r in rows if r["group"] == group]
            count = Counter(r["pick"] for r in members)
            unique = sorted(p for p, c in count.items() if c == 1)
            for r in members:
                assert r["unique"] == (count[r["pick"]] == 1) and r["bid"] == r["pick"]
                assert r["won"] == (bool(unique) and r["pick"] == unique[0])
                assert r["earnings"] == (20 if r["won"] else 0)
        for p, res in zip(pages, results, strict=True):
            mine = next(r for r in rows if r["student"] == p.student)
            assert res["result"]["won"] == mine["won"] and res["result"]["details"] == {"unique": mine["unique"]}
        header = teacher.results_csv(room).splitlines()[0].split(",")
        assert header[-2:] == ["pick", "unique"]
        shown = teacher.projector(room)["round"]
        assert shown["chart"] is None and shown["summary"] == [
            "6 of 6 picked; " + f"{sum(r['won'] for r in rows)} won."
        ]
        analysed = by_kind(pd.DataFrame(rows))
        assert list(analysed["predicted"]) == [1.0] * 6
        assert list(analysed["gap"]) == [float(r["pick"]) - 1 for r in rows]
    finally:
        for p in pages:
            p.close()
