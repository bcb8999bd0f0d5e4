"""The cases of the hidden tests: what each graded cell's hidden test gives the student's function.

One literal dict, sheet -> task -> data, and nothing else: the checks read this file without
importing it (``ra_course.exercises.checking.Hidden``), in a kernel that never imports the
teacher's package. Edit it to give your class other cases (other seeds, positions, numbers of
bidders, laws), then run ``python -m grading.keys --write`` to compute their answers from the
source sheets' solutions into ``grading/answers.py``.

* auctions (sheet 1): per case the task's arguments before ``auctions`` and ``rng``, and the
  seed of the recording generator: Task 1 ``[n, seed]``, Task 2 ``[n, shading, seed]``, Task 3
  ``[n, my_shading, rival_shading, seed]``, Task 4 ``[n, start, rounds, seed]``, Task 5 ``[n, seed]``.
* ra_auction (sheet 2): ``count`` epoch-3 positions of the games seeded from ``seed``, or saved
  endgames (`ra_core.State.from_dict` data, a bag of two tiles: ``strict=False``).
* bag (sheet 3): ``count`` turn positions of the games seeded from ``seed``; the simulations use
  the last two, with the seeds ``seed`` and ``seed + 1``.
* bidder (sheet 4): the seed of the games and positions.
* reserve (sheet 5): laws as the coefficients of a polynomial F on [0, 1] (regular: the virtual
  value increases and changes sign), values, ``[n, r, a]`` cases, ``[n, r, seed]`` and ``[n, seed]``.
* multiunit (sheet 6): below the dict.
"""

from __future__ import annotations

from typing import Any

CASES: dict[str, dict[str, Any]] = {
    "auctions": {
        "1": [[4, 7101], [7, 7102]],
        "2": [[3, 0.6, 7201], [6, 0.9, 7202]],
        "3": [[3, 0.6, 0.5, 7301], [5, 0.7, 0.8, 7302]],
        "4": [[4, 0.4, 7, 7401]],
        "5": [[4, 7501]],
    },
    "ra_auction": {
        "1": {"seed": 23, "count": 6},
        "2": {"seed": 29, "count": 4},
        "3": {"seed": 31, "count": 6},
        "4": {
            "positions": [
                {
                    "epoch": 3,
                    "ra_count": 7,
                    "center_sun": 3,
                    "turn_player": 2,
                    "players": [
                        {
                            "suns_up": [1, 11],
                            "suns_down": [4, 8],
                            "display": {"pharaoh": 2, "nile": 2, "fortress": 2, "art": 1},
                            "fame": 30,
                        },
                        {
                            "suns_up": [13],
                            "suns_down": [5, 9, 10],
                            "display": {"pharaoh": 3, "gold": 1, "obelisk": 3},
                            "fame": 28,
                        },
                        {
                            "suns_up": [6],
                            "suns_down": [2, 7, 12],
                            "display": {"pharaoh": 1, "flood": 1, "nile": 1, "temple": 1},
                            "fame": 31,
                        },
                    ],
                    "track": ["fortress", "writing", "temple"],
                    "bag": {"ra": 1, "obelisk": 1},
                    "auction": {"trigger": "ra_tile"},
                },
                {
                    "epoch": 3,
                    "ra_count": 7,
                    "center_sun": 9,
                    "turn_player": 2,
                    "players": [
                        {
                            "suns_up": [7, 10],
                            "suns_down": [2, 12],
                            "display": {"pharaoh": 2, "nile": 2, "fortress": 2, "art": 1},
                            "fame": 30,
                        },
                        {
                            "suns_up": [4],
                            "suns_down": [1, 3, 11],
                            "display": {"pharaoh": 3, "gold": 1, "obelisk": 3},
                            "fame": 28,
                        },
                        {
                            "suns_up": [5, 13],
                            "suns_down": [6, 8],
                            "display": {"pharaoh": 1, "flood": 1, "nile": 1, "temple": 1},
                            "fame": 31,
                        },
                    ],
                    "track": ["temple", "gold", "drought", "funeral", "fortress"],
                    "bag": {"ra": 1, "gold": 1},
                    "auction": {"trigger": "ra_tile"},
                },
            ]
        },
    },
    "bag": {
        "1": {"seed": 20, "count": 6},
        "2": {"seed": 21, "count": 6},
        "3": {"seed": 22, "count": 6},
        "4": {"seed": 23, "count": 6},
        "5": {"seed": 24, "count": 6},
    },
    "bidder": {
        "1": {"seed": 910},
        "2": {"seed": 920},
        "3": {"seed": 930},
        "4": {"seed": 940},
        "5": {"seed": 950},
    },
    "reserve": {
        "1": {
            "laws": [["0", "0", "0", "1"], ["0", "1/2", "1/2"], ["0", "0", "3", "-2"]],
            "points": ["1/5", "2/3", "9/10"],
        },
        "2": {"laws": [["0", "0", "0", "1"], ["0", "1/2", "1/2"], ["0", "0", "3", "-2"], ["0", "3", "-3", "1"]]},
        "3": [[3, "1/3", 3], [5, "3/5", 2], [2, "3/4", 4], [6, "1/2", 1]],
        "4": [[4, 0.0, 7401], [2, 0.8, 7402]],
        "5": [[5, 7501]],
    },
}
CASES["ra_auction"]["5"] = CASES["ra_auction"]["4"]  # the best bid in the same endgames
# multiunit (sheet 6): Task 1 [bids, k]; Task 2 [n, k, seed]; Task 3 [n, k, a, values] (values of the law
# F(x) = x^a); Task 4 [seed, bidders, units] of `multiunit.profile`, and a reserve price; Task 5 [v, second
# bids, seed]. The judge computes every answer from these inputs.
CASES["multiunit"] = {
    "1": [[[0.62, 0.15, 0.88, 0.41, 0.73, 0.29], 3], [[0.5, 0.95], 2], [[0.07, 0.64, 0.36], 1]],
    "2": [[6, 2, 6211], [8, 5, 6212]],
    "3": [[5, 2, 2, ["1/5", "7/10", "19/20"]], [7, 4, 3, ["2/5", "4/5"]], [3, 1, 1, ["1/2"]]],
    "4": [[611, 4, 2, 0.3125], [612, 3, 4, 0.5625], [613, 5, 3, 0.6875]],
    "5": [[0.9, [0.0, 0.45, 0.9], 6511], [0.35, [0.0, 0.2, 0.35], 6512]],
}
