"""The classroom as a class on campus Wi-Fi or the internet reaches it: behind Caddy, over TLS, on PostgreSQL.

The project's own Caddyfile (``deploy/Caddyfile``) runs on loopback with Caddy's internal
certificate authority (a throwaway data folder, free ports, the admin endpoint off), in front of
``python -m ra_classroom serve`` on a PostgreSQL server the test starts. The teacher's control
room connects through Caddy as from his own laptop (`ControlRoom.connect`, the certificate checked
against Caddy's root), and three chromium pages play a Ra table and then bid in a sealed-bid round
through ``https://`` and ``wss://``.

The students' address must be theirs, not the proxy's: the server limits joins per address
(``--joins-per-minute``). On loopback every connection comes from this machine, and a browser
adds no header to a websocket's handshake, so a websocket client plays a device on a network of
its own (198.51.100.7) behind a campus load balancer that Caddy trusts (``RA_CADDY_TRUSTED_PROXIES``;
the client connects from ``::1``, which stands for it): after this machine's joins are spent
straight to the server, that device still joins through Caddy, since the server takes its
address from Caddy's X-Forwarded-For.

Every wait is bounded (Playwright's 20 s, the servers' start-up 60 s). Without chromium, caddy
or PostgreSQL the tests fail under CI (``CI`` set) and are skipped elsewhere.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from test_play_in_browser import _need_browser  # type: ignore[import-not-found]

from ra_classroom import ControlRoom
from ra_classroom.game.table import Selection, TableGame
from ra_classroom.web.server import ServerProcess
from ra_core import parse_action
from tests.classroom.pages import Page
from tests.classroom.postgres import Postgres, binaries

ROOT = Path(__file__).resolve().parents[2]
CADDYFILE = ROOT / "deploy" / "Caddyfile"
SECRET = "the-teachers-secret-behind-caddy"
JOINS = 6  #: joins per address the server allows at once: three pages for each of the two browser tests
FAR = "198.51.100.7"  #: a device's address, as the load balancer in front of Caddy names it
NAMES = ["Ann", "Bo", "Cy"]
SEED = "behind-caddy"  #: each test's room's seed, which decides its values and its Ra table's tiles


def _need(what: str, found: object) -> None:
    if not found:
        if os.environ.get("CI"):
            pytest.fail(what)
        pytest.skip(what)


def _free_port_v6() -> int:
    with socket.socket(socket.AF_INET6) as s:
        s.bind(("::1", 0))
        return int(s.getsockname()[1])


@dataclass
class Site:
    """The classroom behind Caddy: its public address, Caddy's root certificate, the server behind."""

    url: str
    root: Path
    server: ServerProcess


def _wait_https(url: str, context: ssl.SSLContext, caddy: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if caddy.poll() is not None:
            raise RuntimeError(f"caddy exited with {caddy.returncode}:\n{log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2, context=context) as r:
                if r.status == 200:
                    return
        except (OSError, ssl.SSLError):
            time.sleep(0.2)
    raise RuntimeError(f"the classroom did not answer through caddy within 60 s:\n{log.read_text()[-2000:]}")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """PostgreSQL, the classroom server on 127.0.0.1, and Caddy on [::1] with TLS in front of it."""
    _need_browser()
    _need("caddy is missing (apt-get install -y caddy)", shutil.which("caddy"))
    bin_dir = binaries()
    _need("PostgreSQL's binaries are missing (apt-get install -y postgresql)", bin_dir)
    assert bin_dir is not None
    folder = tmp_path_factory.mktemp("behind-caddy")
    port = _free_port_v6()
    url = f"https://[::1]:{port}"
    pg = Postgres(bin_dir).start()
    caddy: subprocess.Popen[bytes] | None = None
    server = ServerProcess(
        pg.new_database(), SECRET, log=folder / "server.log", options=["--joins-per-minute", str(JOINS)]
    )
    saved = {k: os.environ.get(k) for k in ("RA_CLASSROOM_ADDRESS", "RA_CLASSROOM_TRUSTED_PROXY")}
    try:
        os.environ["RA_CLASSROOM_ADDRESS"] = url  # what the projector shows, and the pages' origin
        # The proxies whose X-Forwarded-For the server believes, walking back from its last hop: Caddy
        # (127.0.0.1), and the load balancer in front of it (::1).
        os.environ["RA_CLASSROOM_TRUSTED_PROXY"] = "127.0.0.1,::1"
        server.start()
        env = {
            **os.environ,
            "HOME": str(folder),  # Caddy's certificate authority and certificates live here, thrown away after
            "XDG_DATA_HOME": str(folder / "data"),
            "XDG_CONFIG_HOME": str(folder / "config"),
            "RA_CLASSROOM_SITE": url,
            "RA_CLASSROOM_TLS": "internal",
            "RA_CLASSROOM_UPSTREAM": f"127.0.0.1:{server.port}",
            "RA_CADDY_BIND": "::1",
            "RA_CADDY_TRUSTED_PROXIES": "::1/128",  # the campus load balancer the far device stands behind
            "RA_CADDY_HTTP_PORT": str(_free_port_v6()),
            "RA_CADDY_HTTPS_PORT": str(port),
            "RA_CADDY_ADMIN": "off",
        }
        log = folder / "caddy.log"
        with open(log, "wb") as out:
            caddy = subprocess.Popen(
                ["caddy", "run", "--adapter", "caddyfile", "--config", str(CADDYFILE)],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        root = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        deadline = time.monotonic() + 60
        while not root.exists() and caddy.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        _wait_https(url, ssl.create_default_context(cafile=str(root)), caddy, log)
        yield Site(url, root, server)
    finally:
        if caddy is not None:
            os.killpg(caddy.pid, signal.SIGTERM)
            try:
                caddy.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(caddy.pid, signal.SIGKILL)
                caddy.wait(timeout=10)
        server.stop()
        pg.stop()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture
def room(site: Site, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> ControlRoom:
    """The teacher's control room, connected through Caddy as from his laptop, Caddy's certificate checked."""
    from ra_classroom.teacher.client import TeacherClient

    monkeypatch.setenv("SSL_CERT_FILE", str(site.root))  # the default HTTPS context trusts Caddy's root only
    code = TeacherClient(site.url, SECRET).create_room(seed=SEED)
    control = ControlRoom.connect(site.url, SECRET, code, results=tmp_path / "results")
    assert control.link == f"{site.url}/r/{control.room}"
    return control


@pytest.fixture
def pages(devices: Callable[..., list[Any]]) -> list[Any]:
    """Three students' devices (browser contexts) that accept Caddy's internal certificate."""
    return devices(len(NAMES), width=900, height=1400, ignore_https_errors=True)


def join(pages: list[Any], room: ControlRoom) -> None:
    """Each page opens the room's https:// link and joins over wss://."""
    from playwright.sync_api import expect

    sockets: list[str] = []
    for page, name in zip(pages, NAMES, strict=True):
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(room.link)
        expect(page.locator("#room")).to_have_value(room.room)
        page.locator("#name").fill(name)
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.locator("#who")).to_have_text(f"{name} · room {room.room}")
    assert sockets and all(u.startswith(room.address.replace("https://", "wss://")) for u in sockets), sockets


def test_a_ra_table_plays_through_caddy_over_wss(room: ControlRoom, pages: list[Any]) -> None:
    from playwright.sync_api import expect

    join(pages, room)
    room.open_round("ra", group_size=3)
    names = room.status()["tables"][0]["seats"]
    game = TableGame(3, f"{SEED}:1:t0")  # the room's seed, round 1, table 0: the server's own game
    for page in pages:
        expect(page.locator("#ra-board svg")).to_be_visible()
    seats = {}
    for page in pages:
        shown = page.locator("#ra-facts li").all_text_contents()
        seats[page] = next(
            q for q in range(3) if game.view(q, names, set(), live=True, sel=Selection())["facts"] == shown
        )
    assert sorted(seats.values()) == [0, 1, 2]
    for _ in range(6):
        mover = next(p for p in pages if seats[p] == game.state.to_move)
        expect(mover.locator("#ra-status")).to_contain_text("Your turn")
        offered = mover.locator("#ra-board [data-action]").evaluate_all("ns => ns.map(n => n.dataset.action)")
        action = next((a for a in ("draw", "pass") if a in offered), sorted(offered)[-1])
        mover.locator(f'#ra-board [data-action="{action}"]').first.click()
        game.move(seats[mover], parse_action(action), set())
        for page in pages:
            expect(page.locator("#ra-board")).to_have_attribute("data-version", str(game.ply))
            shown = page.locator("#ra-facts li").all_text_contents()
            assert shown == game.view(seats[page], names, set(), live=True, sel=Selection())["facts"]


def test_a_sealed_bid_round_through_caddy_over_wss(room: ControlRoom, pages: list[Any]) -> None:
    from playwright.sync_api import expect

    join(pages, room)
    room.open_round("second", group_size=3, close_when_done=False)
    typed = {}
    for page, name in zip(pages, NAMES, strict=True):
        expect(page.locator("#bid")).to_be_visible()
        typed[name] = round(float(page.locator("#value").inner_text()), 2)  # truthful: the dominant bid
        page.locator("#amount").fill(f"{typed[name]:.2f}")
        page.get_by_role("button", name="Bid").click()
        expect(page.locator("#notice")).to_have_text("Your bid is in.")
    for page in pages:
        expect(page.locator("#bid-count")).to_have_text("3 of 3 in your group have bid.")
    room.close_round()
    for page in pages:
        expect(page.locator("#result-group tbody tr")).to_have_count(3)
    results = room.results()
    assert dict(zip(results["name"], results["bid"], strict=True)) == typed
    winner = results.loc[results["won"], "name"].iloc[0]
    assert typed[winner] == max(typed.values())
    expect(pages[NAMES.index(winner)].locator("#result-text")).to_contain_text("You won.")
    saved = room.stop()  # the results saved on the teacher's side, the pages told
    assert "saved" in saved
    for page in pages:
        expect(page.locator("body")).to_contain_text("ended")


def test_the_shipped_caddyfile_on_a_server_with_a_public_name(tmp_path: Path) -> None:
    """On a server (no test settings), deploy/Caddyfile serves the name on 443 with Let's Encrypt, in front of 8000."""
    import json

    _need("caddy is missing (apt-get install -y caddy)", shutil.which("caddy"))
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "RA_CLASSROOM_SITE": "class.example.edu",
        "RA_CLASSROOM_TLS": "teacher@example.edu",
    }
    adapted = subprocess.run(
        ["caddy", "adapt", "--adapter", "caddyfile", "--config", str(CADDYFILE)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    config = json.loads(adapted.stdout)
    http = config["apps"]["http"]
    assert (http["http_port"], http["https_port"]) == (80, 443)
    (server,) = http["servers"].values()
    assert server["listen"] == ["0.0.0.0:443", "[::]:443"]
    route = server["routes"][0]
    assert route["match"] == [{"host": ["class.example.edu"]}]
    assert '"dial": "127.0.0.1:8000"' in json.dumps(route)  # the classroom server on this machine only
    (policy,) = config["apps"]["tls"]["automation"]["policies"]
    assert {i["module"] for i in policy["issuers"]} >= {"acme"}
    assert all(i["email"] == "teacher@example.edu" for i in policy["issuers"])
    assert config["apps"]["pki"]["certificate_authorities"]["local"]["install_trust"] is False


def _join_through_caddy(site: Site, room: str, name: str, forwarded: str) -> str:
    """Join `room` over wss:// through Caddy, as a device the load balancer names `forwarded`; return the answer."""
    from websockets.sync.client import connect

    context = ssl.create_default_context(cafile=str(site.root))
    headers = {"X-Forwarded-For": forwarded, "Origin": site.url}
    with connect(site.url.replace("https://", "wss://") + "/ws", ssl=context, additional_headers=headers,
                 open_timeout=10) as ws:  # fmt: skip
        ws.send(json.dumps({"t": "join", "room": room, "name": name, "id": 1}))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv(timeout=10))
            if msg.get("t") in ("welcome", "refused") and msg.get("id") == 1:
                return str(msg["t"])
    raise AssertionError("no answer to the join within 10 s")


def test_the_students_address_is_the_one_caddy_forwards(site: Site) -> None:
    """This machine's joins spent straight to the server, a device behind Caddy still joins: its address is its own."""
    from ra_classroom.teacher.client import TeacherClient

    code = TeacherClient(site.server.url, SECRET).create_room(seed="addresses")
    direct: list[Page] = []
    try:
        answer = ""
        while answer != "refused":  # straight to the server, from 127.0.0.1 (where Caddy connects from too)
            assert len(direct) <= JOINS, f"the server let {len(direct)} joins from one address in"
            direct.append(Page(site.server.url))
            direct[-1].send(t="join", room=code, name=f"Direct {len(direct)}", id=1)
            answer = direct[-1].until(lambda m: m.get("t") in ("welcome", "refused") and m.get("id") == 1)["t"]
        assert _join_through_caddy(site, code, "From afar", FAR) == "welcome"
    finally:
        for page in direct:
            page.close()
        site.server.stop()  # a fresh server forgets the joins spent here (the database stays)
        site.server.start()
