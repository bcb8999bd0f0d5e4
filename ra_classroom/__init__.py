"""ra_classroom: a whole class bids and plays Ra against each other, each from his own browser.

One server process serves every student's page (no kernel per student): a Starlette app on
uvicorn, with websockets, on SQLite (one file, the default) or PostgreSQL, where several server
processes can share the work. The teacher's control room is a notebook (`ControlRoom`). The
package imports `ra_core`; `ra_core` never imports it.

==========================  ============================================================================
module                      its one job
==========================  ============================================================================
`laws`, `theory`            value laws; what theory predicts (equilibrium bids, revenue, winner's curse)
`experiments`               a round's settings (`RoundSpec`) and what students are told
`matching`, `settle`        groups, tables and values each round; one group's auction outcome
`ratable`                   a Ra table's game, replayed from its moves, and each seat's board
`ra_bridge`                 every `ra_core` name used beyond its front door
`schema`, `database`        the tables (SQLAlchemy Core); SQLite (WAL) or PostgreSQL
`rooms`, `rounds`, `tables` the transactions: join and come back; open, bid, close; Ra moves and bots
`views`, `export`           a student's page; the teacher's status and results
`protocol`, `limits`        the page's messages, read strictly; rate and size limits
`tokens`, `refusal`         seat tokens and secrets; a refusal with its reason
`hub`, `bus`, `service`     pages of this process; events between processes (LISTEN/NOTIFY); commands
`sockets`, `teacher_api`    the student's websocket; the teacher's HTTP API
`app`, `server`             the ASGI app; running it (`python -m ra_classroom serve`), as a child process
`teacher_client`            the teacher's API as Python calls
`control`, `monitor`        the control room and its live panel (notebook)
`links`                     the address, the room's link and its QR code
`simulate`                  simulated students (load benchmark, tests, rehearsals, the sample session)
`analysis`, `plots`         a class's data against the theory (pandas, matplotlib)
==========================  ============================================================================
"""

from __future__ import annotations

from .control import ControlRoom
from .experiments import KINDS, RoundSpec
from .laws import Power, Uniform
from .simulate import Behaviour, SimulatedClass
from .teacher_client import RefusedError, TeacherClient

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
