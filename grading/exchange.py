"""nbgrader's file exchange, closed to students: collect takes a student's own regular files, feedback only feedback.

On a machine shared with students, nbgrader's exchange is a folder every student may write into
(``inbound/``), and the teacher's ``nbgrader collect`` reads what is there with the teacher's
rights. nbgrader 0.9's own classes trust that folder: ``collect`` copies a submission with
``shutil.copytree``, which follows symbolic links (a link a student adds to his submission after
``submit`` brings the gradebook, a source sheet or the hidden cases into ``submitted/``, and
``autograde`` and ``generate_feedback`` carry it on), and takes the latest folder of each name
even when another student made it (its owner check only warns). ``release_feedback`` publishes
every ``*.html`` in a student's feedback folder, including files copied from his submission.

The course's ``nbgrader_config.py`` (``make course``) names the two classes below in nbgrader's
own plugin settings (``c.ExchangeFactory.collect``, ``c.ExchangeFactory.release_feedback``), so
the teacher's commands stay nbgrader's:

* `VettedCollect`: a submission folder counts only if it is a real folder (not a link), owned by
  the account its name gives (``alice+sheet1+<time>+<random>`` must belong to ``alice``); of the
  folders that count, each student's latest is collected, and from it only regular files and
  folders he owns, opened without following links (a link, a device, a pipe, or a file of
  another owner (a hard link) is left out with a warning). A folder that does not count is named
  in a warning and never wins over the student's own.
* `FeedbackRelease`: releases, per student, only ``<notebook>.html`` for the notebooks of the
  assignment in the gradebook: the files ``generate_feedback`` writes, never another file of the
  feedback folder.

The exchange's folders get the modes of `MODES` (`prepare`): the root and ``inbound`` sticky, so
that no student can rename or remove what is not his, ``inbound`` and ``feedback`` not listable.
"""

from __future__ import annotations

import datetime
import errno
import fnmatch
import os
import pwd
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nbgrader.api import Gradebook, MissingEntry  # type: ignore[import-untyped]
from nbgrader.exchange.default import (  # type: ignore[import-untyped]
    ExchangeCollect,
    ExchangeReleaseFeedback,
)
from nbgrader.utils import notebook_hash, parse_utc  # type: ignore[import-untyped]

__all__ = ["MODES", "FeedbackRelease", "Inbound", "VettedCollect", "inbound_folder", "prepare"]

#: The exchange's folders below its root, as `prepare` makes them, and the root ("."): sticky
#: where students write (nobody renames or removes another's entry), listable only where the
#: names are not secret (``outbound``: the released sheets)
MODES = {
    ".": 0o1777,  # every student writes here (nbgrader checks it), nobody removes another's entry
    "{course}": 0o755,
    "{course}/outbound": 0o755,
    "{course}/inbound": 0o1733,  # write and pass, not list: a submission's name is its secret
    "{course}/feedback": 0o711,  # pass only: a feedback file's name is a hash of its submission's secret
}
_NO_FOLLOW = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK


def prepare(root: Path, course_id: str) -> None:
    """Make the exchange at `root` for the course `course_id`, each folder with its mode of `MODES`."""
    for name, mode in MODES.items():
        path = root / name.format(course=course_id)
        path.mkdir(exist_ok=True)
        os.chmod(path, mode)  # after mkdir: the umask would take bits away


@dataclass(frozen=True)
class Inbound:
    """A folder of ``inbound/`` as its name describes it: whose, which assignment, when."""

    name: str
    student: str
    assignment: str
    timestamp: datetime.datetime


def inbound_folder(name: str) -> Inbound | str:
    """Return what the ``inbound/`` folder called `name` claims to be (nbgrader's submit names it), or why not.

    ``student+assignment+time+random``, or ``student+assignment+time``; a student id may hold a
    ``+`` (as in nbgrader), an assignment name or a time may not.
    """
    for parts in (name.rsplit("+", 3), name.rsplit("+", 2)):
        stamp = _time(parts[2]) if len(parts) >= 3 else None
        if stamp is not None and parts[0] and parts[1]:
            return Inbound(name, parts[0], parts[1], stamp)
    return "its name is not student+assignment+time+random, as nbgrader's submit makes it"


def _time(text: str) -> datetime.datetime | None:
    try:
        stamp = parse_utc(text)
    except (ValueError, OverflowError, TypeError):
        return None
    return stamp if isinstance(stamp, datetime.datetime) else None


class VettedCollect(ExchangeCollect):  # type: ignore[misc]
    """nbgrader's collect, taking from each student's own latest folder only his own regular files (see the module)."""

    def init_src(self) -> None:
        """Find each student's latest submission of the assignment among the folders that count."""
        if self.coursedir.course_id == "":
            self.fail("No course id specified. Re-run with --course flag.")
        self.course_path = os.path.join(self.root, self.coursedir.course_id)
        self.inbound_path = os.path.join(self.course_path, "inbound")
        if not os.path.isdir(self.inbound_path):
            self.fail(f"Course not found: {self.inbound_path}")
        wanted = self.coursedir.student_id or "*"
        latest: dict[str, list[Inbound]] = {}
        self._owners: dict[str, int] = {}  # each folder that counts: its owner when it was vetted
        for entry in sorted(os.listdir(self.inbound_path)):
            folder = inbound_folder(entry)
            if isinstance(folder, str):
                if f"+{self.coursedir.assignment_id}+" in entry:
                    self.log.warning("Refused inbound/%s: %s", entry, folder)
                continue
            if folder.assignment != self.coursedir.assignment_id or not fnmatch.fnmatchcase(folder.student, wanted):
                continue
            why = self._refusal(folder)
            if why:
                self.log.warning("Refused inbound/%s: %s", entry, why)
                continue
            latest.setdefault(folder.student, []).append(folder)
            self._owners[folder.name] = os.lstat(os.path.join(self.inbound_path, entry)).st_uid
        self.duedate = self._duedate()
        self.src_records = [self._record(self._choose(folders)) for folders in latest.values()]

    def _refusal(self, folder: Inbound) -> str:
        """Return why `folder` does not count as its student's submission, or '' when it does."""
        info = os.lstat(os.path.join(self.inbound_path, folder.name))
        if not stat.S_ISDIR(info.st_mode):
            return "it is not a folder (a link, or a file): nbgrader's submit makes a folder"
        if not self.check_owner:
            return ""  # the teacher switched the owner check off (ExchangeCollect.check_owner = False)
        try:
            uid = pwd.getpwnam(folder.student).pw_uid
        except KeyError:
            return f"no account of this machine is called {folder.student!r}, whom its name gives"
        if info.st_uid != uid:
            return f"it names {folder.student} but belongs to {_owner(info.st_uid)}"
        return ""

    def _duedate(self) -> datetime.datetime | None:
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
            try:
                return gb.find_assignment(self.coursedir.assignment_id).duedate  # type: ignore[no-any-return]
            except MissingEntry:
                return None

    def _choose(self, folders: list[Inbound]) -> Inbound:
        """Return the latest of one student's folders (the latest before the due date, if asked and there is one)."""
        folders = sorted(folders, key=lambda f: f.timestamp, reverse=True)
        if self.duedate is not None and self.before_duedate:
            in_time = [f for f in folders if f.timestamp <= self.duedate]
            return in_time[0] if in_time else folders[0]
        return folders[0]

    @staticmethod
    def _record(folder: Inbound) -> dict[str, Any]:
        return {"username": folder.student, "filename": folder.name, "timestamp": folder.timestamp}

    def do_copy(self, src: str, dest: str, log: Any = None) -> None:
        """Copy the submission folder `src` to `dest`: only regular files and folders of its owner, no link followed."""
        fd = os.open(src, _NO_FOLLOW | os.O_DIRECTORY)
        try:
            owner = os.fstat(fd).st_uid
            if owner != self._owners.get(os.path.basename(src)):
                self.log.warning("Refused %s: it was replaced since it was vetted", os.path.basename(src))
                return
            budget = [1000 * self.coursedir.max_dir_size]
            os.mkdir(dest, 0o755)
            self._copy_folder(fd, Path(dest), owner, budget, Path(os.path.basename(src)))
        except _TooLarge as error:
            shutil.rmtree(dest)
            self.log.error("Not collected %s: %s", os.path.basename(src), error)
        finally:
            os.close(fd)

    def _copy_folder(self, fd: int, dest: Path, owner: int, budget: list[float], shown: Path) -> None:
        """Copy the folder open as `fd` into `dest`; `budget`: bytes the submission may still hold."""
        for name in sorted(os.listdir(fd)):
            where = shown / name
            if any(fnmatch.fnmatch(name, glob) for glob in self.coursedir.ignore):
                continue
            info = os.stat(name, dir_fd=fd, follow_symlinks=False)
            if stat.S_ISDIR(info.st_mode):
                child = self._open(name, fd, os.O_DIRECTORY, owner, where)
                if child is not None:
                    try:
                        (dest / name).mkdir(0o755)
                        self._copy_folder(child, dest / name, owner, budget, where)
                    finally:
                        os.close(child)
            elif stat.S_ISREG(info.st_mode):
                self._copy_file(name, fd, dest / name, owner, budget, where)
            else:
                self.log.warning("Left out %s: %s", where, _kind(info.st_mode))

    def _copy_file(self, name: str, fd: int, dest: Path, owner: int, budget: list[float], shown: Path) -> None:
        include = self.coursedir.include
        if include and not any(fnmatch.fnmatch(name, glob) for glob in include):
            return
        source = self._open(name, fd, 0, owner, shown)
        if source is None:
            return
        with os.fdopen(source, "rb") as reader:
            size = os.fstat(reader.fileno()).st_size
            if self.coursedir.max_file_size and size > 1000 * self.coursedir.max_file_size:
                self.log.warning("Left out %s: larger than CourseDirectory.max_file_size", shown)
                return
            budget[0] -= size
            if budget[0] < 0:
                raise _TooLarge("its files are larger than CourseDirectory.max_dir_size")
            with open(dest, "xb") as writer:
                writer.write(reader.read(size))

    def _open(self, name: str, fd: int, flags: int, owner: int, shown: Path) -> int | None:
        """Open `name` in the folder `fd` without following a link; None (with a warning) unless it is the owner's."""
        try:
            child = os.open(name, _NO_FOLLOW | flags, dir_fd=fd)
        except OSError as error:  # a link (ELOOP), or it changed since it was listed
            self.log.warning("Left out %s: %s", shown, "a link" if error.errno == errno.ELOOP else error.strerror)
            return None
        info = os.fstat(child)
        kind = stat.S_ISDIR(info.st_mode) if flags & os.O_DIRECTORY else stat.S_ISREG(info.st_mode)
        if kind and info.st_uid == owner:
            return child
        os.close(child)
        why = _kind(info.st_mode) if not kind else f"it belongs to {_owner(info.st_uid)}, not to the submission's owner"
        self.log.warning("Left out %s: %s", shown, why)
        return None


class FeedbackRelease(ExchangeReleaseFeedback):  # type: ignore[misc]
    """nbgrader's release_feedback, publishing only the feedback of the assignment's notebooks (see the module)."""

    def copy_files(self) -> None:
        """Release ``<notebook>.html`` of each student's feedback folder, for each notebook of the assignment."""
        assignment = self.coursedir.assignment_id
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
            notebooks = [nb.name for nb in gb.find_assignment(assignment).notebooks]
            students = sorted(s.id for s in gb.students)
        excluded = set(self.coursedir.student_id_exclude.split(","))
        for student in students:
            if student not in excluded and fnmatch.fnmatchcase(student, self.coursedir.student_id or "*"):
                folder = Path(self.coursedir.format_path(self.coursedir.feedback_directory, student, assignment))
                for notebook in notebooks:
                    self._release(student, folder, notebook)

    def _release(self, student: str, folder: Path, notebook: str) -> None:
        html = folder / f"{notebook}.html"
        try:
            info = html.lstat()
        except FileNotFoundError:
            return
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
            self.log.warning("Not released %s: %s", html, "not a file generate_feedback wrote")
            return
        secret = _read(folder / "submission_secret.txt")
        timestamp = _read(folder / "timestamp.txt")
        if secret is None or timestamp is None:
            self.log.warning("Not released %s: its submission has no secret or time (submitted by hand?)", html)
            return
        name = Path(self.dest_path) / f"{notebook_hash(secret=secret, notebook_id=notebook)}.html"
        self.log.info(
            "Releasing feedback for student '%s' on assignment '%s/%s/%s' (%s)",
            student,
            self.coursedir.course_id,
            self.coursedir.assignment_id,
            notebook,
            timestamp,
        )
        partial = name.with_suffix(".tmp")
        partial.write_bytes(html.read_bytes())
        os.chmod(partial, 0o644)
        os.replace(partial, name)


class _TooLarge(Exception):
    """A submission larger than nbgrader's CourseDirectory.max_dir_size."""


def _read(path: Path) -> str | None:
    """Return the text of the regular file at `path`, or None if it is missing or not one (a link)."""
    try:
        fd = os.open(path, _NO_FOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, encoding="utf-8") as handle:
        return handle.read() if stat.S_ISREG(os.fstat(fd).st_mode) else None


def _owner(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"the user id {uid}"


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a link"
    if stat.S_ISDIR(mode):
        return "a folder where a file was expected"
    if stat.S_ISREG(mode):
        return "a file where a folder was expected"
    return "not a regular file (a pipe, a socket or a device)"
