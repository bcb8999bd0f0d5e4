"""How often `overlap_ratio`'s 95 % interval covers the true mean revenue, in sample 1's design.

    python benchmarks/overlap_coverage.py [REPS]

24 students in groups of 4 formed afresh each round, 4 first-price rounds (24 groups), values
uniform on [0, 100]: a group's revenue is its second-highest value (risk-neutral bidders; mean
60). With no student effect the groups are in fact independent; with a student effect (each
student adds his own shift to every price his group pays) they are not. Prints the coverage of
each, with its binomial standard error. Seeded.
"""

from __future__ import annotations

import math
import random
import sys

from ra_course.clustered import overlap_ratio

STUDENTS, SIZE, ROUNDS = 24, 4, 4


def coverage(reps: int, effect: float, seed: int = 1) -> float:
    rng = random.Random(seed)
    hits = 0
    for _ in range(reps):
        shift = [rng.gauss(0, effect) for _ in range(STUDENTS)]
        revenues, members = [], []
        for _ in range(ROUNDS):
            order = list(range(STUDENTS))
            rng.shuffle(order)
            for g in range(0, STUDENTS, SIZE):
                group = order[g : g + SIZE]
                values = sorted(100 * rng.random() for _ in group)
                revenues.append(values[-2] + sum(shift[s] for s in group) / SIZE)
                members.append(set(group))
        e = overlap_ratio(revenues, [1.0] * len(revenues), members)
        hits += e.low <= 60 <= e.high
    return hits / reps


if __name__ == "__main__":
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    for effect, what in ((0.0, "independent groups (no student effect)"), (10.0, "a student effect, sd 10")):
        c = coverage(reps, effect)
        print(f"{what}: coverage {c:.1%} (+/- {math.sqrt(c * (1 - c) / reps):.1%}) over {reps} classes")
