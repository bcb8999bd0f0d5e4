"""Names a reader cannot tell apart are one name, and room codes are refused in a sentence, never cut.

Pure Python on a SQLite file: the store's join and rename, the skeleton (Unicode TR39) of a name.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ra_classroom.store import roster
from ra_classroom.store.database import Database
from ra_classroom.store.names import skeleton
from ra_classroom.store.refusal import Refusal
from ra_classroom.store.rooms import clean_name, create_room, join, room_code

CYRILLIC_O, CYRILLIC_A, GREEK_O = "\u043e", "\u0410", "\u03bf"


@pytest.mark.parametrize(
    "name",
    [
        f"b{CYRILLIC_O}t",
        "\uff42\uff4f\uff54",
        f"B{GREEK_O}TS",
        "Ann (\uff59\uff4f\uff55)",
        f"Ann, a b{CYRILLIC_O}t plays",
    ],
)
def test_lookalikes_of_the_boards_words_are_reserved(name: str) -> None:
    with pytest.raises(Refusal, match="board's own words"):
        clean_name(name)


def test_a_lookalike_of_a_name_in_the_room_is_that_name(tmp_path: Path) -> None:
    db = Database(str(tmp_path / "c.db"))
    with db.transaction() as conn:
        room = create_room(conn, 0.0)
        ann = join(conn, room, "Ann", 0.0)
        for twin in (f"{CYRILLIC_A}nn", "\uff21\uff4e\uff4e", "ANN"):
            with pytest.raises(Refusal, match="called Ann already"):
                join(conn, room, twin, 0.0)
        assert join(conn, room, "Anna", 0.0).name == "Anna"
        with pytest.raises(Refusal, match="called Anna already"):
            roster.rename(conn, room, "Ann", f"{CYRILLIC_A}nn{CYRILLIC_A.lower()}")
        assert roster.find(conn, room, f"{CYRILLIC_A}NN") == (ann.student, "Ann")  # the teacher types it either way
    db.close()


def test_the_skeleton_keeps_what_a_reader_tells_apart() -> None:
    assert skeleton("Jos\u00e9") != skeleton("Jose")
    assert skeleton("Ann") != skeleton("Anne")
    assert skeleton("\u0416\u0435\u043d\u044f") == "\u0436e\u043d\u044f"  # a Cyrillic name keeps its own letters


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("ABCDEFGHJKMNPQ", "at most 12 letters or digits"),
        ("K\u00d6LN", "only the letters A to Z"),
        ("\u0410BC", "only the letters A to Z"),  # a Cyrillic A
        ("AB/CD", "only the letters A to Z"),
        ("  ", "Type the room code"),
    ],
)
def test_room_codes_are_refused_in_a_sentence_never_cut(typed: str, says: str) -> None:
    with pytest.raises(Refusal, match=says):
        room_code(typed)


def test_a_room_code_is_typed_in_any_case_with_dashes_or_full_width(tmp_path: Path) -> None:
    db = Database(str(tmp_path / "c.db"))
    with db.transaction() as conn:
        assert create_room(conn, 0.0, "ra-3") == "RA3"
        assert join(conn, "\uff52\uff41\uff13", "Ann", 0.0).room == "RA3"
        for code in ("ABCDEFGHJKMNP", "\u00c9COLE"):
            with pytest.raises(Refusal, match="room code has"):
                create_room(conn, 0.0, code)
        long = "RA3" + "X" * 10  # once cut to 12 characters: now no room, and said so
        with pytest.raises(Refusal, match="at most 12"):
            join(conn, long, "Bob", 0.0)
    db.close()
