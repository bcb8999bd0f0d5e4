"""The answer keys of the exercise sheets, for teachers: not part of the installed package.

`grading.keys` computes the data of the hidden tests (positions, seeds and hashed answers) from
the reference solutions in ``exercises/source`` and writes it into the sources' hidden test
cells; ``python -m grading.keys --check`` says whether they are up to date.
"""
