"""Whose sheet is this file? The names learning platforms give their downloads, matched to the course's roster.

nbgrader's ``zip_collect`` reads a student id and a notebook from the name of each file it
extracts. Learning platforms name the files of a "download all submissions" archive after the
student as they know him, not after his id (exercises/TEACHING.md has each platform's pattern):

* Moodle: ``Bob Baker_31_assignsubmission_file_02_ras_auction.ipynb`` (the full name, the
  participant number, the plugin), or ``Bob Baker_31_assignsubmission_file/02_ras_auction.ipynb``
  with "download submissions in folders";
* Canvas: ``bakerbob_4711_90210_02_ras_auction.ipynb`` (last and first name run together, lower
  case; the user and submission numbers), ``bakerbob_LATE_4711_...`` when late, and
  ``..._02_ras_auction-1.ipynb`` for a file uploaded again;
* the id first (a platform or a teacher who renames): ``alice_02_ras_auction.ipynb``;
* a browser that saves a file twice: ``02_ras_auction(1).ipynb`` or ``02_ras_auction (1).ipynb``.

`RosterCollector` finds the sheet's file name in each, and the student by his id, his full name
(either order) or his e-mail's local part, in the roster of the gradebook (``nbgrader db student
import students.csv``). A file that matches no student, or more than one, is skipped with a
warning that names it, never graded as a new student; of two files of one student for one
sheet, the later copy (``-1``, ``(1)``) is collected and the other skipped, with a warning.

A skipped file must not turn into a silent 0: the collector writes the files it could not place
to ``downloaded/<sheet>/skipped.json``, and `MarkedCsvExport` (``nbgrader export``, which ``make
course`` sets as ``c.ExportApp.plugin_class``) adds a column ``note`` to ``grades.csv`` that, for a
student with nothing collected, says so and names the skipped files of that sheet.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from nbgrader.plugins import CsvExportPlugin, FileNameCollectorPlugin  # type: ignore[import-untyped]

from .judge import NOTEBOOKS

__all__ = ["SKIPPED", "Found", "MarkedCsvExport", "RosterCollector", "Student", "identify", "notes"]

#: the files of a sheet's download that matched no one student, in ``downloaded/<sheet>/``
SKIPPED = "skipped.json"


@dataclasses.dataclass(frozen=True)
class Student:
    """A student of the roster: his id and what a platform may call him."""

    id: str
    first_name: str = ""
    last_name: str = ""
    email: str = ""

    def names(self) -> set[str]:
        """Return what a file's name may call him, each as `_key` makes it."""
        first, last = _key(self.first_name), _key(self.last_name)
        found = {_key(self.id), _key(self.email.split("@")[0]) if self.email else ""}
        if first and last:
            found |= {first + last, last + first}
        return found - {""}


@dataclasses.dataclass(frozen=True)
class Found:
    """A file identified: whose, which sheet (its released file name), and which copy (0 the first)."""

    student: str
    notebook: str
    copy: int


def _key(text: str) -> str:
    """Return `text` as names are compared: lower case, letters and digits only, accents dropped."""
    return "".join(c for c in unicodedata.normalize("NFKD", text).lower() if c.isalnum())


def identify(path: str, roster: Iterable[Student], notebooks: Iterable[str] = NOTEBOOKS) -> Found | str:
    """Return who handed in the file at `path` (relative to the extracted archive) and which sheet, or why not.

    `notebooks`: the sheets' file names without ``.ipynb``.
    """
    for notebook in notebooks:
        match = re.search(rf"{re.escape(notebook)}(?:\s*\((\d+)\)|-(\d+))?\.ipynb$", path)
        if match:
            break
    else:
        return "its name holds the name of no sheet of this course"
    copy = int(match.group(1) or match.group(2) or 0)
    words = [w for w in re.split(r"[/\\_]", path[: match.start()]) if w]
    students = list(roster)
    if not students:
        return "the roster is empty: import it first (nbgrader db student import students.csv)"
    by_id = {s.id.lower(): s for s in students}
    for word in words:  # an id, in any place: alice_02_..., or a folder named after the student
        if word.lower() in by_id:
            return Found(by_id[word.lower()].id, f"{notebook}.ipynb", copy)
    for word in words:  # a name: Moodle's "Bob Baker", Canvas's "bakerbob"
        who = [s for s in students if _key(word) in s.names()]
        if len(who) == 1:
            return Found(who[0].id, f"{notebook}.ipynb", copy)
        if len(who) > 1:
            return f"{word!r} is the name of more than one student: {', '.join(s.id for s in who)}"
    shown = " ".join(words)[:80]
    return f"no student of the roster is called by a part of its name ({shown!r}): neither an id nor a full name"


class RosterCollector(FileNameCollectorPlugin):  # type: ignore[misc]
    """nbgrader's collector for ``zip_collect`` that knows the platforms' names and the roster (see the module)."""

    def collect(self, submitted_file: str) -> dict[str, Any] | None:
        """Return the student id and notebook of `submitted_file`, or None (with a warning) to skip it."""
        if os.path.splitext(submitted_file)[1] not in self.valid_ext:
            return None
        root = _extracted_root(Path(submitted_file), getattr(self.parent, "extracted_directory", "extracted"))
        choice = self._choices(root).get(Path(submitted_file))
        if isinstance(choice, Found):
            return {"student_id": choice.student, "file_id": choice.notebook}
        self.log.warning("Skipped %s: %s", submitted_file, choice or "not a notebook of the archive")
        return None

    def _choices(self, root: Path) -> dict[Path, Found | str]:
        """Return, for every notebook under `root`, whom it is from, or why it is skipped (read once)."""
        cached: dict[Path, Found | str] | None = getattr(self, "_cache", None)
        if cached is None:
            found = {p: identify(p.relative_to(root).as_posix(), self._roster()) for p in sorted(root.rglob("*.ipynb"))}
            latest: dict[tuple[str, str], Path] = {}
            for path, who in found.items():
                if isinstance(who, Found):
                    key = (who.student, who.notebook)
                    if key not in latest or _later(who, found[latest[key]]):
                        latest[key] = path
            cached = {path: _placed(path, who, latest) for path, who in found.items()}
            self._cache = cached
            unplaced = {p.relative_to(root).as_posix(): why for p, why in found.items() if isinstance(why, str)}
            (root.parent / SKIPPED).write_text(json.dumps(unplaced, indent=1), encoding="utf-8")
        return cached

    def _roster(self) -> list[Student]:
        from nbgrader.api import Gradebook  # type: ignore[import-untyped]

        with Gradebook(self.parent.coursedir.db_url, self.parent.coursedir.course_id) as gb:
            return [Student(s.id, s.first_name or "", s.last_name or "", s.email or "") for s in gb.students]


def _placed(path: Path, who: Found | str, latest: dict[tuple[str, str], Path]) -> Found | str:
    """Return whom `path` is from, or why it is skipped: a student's earlier copy of a notebook is."""
    if not isinstance(who, Found) or latest[(who.student, who.notebook)] == path:
        return who
    return f"{who.student} handed in {who.notebook} again, in {latest[(who.student, who.notebook)].name}"


def _later(a: Found | str, b: Found | str) -> bool:
    return isinstance(a, Found) and isinstance(b, Found) and a.copy > b.copy


def _extracted_root(path: Path, name: str) -> Path:
    """Return the folder `zip_collect` extracted the archives into: the nearest one called `name` above `path`."""
    for parent in path.parents:
        if parent.name == name:
            return parent
    return path.parent


def notes(rows: list[dict[str, str]], skipped: dict[str, dict[str, str]]) -> list[dict[str, str]]:
    """Return `rows` of grades.csv, each with a ``note``: for nothing collected, that, and the sheet's skipped files.

    `skipped`: by assignment, the files of its download that matched no one student, and why.
    """
    marked = []
    for row in rows:
        note = ""
        if not row.get("timestamp"):
            files = skipped.get(row["assignment"], {})
            if not files:
                note = "nothing handed in"
            else:
                note = (
                    f"nothing collected, and {len(files)} file(s) of the download skipped "
                    f"(downloaded/{row['assignment']}/{SKIPPED}): " + "; ".join(sorted(files))
                )
        marked.append({**row, "note": note})
    return marked


class MarkedCsvExport(CsvExportPlugin):  # type: ignore[misc]
    """nbgrader's grades.csv, with a column ``note`` where a student has no submission (see the module)."""

    def export(self, gradebook: Any) -> None:
        """Write grades.csv as nbgrader does, then add the notes."""
        super().export(gradebook)
        path = Path(self.to or "grades.csv")
        with path.open(encoding="utf-8", newline="") as handle:
            reader = csv.DictReader(handle)
            rows, fields = list(reader), [*(reader.fieldnames or []), "note"]
        root = Path(self.parent.coursedir.root) / "downloaded"  # zip_collect's default downloaded_directory
        skipped = {
            folder.name: json.loads((folder / SKIPPED).read_text(encoding="utf-8"))
            for folder in (sorted(root.iterdir()) if root.is_dir() else [])
            if (folder / SKIPPED).is_file()
        }
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fields, lineterminator="\n")
            writer.writeheader()
            writer.writerows(notes(rows, skipped))
