"""ra_classroom: a whole class bids and plays Ra against each other, each from his own browser.

One server process serves every student's page (no kernel per student): a Starlette app on
uvicorn, with websockets, on SQLite (one file, the default) or PostgreSQL, where several server
processes can share the work. The teacher's control room is a notebook (`ControlRoom`). The
package imports `ra_core`; `ra_core` never imports it.

Its folders are its floors, each standing on those below it (docs/classroom.md has the table,
which tests/classroom/test_floors.py checks against every import): `auctions` (sealed-bid rounds
and their theory), `game` (a Ra table, on `ra_core`), `kinds` (each kind of round one object, and
their registry), `store` (the database and its transactions), `web` (the server) and `teacher`
(the control room and a class's data).
"""

from __future__ import annotations

from .auctions.laws import Power, Uniform
from .kinds.registry import TITLES as KINDS
from .kinds.spec import RoundSpec
from .teacher.client import RefusedError, TeacherClient
from .teacher.control import ControlRoom
from .teacher.simulate import Behaviour, SimulatedClass

__all__ = [
    "KINDS",
    "Behaviour",
    "ControlRoom",
    "Power",
    "RefusedError",
    "RoundSpec",
    "SimulatedClass",
    "TeacherClient",
    "Uniform",
]
