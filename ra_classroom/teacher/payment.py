"""Paying a class as experimental economists do: each student his own earnings from one round drawn at random.

A prize for the top earner rewards variance (a gamble that comes off wins the prize) and so
spoils what the bids say about risk attitudes. The literature pays each subject his own
earnings, very often from one round drawn at random ("random round payment"): every round may
be the one that pays, so each is worth bidding well, and no student can insure his earnings
across rounds. Points turn into money (or grade credit) at a stated `rate`, on top of a
`show_up` amount from which losses (all-pay, common value) are taken; no student is paid below 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..auctions.paying import paid_round

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["draw_payments"]

COLUMNS = ["student", "name", "rounds", "round", "kind", "earnings", "payment"]


def draw_payments(df: pd.DataFrame, seed: str, *, show_up: float = 0.0, rate: float = 1.0) -> pd.DataFrame:
    r"""Return each student's payment: one of his paid rounds drawn at random, his earnings there, and what he gets.

    Args:
        df: the results (`ControlRoom.results` or its CSV): practice rounds are never drawn; cancelled
            and excluded rounds are not in the results.
        seed: the draw's seed (the control room uses the room's code): drawn again, the same rounds.
        show_up: paid to every student who played a paid round, before his round's earnings.
        rate: money per point of earnings.

    Each student's round is drawn from his own stream (the seed and his id), uniformly among the
    paid rounds he played, so adding or removing a student changes nobody else's draw
    (`auctions.paying.paid_round`: the server's draw at the end of a session is the same). Columns:
    student, name, rounds (how many he could be paid for), round, kind, earnings, payment
    (``max(0, show_up + rate * earnings)``).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"student": [1, 1, 2], "name": ["Ana", "Ana", "Ben"], "round": [1, 2, 2],
    ...                    "kind": ["first", "second", "second"], "practice": [True, False, False],
    ...                    "earnings": [9.0, 4.0, -1.0]})
    >>> draw_payments(df, "RA1", show_up=5)[["name", "round", "earnings", "payment"]].to_string(index=False)
    'name  round  earnings  payment\n Ana      2       4.0      9.0\n Ben      2      -1.0      4.0'
    """
    import pandas as pd

    if rate < 0 or show_up < 0:
        raise ValueError(f"show_up and rate must be 0 or more, got {show_up:g} and {rate:g}")
    paid = df[~df["practice"].astype(bool)] if len(df) else df
    rows = []
    for student, part in paid.groupby("student", sort=True):
        rounds = sorted(int(r) for r in part["round"].unique())
        drawn = paid_round(seed, student, rounds)
        row = part[part["round"] == drawn].iloc[0]
        earnings = float(row["earnings"])
        rows.append(
            {
                "student": student,
                "name": row["name"],
                "rounds": len(rounds),
                "round": drawn,
                "kind": row["kind"],
                "earnings": earnings,
                "payment": round(max(0.0, show_up + rate * earnings), 2),
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS)
