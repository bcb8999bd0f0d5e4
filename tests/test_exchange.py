"""The course's exchange classes (grading/exchange.py) on folders made in place: what counts, what is copied.

tests/test_exchange_students.py runs them with real accounts and nbgrader's commands (as root);
these run as any user, in this process: a submission folder's name, which folders count (a link
never, another's folder never), and what collect copies of one (regular files of the folder's
owner, nothing a link points to, no pipe).
"""

from __future__ import annotations

import datetime
import os
import pwd
from pathlib import Path

import pytest

pytest.importorskip("nbgrader", reason="nbgrader is not installed (pip install -e '.[grading]')")

from nbgrader.auth import Authenticator  # type: ignore[import-untyped]  # noqa: E402
from nbgrader.coursedir import CourseDirectory  # type: ignore[import-untyped]  # noqa: E402

from grading.exchange import Inbound, VettedCollect, inbound_folder  # noqa: E402

ME = pwd.getpwuid(os.getuid()).pw_name
TIME = "2026-03-01 10:00:00.000001 UTC"


def _collect(root: Path) -> VettedCollect:
    return VettedCollect(coursedir=CourseDirectory(root=str(root)), authenticator=Authenticator())


def test_a_folders_name_gives_its_student_assignment_and_time() -> None:
    found = inbound_folder(f"alice+sheet1+{TIME}+Ab3_x")
    assert isinstance(found, Inbound) and (found.student, found.assignment) == ("alice", "sheet1")
    assert found.timestamp == datetime.datetime(2026, 3, 1, 10, 0, 0, 1)
    assert isinstance(inbound_folder(f"a+b+sheet1+{TIME}+r"), Inbound)  # an id with a '+', as nbgrader allows
    assert inbound_folder(f"a+b+sheet1+{TIME}+r").student == "a+b"  # type: ignore[union-attr]
    for name in ("alice+sheet1", f"alice+sheet1+{TIME}+r+s", "alice+sheet1+yesterday+r", f"+sheet1+{TIME}+r"):
        assert isinstance(inbound_folder(name), str), name


def test_a_link_or_a_folder_of_another_account_does_not_count(tmp_path: Path) -> None:
    inbound = tmp_path / "inbound"
    inbound.mkdir()
    (inbound / f"{ME}+sheet1+{TIME}+a").mkdir()
    (inbound / f"{ME}+sheet1+{TIME}+b").symlink_to(tmp_path)
    other = next(p.pw_name for p in pwd.getpwall() if p.pw_uid != os.getuid())
    (inbound / f"{other}+sheet1+{TIME}+c").mkdir()  # this account's, named for another
    collect = _collect(tmp_path)
    collect.inbound_path = str(inbound)
    refusals = {name: collect._refusal(inbound_folder(name)) for name in sorted(os.listdir(inbound))}  # type: ignore[arg-type]
    assert refusals == {
        f"{ME}+sheet1+{TIME}+a": "",
        f"{ME}+sheet1+{TIME}+b": "it is not a folder (a link, or a file): nbgrader's submit makes a folder",
        f"{other}+sheet1+{TIME}+c": f"it names {other} but belongs to {ME}",
    }


def test_collect_copies_only_the_owners_regular_files_and_follows_no_link(tmp_path: Path) -> None:
    secret = tmp_path / "gradebook.db"
    secret.write_bytes(b"SQLite format 3\x00")
    src = tmp_path / "inbound" / f"{ME}+sheet1+{TIME}+a"
    (src / "data").mkdir(parents=True)
    (src / "01_sheet.ipynb").write_text("{}", encoding="utf-8")
    (src / "data" / "notes.txt").write_text("mine", encoding="utf-8")
    (src / "gradebook.html").symlink_to(secret)
    (src / "linked").symlink_to(tmp_path, target_is_directory=True)
    os.mkfifo(src / "pipe")
    (src / ".ipynb_checkpoints").mkdir()  # nbgrader's CourseDirectory.ignore
    collect = _collect(tmp_path)
    collect._owners = {src.name: os.getuid()}
    dest = tmp_path / "submitted"
    collect.do_copy(str(src), str(dest))
    copied = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*"))
    assert copied == ["01_sheet.ipynb", "data", "data/notes.txt"]
    assert not any(p.is_symlink() for p in dest.rglob("*"))


def test_a_folder_replaced_since_it_was_vetted_is_not_copied(tmp_path: Path) -> None:
    src = tmp_path / f"{ME}+sheet1+{TIME}+a"
    src.mkdir()
    (src / "01_sheet.ipynb").write_text("{}", encoding="utf-8")
    collect = _collect(tmp_path)
    collect._owners = {src.name: os.getuid() + 1}  # its owner when it was vetted was another account
    collect.do_copy(str(src), str(tmp_path / "submitted"))
    assert not (tmp_path / "submitted").exists()
