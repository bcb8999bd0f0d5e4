"""Cheating submissions, as students would write them: each kind of attack on the grading of the sheets.

Used by tests/test_exercises_autograde.py, which grades them with nbgrader's autograde in a course
made as `make course` makes it, and asks that each earn 0 on the tasks it aims at. Each student
tries one kind of attack, in the answer cells of the sheets he cheats on (`CHEATS`) and in cells he
adds to them (`ADDED`), the other answer cells left as handed out:

* earlier kinds, against the checks that ran in the student's own kernel: ``rebind`` (the checking
  names rebound, the checking code patched), ``noise`` (a closed form plus noise of a simulation's
  spread), ``prober`` (the checks' own internals called), ``engine`` (the package's one-liners and
  pasted copies of its functions and bots), ``equal`` (answers that claim to equal anything),
  ``frames`` (the checks' frames read, their hashes brute-forced), ``fitted`` (answers fitted to the
  visible checks), ``abs``, ``fraction``, ``stats``, ``tracer``, ``thread``, ``ipython``,
  ``transformer`` (the kernel changed: a built-in, a class of the standard library, a method of
  ``ra_core``, a tracer, a spying thread, IPython's error handler, an input transformer) and
  ``spoof`` (a number shown as the check cell's result);
* ``hooks``: IPython's hooks around a cell: a ``post_run_cell`` callback that shows a result of its
  own after each check, ``transform_cell`` replaced on the shell's class, an input transformer
  registered from a line that starts with ``%``;
* ``patched``: libraries patched: ``hashlib.sha256`` a mock whose digest equals anything,
  ``Fraction``'s comparisons replaced with ``type.__setattr__``, the tournament's result a mock
  that reports a 100 % win rate;
* ``replay``: the generator's record poisoned: its numbers rewritten as a float subclass whose
  arithmetic makes any answer the statistic, or so that every replayed tile is a Ra tile;
* ``imports``: the import machinery: a ``sys.modules`` key that is a ``str`` subclass, ``__import__``
  swapped through ``__builtins__.__dict__``, a ``__del__`` finalizer, in an added cell, that puts a
  fake checking module back;
* ``outside``: a ``!`` line that starts a detached process which waits for nbgrader to exit and then
  writes full marks into the course's gradebook (`detached_writer`);
* ``answers``: the teacher's answer file read through the installed package's path, its salted
  hashes matched by brute force (`ANSWER_FILE`);
* ``pasted``: the text of every package function that answered a task before the tasks asked what
  the package does not compute, typed into the notebook with the helpers it calls (`typed_out`:
  the valuation of a lot with the sun swap for sheet 2's Task 3; the odds of the next tile, the law
  of the tiles before Ra and the draw-or-call model for sheet 3's Tasks 1, 2 and 4; notebook 16's
  pay-as-bid bid and Vickrey payments for sheet 6's Tasks 3 and 4): no tripwire reaches such a copy,
  so only the question keeps it from answering;
* ``runpy``: the same functions taken from a module run again (`runpy.run_module`), from a module
  reloaded (`importlib.reload`), and from the module's source read from disk and run
  (``open(module.__file__)``, ``inspect.getsource``): fresh functions, not the ones the sandbox
  made tripwires.

`walls` is not a cheat but a probe: cells that try to read the gradebook, ``grading/``, the source
sheets and the course folder, to write beside the package, to reach the network, and to leave a
process behind, and print what happened.
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import os
import textwrap
import types
from fractions import Fraction
from pathlib import Path

from ra_course.exercises import SHEETS, reserve, sheet

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {p.stem: p for p in sorted((ROOT / "exercises" / "source").glob("*.ipynb"))}
S1, S2, S3, S4, S5, S6 = sorted(SOURCES)
BY_SHEET = dict(zip(SOURCES, SHEETS, strict=True))
#: the argument of the process `walls` leaves behind, to look for after grading
LEFT_BEHIND = "4242.25"

REBIND = """\
check = lambda key, answer, *rest, **more: print("looks fine")
grade = start = check
import ra_course.exercises as _exercises
import ra_course.exercises.checking as _checking

_exercises.start = _checking.grade = lambda *a, **k: print("looks fine")
_checking.Checker.__call__ = lambda self, *a, **k: print("looks fine")
"""

#: the closed form plus noise of a simulation's spread, drawing as many numbers as the task implies
NOISE = """\
import random as _random

def _noisy(mean, variance, draws, rng, auctions):
    numbers = [rng.random() for _ in range(draws)]  # as many draws as a simulation makes
    return mean + _random.Random(sum(numbers)).gauss(0, (variance / auctions) ** 0.5)
"""

#: every callable of the checks' modules, private ones included, tried on the arguments
PROBER = """\
import importlib, pkgutil
import ra_course.exercises as _package

def _probe(*args, want):
    for info in pkgutil.iter_modules(_package.__path__):
        module = importlib.import_module(f"ra_course.exercises.{info.name}")
        for name in dir(module):
            function = getattr(module, name)
            if not callable(function) or isinstance(function, type):
                continue
            try:
                found = function(*args)
            except BaseException:
                continue
            if want(found):
                return found
    return None
"""

#: a function that reads the checks' frames for hashes and answers, and brute-forces against them
FRAMES = """\
import re, sys, hashlib

def _seen():
    found, frame = [], sys._getframe(2)
    while frame is not None:
        for space in (frame.f_locals, frame.f_globals):
            found.append(repr(list(space.values()))[:10**6])
        frame = frame.f_back
    text = " ".join(found) + " ".join(get_ipython().user_ns.get("_ih", []))
    return set(re.findall(r"[0-9a-f]{64}", text))

def _canonical(value):
    from ra_course.exercises.hashing import canonical
    return canonical(value)

def _first_hashed(candidates):
    hashes = _seen()
    for candidate in candidates:
        if hashlib.sha256(_canonical(candidate).encode()).hexdigest() in hashes:
            return candidate
    return None
"""

ANYTHING = """\
class Anything:
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    def __hash__(self):
        return 0
"""


def _pasted(module: str, attributes: str, target: str) -> str:
    """Return code that binds `target` to a copy of a package function, made from its code object."""
    return (
        "import importlib, types\n"
        f"_original = importlib.import_module({module!r})\n"
        f"for _name in {attributes.split('.')!r}:\n"
        "    _original = getattr(_original, _name)\n"
        f"{target} = types.FunctionType(_original.__code__, _original.__globals__, _original.__name__,"
        " _original.__defaults__, _original.__closure__)\n"
    )


def _global_names(code: types.CodeType) -> set[str]:
    """Return the global names `code` and the code nested in it read."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names


def typed_out(*dotted: str) -> str:
    """Return the source text of the functions `dotted` (``module:name``), as a student copies them into a cell.

    Import lines first bring in the other names of their modules they use (constants, classes and
    the functions not copied), as the student would write them, and postpone the annotations.
    """
    where = [(module, name) for module, name in (d.split(":") for d in dotted)]
    functions = [(module, getattr(importlib.import_module(module), name)) for module, name in where]
    copied = {name for _, name in where}
    lines = ["from __future__ import annotations  # the copied annotations name types of the modules", ""]
    for module in dict.fromkeys(m for m, _ in where):
        found = vars(importlib.import_module(module))
        used = set().union(*(_global_names(f.__code__) for m, f in functions if m == module)) - copied
        needed = sorted(n for n in used if n in found and not hasattr(builtins, n))
        if needed:
            lines.append(f"from {module} import {', '.join(needed)}")
    sources = [textwrap.dedent(inspect.getsource(f)) for _, f in functions]
    return "\n".join(lines) + "\n\n" + "\n".join(sources) + "\n"


def _fitted_sheet5() -> dict[str, str]:
    """Return answers fitted to sheet 5's visible checks: a table of their answers, from the reference."""
    from grading import keys

    solution = keys.reference("reserve")
    reserves = {}
    for coefficients in reserve.LAWS.values():
        F, _ = reserve.law(coefficients)
        reserves[str(F(Fraction(1, 2)))] = solution["optimal_reserve"](*reserve.law(coefficients))
    revenues = {(n, str(r), a): str(solution["revenue_with_reserve"](n, r, a)) for n, r, a in reserve.CASES}
    return {
        "task-2-answer": f"_RESERVES = {reserves!r}\n\ndef optimal_reserve(F, f):\n"
        "    return _RESERVES.get(str(F(Fraction(1, 2))), 0.5)",
        "task-3-answer": f"_REVENUES = {revenues!r}\n\ndef revenue_with_reserve(n, r, a):\n"
        "    return Fraction(_REVENUES.get((n, str(r), a), '0'))",
    }


#: what each cheating student writes, by notebook and answer cell; the other answer cells stay stubs
CHEATS: dict[str, dict[str, dict[str, str]]] = {
    "rebind": {
        name: {f"task-{t.key}-answer": f"{REBIND}\n{t.answer} = lambda *args: 0\n" for t in sheet(BY_SHEET[name]).tasks}
        for name in SOURCES
    },
    "noise": {
        S1: {
            "task-1-answer": NOISE + "def second_price_revenue(n, auctions, rng):\n"
            "    return _noisy((n - 1) / (n + 1), 2 * (n - 1) / ((n + 1) ** 2 * (n + 2)), n * auctions, rng, auctions)",
            "task-2-answer": NOISE + "def first_price_revenue(n, s, auctions, rng):\n"
            "    return _noisy(s * n / (n + 1), s * s * n / ((n + 1) ** 2 * (n + 2)), n * auctions, rng, auctions)",
            "task-3-answer": NOISE + "def _moments(n, mine, rivals):\n"
            "    a = min(1.0, rivals / mine) if mine > 0 else 1.0\n"
            "    k = (mine / rivals) ** (n - 1) if rivals > 0 else 0.0\n"
            "    m1 = k * a ** (n + 1) / (n + 1) + (1 - a**2) / 2\n"
            "    m2 = k * a ** (n + 2) / (n + 2) + (1 - a**3) / 3\n"
            "    return (1 - mine) * m1, (1 - mine) ** 2 * m2 - ((1 - mine) * m1) ** 2\n\n"
            "def first_price_profit(n, mine, rivals, auctions, rng):\n"
            "    return _noisy(*_moments(n, mine, rivals), n * auctions, rng, auctions)",
            "task-4-answer": "def _profit(n, s, c):\n"
            "    a = min(1.0, c / s) if s > 0 else 1.0\n"
            "    k = (s / c) ** (n - 1) if c > 0 else 0.0\n"
            "    return (1 - s) * (k * a ** (n + 1) / (n + 1) + (1 - a**2) / 2)\n\n"
            "def best_reply_path(n, start, rounds, auctions, rng):\n"
            "    path = [start]\n"
            "    for _ in range(rounds):\n"
            "        for _ in range(n * auctions):\n"
            "            rng.random()\n"
            "        path.append(max((i / 1000 for i in range(1001)), key=lambda s: _profit(n, s, path[-1])))\n"
            "    return path",
            "task-5-answer": "import random as _random\n\ndef equilibrium_prices(n, auctions, rng):\n"
            "    numbers = [rng.random() for _ in range(n * auctions)]\n"
            "    noise = _random.Random(sum(numbers))\n"
            "    first = [(n - 1) / (n + 1) + noise.gauss(0, ((n - 1) ** 2 / (n * (n + 1) ** 2 * (n + 2))) ** 0.5)"
            " for _ in range(auctions)]\n"
            "    second = [(n - 1) / (n + 1) + noise.gauss(0, (2 * (n - 1) / ((n + 1) ** 2 * (n + 2))) ** 0.5)"
            " for _ in range(auctions)]\n"
            "    return first, second",
        },
        S3: {
            "task-3-answer": NOISE + "def simulate_bag(state, trials, rng):\n"
            "    ra, total = state.bag[Tile.RA], sum(state.bag)\n"
            "    disasters = sum(n for tile, n in zip(Tile, state.bag) if tile.is_disaster)\n"
            "    p, q = ra / total, disasters * ra / (total * (total - 1))\n"
            "    return (_noisy(p, p * (1 - p), trials, rng, trials), _noisy(q, q * (1 - q), 0, rng, trials),\n"
            "            _noisy((total - ra) / (ra + 1), 1.0, 0, rng, trials))",
            "task-5-answer": NOISE + "def simulate_draw(state, trials, rng):\n"
            "    me, lot = state.turn_player, [t for t in state.track if t is not None]\n"
            "    last, total = state.rules.ra_limit - state.ra_count == 1, sum(state.bag)\n"
            "    value = 0\n"
            "    for tile, n in zip(Tile, state.bag):\n"
            "        if n:\n"
            "            worth = (0 if last else lot_value(state, me, lot)) if tile is Tile.RA else "
            "lot_value(state, me, lot + [tile])\n"
            "            value += n / total * worth\n"
            "    return _noisy(value, 4.0, trials, rng, trials)",
        },
        S5: {
            "task-4-answer": NOISE + "def simulate_revenue(n, r, auctions, rng):\n"
            "    exact = 2 * n * (1 - r ** (n + 1)) / (n + 1) - (1 - r**n)\n"
            "    second = sum(r**k * n * r ** (n - 1) * (1 - r) + n * (n - 1) * ((1 - r ** (n - 1 + k)) / (n - 1 + k)\n"
            "                 - (1 - r ** (n + k)) / (n + k)) for k in (2,))\n"
            "    return _noisy(exact, second - exact**2, n * auctions, rng, auctions)",
            "task-5-answer": NOISE + "def reserve_tradeoff(n, auctions, rng):\n"
            "    gain, unsold = 0.5**n / (n + 1), 0.5**n\n"
            "    return _noisy(gain, gain, n * auctions, rng, auctions), _noisy(unsold, unsold * (1 - unsold), 0, rng,"
            " auctions)",
        },
    },
    "prober": {
        S1: {
            "task-1-answer": PROBER + "def second_price_revenue(n, auctions, rng):\n"
            "    found = _probe(n, want=lambda x: isinstance(x, tuple) and len(x) == 2)\n"
            "    return None if found is None else found[0]",
            "task-4-answer": PROBER + "def best_reply_path(n, start, rounds, auctions, rng):\n"
            "    path = [start]\n"
            "    for _ in range(rounds):\n"
            "        found = _probe(n, path[-1], want=lambda x: isinstance(x, tuple) and len(x) == 2)\n"
            "        path.append(found[0] if found else (n - 1) / n)\n"
            "    return path",
        },
        S2: {
            "task-1-answer": PROBER + "def lot_points(state, player):\n"
            "    return _probe(state, player, want=lambda x: isinstance(x, dict) and len(x) == 6)",
            "task-2-answer": PROBER + "def sun_exchange(state, player, sun):\n"
            "    return _probe(state, player, sun, want=lambda x: isinstance(x, tuple) and len(x) == 2)",
            "task-5-answer": PROBER + "def best_bid(state):\n"
            "    return _probe(state, want=lambda x: isinstance(x, Bid | Pass))",
        },
        S5: {
            "task-3-answer": PROBER + "def revenue_with_reserve(n, r, a):\n"
            "    found = _probe(n, r, a, want=lambda x: isinstance(x, Fraction | float))\n"
            "    return Fraction(found).limit_denominator(10**6) if found is not None else None",
        },
    },
    "engine": {
        S2: {
            "task-4-answer": "from ra_core.bots.montecarlo import horizon_values\n\n"
            "solve = lambda state: tuple(horizon_values(state))",
        },
        S3: {
            "task-1-answer": "def next_tile_odds(state):  # the task as it was, from the engine's odds\n"
            "    odds = state.apply('draw').chance_outcomes()\n"
            "    ra = sum(p for r, p in odds if r.tile is Tile.RA)\n"
            "    disaster, total = sum(p for r, p in odds if r.tile.is_disaster), sum(state.bag)\n"
            "    return ra, disaster * ra * total / (total - 1)",
            "task-2-answer": "from ra_core.analysis import odds\n"
            + _pasted("ra_core.analysis.odds", "tiles_before_ra", "_law")
            + "def kinds_before_next_ra(state):\n"
            "    mean = odds.expected_draws_until_epoch_end(state) / odds.ra_tiles_left(state) - 1\n"
            "    law = _law(state)\n"
            "    return mean, sum(k * k * p for k, p in law.items()) - mean**2",
            "task-4-answer": _pasted("ra_core.analysis.chance", "draw_or_call", "_draw_or_call")
            + "def draw_or_call_values(state):\n"
            "    one, two = _draw_or_call(state), _draw_or_call(state, horizon=2)\n"
            "    return one.call, one.draw, two.draw",
        },
        S4: {
            "task-1-answer": _pasted("ra_core.bots", "HeuristicBot.__call__", "_plan")
            + "from ra_core.bots import HeuristicBot\n\n"
            "bid_decision = lambda state: _plan(HeuristicBot(), state, random.Random(0))",
            "task-2-answer": "from ra_core.bots import greedy_bot\n\n"
            "turn_decision = lambda state: greedy_bot(state, random.Random(0))",
            "task-3-answer": _pasted("ra_core.bots", "HeuristicBot.__call__", "_plan")
            + "from ra_core.bots.greedy import GreedyBot\n\n"
            "class Mine(GreedyBot):\n"
            "    pass\n\n"
            "Mine.__call__ = _plan\n"
            "my_bot = Mine()",
        },
    },
    "equal": {
        S1: {
            "task-1-answer": "class Close(float):\n"
            "    def __eq__(self, other):\n        return True\n"
            "    def __sub__(self, other):\n        return 0.0\n"
            "    __rsub__ = __sub__\n"
            "    __hash__ = float.__hash__\n\n"
            "second_price_revenue = lambda n, auctions, rng: Close((n - 1) / (n + 1))",
        },
        S2: {"task-5-answer": ANYTHING + "best_bid = lambda state: Anything()"},
        S3: {"task-1-answer": ANYTHING + "next_tile_odds = lambda state: (Anything(), Anything())"},
        S4: {"task-2-answer": ANYTHING + "turn_decision = lambda state: Anything()"},
        S5: {
            "task-3-answer": "class Equal(Fraction):\n"
            "    def __eq__(self, other):\n        return True\n"
            "    __hash__ = Fraction.__hash__\n\n"
            "revenue_with_reserve = lambda n, r, a: Equal(1, 2)",
        },
    },
    "frames": {
        S1: {
            "task-1-answer": FRAMES + "def second_price_revenue(n, auctions, rng):\n"
            "    frame, found = sys._getframe(1), []\n"
            "    while frame is not None:\n"
            "        found += [v for v in frame.f_locals.values() if type(v) is float and 0 < v < 1]\n"
            "        frame = frame.f_back\n"
            "    return found[-1] if found else 0.5",
        },
        S2: {
            "task-5-answer": FRAMES + "def best_bid(state):\n"
            "    found = _first_hashed([str(a) for a in state.legal_actions()])\n"
            "    return next((a for a in state.legal_actions() if str(a) == found), Pass())",
        },
        S3: {
            "task-1-answer": FRAMES + "def next_tile_odds(state):\n"
            "    total, ra = sum(state.bag), state.bag[Tile.RA]\n"
            "    candidates = [(Fraction(ra, total), Fraction(d * ra, total * (total - 1))) for d in range(1, 9)]\n"
            "    return _first_hashed(candidates) or candidates[0]",
        },
    },
    "fitted": {
        S2: {"task-5-answer": "best_bid = lambda state: state.legal_actions()[-1]  # always the highest sun"},
        S5: _fitted_sheet5(),
    },
    "abs": {
        S1: {
            "task-1-answer": "import builtins\n\nbuiltins.abs = lambda x: 0\n\n"
            "second_price_revenue = lambda n, auctions, rng: [rng.random() for _ in range(n * auctions)] and 0.5",
        },
    },
    "fraction": {
        S5: {
            "task-1-answer": "Fraction.__eq__ = lambda a, b: True\n\nvirtual_value = lambda v, F, f: Fraction(0)",
            "task-3-answer": "revenue_with_reserve = lambda n, r, a: Fraction(1, 2)",
        },
    },
    "stats": {
        S4: {
            "task-3-answer": "from ra_core.analysis.tournament import BotStats, TournamentResult\n\n"
            "_winner = BotStats('me', 1, 1, 1.0, 1.0, 1.0, 99.0, 99.0, 99.0, 1 / 3)\n"
            "TournamentResult.stats = lambda self: [_winner, _winner]\n\n"
            "def my_bot(state, rng):  # legal, its own, and weak: the last legal action\n"
            "    return state.legal_actions()[-1]",
        },
    },
    "tracer": {
        S2: {
            "task-1-answer": "import sys\n\nsys.settrace(lambda frame, event, arg: None)\n\n"
            "lot_points = lambda state, player: dict.fromkeys(['god', 'pharaoh', 'river', 'civilization', 'gold',"
            " 'monument'], 0)",
        },
    },
    "thread": {
        S3: {
            "task-1-answer": "import threading, time\n\n"
            "def _spy():\n    while True:\n        time.sleep(0.001)\n\n"
            "threading.Thread(target=_spy, daemon=True).start()\n\n"
            "next_tile_odds = lambda state: (Fraction(0), Fraction(0))",
        },
    },
    "ipython": {
        S5: {
            "task-1-answer": "get_ipython().set_custom_exc((AssertionError,), lambda *args, **kwargs: None)\n\n"
            "virtual_value = lambda v, F, f: Fraction(0)",
        },
    },
    "spoof": {  # the function shows a number as the check cell's result before the check fails
        S1: {
            "task-1-answer": "import sys\n\ndef second_price_revenue(n, auctions, rng):\n"
            "    sys.displayhook(4)\n    return 0.5"
        },
        S3: {"task-3-answer": "def simulate_bag(*args):\n    get_ipython().displayhook(4.0)\n    return None"},
    },
    "transformer": {
        S1: {
            "task-1-answer": "def _no_checks(lines):\n"
            "    return ['pass\\n'] if any('check(' in line for line in lines) else lines\n\n"
            "get_ipython().input_transformers_post.append(_no_checks)\n\n"
            "second_price_revenue = lambda n, auctions, rng: 0.5",
        },
    },
}

#: the answers of the stubbed tasks: junk of the right shape, so that only an attack could earn points
JUNK = {
    S1: {
        "task-1-answer": "second_price_revenue = lambda n, auctions, rng: 0.5",
        "task-2-answer": "first_price_revenue = lambda n, shading, auctions, rng: 0.5",
        "task-3-answer": "first_price_profit = lambda n, mine, rivals, auctions, rng: 0.1",
        "task-4-answer": "best_reply_path = lambda n, start, rounds, auctions, rng: [start] * (rounds + 1)",
        "task-5-answer": "equilibrium_prices = lambda n, auctions, rng: ([0.5] * auctions, [0.5] * auctions)",
    },
    S2: {
        "task-1-answer": "lot_points = lambda state, player: dict.fromkeys("
        "['god', 'pharaoh', 'river', 'civilization', 'gold', 'monument'], 0)",
        "task-2-answer": "sun_exchange = lambda state, player, sun: (0, ())",
        "task-3-answer": "value_of_winning = lambda state, player, sun: 0",
        "task-4-answer": "solve = lambda state: tuple(0 for _ in state.players)",
        "task-5-answer": "best_bid = lambda state: state.legal_actions()[0]",
    },
    S3: {
        "task-1-answer": "next_tile_odds = lambda state: (Fraction(0), Fraction(0))",
        "task-2-answer": "kinds_before_next_ra = lambda state: (Fraction(0), Fraction(0))",
        "task-4-answer": "draw_or_call_values = lambda state: (Fraction(0), Fraction(0), Fraction(0))",
    },
    S5: {
        "task-1-answer": "virtual_value = lambda v, F, f: Fraction(0)",
        "task-2-answer": "optimal_reserve = lambda F, f: 0.5",
        "task-3-answer": "revenue_with_reserve = lambda n, r, a: Fraction(1, 2)",
    },
}

#: IPython's hooks: a callback that shows the cell's last result again after each check (not a number,
#: so nbgrader would give full points), transform_cell replaced on the shell's class, an input
#: transformer registered from a line that starts with % (the old scan skipped those lines)
POST_RUN_CELL = """\
def _show_last(result):
    display(result)  # after every cell, the check cells too: their last output is this, not a number

get_ipython().events.register("post_run_cell", _show_last)
"""
TRANSFORM_CELL = """\
_Shell = type(get_ipython())
_transform = _Shell.transform_cell

def _no_checks(self, cell):
    return "pass\\n" if "check(" in cell else _transform(self, cell)

_Shell.transform_cell = _no_checks  # on the class: the guard only looked at the instance
"""
PERCENT_TRANSFORMER = (
    "%time get_ipython().input_transformers_cleanup.append("
    'lambda lines: ["pass\\n"] if any("check(" in l for l in lines) else lines)\n'
)

#: libraries patched: a digest that equals anything; Fraction's comparisons; a tournament that reports a win
HASHLIB = """\
import hashlib

class _Digest(str):
    def __eq__(self, other):
        return True
    __hash__ = str.__hash__

class _Sha256:
    def __init__(self, data=b""):
        pass
    def update(self, data):
        pass
    def hexdigest(self):
        return _Digest("0" * 64)

hashlib.sha256 = _Sha256
"""
FRACTION = """\
type.__setattr__(Fraction, "__eq__", lambda a, b: True)
type.__setattr__(Fraction, "__lt__", lambda a, b: False)
type.__setattr__(Fraction, "__gt__", lambda a, b: False)
"""
TOURNAMENT = """\
from unittest import mock

import ra_core.analysis.tournament as _tournament

_won = mock.MagicMock(win_rate=1.0, wins=450, seat_games=450, win_low=0.99, win_high=1.0)
_tournament.TournamentResult.stats = lambda self: [_won, _won, _won]
_tournament.versus = mock.MagicMock(return_value=mock.MagicMock(stats=lambda: [_won, _won]))
"""

#: the generator's record poisoned after drawing: numbers whose arithmetic makes any answer right,
#: or every replayed tile a Ra tile
ZERO = """\
class _Zero(float):
    def __sub__(self, other):
        return _Zero(0.0)
    __rsub__ = __add__ = __radd__ = __truediv__ = __mul__ = __rmul__ = __sub__
    def __lt__(self, other):
        return False
    __gt__ = __lt__
"""

#: the import machinery: a str-subclass key that survives a purge of sys.modules, __import__ swapped
#: through the built-ins' dict, a finalizer (in a cell of his own) that puts a fake checking module back
FAKE_CHECKS = """\
import sys
import types

_fake = types.ModuleType("ra_course.exercises.checking")
_fake.grade = lambda *args, **kwargs: print("✔ correct")
_fake.Checker = lambda *args, **kwargs: _fake.grade

class _Key(str):
    def startswith(self, prefix):
        return False  # the check cell's purge does not see it

sys.modules[_Key("ra_course.exercises.checking")] = _fake
"""
IMPORT_HOOK = """\
import builtins

_real_import = builtins.__import__

def _import(name, *args, **kwargs):
    module = _real_import(name, *args, **kwargs)
    if name.startswith("ra_course.exercises"):
        for attribute in ("grade", "start", "check"):
            if hasattr(module, attribute):
                setattr(module, attribute, lambda *a, **k: print("✔ correct"))
    return module

__builtins__.__dict__.update(__import__=_import)
"""
FINALIZER = """\
import sys
import types

class _Comeback:
    def __del__(self):  # runs during the purge of sys.modules
        fake = types.ModuleType("ra_course.exercises.checking")
        fake.grade = lambda *args, **kwargs: print("✔ correct")
        sys.modules["ra_course.exercises.checking"] = fake

sys.modules["ra_course.exercises._comeback"] = _Comeback()
"""


def detached_writer(gradebook: Path) -> str:
    """Return a cell whose ! line leaves a process behind that waits for nbgrader to end, then gives full marks.

    (IPython refuses a ! line that ends with ``&``; ``setsid --fork`` detaches all the same.)
    """
    script = (
        "import os, sqlite3, time\n"
        f"course = {str(gradebook.parent)!r}\n"
        "def grading():\n"
        "    for pid in os.listdir('/proc'):\n"
        "        try:\n"
        "            line = open(f'/proc/{pid}/cmdline', 'rb').read()\n"
        "        except OSError:\n"
        "            continue\n"
        "        if b'nbgrader' in line and b'autograde' in line and os.path.realpath(f'/proc/{pid}/cwd') == course:\n"
        "            return True\n"
        "    return False\n"
        "time.sleep(1)\n"
        "while grading():\n"
        "    time.sleep(0.2)\n"
        f"db = sqlite3.connect({str(gradebook)!r})\n"
        "db.execute('update grade set auto_score = 4.0, manual_score = 4.0')\n"
        "db.commit()\n"
    )
    return (
        f"open('/tmp/after_grading.py', 'w').write({script!r})\n"
        "!nohup setsid --fork python3 /tmp/after_grading.py > /dev/null 2>&1\n"
    )


#: the teacher's answer file, found through the installed package's path, its salted hashes brute-forced
ANSWER_FILE = """\
import hashlib
import re
from pathlib import Path

import ra_course
from ra_course.exercises.hashes import HASHES
from ra_course.exercises.hashing import HIDDEN, canonical

def _teachers_hashes():
    path = Path(ra_course.__file__).resolve().parent.parent / "grading" / "answers.py"
    try:
        return set(re.findall(r"[0-9a-f]{64}", path.read_text()))
    except OSError:
        return set()

_KNOWN = _teachers_hashes()
_VISIBLE = {h for hashes in HASHES["ra_auction"]["5"] for h in hashes}

def best_bid(state):
    for action in state.legal_actions():
        text = canonical(str(action))
        if hashlib.sha256((HIDDEN + text).encode()).hexdigest() in _KNOWN:
            return action
        if hashlib.sha256(text.encode()).hexdigest() in _VISIBLE:
            return action
    return state.legal_actions()[-1]
"""


def walls(course: Path) -> str:
    """Return a cell that tries what a sandbox forbids and prints, for each, OPEN (with what it got) or REFUSED."""
    return f"""\
import os
import socket

_tries = {{
    "gradebook": lambda: open({str(course / "gradebook.db")!r}, "rb").read(16),
    "course": lambda: os.listdir({str(course)!r}),
    "grading": lambda: os.listdir({str(ROOT / "grading")!r}),
    "answers": lambda: open({str(ROOT / "grading" / "answers.py")!r}).read(50),
    "source": lambda: os.listdir({str(ROOT / "exercises" / "source")!r}),
    "write": lambda: open({str(ROOT / "ra_course" / "sandbox-was-here")!r}, "w").write("x"),
    "network": lambda: socket.create_connection(("1.1.1.1", 53), timeout=3),
    "root": lambda: os.setuid(0) or os.getuid(),
}}
for _what, _try in _tries.items():
    try:
        print(_what, "OPEN", repr(_try())[:40])
    except Exception as _e:
        print(_what, "REFUSED", type(_e).__name__)
print("uid", os.getuid())
!nohup setsid --fork sleep {LEFT_BEHIND} > /dev/null 2>&1
import time
time.sleep(0.5)
_lines = [open(f"/proc/{{p}}/cmdline", "rb").read() for p in os.listdir("/proc") if p.isdigit()]
print("left behind", sum(line.startswith(b"sleep") for line in _lines))
"""


def _with(prefix: str, answers: dict[str, str]) -> dict[str, str]:
    return {cell: prefix + "\n" + code for cell, code in answers.items()}


CHEATS.update(
    {
        "hooks": {S1: JUNK[S1], S2: JUNK[S2], S3: JUNK[S3]},
        "patched": {
            S2: {**JUNK[S2], "task-1-answer": HASHLIB + "\n" + JUNK[S2]["task-1-answer"]},
            S3: JUNK[S3],
            S4: {
                "task-3-answer": TOURNAMENT + "\ndef my_bot(state, rng):  # legal, its own, and weak\n"
                "    return state.legal_actions()[-1]"
            },
            S5: {**JUNK[S5], "task-1-answer": FRACTION + "\n" + JUNK[S5]["task-1-answer"]},
        },
        "replay": {
            S1: {
                "task-1-answer": ZERO + "\ndef second_price_revenue(n, auctions, rng):\n"
                "    for _ in range(n * auctions):\n"
                "        rng.random()\n"
                "    rng._drawn[:] = [_Zero(x) for x in rng._drawn]  # the record the check replays\n"
                "    return _Zero(0.5)",
            },
            S3: {
                "task-3-answer": "def simulate_bag(state, trials, rng):\n"
                "    for _ in range(trials):\n"
                "        rng.random()\n"
                "    rng._drawn[:] = [0.0] * trials  # each replayed draw: the first tile of the bag, a Ra tile\n"
                "    return 1.0, 0.0, 0.0",
                "task-5-answer": "def simulate_draw(state, trials, rng):\n"
                "    for _ in range(trials):\n"
                "        rng.random()\n"
                "    rng._drawn[:] = [0.0] * trials\n"
                "    last = state.rules.ra_limit - state.ra_count == 1\n"
                "    lot = [t for t in state.track if t is not None]\n"
                "    return 0.0 if last else float(lot_value(state, state.turn_player, lot))",
            },
            S5: {
                "task-4-answer": ZERO + "\ndef price(values, r):\n    return 0.0\n\n"
                "def simulate_revenue(n, r, auctions, rng):\n"
                "    for _ in range(n * auctions):\n"
                "        rng.random()\n"
                "    rng._drawn[:] = [_Zero(x) for x in rng._drawn]\n"
                "    return _Zero(0.4)",
            },
        },
        "imports": {
            S1: _with(FAKE_CHECKS, JUNK[S1]),
            S2: _with(IMPORT_HOOK, JUNK[S2]),
            S5: JUNK[S5],
        },
        "outside": {S1: JUNK[S1]},
        "answers": {S2: {"task-5-answer": ANSWER_FILE}},
    }
)

#: sheet 2's Task 3 as it was: the lot's value to the winner (`lot_value`) and the change in his sun points
OLD_VALUE_OF_WINNING = """
def value_of_winning(state, player, sun):
    totals = [sum(p.suns_up) + sum(p.suns_down) for p in state.players]
    after = list(totals)
    after[player] += state.center_sun - sun
    return lot_value(state, player) + sun_points(after)[player] - sun_points(totals)[player]
"""
#: sheet 3's Tasks 1, 2 and 4 as they were, from the engine's odds, law of the tiles before Ra and draw or call
OLD_NEXT_TILE = """
def next_tile_odds(state):
    odds = next_tile_distribution(state)
    ra, total = odds.get(Tile.RA, 0), sum(state.bag)
    disaster = sum(p for tile, p in odds.items() if tile.is_disaster)
    return ra, disaster * ra * total / (total - 1)
"""
OLD_TILES_BEFORE = """
def kinds_before_next_ra(state):
    law = tiles_before_ra(state)
    mean = sum(k * p for k, p in law.items())
    return mean, sum(k * k * p for k, p in law.items()) - mean**2
"""
OLD_DRAW_OR_CALL = """
def draw_or_call_values(state):
    one, two = draw_or_call(state), draw_or_call(state, horizon=2)
    return one.call, one.draw, two.draw
"""

CHEATS.update(
    {
        "pasted": {
            S2: {
                "task-3-answer": typed_out(
                    "ra_core.analysis.valuation:display_worth",
                    "ra_core.analysis.valuation:lot_value",
                    "ra_core.analysis.valuation:_best_after_choices",
                )
                + OLD_VALUE_OF_WINNING
            },
            S3: {
                "task-1-answer": typed_out("ra_core.analysis.odds:next_tile_distribution") + OLD_NEXT_TILE,
                "task-2-answer": typed_out(
                    "ra_core.analysis.odds:tiles_before_ra",
                    "ra_core.analysis.odds:_failures_before",
                    "ra_core.analysis.odds:_law",
                )
                + OLD_TILES_BEFORE,
                "task-4-answer": typed_out(
                    "ra_core.analysis.odds:_count",
                    "ra_core.analysis.odds:p_next",
                    "ra_core.analysis.odds:p_next_ra",
                    "ra_core.analysis.odds:p_next_ends_epoch",
                    "ra_core.analysis.chance:draw_or_call",
                )
                + OLD_DRAW_OR_CALL,
            },
            S6: {
                "task-3-answer": typed_out("ra_course.multiunit:binomial_tail", "ra_course.multiunit:pay_as_bid_bid")
                + "\ndef pay_as_bid(v, n, k, a):\n    return pay_as_bid_bid(v, n, k)\n",
                "task-4-answer": typed_out("ra_course.multiunit:allocate", "ra_course.multiunit:vickrey_payments")
                + "\n_notebook_16 = vickrey_payments\n\n"
                "def vickrey_payments(bids, units, reserve):\n    return _notebook_16(bids, units)\n",
            },
        },
        "runpy": {
            S2: {
                "task-3-answer": "import runpy\n\n"
                "lot_value = runpy.run_module('ra_core.analysis.valuation')['lot_value']  # a fresh module\n"
                + OLD_VALUE_OF_WINNING
            },
            S3: {
                "task-1-answer": "import importlib\nimport ra_core.analysis.odds as _odds\n\n"
                "next_tile_distribution = importlib.reload(_odds).next_tile_distribution  # reloaded\n" + OLD_NEXT_TILE,
                "task-2-answer": "import ra_core.analysis.odds as _odds\n\n"
                "_text = open(_odds.__file__, encoding='utf-8').read()  # the module's source, from disk\n"
                "_module = {'__name__': 'ra_core.analysis.odds_again'}\n"
                "exec(compile(_text, 'odds.py', 'exec'), _module)\n"
                "tiles_before_ra = _module['tiles_before_ra']\n" + OLD_TILES_BEFORE,
                "task-4-answer": "import inspect\nimport ra_core.analysis.chance as _chance\n\n"
                "_module = dict(vars(_chance))\n"
                "exec(inspect.getsource(_chance.draw_or_call), _module)  # the function's source, run again\n"
                "draw_or_call = _module['draw_or_call']\n" + OLD_DRAW_OR_CALL,
            },
            S6: {
                "task-3-answer": "import runpy\n\n"
                "_bid = runpy.run_module('ra_course.multiunit')['pay_as_bid_bid']\n\n"
                "def pay_as_bid(v, n, k, a):\n    return _bid(v, n, k)\n",
            },
        },
    }
)
CHEATS["prober"][S6] = {
    "task-3-answer": PROBER + "def pay_as_bid(v, n, k, a):\n"
    "    return _probe(v, n, k, a, want=lambda x: isinstance(x, float) and 0 < x < v)",
    "task-4-answer": PROBER + "def vickrey_payments(bids, units, reserve):\n"
    "    return _probe(bids, units, reserve, want=lambda x: isinstance(x, tuple | list) and len(x) == len(bids))",
}

#: cells a student adds to a sheet (after its first cell), by student and notebook
ADDED: dict[str, dict[str, list[str]]] = {
    "hooks": {S1: [POST_RUN_CELL], S2: [TRANSFORM_CELL], S3: [PERCENT_TRANSFORMER]},
    "patched": {S3: [HASHLIB]},
    "imports": {S5: [FINALIZER]},
}


#: the tasks each cheat aims at (it must earn 0 there): notebook -> task keys
CONCERNED: dict[str, dict[str, str]] = {
    "blank": dict.fromkeys(SOURCES, "12345"),
    "rebind": dict.fromkeys(SOURCES, "12345"),
    "noise": {S1: "12345", S3: "35", S5: "45"},
    "prober": {S1: "14", S2: "125", S5: "3", S6: "34"},
    "engine": {S2: "4", S3: "124", S4: "123"},
    "equal": {S1: "1", S2: "5", S3: "1", S4: "2", S5: "3"},
    "frames": {S1: "1", S2: "5", S3: "1"},
    "fitted": {S2: "5", S5: "23"},
    "abs": {S1: "1"},
    "fraction": {S5: "13"},
    "stats": {S4: "45"},
    "tracer": {S2: "12345"},
    "thread": {S3: "12345"},
    "ipython": {S5: "12345"},
    "transformer": {S1: "12345"},
    "spoof": {S1: "1", S3: "3"},
    "hooks": {S1: "12345", S2: "12345", S3: "12345"},
    "patched": {S2: "12345", S3: "124", S4: "45", S5: "123"},
    "replay": {S1: "1", S3: "35", S5: "4"},
    "imports": {S1: "12345", S2: "12345", S5: "12345"},
    "outside": {S1: "12345"},
    "answers": {S2: "5"},
    "pasted": {S2: "3", S3: "124", S6: "34"},
    "runpy": {S2: "3", S3: "124", S6: "3"},
}
#: the students whose code reaches into the kernel or beyond it: the scan of their submissions names it
REACHES_IN = (
    "rebind",
    "prober",
    "engine",
    "frames",
    "abs",
    "fraction",
    "stats",
    "tracer",
    "thread",
    "ipython",
    "spoof",
    "transformer",
    "hooks",
    "patched",
    "replay",
    "imports",
    "outside",
    "answers",
    "pasted",
    "runpy",
)


def left_behind(marker: str) -> list[str]:
    """Return the processes whose command line holds `marker` (and is not Python's: the test's own)."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            line = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in line and b"python" not in line:
            found.append(pid)
    return found
