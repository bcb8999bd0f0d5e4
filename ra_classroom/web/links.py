"""The students' way in: the server's address on the class's network, the room's link, its QR code.

>>> room_link("http://192.168.1.20:8000", "K7RWP")
'http://192.168.1.20:8000/r/K7RWP'
>>> qr_svg("http://192.168.1.20:8000/r/K7RWP").startswith("<svg")
True
"""

from __future__ import annotations

import io
import socket
import time

__all__ = ["announce_room", "lan_address", "qr_svg", "room_link", "server_address"]


def lan_address() -> str:
    """Return this machine's address on its local network (127.0.0.1 if it has none).

    No packet is sent: connecting a UDP socket only asks the system which interface it would use.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def server_address(host: str, port: int) -> str:
    """Return the address students type: this machine's network address if the server listens on all of them."""
    shown = lan_address() if host in ("0.0.0.0", "", "::") else host
    return f"http://{shown}:{port}"


def room_link(address: str, room: str) -> str:
    """Return the short link that opens the page with the room code filled in."""
    return f"{address.rstrip('/')}/r/{room}"


def qr_svg(text: str, scale: int = 5) -> str:
    """Return a QR code of `text` as an SVG picture (dark on white, so phones read it on any theme)."""
    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=scale, xmldecl=False, svgns=True, light="#fff", dark="#000")
    return out.getvalue().decode("utf-8")


def announce_room(database: str, host: str, port: int) -> str:
    """Create a room in `database`, print its code, link and a QR code for the terminal; return the code."""
    import segno

    from ..store.database import Database
    from ..store.rooms import create_room

    db = Database(database)
    with db.transaction() as conn:
        code = create_room(conn, time.time())
    db.close()
    link = room_link(server_address(host, port), code)
    print(f"room {code}: students open {link}", flush=True)
    segno.make(link, error="m").terminal(compact=True)
    return code
