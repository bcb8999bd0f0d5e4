"""The clock auctions' rules (`ra_classroom.auctions.clock`), on any sequence of presses.

The property test plays a group of 2-12 through a clock: the server sends ticks one by one, and
between two ticks presses arrive, each naming a tick (early ones, which no page could have
shown; on time; late ones; ties). Each press goes through `judge`, the accepted ones are kept,
and once the group is final it is settled. The rules are checked from the accepted presses
alone, as a student would check them: who is in, who dropped or stopped first, at what price.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ra_classroom.auctions.clock import (
    Clock,
    Press,
    Refused,
    away_press,
    deciding_tick,
    is_final,
    judge,
    rules_text,
    settle_clock,
    still_in,
)


@st.composite
def plays(draw: st.DrawFn) -> tuple[Clock, list[tuple[int, float]], list[list[tuple[int, int]]], int]:
    """A clock, a group with values, and for each tick sent the presses (student, tick named) arriving then."""
    kind = draw(st.sampled_from(["english", "dutch"]))
    step = draw(st.sampled_from([1.0, 2.5, 5.0, 10.0, 30.0]))
    start, end = (0.0, 100.0) if kind == "english" else (100.0, 0.0)
    clock = Clock(kind, start=start, step=step, end=end, grace=draw(st.integers(0, 3)))
    n = draw(st.integers(2, 12))
    entries = [(10 + i, float(draw(st.integers(0, 100)))) for i in range(n)]
    arrivals = []
    for sent in range(clock.last + clock.grace + 2):
        batch = draw(
            st.lists(
                st.tuples(st.sampled_from([s for s, _ in entries]), st.integers(max(0, sent - 5), sent + 2)),
                max_size=4,
            )
        )
        arrivals.append(batch)
    return clock, entries, arrivals, draw(st.integers(0, 2**32))


def run(
    clock: Clock, entries: list[tuple[int, float]], arrivals: list[list[tuple[int, int]]]
) -> tuple[list[Press], int]:
    """Send ticks until the group is final, judging every press on its way; return the accepted ones and the tick."""
    members = [s for s, _ in entries]
    accepted: list[Press] = []
    for sent, batch in enumerate(arrivals):
        if is_final(clock, members, accepted, sent):
            return accepted, sent
        for student, tick in batch:
            press = Press(student, tick)
            try:
                judge(clock, members, accepted, press, sent)
            except Refused as why:
                assert str(why)
                assert (
                    tick > sent
                    or tick > clock.last
                    or sent - tick > clock.grace
                    or student in {p.student for p in accepted}
                    or ((d := deciding_tick(clock, members, accepted)) is not None and tick > d)
                ), (press, sent, str(why))
                continue
            assert tick <= min(sent, clock.last), "a press at a tick not yet sent counted"
            assert sent - tick <= clock.grace
            accepted.append(press)
    sent = len(arrivals)
    assert is_final(clock, members, accepted, sent), "the clock ran past its end plus the grace without an end"
    return accepted, sent


@settings(max_examples=400, deadline=None)
@given(plays())
def test_any_presses_settle_by_the_rules(
    play: tuple[Clock, list[tuple[int, float]], list[list[tuple[int, int]]], int],
) -> None:
    clock, entries, arrivals, seed = play
    members = [s for s, _ in entries]
    values = dict(entries)
    accepted, _ = run(clock, entries, arrivals)
    assert len({p.student for p in accepted}) == len(accepted), "a student pressed twice"
    s = settle_clock(clock, entries, accepted, random.Random(seed))
    again = settle_clock(clock, entries, list(reversed(accepted)), random.Random(seed))
    assert again == s, "the result depends on the order the presses arrived in, or is not deterministic"
    winners = [o for o in s.outcomes if o.won]
    assert len(winners) <= 1
    assert [o.student for o in s.outcomes] == members
    tick = {p.student: p.tick for p in accepted}
    if clock.kind == "dutch":
        if not accepted:
            assert s.winner is None and not winners and s.price == 0 and all(o.earnings == 0 for o in s.outcomes)
            return
        first = min(tick.values())
        assert s.tick == first and s.price == clock.price(first)
        assert tick[winners[0].student] == first
        at_first = tuple(m for m in members if tick.get(m) == first)
        assert s.tied == (at_first if len(at_first) > 1 else ())
    else:
        assert len(winners) == 1, "an English clock always sells"
        w = winners[0].student
        inf = clock.last + 1  # still in at the end: beyond a drop at the last tick
        out = {m: tick.get(m, inf) for m in members}
        highest = max(out[m] for m in members if m != w)
        if highest == inf:  # two or more still in at the top: a draw among them at the top price
            assert s.tick == clock.last and s.price == clock.price(clock.last) and out[w] == inf
            assert s.tied == tuple(m for m in members if out[m] == inf)
        else:  # he wins at the price at which the last other bidder dropped
            assert s.tick == highest and s.price == clock.price(highest)
            assert out[w] >= highest, "the winner had dropped out before the price was reached"
            level = tuple(m for m in members if out[m] == highest)
            assert s.tied == (level if out[w] == highest else ()), "a draw not told, or told without one"
    assert all(o.price == s.price for o in s.outcomes)
    for o in s.outcomes:
        assert o.earnings == (round(values[o.student] - s.price, 2) if o.won else 0.0)
        assert o.paid == (s.price if o.won else 0.0)
    assert s.sentence


def test_a_late_press_counts_at_its_own_tick() -> None:
    """Dutch: a press for tick 5 arriving after one for tick 6 still wins, within the grace."""
    clock = Clock("dutch", start=100, step=5, end=0, grace=1)
    members = [1, 2]
    accepted = [Press(2, 6)]
    judge(clock, members, accepted, Press(1, 5), sent=6)
    accepted.append(Press(1, 5))
    assert not is_final(clock, members, accepted, 6) and is_final(clock, members, accepted, 7)
    s = settle_clock(clock, [(1, 90.0), (2, 90.0)], accepted, random.Random(0))
    assert (s.winner, s.price, s.tied) == (1, 75.0, ())


@pytest.mark.parametrize(
    ("press", "sent", "why"),
    [
        (Press(1, 8), 7, "has not shown tick 8 yet"),
        (Press(1, 3), 7, "more than the 1 allowed"),
        (Press(9, 7), 7, "not in this group"),
        (Press(1, -1), 7, "a whole number"),
    ],
)
def test_refusals_are_sentences(press: Press, sent: int, why: str) -> None:
    clock = Clock("english", start=0, step=5, end=100)
    with pytest.raises(Refused, match=why):
        judge(clock, [1, 2, 3], [], press, sent)


def test_english_ties_and_the_top() -> None:
    clock = Clock("english", start=50, step=10, end=100)
    entries = [(1, 70.0), (2, 70.0), (3, 20.0)]
    both = [Press(3, 0), Press(1, 2), Press(2, 2)]
    s = settle_clock(clock, entries, both, random.Random(4))
    assert s.tied == (1, 2) and s.price == 70.0 and s.winner in (1, 2) and "draw" in s.sentence
    top = settle_clock(clock, entries, [Press(3, 1)], random.Random(4))
    assert top.tick == clock.last == 5 and top.price == 100.0 and top.tied == (1, 2)
    assert still_in(clock, [1, 2, 3], both, 1) == 2 and still_in(clock, [1, 2, 3], both, 2) == 0
    assert away_press(2, 9) == Press(2, 9, away=True)
    stopped = settle_clock(clock, entries, [Press(3, 1), Press(1, 4)], random.Random(4), stopped=3)
    assert stopped.tick == 3 and stopped.price == 80.0 and stopped.tied == (1, 2) and "stopped" in stopped.sentence


def test_a_dutch_clock_stopped_by_the_teacher_sells_nothing_unpressed() -> None:
    clock = Clock("dutch", start=100, step=10, end=0)
    s = settle_clock(clock, [(1, 50.0), (2, 60.0)], [Press(1, 7)], random.Random(0), stopped=5)
    assert (s.winner, s.price, s.tick) == (None, 0.0, None) and "teacher" in s.sentence


@pytest.mark.parametrize(
    ("settings_", "why"),
    [
        ({"kind": "vickrey", "start": 0, "step": 1, "end": 100}, "english or dutch"),
        ({"kind": "english", "start": 0, "step": 0, "end": 100}, "more than 0"),
        ({"kind": "english", "start": 100, "step": 1, "end": 0}, "must be above its start"),
        ({"kind": "dutch", "start": 0, "step": 1, "end": 100}, "must be below its start"),
        ({"kind": "dutch", "start": 100, "step": 0.001, "end": 0}, "more than 10,000 ticks"),
        ({"kind": "dutch", "start": float("nan"), "step": 1, "end": 0}, "must be a number"),
        ({"kind": "dutch", "start": 100, "step": 1, "end": 0, "grace": 11}, "grace must be"),
        ({"kind": "english", "start": 0, "step": 1, "end": 100, "away": 0}, "away must be"),
    ],
)
def test_bad_settings_are_sentences(settings_: dict[str, Any], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        Clock(**settings_)


def test_the_rules_text_tells_the_away_rule_and_the_grace() -> None:
    english = rules_text(Clock("english", start=0, step=5, end=100, away=4), 3, 1.5)
    assert "disconnected for 4 ticks" in english and "every 1.5 s" in english and "within 1 tick." in english
    dutch = rules_text(Clock("dutch", start=100, step=5, end=0, grace=2), 3, 1)
    assert "Buy now" in dutch and "within 2 ticks" in dutch and "no sale" in dutch
