"""Sheet 4, write a bidder: a bot of your own, scored by seeded tournaments against the reference bots.

Task 1 and 2 check single decisions on positions of seeded games between heuristic bots: the
action must be legal, and in the clear cases it must be the sensible one (derived at check time
with `ra_core.valuation.lot_value`). Task 3 plays whole games. Task 4 and 5 are seeded
tournaments (`ra_core.tournament.versus`): one copy of the student's bot against two copies of a
reference bot, seats rotated, with the pass marks `RANDOM_WIN_RATE` and `HEURISTIC_WIN_RATE`.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..actions import Action, Bid, CallRa, Draw, Pass
from ..bots import heuristic_bot, random_bot
from ..errors import IllegalActionError
from ..play import Policy, play, sample_chance
from ..setup import new_game
from ..state import CHANCE, TERMINAL, Phase, State
from ..tournament import TournamentResult, versus
from ..valuation import lot_value
from .checking import Sheet, Task, Wrong, call

__all__ = [
    "HEURISTIC_GAMES",
    "HEURISTIC_SEED",
    "HEURISTIC_WIN_RATE",
    "MAX_MS_PER_DECISION",
    "RANDOM_GAMES",
    "RANDOM_SEED",
    "RANDOM_WIN_RATE",
    "SHEET",
    "decision_positions",
]

#: Task 4: games against two random bots, the seed, and the win rate needed (the baseline is 1/3).
RANDOM_GAMES, RANDOM_SEED, RANDOM_WIN_RATE = 60, 41, 2 / 3
#: Task 5: games against two heuristic bots, the seed, and the win rate needed (a copy of the
#: heuristic bot wins about 1/3 of its seats).
HEURISTIC_GAMES, HEURISTIC_SEED, HEURISTIC_WIN_RATE = 300, 44, 0.40
#: Task 3: a bot slower than this on average would make Task 4 and 5 take too long.
MAX_MS_PER_DECISION = 5.0


def decision_positions(phase: Phase, games: int = 12, seed: int = 300) -> list[State]:
    """Return the positions in `phase` with a real choice from `games` seeded games of heuristic bots."""
    out = []
    for g in range(games):
        for state in play([heuristic_bot] * 3, seed=seed + g).states():
            if state.phase is phase and len(state.legal_actions()) > 1:
                out.append(state)
    return out


def _lowest_bid(state: State) -> int:
    return min(a.sun for a in state.legal_actions() if isinstance(a, Bid))


def _legal(got: Any, state: State, name: str, where: str) -> Action:
    legal = state.legal_actions()
    if got not in legal:
        shown = ", ".join(map(str, legal))
        raise Wrong(f"in {where} `{name}` returned {got!r}, which is not legal there; legal: {shown}")
    return got  # type: ignore[no-any-return]


def _spread(states: list[State], k: int) -> list[State]:
    """Return `k` of `states`, evenly spread."""
    if len(states) <= k:
        return states
    return [states[i * len(states) // k] for i in range(k)]


def _judge_bid(f: Any) -> str:
    name = "bid_decision"
    states = decision_positions(Phase.BID)
    for i, s in enumerate(_spread(states, 30)):
        _legal(call(f, name, s), s, name, f"auction {i + 1}")
    good = _spread([s for s in states if lot_value(s, s.to_move) >= 12], 12)
    for s in good:
        got = call(f, name, s)
        if not isinstance(got, Bid):
            lot = " ".join(t.label for t in s.track if t is not None)
            raise Wrong(
                f"P{s.to_move} passed on a lot worth {lot_value(s, s.to_move):+d} fame to him ({lot}) "
                f"in epoch {s.epoch}, with sun {_lowest_bid(s)} enough to win it for now"
            )
    bad = [s for s in states if Pass() in s.legal_actions() and lot_value(s, s.to_move) <= -4]
    bad = _spread([s for s in bad if _lowest_bid(s) > s.center_sun], 12)
    for s in bad:
        got = call(f, name, s)
        if not isinstance(got, Pass):
            lot = " ".join(t.label for t in s.track if t is not None)
            raise Wrong(
                f"P{s.to_move} bid {got} for a lot worth {lot_value(s, s.to_move):+d} fame to him ({lot}), "
                f"and for the center sun {s.center_sun}, lower than his bid"
            )
    return f"Legal in 30 auctions; bids on {len(good)} lots worth 12 or more, passes on {len(bad)} harmful ones."


def _judge_turn(f: Any) -> str:
    name = "turn_decision"
    states = decision_positions(Phase.ACTION)
    for i, s in enumerate(_spread(states, 30)):
        _legal(call(f, name, s), s, name, f"turn {i + 1}")
    empty = [s for s in states if all(t is None for t in s.track)]
    empty = _spread([s for s in empty if s.center_sun < min(s.players[s.to_move].suns_up)], 12)
    for s in empty:
        got = call(f, name, s)
        if isinstance(got, CallRa):
            raise Wrong(
                f"P{s.to_move} called Ra on an empty track: if everybody else passes, he must then bid one of "
                f"his suns {s.players[s.to_move].suns_up} for the center sun {s.center_sun} alone (R36, R40)"
            )
    harmful = _spread([s for s in states if Draw() in s.legal_actions() and lot_value(s, s.to_move) <= -3], 12)
    for s in harmful:
        got = call(f, name, s)
        if isinstance(got, CallRa):
            lot = " ".join(t.label for t in s.track if t is not None)
            raise Wrong(
                f"P{s.to_move} called Ra for a lot worth {lot_value(s, s.to_move):+d} fame to him ({lot}); "
                "if everybody else passes he must buy it himself (R40)"
            )
    return f"Legal on 30 turns; draws on {len(empty)} empty tracks; no call for {len(harmful)} harmful lots."


def _judge_bot(f: Any) -> str:
    name = "my_bot"
    if not callable(f):
        raise Wrong(f"pass the function `{name}` itself to the check, not {f!r}")
    decisions, spent = 0, 0.0
    for g in range(3):
        rng = random.Random(500 + g)
        state = new_game(3, seed=500 + g)
        while state.to_move != TERMINAL:
            who = state.to_move
            if who == CHANCE:
                action: Any = sample_chance(state, rng)
            elif who == g:
                start = time.perf_counter()
                action = call(f, name, state, rng)
                spent += time.perf_counter() - start
                decisions += 1
            else:
                action = random_bot(state, rng)
            try:
                state = state.apply(action)
            except (IllegalActionError, ValueError) as e:
                raise Wrong(f"in game {g + 1} your bot chose an action the rules do not allow: {e}") from None
    ms = 1000 * spent / max(decisions, 1)
    if ms > MAX_MS_PER_DECISION:
        raise Wrong(
            f"your bot takes {ms:.1f} ms per decision; Task 4 and 5 play {RANDOM_GAMES + HEURISTIC_GAMES} games, "
            f"so keep it under {MAX_MS_PER_DECISION:g} ms"
        )
    return f"Three whole games against random bots, {decisions} decisions, every one legal."


def _tournament(f: Any, opponent: Policy, games: int, seed: int) -> TournamentResult:
    call(f, "my_bot", new_game(3, suns="table"), random.Random(0))  # the stub: not attempted yet
    try:
        return versus(f, opponent, players=3, games=games, seed=seed, progress=False)
    except NotImplementedError:
        raise Wrong("your bot raised NotImplementedError in some phase: it must answer in every phase") from None
    except (IllegalActionError, ValueError) as e:
        raise Wrong(f"your bot chose an action the rules do not allow: {e}") from None
    except Exception as e:
        raise Wrong(f"your bot raised {type(e).__name__}: {e}") from None


def _rate(result: TournamentResult) -> str:
    s = result.stats()[0]
    return f"won {s.wins} of {s.seat_games} games ({s.win_rate:.0%}, 95% interval {s.win_low:.0%}-{s.win_high:.0%})"


def _judge_random(f: Any) -> str:
    result = _tournament(f, random_bot, RANDOM_GAMES, RANDOM_SEED)
    if result.stats()[0].win_rate < RANDOM_WIN_RATE:
        raise Wrong(f"against two random bots your bot {_rate(result)}; it needs {RANDOM_WIN_RATE:.0%}")
    return f"Against two random bots your bot {_rate(result)}."


def _judge_heuristic(f: Any) -> str:
    result = _tournament(f, heuristic_bot, HEURISTIC_GAMES, HEURISTIC_SEED)
    if result.stats()[0].win_rate < HEURISTIC_WIN_RATE:
        raise Wrong(f"against two heuristic bots your bot {_rate(result)}; it needs {HEURISTIC_WIN_RATE:.0%}")
    return f"Against two heuristic bots your bot {_rate(result)}."


SHEET = Sheet(
    "bidder",
    "Exercise sheet 4 · Write a bidder",
    (
        Task(
            "1",
            "Bid or pass",
            4,
            "bid_decision",
            _judge_bid,
            (
                "Return one of `state.legal_actions()`. Bid when winning is worth more than it costs: the "
                "lot's value to you against the sun you give for the center sun.",
                "`lot_value(state, state.to_move)` prices the lot; `bid_value(state, me, sun)` from "
                "ra_core.bots adds the sun exchange and the cost of spending a sun. Bid the lowest sun "
                "above the high bid when that is clearly positive, else pass (if passing is legal).",
            ),
        ),
        Task(
            "2",
            "Your turn: draw or call Ra",
            4,
            "turn_decision",
            _judge_turn,
            (
                "Calling Ra starts an auction you may have to win yourself: if everybody else passes, the "
                "caller must bid (R40). Call when the lot is worth it to you, draw otherwise.",
                "Draw on an empty or a harmful track; call when `bid_value(state, me)` is large compared with "
                "the empty slots still to fill (a full track leaves only Ra or a god, R19).",
            ),
        ),
        Task(
            "3",
            "A whole bot",
            4,
            "my_bot",
            _judge_bot,
            (
                "A bot answers in every phase: BID (Task 1), ACTION (Task 2), GODS (use another god or "
                "`Done()`) and DISCARD (which tiles to lose). Dispatch on `state.phase`.",
                "If there is only one legal action, return it. For DISCARD pick the legal `Discard` that "
                "keeps your display worth most (`display_worth`), or simply the first legal action.",
            ),
        ),
        Task(
            "4",
            "Beat the random bot",
            4,
            "my_bot",
            _judge_random,
            (
                f"Your bot plays {RANDOM_GAMES} seeded games against two random bots and must win at least "
                f"{RANDOM_WIN_RATE:.0%} of them. A bot that bids only for good lots does that easily.",
                "Look at what your bot does in a game: `ra_core.play.play([my_bot, random_bot, random_bot], "
                "seed=1)` and its `.states()`; check that it does bid for good lots and does not call Ra "
                "for bad ones.",
            ),
        ),
        Task(
            "5",
            "Hold your own against the heuristic bot",
            4,
            "my_bot",
            _judge_heuristic,
            (
                f"Your bot plays {HEURISTIC_GAMES} seeded games against two heuristic bots and must win "
                f"{HEURISTIC_WIN_RATE:.0%} of them (a copy of the heuristic bot wins about a third). Bidding "
                "order matters: the players after you can outbid your lowest sun.",
                "Before bidding your lowest winning sun, ask whether a player still to bid wants the lot and "
                "holds a higher sun (`bid_value` for him); if so, a higher sun of yours may keep the lot.",
            ),
        ),
    ),
)
