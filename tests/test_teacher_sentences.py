"""A refusal typed in a cell shows its one sentence, and an interrupted wait says the class goes on.

IPython calls a custom exception handler and throws away what it returns (IPython 8 and 9 both),
so `plain_errors` must show the sentence itself; these tests run cells in an IPython shell in this
process and read what the cell printed. They run on whichever IPython is installed (9 with the
project; run them with IPython 8 too: ``pip install 'ipython<9'`` in a throwaway environment).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from ra_classroom.teacher.client import RefusedError
from ra_classroom.teacher.control import Waiting
from ra_classroom.teacher.notes import plain_errors

IPython = pytest.importorskip("IPython")


@pytest.fixture
def shell() -> Iterator[Any]:
    from IPython.core.interactiveshell import InteractiveShell

    shell: Any = InteractiveShell.instance(colors="nocolor")
    assert plain_errors()
    try:
        yield shell
    finally:
        shell.set_custom_exc((), None)
        InteractiveShell.clear_instance()


class _OpenRound:
    """A room whose round stays open: a wait on it ends only when interrupted."""

    def status(self) -> dict[str, Any]:
        return {"round": {"number": 3, "status": "open"}}


def test_a_refusal_in_a_cell_is_its_sentence_alone(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    shell.user_ns["RefusedError"] = RefusedError
    result = shell.run_cell('raise RefusedError(409, "Round 2 is open: close it before opening another.")')
    out = capsys.readouterr()
    assert isinstance(result.error_in_exec, RefusedError)
    assert (out.out + out.err).strip() == "Round 2 is open: close it before opening another."


def test_an_interrupted_wait_says_the_class_goes_on(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    shell.user_ns["wait"] = Waiting(_OpenRound(), None, every=0.01)  # type: ignore[arg-type]

    async def interrupted() -> Any:
        cell = asyncio.ensure_future(
            shell.run_cell_async("await wait", store_history=False, transformed_cell="await wait\n")
        )
        await asyncio.sleep(0.2)
        cell.cancel()  # what the kernel does when the teacher presses its stop button
        return await cell

    result = asyncio.run(interrupted())
    out = capsys.readouterr()
    shown = (out.out + out.err).strip()
    assert "CancelledError" not in shown and "Traceback" not in shown
    assert shown.startswith("You stopped the wait, not the class: the round goes on") and "\n" not in shown
    assert type(result.error_in_exec).__name__ == "WaitStopped"
