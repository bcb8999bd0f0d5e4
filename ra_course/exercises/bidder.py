"""Sheet 4, write a bidder: a bot of your own, scored by seeded tournaments against the reference bots.

Task 1 and 2 check single decisions on positions of seeded games between heuristic bots, among
them a full track (no draw, R19), a lone player (the others have no sun left) and a disaster
choice: the action must be legal, and in the clear cases it must be the sensible one (derived at
check time with `ra_core.analysis.valuation.lot_value`). Task 3 plays whole games through the engine's one
game loop (`ra_core.play.steps`). Task 4 and 5 are seeded tournaments, played as
`ra_core.analysis.tournament.versus` plays them (the same games) but game by game, so that the
kernel is checked after each (`ra_course.exercises.checking.after_game`): one copy of the
student's bot against two copies of a reference bot, seats rotated, with the pass marks
`RANDOM_WIN_RATE` and `HEURISTIC_WIN_RATE`. Every action is rebuilt from Python's own types
before the engine sees it, so an object that claims to equal any action is not legal.

There is no answer to store here: a bot is judged by the rules and by its results. It must be the
student's own: the package's bots may not be called (`Task.forbidden`), and Tasks 1 and 3-5 ask
that it decides differently from each package bot (heuristic, greedy, random) in at least `OWN_SHARE`
of the positions with a choice, Task 2 in `OWN_TURN_SHARE` of the turns, so a pasted copy of a
package bot earns nothing. A copy of the heuristic bot would fail Task 5 anyway: see
`HEURISTIC_WIN_RATE`.
"""

from __future__ import annotations

import random
import time
from fractions import Fraction
from typing import Any

from ra_core.analysis.tournament import TIME_LIMIT, GameResult, TournamentResult, game_seeds
from ra_core.analysis.valuation import lot_value
from ra_core.bots import greedy_bot, heuristic_bot, random_bot
from ra_core.engine.actions import Action, Bid, CallRa, Draw, Pass
from ra_core.engine.errors import BotError
from ra_core.engine.setup import new_game
from ra_core.engine.state import Phase, State
from ra_core.play import Policy, bot_name, play_game, steps

from .checking import Delegated, Hidden, NotAttempted, Player, Sheet, Task, Wrong, after_game, call, guarded, settle

__all__ = [
    "HEURISTIC_GAMES",
    "HEURISTIC_SEED",
    "HEURISTIC_WIN_RATE",
    "MAX_MS_PER_DECISION",
    "OWN_SHARE",
    "OWN_TURN_SHARE",
    "RANDOM_GAMES",
    "RANDOM_SEED",
    "RANDOM_WIN_RATE",
    "SHEET",
    "decision_positions",
    "special_positions",
]

#: Task 4: games against two random bots, the seed, and the win rate needed (the baseline is 1/3).
RANDOM_GAMES, RANDOM_SEED, RANDOM_WIN_RATE = 60, 41, 2 / 3
#: Task 5: games against two heuristic bots, the seed, and the win rate needed (see the teacher's
#: notes in exercises/TEACHING.md for how the mark was set: between a copy of the heuristic bot and
#: the sheet's reference solution, measured over many seeds).
HEURISTIC_GAMES, HEURISTIC_SEED, HEURISTIC_WIN_RATE = 450, 44, 0.40
#: Task 5's hidden test plays this many games at its own seed, with the same mark.
HIDDEN_HEURISTIC_GAMES = 300
#: Tasks 4 and 5: games played between two looks at whether the bot can still reach its mark.
CHUNK = 50
#: Task 3: a bot slower than this on average would make Task 4 and 5 take too long.
MAX_MS_PER_DECISION = 5.0
#: Tasks 1 and 3-5: the least share of positions with a choice where the bot must decide otherwise
#: than each package bot (heuristic, greedy, random); Task 2: the least share of turns (the reference
#: solution's turn decisions are close to the heuristic bot's). A copy decides otherwise in none.
OWN_SHARE, OWN_TURN_SHARE = 0.03, 0.01
#: the package's bots, which the student's functions may not call
_BOTS = (
    "ra_core.bots.HeuristicBot.__call__",  # the shared plan (PlanBot.__call__): the greedy bot plays it too
    "ra_core.bots.montecarlo.MonteCarloBot.__call__",
)


def decision_positions(phase: Phase | None, games: int = 12, seed: int = 300, *, forced: bool = False) -> list[State]:
    """Return the positions in `phase` (None: any) with a real choice from `games` seeded games of heuristic bots.

    ``forced=True`` keeps the positions with a single legal action too: a bot is asked there as well.
    """
    out = []
    for g in range(games):
        for state in play_game([heuristic_bot] * 3, seed=seed + g).states():
            mine = (phase is None or state.phase is phase) and state.to_move >= 0
            if mine and (forced or len(state.legal_actions()) > 1):
                out.append(state)
    return out


def special_positions(seed: int = 300, games: int = 12) -> dict[str, list[State]]:
    """Return positions of seeded games that a bot gets wrong easily, by kind.

    ``full track``: a turn with all 8 auction slots filled (drawing is not allowed, R19), with a
    god to use or with calling Ra as the only legal action;
    ``lone player``: a turn of the only player with suns left (he moves again and again);
    ``disaster choice``: a discard with more than one way to lose the tiles (R53).
    """
    states = decision_positions(None, games, seed)
    every = decision_positions(Phase.ACTION, games, seed, forced=True)
    return {
        "full track": [s for s in every if None not in s.track],
        "lone player": [s for s in states if s.phase is Phase.ACTION and sum(bool(p.suns_up) for p in s.players) == 1],
        "disaster choice": [s for s in states if s.phase is Phase.DISCARD],
    }


def _lowest_bid(state: State) -> int:
    return min(a.sun for a in state.legal_actions() if isinstance(a, Bid))


def _legal(got: Any, state: State, name: str, where: str) -> Action:
    """Return `got` (rebuilt by `call` from Python's own types) if it is legal in `state`; raise `Wrong` if not."""
    legal = state.legal_actions()
    if got not in legal:
        shown = ", ".join(map(str, legal))
        raise Wrong(f"in {where} `{name}` returned {got!r:.60}, which is not legal there; legal: {shown}")
    return got  # type: ignore[no-any-return]


def _spread(states: list[State], k: int) -> list[State]:
    """Return `k` of `states`, evenly spread."""
    if len(states) <= k:
        return states
    return [states[i * len(states) // k] for i in range(k)]


def _lot(s: State) -> str:
    return " ".join(t.label for t in s.track if t is not None)


def _decide(f: Any, name: str, whole: bool) -> Any:
    """Return ``state -> action``: the decision `f` (``f(state)``), or the whole bot `f` with a fixed generator."""
    if whole:
        return lambda s: call(f, name, s, random.Random(0))
    return lambda s: call(f, name, s)


def _bid_properties(decide: Any, name: str, seed: int) -> tuple[int, int]:
    """Raise `Wrong` unless `decide` is legal in auctions, bids for good lots and passes on harmful ones; count them."""
    states = decision_positions(Phase.BID, seed=seed)
    for i, s in enumerate(_spread(states, 30)):
        _legal(decide(s), s, name, f"auction {i + 1}")
    good = _spread([s for s in states if lot_value(s, s.to_move) >= 12], 12)
    for s in good:
        if not isinstance(decide(s), Bid):
            raise Wrong(
                f"P{s.to_move} passed on a lot worth {lot_value(s, s.to_move):+d} fame to him ({_lot(s)}) "
                f"in epoch {s.epoch}, with sun {_lowest_bid(s)} enough to win it for now"
            )
    bad = [s for s in states if Pass() in s.legal_actions() and lot_value(s, s.to_move) <= -4]
    bad = _spread([s for s in bad if _lowest_bid(s) > s.center_sun], 12)
    for s in bad:
        got = decide(s)
        if not isinstance(got, Pass):
            raise Wrong(
                f"P{s.to_move} bid {got} for a lot worth {lot_value(s, s.to_move):+d} fame to him ({_lot(s)}), "
                f"and for the center sun {s.center_sun}, lower than his bid"
            )
    return len(good), len(bad)


def _turn_properties(decide: Any, name: str, seed: int) -> tuple[int, int]:
    """Raise `Wrong` unless `decide` is legal on turns, draws on empty tracks, calls for no harmful lot; count them."""
    states = decision_positions(Phase.ACTION, seed=seed)
    special = special_positions(seed)
    checked = [("turn", s) for s in _spread(states, 30)]
    checked += [(kind, s) for kind in ("full track", "lone player") for s in _spread(special[kind], 5)]
    for i, (kind, s) in enumerate(checked):
        _legal(decide(s), s, name, f"{kind} {i + 1}" if kind != "turn" else f"turn {i + 1}")
    empty = [s for s in states if all(t is None for t in s.track)]
    empty = _spread([s for s in empty if s.center_sun < min(s.players[s.to_move].suns_up)], 12)
    for s in empty:
        if isinstance(decide(s), CallRa):
            raise Wrong(
                f"P{s.to_move} called Ra on an empty track: if everybody else passes, he must then bid one of "
                f"his suns {s.players[s.to_move].suns_up} for the center sun {s.center_sun} alone (R36, R40)"
            )
    harmful = _spread([s for s in states if Draw() in s.legal_actions() and lot_value(s, s.to_move) <= -3], 12)
    for s in harmful:
        if isinstance(decide(s), CallRa):
            raise Wrong(
                f"P{s.to_move} called Ra for a lot worth {lot_value(s, s.to_move):+d} fame to him ({_lot(s)}); "
                "if everybody else passes he must buy it himself (R40)"
            )
    return len(empty), len(harmful)


def _judge_bid(f: Any, seed: int = 300) -> str:
    good, bad = _bid_properties(_decide(f, "bid_decision", False), "bid_decision", seed)
    _own(f, seed, Phase.BID)
    return (
        f"Legal in 30 auctions; bids on {good} lots worth 12 or more, passes on {bad} lots worth -4 or "
        "less; decisions of your own."
    )


def _judge_turn(f: Any, seed: int = 300) -> str:
    empty, harmful = _turn_properties(_decide(f, "turn_decision", False), "turn_decision", seed)
    _own(f, seed, Phase.ACTION, OWN_TURN_SHARE)
    return (
        f"Legal on 30 turns, on full tracks and for a lone player; draws on {empty} empty tracks; "
        f"no call for {harmful} lots worth -3 or less; decisions of your own."
    )


def _own(f: Any, seed: int, phase: Phase | None = None, share: float = OWN_SHARE) -> None:
    """Raise `Wrong` unless `f` decides otherwise than each package bot in `share` of 200 positions of `phase`.

    `f` is a whole bot ``f(state, rng)`` (`phase` None: positions of every phase) or a decision of
    one phase, ``f(state)``. The package bots: the heuristic bot, the greedy bot (one plan) and the
    random bot (a bot of random legal actions is legal everywhere, but not one's own).
    """
    name = {Phase.BID: "bid_decision", Phase.ACTION: "turn_decision"}.get(phase, "my_bot")  # type: ignore[arg-type]
    states = _spread(decision_positions(phase, seed=seed), 200)
    mine = [call(f, name, s, random.Random(k)) if phase is None else call(f, name, s) for k, s in enumerate(states)]
    for label, bot in (("heuristic", heuristic_bot), ("greedy", greedy_bot), ("random", random_bot)):
        differ = sum(a != bot(s, random.Random(k)) for k, (a, s) in enumerate(zip(mine, states, strict=True)))
        if differ < share * len(states):
            what = "your bot decides" if phase is None else f"your `{name}` decides"
            raise Wrong(
                f"{what} as the {label} bot of the package does in {len(states) - differ} of {len(states)} "
                "positions: these tasks are for decisions of your own, which differ where you think you know better"
            )


def _play(players: list[Any], seed: int, time_limit: float | None = None) -> State:
    """Play the game `seed` to its end, seat i moved by ``players[i]``; tell each `Player` every action (`saw`).

    The engine's one game loop (`ra_core.play.steps`), as `play_to_end` plays it: the same games.
    """
    start = new_game(len(players), seed=seed)
    final, watching = start, list({id(p): p for p in players if isinstance(p, Player)}.values())
    for _, action, after in steps(start, players, seed, time_limit=time_limit):
        for player in watching:
            player.saw(action)
        final = after
    return final


def _steps(f: Any, seat: int, seed: int) -> tuple[int, float]:
    """Play a game of `f` in `seat` against random bots (the engine's game loop); return its decisions, seconds."""
    timing = [0, 0.0]
    bot = guarded(f, "my_bot")

    def mine(state: State, rng: random.Random) -> Any:
        start = time.perf_counter()
        action = bot(state, rng)
        timing[0] += 1
        timing[1] += time.perf_counter() - start
        return action

    watched = Player(mine)
    watched.saw = bot.saw  # type: ignore[method-assign]
    players: list[Any] = [random_bot] * 3
    players[seat] = watched
    try:
        _play(players, seed)
    except BotError as e:
        cause = e.__cause__
        if isinstance(cause, Wrong | NotAttempted):
            raise cause from None
        raise Wrong(f"in game {seat + 1} your bot {str(e).split(') ', 1)[-1]}") from None
    return int(timing[0]), timing[1]


def _judge_bot(f: Any, seed: int = 500) -> str:
    name = "my_bot"
    if not callable(f) and not isinstance(f, Delegated):
        raise Wrong(f"pass the function `{name}` itself to the check, not {f!r:.60}")
    special = special_positions(seed - 200)
    for kind, states in special.items():
        for s in _spread(states, 5):
            _legal(call(f, name, s, random.Random(0)), s, name, f"a position with a {kind}")
    _bid_properties(_decide(f, name, True), name, seed - 200)  # in its auctions and turns, as Tasks 1 and 2 ask
    _turn_properties(_decide(f, name, True), name, seed - 200)
    decisions, spent = 0, 0.0
    for g in range(3):
        d, t = _steps(f, g, seed + g)
        decisions, spent = decisions + d, spent + t
    ms = 1000 * spent / max(decisions, 1)
    if ms > MAX_MS_PER_DECISION:
        raise Wrong(
            f"your bot takes {ms:.1f} ms per decision; Task 4 and 5 play {RANDOM_GAMES + HEURISTIC_GAMES} games, "
            f"so keep it under {MAX_MS_PER_DECISION:g} ms"
        )
    _own(f, seed)
    tricky = sum(len(_spread(states, 5)) for states in special.values())
    return (
        f"Three whole games against random bots, {decisions} decisions, all legal; legal in {tricky} tricky positions; "
        "its bids and turns as Tasks 1 and 2 ask."
    )


def _tournament(f: Any, opponent: Policy, games: int, seed: int, mark: float, against: str) -> TournamentResult:
    """Play `games` seeded games of `f` against two copies of `opponent`, its seat rotating (as `versus` does).

    The games are played `CHUNK` at a time, and the tournament ends as soon as the bot can no
    longer reach the win rate `mark` (`against` names the opponents in the message): a weak bot
    learns it after a few games, not after hundreds.
    """
    call(f, "my_bot", new_game(3, suns="table"), random.Random(0))  # the stub: not attempted yet
    _own(f, seed)
    settle()  # a kernel changed before the games is found before they are played
    players, results = 3, list[GameResult]()
    plan = [
        (s, tuple(0 if i == g % players else 1 for i in range(players))) for g, s in enumerate(game_seeds(seed, games))
    ]
    for start in range(0, games, CHUNK):
        chunk = plan[start : start + CHUNK]
        for (game_seed, lineup), final in zip(chunk, _finals(f, opponent, chunk), strict=True):
            winner = final.winner()
            assert winner is not None
            results.append(GameResult(game_seed, lineup, final.fame, winner))
        wins, left = sum(r.lineup[r.winner] == 0 for r in results), games - len(results)
        if left and wins + left < mark * games:
            raise Wrong(
                f"{against} your bot won {wins} of its first {len(results)} games: even if it won all {left} others, "
                f"it would not reach {mark:.0%} of {games}"
            )
    return TournamentResult(("my_bot", bot_name(opponent)), players, seed, tuple(results))


def _finals(f: Any, opponent: Policy, chunk: list[tuple[int, tuple[int, ...]]]) -> list[State]:
    """Return the final states of the games of `chunk` (seed, lineup: 0 for the student's bot, 1 for `opponent`)."""
    games = [(seed, [None if b == 0 else opponent for b in lineup]) for seed, lineup in chunk]
    try:
        if isinstance(f, Delegated):  # the teacher's judge: the bot decides in its sandbox, in all games at once
            return f.play("my_bot", games, TIME_LIMIT)
        finals = []
        for seed, seats in games:  # one by one, so that the kernel is checked after each game
            mine = guarded(f, "my_bot")  # a player per game: it follows that game's actions
            finals.append(_play([mine if p is None else p for p in seats], seed, time_limit=TIME_LIMIT))
            after_game("my_bot")
        return finals
    except BotError as e:
        if isinstance(e.__cause__, Wrong | NotAttempted):
            raise e.__cause__ from None
        raise Wrong(f"your bot {str(e).split(') ', 1)[-1]}") from None


def _rate(result: TournamentResult) -> str:
    s = result.stats()[0]
    return f"won {s.wins} of {s.seat_games} games ({s.win_rate:.0%}, 95% interval {s.win_low:.0%}-{s.win_high:.0%})"


def _judge_random(f: Any, seed: int = RANDOM_SEED) -> str:
    result = _tournament(f, random_bot, RANDOM_GAMES, seed, RANDOM_WIN_RATE, "against two random bots")
    if result.stats()[0].win_rate < RANDOM_WIN_RATE:
        raise Wrong(f"against two random bots your bot {_rate(result)}; it needs {RANDOM_WIN_RATE:.0%}")
    mark = Fraction(RANDOM_WIN_RATE).limit_denominator(9)
    return f"Against two random bots your bot {_rate(result)}; the mark is {mark}."


def _judge_heuristic(f: Any, seed: int = HEURISTIC_SEED, games: int = HEURISTIC_GAMES) -> str:
    result = _tournament(f, heuristic_bot, games, seed, HEURISTIC_WIN_RATE, "against two heuristic bots")
    if result.stats()[0].win_rate < HEURISTIC_WIN_RATE:
        raise Wrong(f"against two heuristic bots your bot {_rate(result)}; it needs {HEURISTIC_WIN_RATE:.0%}")
    return f"Against two heuristic bots your bot {_rate(result)}; the mark is {HEURISTIC_WIN_RATE:.0%}."


def _hidden(judge: Any, **extra: Any) -> Any:
    """Return the hidden-test judge: `judge` with the hidden test's seed (other games, other positions)."""

    def hidden(f: Any, data: Hidden) -> str:
        return str(judge(f, data.cases["seed"], **extra))

    return hidden


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
                "A bid is worth its net value: the lot's marginal value plus the sun swap, a price paid in "
                "future bidding power (notebook 08, sections 6 and 7; sheet 2, Tasks 1-3).",
            ),
            forbidden=_BOTS,
            hidden=_hidden(_judge_bid),
        ),
        Task(
            "2",
            "Your turn: draw or call Ra",
            4,
            "turn_decision",
            _judge_turn,
            (
                "Calling Ra starts an auction you may have to win yourself: if everybody else passes, the "
                "caller must bid (R40). Call when the lot is worth it to you, draw otherwise; on a full "
                "track you cannot draw (R19).",
                "A stopping problem: stop (call) when the lot is worth more than what more draws promise; "
                "notebook 09, section 4 (draw or call Ra?), and notebook 03, 'Who may pass (R40)'.",
            ),
            forbidden=_BOTS,
            hidden=_hidden(_judge_turn),
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
                "A policy maps every position to a legal action: notebook 07 (play a game) shows the phases a "
                "bot meets; notebook 05, 'Unrest and earthquake: the player chooses', the discard.",
            ),
            forbidden=_BOTS,
            hidden=_hidden(_judge_bot),
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
                "Look at its decisions in a replayed game (notebook 07, 'Replay a whole bot game'): a bot that "
                "loses to random play usually bids for harmful lots or calls Ra for them.",
            ),
            forbidden=_BOTS,
            hidden=_hidden(_judge_random),
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
                "The advantage of bidding last, and what a later bidder will do: notebook 08, section 8, and "
                "sheet 2's endgame, where a higher sun kept the lot.",
            ),
            forbidden=_BOTS,
            hidden=_hidden(_judge_heuristic, games=HIDDEN_HEURISTIC_GAMES),
        ),
    ),
    lasting_tripwires=False,  # explain() and bid_value(), the sheet's tools, ask the heuristic bot
)
