"""Plain sentences for the teacher: what a control-room call says, and its errors without a traceback wall.

A `Note` is a sentence that a notebook shows as it is. `plain_errors` makes IPython show a
`ClassroomError` (a refusal, a server that does not answer, a busy port) as its one sentence,
which says what to do, instead of a traceback.
"""

from __future__ import annotations

from typing import Any

from .client import ClassroomError

__all__ = ["Note", "plain_errors"]


class Note(str):
    """A sentence for the teacher; a notebook shows it without quotes.

    >>> Note("Round 2 is paused.")
    Round 2 is paused.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


def _one_sentence(shell: Any, etype: type, value: BaseException, tb: Any, tb_offset: Any = None) -> list[str]:
    """Show the error's sentence as the cell's error output (IPython 8 and 9 show nothing a handler returns)."""
    said = [str(value)]
    shell._showtraceback(etype, value, said)  # the shell's own hook: the kernel sends it as the cell's error
    return said


def plain_errors() -> bool:
    """In IPython (a notebook), show every `ClassroomError` as its sentence alone; return whether it is so now."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    if shell is None:
        return False
    shell.set_custom_exc((ClassroomError,), _one_sentence)
    return True
