"""The exercise sheets: checks that teach, student versions made from the sources, committed notebooks.

nbval runs every notebook in ``exercises/`` (they are in the pytest collection): the source
notebooks with every check passing, the release notebooks with every check "not attempted yet".
The tests here check what nbval cannot: the checks' behaviour on wrong and unfinished answers,
the hashes, how the student versions are made, and that the committed ones are up to date.
"""

from __future__ import annotations

import gc
import importlib.util
import json
import random
import re
import types
from fractions import Fraction
from pathlib import Path
from typing import Any

import nbformat
import pytest

from grading.keys import reference, visible_answers
from ra_core import Bid, Pass, State, Tile
from ra_core.analysis import odds
from ra_core.analysis.chance import draw_or_call
from ra_core.analysis.valuation import lot_value
from ra_core.bots import HeuristicBot, random_bot
from ra_course.exercises import SHEETS, auctions, bag, bidder, calls, checking, guards, ra_auction, sheet, start
from ra_course.exercises.checking import NOT_ATTEMPTED, Checker, CheckFailed, NotAttemptedYet, answer_hash, canonical

ROOT = Path(__file__).parent.parent
SOURCES = sorted((ROOT / "exercises" / "source").glob("*.ipynb"))
RELEASES = sorted((ROOT / "exercises" / "release").glob("*.ipynb"))
NOTEBOOK_SHEET = {"01": "auctions", "02": "ra_auction", "03": "bag", "04": "bidder", "05": "reserve", "06": "multiunit"}


def _load_make_student() -> Any:
    spec = importlib.util.spec_from_file_location("make_student", ROOT / "tools" / "make_student.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_student = _load_make_student()


def fail(check: Checker, key: str, answer: Any) -> str:
    """Return the message of a check that must fail."""
    with pytest.raises(CheckFailed) as info:
        check(key, answer)
    return str(info.value)


def stub(*args: Any) -> Any:
    """The student's function before any attempt (what nbgrader's stub does)."""
    raise NotImplementedError()


# -- the checking machinery --------------------------------------------------------------------


def _toy_checker() -> Checker:
    def judge(f: Any) -> str:
        if checking.call(f, "double", 21) != 42:
            raise checking.Wrong("double(21) is off")
        return "fine"

    task = checking.Task("1", "Doubling", 3, "double", judge, ("first hint", "second hint"))
    return Checker(checking.Sheet("toy", "A toy sheet", (task,)))


def test_right_answer_passes_and_prints_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    check = _toy_checker()
    check("1", lambda x: 2 * x)
    assert capsys.readouterr().out == "✔ Task 1 · Doubling: correct. fine\n"
    assert check.results == {"1": "passed"}


def test_wrong_answer_gives_the_first_hint_then_the_stronger_one() -> None:
    check = _toy_checker()
    first = fail(check, "1", lambda x: x + 1)
    assert "not right yet: double(21) is off" in first
    assert "Hint: first hint" in first and "second hint" not in first
    second = fail(check, "1", lambda x: x + 2)
    assert "Hint: first hint" in second and "Stronger hint: second hint" in second
    assert check.results == {"1": "failed"}


def test_running_a_check_again_unchanged_shows_no_stronger_hint() -> None:
    """Only a changed function that fails again earns the stronger hint: running the cell twice is no new try."""
    check = _toy_checker()

    def double(x: int) -> int:
        return x + 1

    for _ in range(3):
        assert "Stronger hint" not in fail(check, "1", double)
    again = eval("lambda x: x + 1")  # the same code, defined again (the cell run again): still no new try
    assert "Stronger hint" not in fail(check, "1", again)
    assert "Stronger hint: second hint" in fail(check, "1", lambda x: x * 3)


@pytest.mark.parametrize("answer", [stub, None, ..., lambda x: None])
def test_the_stub_is_not_attempted_yet_and_gives_no_hint(answer: Any) -> None:
    check = _toy_checker()
    note = check("1", answer)
    assert isinstance(note, NotAttemptedYet), "a note, not an error: nothing is wrong yet"
    assert NOT_ATTEMPTED in note.message and "Hint" not in note.message
    assert check.failures == {} and check.results == {"1": NOT_ATTEMPTED}
    # nbgrader reads the cell's value as partial credit: its text must be the number 0, and the
    # notebook shows the note itself, in a plain box
    bundle = note._repr_mimebundle_()
    assert bundle["text/plain"] == "0" and float(bundle["text/plain"]) == 0
    assert NOT_ATTEMPTED in bundle["text/html"] and "error" not in bundle["text/html"]


def test_an_error_in_the_students_code_is_named_without_a_traceback() -> None:
    check = _toy_checker()

    def double(x: int) -> int:
        return x // 0

    message = fail(check, "1", double)
    assert "`double` raised ZeroDivisionError: integer division or modulo by zero" in message
    assert "return x // 0" in message and "Traceback" not in message


def test_check_failed_renders_as_its_message_only() -> None:
    error = CheckFailed("line one\nline two")
    assert isinstance(error, AssertionError)  # nbgrader counts the grade cell as failed
    assert error._render_traceback_() == ["line one", "line two"]


def test_summary_counts_points(capsys: pytest.CaptureFixture[str]) -> None:
    check = _toy_checker()
    check.summary()
    assert "0 of 3 points" in capsys.readouterr().out
    check("1", lambda x: 2 * x)
    check.summary()
    assert "3 of 3 points" in capsys.readouterr().out


def test_unknown_task_and_sheet_are_named() -> None:
    with pytest.raises(KeyError, match="its tasks are"):
        _toy_checker()("9", stub)
    with pytest.raises(KeyError, match="the sheets are"):
        sheet("nope")


def test_canonical_form_accepts_exact_answers_as_floats() -> None:
    assert answer_hash(Fraction(1, 3)) == answer_hash(1 / 3) == answer_hash(0.3333333333)
    assert answer_hash((1, Fraction(1, 2))) == answer_hash([1.0, 0.5])
    assert answer_hash(Fraction(1, 3)) != answer_hash(Fraction(1, 3) + Fraction(1, 10**8))
    assert canonical(-0.0) == canonical(0) and canonical(Bid(9)) == "bid 9"


# -- the sheets ------------------------------------------------------------------------------


def test_every_sheet_has_three_to_six_tasks_and_two_hints_each() -> None:
    for name in SHEETS:
        s = sheet(name)
        assert 3 <= len(s.tasks) <= 6
        for t in s.tasks:
            assert t.points > 0 and len(t.hints) == 2 and all(len(h) > 30 for h in t.hints)


def test_second_hints_name_the_idea_and_where_it_was_taught_not_code() -> None:
    for name in SHEETS:
        for t in sheet(name).tasks:
            second = t.hints[1]
            assert re.search(r"notebook \d\d", second), f"{t.label}: name the notebook: {second}"
            assert not re.search(r"`[^`]*[(\[=][^`]*`", second), f"{t.label}: no code in a second hint: {second}"


@pytest.mark.parametrize("name", list(SHEETS))
def test_every_task_of_every_sheet_reports_the_stub_as_not_attempted(name: str) -> None:
    check = Checker(sheet(name))
    for task in check.sheet.tasks:
        note = check(task.key, stub)
        assert isinstance(note, NotAttemptedYet)
        assert note.message.startswith(f"{task.label}: {NOT_ATTEMPTED}")
        assert f"Write `{task.answer}`" in note.message


def test_the_answer_keys_are_up_to_date() -> None:
    """The visible hashes (in the package) and the hidden answers (in grading/) are the source solutions' answers."""
    from grading import keys

    assert keys.main(["--check"]) == 0, "run python -m grading.keys --write, execute the sheets, make student"


def test_the_package_holds_no_reference_solution_or_answer() -> None:
    """The installed package holds checks, examples and hashes: no solution, no moment, no answer of a task.

    (tests/test_no_public_answers.py calls every function a student can import on the hidden
    cases; this test looks at the names and at what the checks' modules hold.)
    """
    answers = {"solve", "best_bid", "sun_change", "example_answers", "hidden_endgames", "reference"}
    for module in (auctions, ra_auction, bag, bidder, checking):
        assert not answers & set(dir(module)), module.__name__
        names = [n for n in dir(module) if callable(getattr(module, n))]
        assert not [n for n in names if "moment" in n or "best_reply" in n or "suns_after" in n], module.__name__
    for s in map(sheet, SHEETS):
        assert not {t.answer for t in s.tasks} & set(dir(importlib.import_module(f"ra_course.exercises.{s.name}")))
    from ra_course.exercises import hashes

    for tasks in hashes.HASHES.values():  # hashes only: 64 hexadecimal digits
        for entries in tasks.values():
            flat = [h for e in entries for h in (e if isinstance(e, list) else [e])]
            assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in flat)


def _plain_forms(value: Any) -> set[str]:
    """Return the ways an answer could be printed: as a Fraction, a decimal, a tuple."""
    if isinstance(value, tuple | list):
        forms = {", ".join(str(v) for v in value)} if all(isinstance(v, int) for v in value) else set()
        for v in value:
            forms |= _plain_forms(v)
        return forms
    if isinstance(value, Fraction) and value.denominator != 1:
        return {
            f"{value.numerator}/{value.denominator}",
            f"Fraction({value.numerator}, {value.denominator})",
            f"{float(value):.3f}",
            f"{float(value):.4f}",
        }
    return set()


def test_hashed_answers_are_not_in_the_student_notebooks() -> None:
    text = {p.name: p.read_text() for p in RELEASES}
    answers = visible_answers()
    for name, notebook in (("ra_auction", "02_ras_auction.ipynb"), ("bag", "03_expected_value_in_the_bag.ipynb")):
        for key, values in answers[name].items():
            for form in _plain_forms(values[0]):  # the example's answer
                assert form not in text[notebook], f"{notebook} shows the answer of task {key}: {form}"


def test_check_messages_never_show_the_hashed_answer() -> None:
    check = Checker(bag.SHEET)
    answers = visible_answers()["bag"]
    message = fail(check, "1", lambda s: (Fraction(1, 7), Fraction(1, 9)))
    message += fail(check, "2", lambda s: (Fraction(sum(s.bag) - s.bag[Tile.RA], s.bag[Tile.RA]), Fraction(1)))
    for values in answers.values():
        for form in _plain_forms(values[0]):
            assert form not in message


def _second_price(n: int, k: int, rng: random.Random) -> float:
    return sum(sorted(rng.random() for _ in range(n))[-2] for _ in range(k)) / k


def test_auction_checks_catch_typical_mistakes() -> None:
    check = Checker(auctions.SHEET)

    def first_price_as_second(n: int, k: int, rng: random.Random) -> float:
        return sum(max(rng.random() for _ in range(n)) for _ in range(k)) / k

    assert "the mean highest value: the winner pays the second-highest bid" in fail(check, "1", first_price_as_second)
    glob = random.Random(0)
    message = fail(check, "1", lambda n, k, rng: sum(sorted(glob.random() for _ in range(n))[-2] for _ in range(k)) / k)
    assert "drew 0 numbers from `rng`; the task implies 1,000" in message
    assert "Stronger hint" in message  # the second failure of task 1
    assert "should return 7 numbers" in fail(check, "4", lambda n, start, rounds, k, rng: 1.0)
    assert "should return a pair" in fail(check, "5", lambda n, k, rng: 0.5)
    assert "other methods than `rng.random()`" in fail(check, "2", lambda n, s, k, rng: rng.randint(0, 1) + 0.5)
    assert "reseeded `rng`" in fail(check, "1", lambda n, k, rng: (rng.seed(1), _second_price(n, k, rng))[1])


def _formula_plus_matched_noise(n: int, k: int, rng: random.Random) -> float:
    """The closed form, with noise of exactly a simulation's spread, after drawing as many numbers as asked."""
    for _ in range(n * k):
        rng.random()
    variance = 2 * (n - 1) / ((n + 1) ** 2 * (n + 2))
    return (n - 1) / (n + 1) + random.Random(n * k).gauss(0, (variance / k) ** 0.5)


def test_a_formula_plus_noise_is_not_a_simulation() -> None:
    check = Checker(auctions.SHEET)
    message = fail(check, "1", _formula_plus_matched_noise)
    assert "which is not the mean second-highest value of the 500 auctions it drew" in message

    def too_few(n: int, k: int, rng: random.Random) -> float:  # a simulation of 100 auctions, whatever k is
        return _second_price(n, 100, rng)

    assert "drew 200 numbers from `rng`; the task implies 1,000" in fail(check, "1", too_few)


def test_best_replies_must_be_best_on_the_rounds_own_auctions() -> None:
    check = Checker(auctions.SHEET)
    jump = lambda n, start, rounds, k, rng: [start] + [(n - 1) / n] * rounds  # noqa: E731
    assert "drew 0 numbers from `rng`" in fail(check, "4", jump)

    def fresh_auctions_per_candidate(n: int, start: float, rounds: int, k: int, rng: random.Random) -> list[float]:
        ref = reference("auctions")
        path = [start]
        for _ in range(rounds):
            seed = rng.random()  # the old way: a seed per round, a generator of its own per candidate
            grid = [i / 50 for i in range(51)]
            profits = [ref["first_price_profit"](n, s, path[-1], k, random.Random(seed)) for s in grid]
            path.append(grid[profits.index(max(profits))])
        return path

    assert "each round draws 2000 auctions of 2 values from `rng` itself" in fail(
        check, "4", fresh_auctions_per_candidate
    )

    def coarse(n: int, start: float, rounds: int, k: int, rng: random.Random) -> list[float]:
        path = [start]
        for _ in range(rounds):
            values = [[rng.random() for _ in range(n)] for _ in range(k)]
            grid = [i / 10 for i in range(11)]  # a 0.1 grid misses the best reply
            profits = [sum((1 - s) * v for v, *o in values if s * v > path[-1] * max(o)) for s in grid]
            path.append(grid[profits.index(max(profits))])
        return path

    assert "earns less on the 2000 auctions you drew that round than another shading" in fail(check, "4", coarse)


def test_revenue_equivalence_asks_for_the_prices_of_the_auctions_drawn() -> None:
    check = Checker(auctions.SHEET)
    prices = reference("auctions")["equilibrium_prices"]
    assert "in the wrong order" in fail(check, "5", lambda n, k, rng: tuple(reversed(prices(n, k, rng))))
    twice = lambda n, k, rng: (prices(n, k, rng)[1], prices(n, k, rng)[1])  # noqa: E731
    assert "drew 80,000 numbers" in fail(check, "5", twice)


def test_ra_auction_checks_catch_typical_mistakes() -> None:
    check = Checker(ra_auction.SHEET)
    zero = dict.fromkeys(ra_auction.CATEGORIES, 0)
    assert "should return a dict with the keys" in fail(check, "1", lambda s, p: 0)
    assert "your points for P0 by category" in fail(check, "1", lambda s, p: zero)
    assert "points in fame are a whole number" in fail(check, "1", lambda s, p: {**zero, "gold": 0.5})
    assert "your (cost, suns)" in fail(check, "2", lambda s, p, sun: (s.center_sun - sun, ()))

    def lowest_bid(state: State) -> Any:
        return next(a for a in state.legal_actions() if isinstance(a, Bid))

    assert "your best action is" in fail(check, "5", lowest_bid)
    assert "it should return an action" in fail(check, "5", lambda s: "bid 10")
    assert "tuple of 3 numbers" in fail(check, "4", lambda s: 5)


def test_package_helpers_that_answer_a_task_earn_nothing() -> None:
    message = fail(Checker(ra_auction.SHEET), "1", lambda s, p: lot_value(s, p))
    assert "calls `ra_core.analysis.valuation.lot_value` of the package" in message
    import ra_core.analysis.chance as chance

    def next_odds(state: State) -> Any:
        try:
            return chance.p_next_ra(state), Fraction(0)
        except Exception:  # catching the tripwire does not help
            return Fraction(1, 2), Fraction(1, 3)

    assert "calls `ra_core.analysis.odds.p_next_ra`" in fail(Checker(bag.SHEET), "1", next_odds)
    assert "calls `ra_core.analysis.chance.draw_or_call`" in fail(
        Checker(bag.SHEET), "4", lambda s: (draw_or_call(s).call, draw_or_call(s).draw, draw_or_call(s, horizon=2).draw)
    )
    assert lot_value(State.from_dict(ra_auction.LOT_EXAMPLE), 1) != 0  # outside a check it works as before


def test_a_tripwire_is_restored_after_an_error_and_names_methods() -> None:
    before = HeuristicBot.__call__.__code__
    with pytest.raises(guards.ForbiddenCall), guards.student_code(("ra_core.bots.HeuristicBot.__call__",)) as tripped:
        HeuristicBot()(State.from_dict(ra_auction.LOT_EXAMPLE), random.Random(0))
    assert tripped == ["ra_core.bots.HeuristicBot.__call__"] and HeuristicBot.__call__.__code__ is before


def test_the_endgame_of_sheet_2_rewards_a_higher_bid() -> None:
    ref = reference("ra_auction")
    end = State.from_dict(ra_auction.ENDGAME, strict=False)
    assert str(ref["best_bid"](end)) == "bid 10"  # a low sun would be outbid by P2's 9
    values = [ref["solve"](end.apply(a))[end.to_move] for a in end.legal_actions()]
    assert values[2] > values[1] == values[0]


def test_bag_checks_catch_typical_mistakes() -> None:
    check = Checker(bag.SHEET)
    floats = fail(check, "1", lambda s: (s.bag[Tile.RA] / sum(s.bag), 0.0))
    assert "this task asks for exact answers" in floats
    assert "is off" in fail(
        check, "2", lambda s: (Fraction(sum(s.bag) - s.bag[Tile.RA], s.bag[Tile.RA] + 1), Fraction(0))
    )

    assert "is off" in fail(check, "4", _hopeful_values)
    simulate = reference("bag")["simulate_bag"]

    def counts_the_ra_tile(state: State, trials: int, rng: random.Random) -> tuple[float, ...]:
        pair, dis, kinds = simulate(state, trials, rng)
        return pair, dis, kinds + 1  # counts the Ra tile's kind too

    assert "mean number of different kinds before the Ra tile" in fail(check, "3", counts_the_ra_tile)

    def shuffles(state: State, trials: int, rng: random.Random) -> Any:
        rng.shuffle(list(state.bag))
        return simulate(state, trials, rng)

    assert "other methods than `rng.random()`" in fail(check, "3", shuffles)


def _hopeful_values(state: State) -> tuple[Fraction, ...]:
    """Task 4 in the hopeful model of the package's draw_or_call: a Ra tile drawn starts an auction the mover wins."""
    me, lot = state.turn_player, [t for t in state.track if t is not None]
    last = state.rules.ra_limit - state.ra_count == 1

    def once(lot: list[Tile], bag: list[int], again: bool) -> Fraction:
        value = Fraction(0)
        for tile, n in zip(Tile, bag, strict=True):
            if n and tile is Tile.RA:
                value += Fraction(n, sum(bag)) * (0 if last else lot_value(state, me, lot))
            elif n:
                rest = list(bag)
                rest[tile] -= 1
                more = again and len(lot) + 1 < len(state.track)
                then = once([*lot, tile], rest, False) if more else Fraction(lot_value(state, me, [*lot, tile]))
                value += Fraction(n, sum(bag)) * then
        return value

    bag = list(state.bag)
    return Fraction(lot_value(state, me, lot)), once(lot, bag, False), once(lot, bag, True)


def test_the_engine_does_not_compute_sheet_3s_exact_answers() -> None:
    """No exact answer of sheet 3 is what the engine's analysis of the bag gives, on any position.

    Task 1's pair and Task 2's kinds are quantities the engine has no function for; Task 4's values
    of drawing are those of the cautious model (a drawn Ra tile costs the lot), which the engine's
    draw-or-call (the hopeful model, one or two steps) does not take: drawing once differs on every
    position whose next Ra tile does not end the epoch, drawing twice (a fixed plan) on every one.
    """
    ref = reference("bag")
    for s in bag.practice_positions() + bag.practice_positions(6, 23):
        mine, last = ref["draw_or_call_values"](s), s.rules.ra_limit - s.ra_count == 1
        assert mine[2] != draw_or_call(s, horizon=2).draw
        assert mine[1] != draw_or_call(s).draw or last  # at the epoch's end a Ra tile costs the lot in both
        assert mine != _hopeful_values(s) or last
        assert ref["next_tile_odds"](s)[0] not in (odds.p_next_ra(s), odds.p_next_disaster(s))
        assert ref["kinds_before_next_ra"](s)[0] != odds.expected_tiles_before_ra(s)


def test_bidder_checks_catch_bad_bots() -> None:
    check = Checker(bidder.SHEET)
    always_pass = lambda s: Pass() if Pass() in s.legal_actions() else s.legal_actions()[0]  # noqa: E731
    assert "passed on a lot worth" in fail(check, "1", always_pass)
    assert "not legal there" in fail(check, "1", lambda s: Bid(99))
    assert "called Ra on an empty track" in fail(check, "2", _call_ra)
    assert "full track" in fail(check, "2", _always_draw)
    weak = fail(check, "4", lambda s, rng: s.legal_actions()[-1])  # legal, its own, and weak: stopped early
    assert "of its first 50 games" in weak and "would not reach 67% of 60" in weak
    assert "decides as the random bot of the package does" in fail(check, "4", random_bot)


def _always_draw(state: State) -> Any:
    """Draw on every turn: right on empty tracks, never a harmful call, but not legal on a full track (R19)."""
    from ra_core import Draw

    return Draw()


def _call_ra(state: State) -> Any:
    from ra_core import CallRa

    return CallRa()


def _pasted_copy(**changes: Any) -> Any:
    """A copy of the heuristic bot as a student would paste it: the same code object, not the package's function."""
    code = HeuristicBot.__call__

    class Pasted(HeuristicBot):
        pass

    Pasted.__call__ = types.FunctionType(code.__code__, code.__globals__, "__call__", code.__defaults__)  # type: ignore[method-assign]
    return Pasted(name="pasted", **changes)


def _retyped_copy(**changes: Any) -> Any:
    """A copy of the heuristic bot typed out again: its source compiled anew, so a code object of its own."""
    import inspect
    import textwrap

    plan = HeuristicBot.__call__
    namespace: dict[str, Any] = {}
    exec(compile(textwrap.dedent(inspect.getsource(plan)), "<a student's cell>", "exec"), plan.__globals__, namespace)

    class Retyped(HeuristicBot):
        pass

    Retyped.__call__ = namespace["__call__"]  # type: ignore[method-assign]
    return Retyped(name="retyped", **changes)


def test_a_copy_of_a_package_bot_earns_nothing_on_the_bot_tasks() -> None:
    check = Checker(bidder.SHEET)
    for key in ("3", "4", "5"):
        assert "calls `ra_core.bots.HeuristicBot.__call__`" in fail(check, key, HeuristicBot(margin=0.0))
        assert "decides as the heuristic bot of the package does" in fail(check, key, _retyped_copy())
    pasted = _pasted_copy()
    assert "a copy of `ra_core.bots.HeuristicBot.__call__` of the package is kept" in fail(check, "3", pasted)
    del pasted
    gc.collect()  # the copy's class goes, and the kernel holds no copy any more
    retyped = _retyped_copy()
    assert "decides as the heuristic bot of the package does" in fail(
        check, "1", lambda s: retyped(s, random.Random(0))
    )
    assert "decides as the heuristic bot of the package does" in fail(
        check, "2", lambda s: retyped(s, random.Random(0))
    )
    # with its margin set to 0 it would win 40.4 % at Task 5's seed, but it still decides as the original
    assert "decides as the heuristic bot of the package does in 19" in fail(check, "5", _retyped_copy(margin=0.0))


def test_start_prints_what_the_sheet_holds(capsys: pytest.CaptureFixture[str]) -> None:
    check = start("auctions")
    assert "5 tasks, 20 points" in capsys.readouterr().out
    assert repr(check) == "<Checker for 'Exercise sheet 1 · Auctions from first principles': 5 tasks, 20 points>"


# -- the notebooks -------------------------------------------------------------------------------


def test_there_are_four_sheets_in_source_and_release() -> None:
    assert [p.name for p in SOURCES] == [p.name for p in RELEASES]
    assert len(SOURCES) >= 4


def _grading(cell: Any) -> dict[str, Any]:
    meta: dict[str, Any] = cell.get("metadata", {}).get("nbgrader", {})
    return meta


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_source_cells_carry_nbgrader_metadata_matching_the_sheet(path: Path) -> None:
    nb = json.loads(path.read_text())
    s = sheet(NOTEBOOK_SHEET[path.name[:2]])
    ids = [_grading(c)["grade_id"] for c in nb["cells"] if _grading(c)]
    assert len(ids) == len(set(ids)), "grade_ids must be unique"
    checks = {}
    for cell in nb["cells"]:
        meta = _grading(cell)
        source = "".join(cell["source"])
        if meta:
            assert meta["schema_version"] == 3 and meta["grade_id"]
        if meta.get("grade"):
            visible = source.split("### BEGIN HIDDEN TESTS")[0]
            key = re.search(r'^check\("(\w+)", (\w+)\)$', visible, re.MULTILINE)
            assert key, f"a grade cell ends with its check: {source!r}"
            assert meta["grade_id"] == f"task-{key.group(1)}-check", "the judge finds the task by the cell's id"
            assert "sys.modules" not in visible, "a check cell shows the student no housekeeping"
            assert s.task(key.group(1)).answer == key.group(2)
            hidden = re.search(rf'^check\("{key.group(1)}", {key.group(2)}, hidden=.*\)$', source, re.M)
            assert hidden, f"every grade cell has hidden tests: {source!r}"
            checks[key.group(1)] = meta["points"]
            assert meta["locked"] and "raises-exception" in cell["metadata"].get("tags", [])
        if "BEGIN SOLUTION" in source:
            assert meta.get("solution"), "solution markers only in solution cells"
    assert checks == {t.key: t.points for t in s.tasks}, "one check cell per task, with the task's points"


@pytest.mark.parametrize("path", SOURCES + RELEASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_notebook_is_committed_executed_and_clean(path: Path) -> None:
    nb = json.loads(path.read_text())
    assert "widgets" not in nb.get("metadata", {})
    code = [c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]
    assert [c.get("execution_count") for c in code] == list(range(1, len(code) + 1)), (
        f"{path.name}: run tools/execute_notebooks.py (sources) or `make student` (releases)"
    )


def _outputs(cell: Any, kind: str) -> list[Any]:
    return [o for o in cell.get("outputs", []) if o["output_type"] == kind]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_every_check_passes_in_the_source(path: Path) -> None:
    nb = json.loads(path.read_text())
    for cell in nb["cells"]:
        assert not _outputs(cell, "error"), "".join(cell["source"])
        if _grading(cell).get("grade"):
            assert "".join(_outputs(cell, "stream")[0]["text"]).startswith("✔ Task")
    assert "20 of 20 points" in "".join(_outputs(nb["cells"][-1], "stream")[0]["text"])


@pytest.mark.parametrize("path", RELEASES, ids=lambda p: p.name)
def test_every_check_is_not_attempted_in_the_release(path: Path) -> None:
    nb = json.loads(path.read_text())
    grade_cells = 0
    for cell in nb["cells"]:
        assert not _outputs(cell, "error"), "not attempted yet is a note, not an error: " + "".join(cell["source"])
        if _grading(cell).get("grade"):
            grade_cells += 1
            (value,) = _outputs(cell, "execute_result")  # what nbgrader scores: partial credit 0
            assert "".join(value["data"]["text/plain"]) == "0"
            assert f": {NOT_ATTEMPTED}" in "".join(value["data"]["text/html"])
        assert "BEGIN SOLUTION" not in "".join(cell["source"])
    assert grade_cells >= 3
    assert "0 of 20 points" in "".join(_outputs(nb["cells"][-1], "stream")[0]["text"])


def test_release_notebooks_are_up_to_date_with_the_sources() -> None:
    assert make_student.main(["--check"]) == 0, "run `make student`"


# -- making the student versions ---------------------------------------------------------------


def _notebook(*cells: Any) -> Any:
    return nbformat.v4.new_notebook(cells=list(cells))


def _nbgrader(grade_id: str, **flags: Any) -> dict[str, Any]:
    meta = {"grade": False, "solution": False, "locked": False, "grade_id": grade_id, "schema_version": 3}
    return {"nbgrader": {**meta, **flags}}


def test_solution_regions_become_the_nbgrader_stub_at_their_indent() -> None:
    code = 'def f(x):\n    """Doc."""\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION\n\nY = 1'
    cell = nbformat.v4.new_code_cell(code, metadata=_nbgrader("a", solution=True), execution_count=3)
    cell.outputs = [nbformat.v4.new_output("stream", text="old")]
    out = make_student.student_version(_notebook(cell)).cells[0]
    assert out.source == 'def f(x):\n    """Doc."""\n    # YOUR CODE HERE\n    raise NotImplementedError()\n\nY = 1'
    assert out.outputs == [] and out.execution_count is None
    assert out.metadata["nbgrader"] == cell.metadata["nbgrader"] and out.metadata["deletable"] is False
    assert "editable" not in out.metadata


def test_solution_cells_without_markers_and_locked_cells() -> None:
    cells = [
        nbformat.v4.new_code_cell("x = 1", metadata=_nbgrader("a", solution=True)),
        nbformat.v4.new_markdown_cell("The answer is 42.", metadata=_nbgrader("b", solution=True)),
        nbformat.v4.new_code_cell("check()", metadata=_nbgrader("c", grade=True, locked=True, points=2)),
        nbformat.v4.new_code_cell("free = 1"),
    ]
    out = make_student.student_version(_notebook(*cells)).cells
    assert out[0].source == "# YOUR CODE HERE\nraise NotImplementedError()"
    assert out[1].source == "YOUR ANSWER HERE"
    assert out[2].source == "check()" and out[2].metadata["editable"] is False
    assert out[3].source == "free = 1" and "deletable" not in out[3].metadata


def test_hidden_tests_are_removed_from_grade_cells() -> None:
    code = "check(1)\n### BEGIN HIDDEN TESTS\ncheck(2)\n### END HIDDEN TESTS"
    cell = nbformat.v4.new_code_cell(code, metadata=_nbgrader("c", grade=True, points=1))
    assert make_student.student_version(_notebook(cell)).cells[0].source == "check(1)"


@pytest.mark.parametrize(
    ("source", "meta", "error"),
    [
        ("### BEGIN SOLUTION\nx = 1\n### END SOLUTION", {}, "not a solution cell"),
        ("### BEGIN SOLUTION\nx = 1", {"solution": True}, "without"),
        ("### BEGIN HIDDEN TESTS\nx\n### END HIDDEN TESTS", {}, "not a grade cell"),
    ],
)
def test_misplaced_markers_are_errors(source: str, meta: dict[str, Any], error: str) -> None:
    cell = nbformat.v4.new_code_cell(source, metadata=_nbgrader("x", **meta) if meta else {})
    with pytest.raises(ValueError, match=error):
        make_student.student_version(_notebook(cell))


def test_the_source_notebook_is_not_changed() -> None:
    nb = nbformat.read(SOURCES[0], as_version=4)
    before = json.dumps(nb, sort_keys=True)
    make_student.student_version(nb)
    assert json.dumps(nb, sort_keys=True) == before


# -- student code cannot crash or hang a check ----------------------------------------------


def test_a_function_that_never_returns_is_stopped_with_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(calls, "CALL_SECONDS", 0.2)

    def forever(x: int) -> int:
        while True:
            x += 1

    with pytest.raises(checking.Wrong, match="did not return within 0.2 seconds"):
        checking.call(forever, "forever", 1)


def test_an_answer_the_judge_cannot_read_is_a_failure_with_a_message() -> None:
    def judge(answer: Any) -> str:
        return f"{float(answer):.3f}"  # 10**400 overflows, as a real judge's arithmetic would

    task = checking.Task("1", "a number", 4, "my_answer", judge, ("first hint", "second hint"))
    check = Checker(checking.Sheet("demo", "Demo", (task,)))
    for junk in (10**400, [1, 2], "seven"):
        with pytest.raises(CheckFailed, match="could not be checked") as info:
            check("1", junk)
        assert "Traceback" not in str(info.value)


def test_the_line_shown_is_the_students_own_not_a_librarys() -> None:
    def student(text: str) -> Any:
        return json.loads(text)  # the error is raised inside the json library

    with pytest.raises(checking.Wrong) as info:
        checking.call(student, "student", "{")
    assert "json.loads(text)" in str(info.value) and "decoder" not in str(info.value)


def test_graded_without_the_judge_every_check_gives_0_points_and_names_the_line_to_add(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A teacher drops the sheets into a plain nbgrader course: autograde runs them in a kernel (nbgrader sets
    NBGRADER_EXECUTION=autograde there), where one line rebinding the check would earn every point. Every
    check then fails (0 points) with one sentence naming the configuration line, so the first honest
    submission shows the teacher; outside autograde (the student's own run, nbgrader validate) it passes."""

    def judge(f: Any) -> str:
        return "fine." if checking.call(f, "double", 21) == 42 else ""

    demo = checking.Sheet("demo", "A demonstration", (checking.Task("1", "Doubling", 2, "double", judge, ("a", "b")),))
    check = Checker(demo)
    assert check("1", lambda x: 2 * x) is None
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(CheckFailed) as failed:
        check("1", lambda x: 2 * x)
    (sentence,) = str(failed.value).splitlines()
    assert "0 points" in sentence and "c.Autograde.autograde_preprocessors = autograde_steps()" in sentence
    monkeypatch.setenv("NBGRADER_EXECUTION", "validate")
    assert check("1", lambda x: 2 * x) is None


def _sheet_namespace(notebook: str) -> dict[str, Any]:
    """Return the names a sheet's setup cell makes, as in a student's kernel (its banner swallowed)."""
    import contextlib
    import io

    release = nbformat.read(ROOT / "exercises" / "release" / f"{notebook}.ipynb", as_version=4)
    namespace: dict[str, Any] = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(release.cells[1].source, namespace)  # the sheet's own setup cell
    return namespace


@pytest.mark.parametrize("student", ["pasted", "runpy"])
def test_a_pasted_or_rerun_copy_of_a_package_function_answers_no_task(student: str) -> None:
    """What the red team bought points with: the package's functions as fresh copies. Each copy computes what
    the package computes (shown on the sheet's example), and earns nothing: no task asks that any longer.

    (A reloaded module is left to the autograde test: reloading here would swap the functions under the
    other tests' tripwires.)
    """
    from . import cheats
    from .student_files import without_grading

    for notebook, cells in cheats.CHEATS[student].items():
        task_sheet = sheet(NOTEBOOK_SHEET[notebook[:2]])
        for cell, code in cells.items():
            if "reload(" in code:
                continue
            namespace = _sheet_namespace(notebook)
            exec(compile(code, "<cell>", "exec", dont_inherit=True), namespace)  # a fixed text of tests/cheats.py
            task = task_sheet.task(cell.split("-")[1])
            for hidden in (False, True):
                with without_grading(), pytest.raises(CheckFailed):
                    Checker(task_sheet)(task.key, namespace[task.answer], hidden)
    copies = _sheet_namespace(cheats.S3)
    exec(compile(cheats.CHEATS["pasted"][cheats.S3]["task-4-answer"], "<cell>", "exec", dont_inherit=True), copies)
    example = State.from_dict(bag.EXAMPLE)
    assert copies["draw_or_call"](example, horizon=2) == draw_or_call(example, horizon=2)  # the copy works
