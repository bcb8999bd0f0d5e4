"""Rooms one client cannot take: joins per address, a room's size set by the teacher, pages per seat token.

On SQLite and on PostgreSQL. The module's server stands behind a proxy on 127.0.0.1 (as behind
Caddy), whose ``X-Forwarded-For`` names the networks a class and a flood come from: a flood of
joins from one network takes at most the room's size, the teacher sees it per address and
removes it at once, and the class joins from its networks; a whole class joins from one. Every
127.x.y.z is this machine, with one allowance, and a forwarded address is believed only from
the proxy the teacher names.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from ra_classroom.store.database import Database
from ra_classroom.teacher.client import RefusedError, TeacherClient
from ra_classroom.web.limits import MAX_PAGES
from ra_classroom.web.server import ServerProcess

from .conftest import BACKENDS, SECRET, database_for
from .pages import Page

PROXY = "127.0.0.1"


@pytest.fixture(scope="module", params=BACKENDS)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A classroom server behind a proxy on 127.0.0.1, on a fresh database, for this module."""
    folder = tmp_path_factory.mktemp(f"crowds-{request.param}")
    database = database_for(request.param, request, folder)
    srv = ServerProcess(database, SECRET, log=folder / "server.log", options=["--trusted-proxy", PROXY]).start()
    yield srv
    srv.stop()


def behind_proxy(server: ServerProcess, network: str) -> Page:
    """Return a page that the proxy says comes from `network`."""
    return Page(server.url, source=PROXY, headers={"X-Forwarded-For": network})


def refusal(page: Page, ident: int) -> str:
    answer = page.until(lambda m: m.get("t") in ("welcome", "refused") and m.get("id") == ident)
    return str(answer.get("why", "welcome"))


def test_a_flood_of_joins_from_one_network_is_seen_and_removed_at_once_and_the_class_gets_in(
    server: ServerProcess, teacher: TeacherClient, room: str
) -> None:
    teacher.set_size(room, 120)
    flooded: list[str] = []
    for k in range(150):  # one client, one network: a new connection for every join, until the room is full
        page = behind_proxy(server, "198.51.100.66")
        flooded.append(refusal(page, page.send(t="join", room=room, name=f"flood {k}")))
        page.close()
    assert flooded.count("welcome") == 120 and all("is full (120 students)" in w for w in flooded[120:])
    joins = teacher.status(room)["addresses"]
    assert [(j["address"], j["students"]) for j in joins] == [("198.51.100.66", 120)]  # the panel shows it
    class_pages = [behind_proxy(server, f"203.0.113.{2 + k % 3}") for k in range(40)]  # the class: three networks
    answers = [refusal(p, p.send(t="join", room=room, name=f"Student {k}")) for k, p in enumerate(class_pages)]
    assert all("is full" in why for why in answers)
    removed = teacher.remove_burst(room, "198.51.100.66", seconds=600)["removed"]
    assert len(removed) == 120 and all(name.startswith("flood") for name in removed)
    answers = [refusal(p, p.send(t="join", room=room, name=f"Student {k}")) for k, p in enumerate(class_pages)]
    assert answers == ["welcome"] * 40  # every student of the class has his seat
    joins = teacher.status(room)["addresses"]
    assert sorted((j["address"], j["students"]) for j in joins) == [
        (f"203.0.113.{n}", c) for n, c in ((2, 14), (3, 13), (4, 13))
    ]
    for page in class_pages:
        page.close()


def test_a_whole_class_behind_one_network_joins_at_once(server: ServerProcess, teacher: TeacherClient) -> None:
    room = teacher.create_room(size=200)
    pages = [behind_proxy(server, "198.51.100.9") for _ in range(150)]  # more than the 60 a minute it once had
    answers = [refusal(p, p.send(t="join", room=room, name=f"Student {k}")) for k, p in enumerate(pages)]
    assert answers == ["welcome"] * 150
    for page in pages:
        page.close()


def test_the_teacher_sizes_a_room_and_a_full_room_says_so(server: ServerProcess, teacher: TeacherClient) -> None:
    room = teacher.create_room(size=2)
    assert teacher.status(room)["size"] == 2
    pages = [Page(server.url) for _ in range(3)]
    assert [refusal(p, p.send(t="join", room=room, name=f"S{k}")) for k, p in enumerate(pages)][:2] == ["welcome"] * 2
    assert "is full (2 students): ask your teacher" in pages[2].log[-1]["why"]
    assert teacher.set_size(room, 3) == {"room": room, "size": 3, "students": 2}
    assert refusal(pages[2], pages[2].send(t="join", room=room, name="S2")) == "welcome"
    for bad in (0, -1, 10**6, 2.5, "40", True):
        with pytest.raises(RefusedError, match="size is a number of students") as refused:
            teacher.set_size(room, bad)  # type: ignore[arg-type]
        assert refused.value.status == 400
    with pytest.raises(RefusedError, match="size"):
        teacher.call("POST", f"/api/rooms/{room}/size", {"size": 5, "more": 1})
    assert teacher.status(room)["size"] == 3


def test_a_seat_token_opens_a_few_pages_at_most(server: ServerProcess, room: str) -> None:
    first = Page(server.url)
    first.join(room, "Ann")
    pages = [first] + [Page(server.url) for _ in range(MAX_PAGES - 1)]
    for p in pages[1:]:
        assert p.hello(str(first.token))["name"] == "Ann"
    extra = Page(server.url)
    why = refusal(extra, extra.send(t="hello", token=first.token))
    assert f"open on {MAX_PAGES} pages already" in why
    pages[1].close()  # one closes: another may open
    for _ in range(50):
        again = Page(server.url)
        if refusal(again, again.send(t="hello", token=first.token)) == "welcome":
            break
        again.close()
    else:
        raise AssertionError("a page could not open after another closed")


def test_a_database_of_an_older_version_gets_the_new_columns(tmp_path: Path) -> None:
    path = f"{tmp_path}/old.db"
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:  # the rooms table as the first version made it, with a room in it
        conn.execute(
            text(
                "CREATE TABLE rooms (code VARCHAR(12) PRIMARY KEY, seed VARCHAR(64) NOT NULL, "
                "created_at FLOAT NOT NULL)"
            )
        )
        conn.execute(text("INSERT INTO rooms VALUES ('OLD42', 'seed', 0)"))
    engine.dispose()
    db = Database(path)
    assert "size" in {c["name"] for c in inspect(db.engine).get_columns("rooms")}
    with db.transaction() as conn:
        assert conn.execute(text("SELECT code, size FROM rooms")).all() == [("OLD42", None)]
    db.close()
    Database(path).close()  # and opening it again changes nothing


def test_forwarded_addresses_are_believed_from_the_named_proxy_only_and_this_machine_has_one_allowance(
    tmp_path: Path,
) -> None:
    proxy = "127.0.0.2"
    options = ["--trusted-proxy", proxy, "--joins-per-minute", "3"]
    srv = ServerProcess(str(tmp_path / "c.db"), SECRET, log=tmp_path / "server.log", options=options).start()
    try:
        room = TeacherClient(srv.url, SECRET).create_room()
        answers = []
        for k in range(5):  # five networks behind the proxy: one join each, all let in
            page = Page(srv.url, source=proxy, headers={"X-Forwarded-For": f"203.0.113.{k}"})
            answers.append(refusal(page, page.send(t="join", room=room, name=f"Near {k}")))
        assert answers == ["welcome"] * 5
        answers = []
        for k in range(5):  # this machine from 127.0.0.1, .3, .4, ... claiming other networks: one allowance of 3
            source = "127.0.0.1" if k == 0 else f"127.0.0.{k + 2}"
            page = Page(srv.url, source=source, headers={"X-Forwarded-For": f"198.51.100.{k}"})
            answers.append(refusal(page, page.send(t="join", room=room, name=f"Far {k}")))
        assert answers[:3] == ["welcome"] * 3
        assert all("wait a few seconds" in why for why in answers[3:]), answers
    finally:
        srv.stop()
