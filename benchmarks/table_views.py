"""The CPU of a classroom table's views: the four seats' pages drawn after each move, and each sent compressed.

    python benchmarks/table_views.py [--games 3] [--repeat 5] [--tables 120]

Plays whole seeded games at a table of four students (`ra_classroom.game.table.TableGame`, every
move a random legal one), and after each move draws every seat's view as the server does for
its pages (`TableGame.view`: what the seats share worked out once, `ra_core.pictures.portrait.
Portraits`). Then it compresses each seat's views one after another, as the websocket does
(permessage-deflate, level 1, memLevel 5, one compressor per page kept from message to message)
with a window of 16 KB (14 bits) and of 32 KB (15 bits, `ra_classroom.web.wire.WINDOW_BITS`).
Printed: ``ms_per_position`` (the four views) and ``ms_per_view``; ``crowd_ms_per_view``: the same
with --tables tables (120) played in turn, a move at each after another, as a server process
serves them (what a table keeps from one position to the next faces the others'); for each window,
``deflate_<bits>_ms_per_view`` and ``deflate_<bits>_bytes_per_view``; the JSON's size; the load.
Times are this thread's CPU (`time.thread_time`), best of --repeat runs: on a shared machine the
clock would count the waits for a core.
"""

from __future__ import annotations

import argparse
import os
import random
import time
import zlib
from typing import Any

import orjson

from ra_classroom.game.table import Selection, TableGame

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def play(seed: str, rng: random.Random) -> tuple[float, list[dict[str, Any]]]:
    """Play one game at a table of four; return the CPU seconds its views took and the views, seat after seat."""
    game = TableGame(4, seed)
    spent, views = 0.0, []
    while True:
        game.run_automatic(bots=set())
        start = time.thread_time()
        for seat in range(4):
            views.append(game.view(seat, NAMES, set(), live=True, sel=Selection()))
        spent += time.thread_time() - start
        if game.state.is_terminal():
            return spent, views
        game.move(game.state.to_move, rng.choice(game.state.legal_actions()), bots=set())


def crowd(tables: int, rounds: int = 40) -> tuple[float, int]:
    """Play `tables` games in turn, a move at each table after another, as a server's many tables come.

    Each table has names of its own; a move is made on a copy, as the server's writer makes it.
    What a table keeps from one position to the next, and what the drawing keeps for every
    table, then faces the other tables' work. Return the CPU seconds the views took and how many.
    """
    games = [TableGame(4, f"crowd-{k}") for k in range(tables)]
    names = [[f"{name}{k}" for name in NAMES] for k in range(tables)]
    rngs = [random.Random(k) for k in range(tables)]
    spent, count = 0.0, 0
    for _ in range(rounds):
        for k, game in enumerate(games):
            game.run_automatic(bots=set())
            if game.state.is_terminal():
                continue
            start = time.thread_time()
            for seat in range(4):
                game.view(seat, names[k], set(), live=True, sel=Selection())
            spent, count = spent + time.thread_time() - start, count + 4
            games[k] = game.copy()
            games[k].move(game.state.to_move, rngs[k].choice(game.state.legal_actions()), bots=set())
    return spent, count


def deflate(messages: list[bytes], bits: int) -> tuple[float, int]:
    """Return the CPU seconds and the bytes of compressing each page's messages in order (four pages, in turn)."""
    pages = [zlib.compressobj(1, zlib.DEFLATED, -bits, 5) for _ in range(4)]
    start, size = time.thread_time(), 0
    for k, data in enumerate(messages):
        page = pages[k % 4]
        size += len(page.compress(data) + page.flush(zlib.Z_SYNC_FLUSH))
    return time.thread_time() - start, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--tables", type=int, default=120, help="tables played in turn for crowd_ms_per_view")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    best, views = float("inf"), []
    for _ in range(args.repeat):
        spent, views = 0.0, []
        for g in range(args.games):
            took, drawn = play(f"bench-{g}", random.Random(g))
            spent, views = spent + took, views + drawn
        best = min(best, spent)
    print(f"positions: {len(views) // 4}  (seeded games: {args.games}, a table of four)")
    print(f"ms_per_position: {4000 * best / len(views):.3f}  (the four seats' views)")
    print(f"ms_per_view: {1000 * best / len(views):.3f}")
    if args.tables:
        crowded = min(spent / count for spent, count in (crowd(args.tables) for _ in range(max(1, args.repeat // 2))))
        print(f"crowd_ms_per_view: {1000 * crowded:.3f}  ({args.tables} tables' moves in turn)")
    messages = [orjson.dumps({"t": "view", "table": v}) for v in views]
    print(f"json_bytes_per_view: {sum(map(len, messages)) // len(messages)}")
    for bits in (14, 15):
        took = min(deflate(messages, bits)[0] for _ in range(args.repeat))
        size = deflate(messages, bits)[1]
        print(f"deflate_{bits}_ms_per_view: {1000 * took / len(messages):.3f}")
        print(f"deflate_{bits}_bytes_per_view: {size // len(messages)}")
    print(f"load_average: {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
