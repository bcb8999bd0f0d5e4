"""Whose file is whose in a learning platform's download (grading/platforms.py), with the names platforms give.

The names are those Moodle and Canvas write into their "download all submissions" archives
(exercises/TEACHING.md shows each pattern), ids first, and a browser's second copies. Each must be
matched to its student of the roster, or skipped with the reason, never graded as a new student.
"""

from __future__ import annotations

import pytest

pytest.importorskip("nbgrader", reason="nbgrader is not installed (pip install -e '.[grading]')")

from grading.platforms import Found, Student, identify, notes  # noqa: E402

ROSTER = [
    Student("alice", "Alice", "Archer", "alice@example.org"),
    Student("bob", "Bob", "Baker", "bob@example.org"),
    Student("carol", "Carol", "Cooper", "carol@example.org"),
    Student("s1234567", "Zoë", "Lefèvre-Dubois", "zoe.lefevre@example.org"),
]
SHEET = "02_ras_auction"


@pytest.mark.parametrize(
    ("path", "student", "copy"),
    [
        # Moodle: full name, participant number, the plugin; or a folder per student
        (f"sheet2/Alice Archer_1001_assignsubmission_file_{SHEET}.ipynb", "alice", 0),
        (f"sheet2/Bob Baker_1002_assignsubmission_file/{SHEET}.ipynb", "bob", 0),
        (f"sheet2/Zoë Lefèvre-Dubois_1004_assignsubmission_file_{SHEET}.ipynb", "s1234567", 0),
        # Canvas: last and first name run together, user and submission numbers, LATE, -1 for a second upload
        (f"sheet2/archercarol_4711_90210_{SHEET}.ipynb", None, 0),
        (f"sheet2/cooperCarol_4713_90212_{SHEET}.ipynb", "carol", 0),
        (f"sheet2/bakerbob_LATE_4712_90211_{SHEET}-1.ipynb", "bob", 1),
        (f"sheet2/lefevreduboiszoe_4714_90213_{SHEET}.ipynb", "s1234567", 0),
        # the id first; a browser's second and third copies
        (f"alice_{SHEET}.ipynb", "alice", 0),
        (f"carol_4711_late_{SHEET}(1).ipynb", "carol", 1),
        (f"s1234567_{SHEET} (2).ipynb", "s1234567", 2),
        (f"sheet2/zoe.lefevre_{SHEET}.ipynb", "s1234567", 0),
    ],
)
def test_each_platforms_name_is_matched_to_the_roster(path: str, student: str | None, copy: int) -> None:
    found = identify(path, ROSTER, [SHEET])
    if student is None:
        assert isinstance(found, str) and "no student of the roster" in found
    else:
        assert found == Found(student, f"{SHEET}.ipynb", copy)


def test_files_of_nobody_are_named_with_the_reason() -> None:
    assert "no student" in str(identify(f"dave_{SHEET}.ipynb", ROSTER, [SHEET]))
    assert "no sheet" in str(identify("alice_notes.ipynb", ROSTER, [SHEET]))
    assert "more than one" in str(identify(f"Bob Baker_1_{SHEET}.ipynb", [*ROSTER, Student("bob2", "Bob", "Baker")]))
    assert "roster is empty" in str(identify(f"alice_{SHEET}.ipynb", [], [SHEET]))


def test_a_student_with_nothing_collected_is_marked_with_the_files_skipped() -> None:
    """grades.csv says why a 0 is a 0: nothing handed in, or files of the sheet's download that matched no one."""
    rows = [
        {"assignment": "sheet2", "student_id": "alice", "timestamp": "2026-01-01 10:00:00", "score": "8.0"},
        {"assignment": "sheet2", "student_id": "bob", "timestamp": "", "score": "0.0"},
        {"assignment": "sheet1", "student_id": "bob", "timestamp": "", "score": "0.0"},
    ]
    skipped = {"sheet2": {f"Robert Baker_7_{SHEET}.ipynb": "no student of the roster is called by a part of its name"}}
    marked = notes(rows, skipped)
    assert [row["note"] for row in marked] == [
        "",
        f"nothing collected, and 1 file(s) of the download skipped (downloaded/sheet2/skipped.json): "
        f"Robert Baker_7_{SHEET}.ipynb",
        "nothing handed in",
    ]
    assert [{k: v for k, v in row.items() if k != "note"} for row in marked] == rows
