"""Make the sample session that notebook 14 analyses: simulated students, a stated behaviour, a real server.

    python tools/make_sample_session.py     # writes notebooks/data/sample_session.csv

24 simulated students (`ra_classroom.teacher.simulate`) join a rehearsal of the classroom server and play
a 50-minute session's rounds in groups of 4, values uniform on [0, 100]: a practice round, then
first price (3 rounds), second price (2), all-pay (2), common value with signals +/- 10 (3). Their
behaviour is stated in the file's first line, so the data are never mistaken for a real class's.
Seeded: the same file every time.
"""

from __future__ import annotations

from pathlib import Path

from ra_classroom import Behaviour, ControlRoom

OUT = Path(__file__).resolve().parent.parent / "notebooks" / "data" / "sample_session.csv"
BEHAVIOUR = Behaviour(r=0.5, jitter=0.08, overbid=0.3, shade=0.3, learn=0.2, think=(0.0, 0.05))
ROUNDS = [
    {"kind": "first", "practice": True},
    {"kind": "first"},
    {"kind": "first"},
    {"kind": "first"},
    {"kind": "second"},
    {"kind": "second"},
    {"kind": "allpay"},
    {"kind": "allpay"},
    {"kind": "common", "noise": 10},
    {"kind": "common", "noise": 10},
    {"kind": "common", "noise": 10},
]


def main() -> None:
    room = ControlRoom.start(room="SAMPLE", seed="sample-session")
    try:
        room.rehearse(24, seed="sample-session", behaviour=BEHAVIOUR)
        for spec in ROUNDS:
            room.open_round(group_size=4, **spec)  # type: ignore[arg-type]
            room.finish_round()
        df = room.results().drop(columns=["seconds_to_bid"])  # think times are simulated: not data
    finally:
        room.stop()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", encoding="utf-8") as f:
        f.write(f"# NOT A CLASS: {BEHAVIOUR.describe()}; made by tools/make_sample_session.py\n")
        df.to_csv(f, index=False, lineterminator="\n")
    print(f"wrote {OUT} ({len(df)} rows)")


if __name__ == "__main__":
    main()
