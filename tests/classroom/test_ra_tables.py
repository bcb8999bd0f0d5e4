"""Ra tables end to end, on SQLite and on PostgreSQL: students play by clicks, bots fill seats and stand in.

A move is the action's text from a piece of the board (``data-action``), sent with the board's
version; only the seat that decides may move, on the current board, and only legally. A student
who is away when his turn comes is played by a bot after the round's ``absent_after`` seconds,
and gets his seat back when he returns.
"""

from __future__ import annotations

import re

from ra_classroom.teacher.client import TeacherClient
from ra_classroom.web.server import ServerProcess

from .pages import Message, Page, ply_at_least

ACTIONS = re.compile(r'data-action="([^"]+)"')


def table_views(pages: list[Page], ply: int = 0) -> list[Message]:
    return [p.view(ply_at_least(ply)) for p in pages]


def test_three_students_play_by_the_actions_on_their_boards(
    server: ServerProcess, room: str, teacher: TeacherClient
) -> None:
    pages = [Page(server.url) for _ in range(3)]
    for i, p in enumerate(pages):
        p.join(room, f"Player {i}")
    opened = teacher.open_round(room, {"kind": "ra", "group_size": 3})
    assert len(opened["tables"]) == 1
    views = table_views(pages)
    assert sorted(v["table"]["seat"] for v in views) == [0, 1, 2] and "bot" not in views[0]["table"]["names"]
    for _ in range(12):
        ply = views[0]["table"]["ply"]
        assert len({v["table"]["ply"] for v in views}) == 1
        mover = next(i for i, v in enumerate(views) if v["table"]["yours"])
        board = views[mover]["table"]
        clickable = ACTIONS.findall(board["svg"])
        gods = [c for c in board["choices"] if c.startswith("god ")]  # a slot takes a click once the god is chosen
        assert sorted(clickable) == sorted(c for c in board["choices"] if c not in gods)  # the legal actions, no more
        assert ('data-ui="god"' in board["svg"]) == bool(gods)
        for i, v in enumerate(views):
            if i != mover:
                assert not v["table"]["yours"] and not ACTIONS.findall(v["table"]["svg"])
        action = next((a for a in clickable if a.startswith(("bid", "pass"))), clickable[0])
        ack = pages[mover].answer(pages[mover].send(t="move", table=board["id"], action=action, version=ply))
        assert ack["t"] == "ack" and ack["ply"] > ply
        views = table_views(pages, ack["ply"])
        assert all(v["table"]["ply"] == ack["ply"] for v in views)
    assert any(line for line in views[0]["table"]["recent"])


def test_moves_out_of_turn_on_old_boards_or_illegal_are_refused(
    server: ServerProcess, room: str, teacher: TeacherClient
) -> None:
    pages = [Page(server.url) for _ in range(4)]
    for i, p in enumerate(pages):
        p.join(room, f"P{i}")
    teacher.open_round(room, {"kind": "ra", "group_size": 3})  # 4 students at tables of 3: 2 and 2, bots in the rest
    views = table_views(pages)
    tables = {v["table"]["id"] for v in views}
    assert len(tables) == 2 and all(v["table"]["names"].count("bot") == 1 for v in views)
    mine = views[0]["table"]
    other_table = next(t for t in tables if t != mine["id"])
    before = mine["ply"]
    waiting = next(
        (p for p, v in zip(pages, views, strict=True) if v["table"]["id"] == mine["id"] and not v["table"]["yours"]),
        None,
    )
    deciding = next(
        p for p, v in zip(pages, views, strict=True) if v["table"]["id"] == mine["id"] and v["table"]["yours"]
    )
    if waiting is not None:
        assert (
            "Not your turn"
            in waiting.answer(waiting.send(t="move", table=mine["id"], action="draw", version=before))["why"]
        )
    said = deciding.answer(deciding.send(t="move", table=mine["id"], action="bid 1", version=before))["why"]
    assert said.startswith("Not legal now: bid 1 (sun 1 is the center sun")  # the judge says why,
    assert "). Your choices: " in said  # and names what is legal
    assert deciding.answer(deciding.send(t="move", table=mine["id"], action="sell", version=before))["why"].startswith(
        "Not legal now: sell. Your choices:"
    )
    old = deciding.answer(deciding.send(t="move", table=mine["id"], action="draw", version=before - 1))
    assert "earlier board" in old["why"]
    away = deciding.answer(deciding.send(t="move", table=other_table, action="draw", version=0))
    assert "no seat at that table" in away["why"]
    step = deciding.answer(deciding.send(t="ui", table=other_table, ui="god", version=0))
    assert "not on your board" in step["why"]
    moves = {t["table"]: t["moves"] for t in teacher.status(room)["tables"]}  # nothing moved
    assert sorted(moves.values()) == sorted({v["table"]["id"]: v["table"]["ply"] for v in views}.values())


def test_a_bot_plays_an_absent_students_turns_until_he_is_back(
    server: ServerProcess, room: str, teacher: TeacherClient
) -> None:
    pages = [Page(server.url) for _ in range(3)]
    for i, p in enumerate(pages):
        p.join(room, f"P{i}")
    teacher.open_round(room, {"kind": "ra", "group_size": 3, "absent_after": 1})
    views = table_views(pages)
    gone = next(i for i, v in enumerate(views) if v["table"]["yours"])
    token = pages[gone].token
    ply = views[gone]["table"]["ply"]
    pages[gone].close()
    watcher = pages[(gone + 1) % 3]
    moved = watcher.view(lambda v: v["table"]["ply"] > ply, timeout=20)  # a bot moved for him (absent_after=1)
    seat = views[gone]["table"]["seat"]
    assert moved["table"]["names"][seat] == f"P{gone}, a bot plays for now"
    back = Page(server.url)
    again = back.hello(str(token))
    assert again["table"]["seat"] == seat and again["table"]["names"][seat] == f"P{gone}"
    assert watcher.view(lambda v: v["table"]["names"][seat] == f"P{gone}")


def test_choice_steps_redraw_only_the_askers_board_and_closed_tables_take_no_moves(
    server: ServerProcess, room: str, teacher: TeacherClient
) -> None:
    pages = [Page(server.url) for _ in range(3)]
    for i, p in enumerate(pages):
        p.join(room, f"P{i}")
    teacher.open_round(room, {"kind": "ra", "group_size": 3})
    views = table_views(pages)
    k = next(i for i, v in enumerate(views) if v["table"]["yours"])
    t = views[k]["table"]
    pages[k].send(t="ui", table=t["id"], ui="god", version=t["ply"], sel={"god": False, "picked": []})
    step = pages[k].until(lambda m: m.get("t") in ("table", "refused"))
    assert step["t"] == "refused" and step["why"].startswith("You have no god to use now. Click")  # the judge's words
    for bad_sel, says in (({"god": "yes"}, "choice in progress"), ({"picked": ["gold", "diamonds"]}, "Only tiles")):
        pages[k].send(t="ui", table=t["id"], ui="god", version=t["ply"], sel=bad_sel)
        assert says in pages[k].until(lambda m: m.get("t") == "refused")["why"]
    pages[k].send(t="ui", table=t["id"], ui="god", version=t["ply"] - 1)
    assert "earlier board" in pages[k].until(lambda m: m.get("t") == "refused")["why"]
    other = pages[(k + 1) % 3]
    other.send(t="ui", table=t["id"], ui="god", version=t["ply"])
    assert "Not your turn" in other.until(lambda m: m.get("t") == "refused")["why"]
    teacher.close_round(room)
    closed = pages[k].view(lambda v: v["round"]["status"] == "closed")
    assert closed["table"]["status"].startswith("The teacher has closed the round") and closed["table"]["choices"] == []
    late = pages[k].answer(pages[k].send(t="move", table=t["id"], action=t["choices"][0], version=t["ply"]))
    assert "round is closed" in late["why"]
    assert {x["table"]: x["moves"] for x in teacher.status(room)["tables"]}[1] == t["ply"]
