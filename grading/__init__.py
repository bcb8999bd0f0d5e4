"""The teacher's side of the exercise sheets: never installed for students, never imported by a check.

* ``grading/cases.py``: the hidden tests' cases (seeds, positions, laws), edited by hand;
* ``grading/answers.py``: their answers, hashed, written by ``python -m grading.keys --write``
  from the source sheets' solutions;
* `grading.keys`: that tool; it also writes the hashes of the visible checks into the package
  (``ra_course/exercises/hashes.py``);
* `grading.audit`: a scan of students' submissions for code that reaches into the kernel instead
  of answering (tracers, frames, the teacher's files, patched built-ins), for a human to read.

The graded cells read the two data files by path (``ra_course.exercises.checking.Hidden``), so the
hidden tests run only where this folder sits beside ``ra_course``: a copy of the repository.
"""
