"""Make the sample sessions that notebook 14 analyses: simulated students, a stated behaviour, a real server.

    python tools/make_sample_session.py     # writes the two samples in notebooks/data/

24 simulated students (`ra_classroom.teacher.simulate`) join a rehearsal of the classroom server and
play the session's plan (`ra_classroom.teacher.plan`, the one the control room runs and notebook 14
explains) in groups of 4, values uniform on [0, 100]: a practice round (first price), then eight
private-value rounds in a counterbalanced order, then three common-value rounds (first price) with
signals +/- 10, then Holt and Laury's ten lottery choices (the plan's optional last round, after
the auctions, so that it changes none of them). The simulated students are CRRA bidders in first
price and risk-neutral in all-pay (utility money**rho is not defined for an all-pay loser's loss),
as their first line says. Their behaviour is stated in each file's first line, in words (and in
its second, as the `Behaviour`'s fields), so the data are never mistaken for a real class's.
Seeded: the same files every time.

* ``sample_session.csv``: every student the same, CRRA rho = 0.5 (the textbook's risk-averse bidder),
  and in the lotteries the same attitude, CRRA coefficient 1 - 0.5.
* ``sample_session_mixed.csv``: each student his own rho, uniform in [0.25, 0.95], and each a
  learner with chance one half (11 of the 24 are), shading more in each common-value round; in the
  lotteries, the coefficient 1 - rho plus a shift of his own, uniform in [-0.5, 0.5] (the two
  measures related, but loosely, as the literature finds them);
  ``sample_session_mixed_students.csv`` lists what was programmed for each (his rho, whether he
  learns, his lotteries' rho), kept apart from the data so that the notebook can check that the
  analysis recovers it.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from ra_classroom import Behaviour, ControlRoom
from ra_classroom.teacher.plan import open_args, session_plan

DATA = Path(__file__).resolve().parent.parent / "notebooks" / "data"
SAMPLES = {
    "sample_session": Behaviour(
        rho=0.5,
        jitter=0.05,
        errors="normal",
        overbid=0.3,
        shade=0.3,
        learn=0.2,
        think=(0.0, 0.05),
    ),
    "sample_session_mixed": Behaviour(
        rho=0.6,
        rho_spread=0.35,
        jitter=0.05,
        errors="normal",
        overbid=0.3,
        shade=0.3,
        learn=0.3,
        learners=0.5,
        think=(0.0, 0.05),
        lottery_noise=0.5,
    ),
}
STUDENTS = 24


def main() -> None:
    for name, behaviour in SAMPLES.items():
        seed = name.replace("_", "-")
        room = ControlRoom.start(room="SAMPLE", seed=seed)
        try:
            simulated = room.rehearse(STUDENTS, seed=seed, behaviour=behaviour)
            for spec in session_plan(seconds=None, lottery=True):  # no clock: the round closes once everyone has bid
                room.open_round(**open_args(spec))
                room.wait().blocking()  # until everyone has bid: the round then closes itself
            df = room.results().drop(columns=["seconds_to_bid"])  # think times are simulated: not data
        finally:
            room.stop()
        out = DATA / f"{name}.csv"
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w", encoding="utf-8") as f:
            f.write(f"# NOT A CLASS: {behaviour.describe()}; made by tools/make_sample_session.py\n")
            f.write(f"# behaviour: {json.dumps(dataclasses.asdict(behaviour))}\n")
            df.to_csv(f, index=False, lineterminator="\n")
        print(f"wrote {out} ({len(df)} rows)")
        if behaviour.rho_spread or behaviour.learners < 1:
            types = DATA / f"{name}_students.csv"
            lines = ["name,rho,learns,lottery_rho"] + [
                f"{s.name},{s.behaviour.rho:g},{s.behaviour.learn > 0},{s.behaviour.lottery_rho:.4g}"
                for s in simulated.students
            ]
            types.write_text("\n".join(lines) + "\n", encoding="utf-8")
            print(f"wrote {types} (what was programmed, per student)")


if __name__ == "__main__":
    main()
