"""Benchmark of the in-process rules engine, and a narrated demo game.

    python -m bench.engine                         # measure and print the engine's tables
    python -m bench.engine --demo [--seed TEXT]    # play one 3-seat game and tell it round by round

``make bench`` (:mod:`bench.report`) runs this with the other benchmarks and writes docs/BENCHMARKS.md.

What is measured (wall clock, ``time.perf_counter``, one process, garbage collector on as in the service):

* full games played by ``domain.kernel.driver.play``: a :class:`~domain.magnate.bots.RandomLegal` bot in every
  seat (2 and 4 seats, standard and advanced), and the card-driven AI against the
  :class:`~domain.magnate.bots.Greedy` bot (2 seats): games per second per repetition and the time of each game;
* the fold of a finished game from its events (``domain.magnate.replay``): what loading costs once the
  events are in memory;
* decoding the log from JSON bytes (``msgspec.json.Decoder(list[MagnateEvent])``) and folding it: what the
  service does when it loads a game without a snapshot.

Every number is a median: over the repetitions for games per second, over all games for per-game times.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from domain.kernel import SYSTEM, Chance, Command, Seat, commitment_of
from domain.kernel.driver import Played, play
from domain.magnate import GAME, GameOptions, MagnateEvent, MagnateState, SeatSpec, StartGame, replay
from domain.magnate.bots import Greedy, RandomLegal
from domain.magnate.narrate import narrate

from .common import busy_warning, load_average, machine, percentile, table

GAME_TARGET_MS = 20.0
"""Issue target: an in-process full 2-seat game (AI vs greedy bot), median."""
FOLD_TARGET_MS = 2.0
"""Issue target: folding a finished game from its events, median."""
FOLD_PASSES = 3
"""Each finished game is folded (and decoded + folded) this many times; its time is the median."""


AI_DIFFICULTY = "generalised_ai"
"""The AI scenario's difficulty: the one without a sale value modifier (T16); the engine's work per game
does not depend on it."""

BotType = type[RandomLegal] | type[Greedy]


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    seats: int
    """Every seat, the AI's included."""
    advanced: bool = False
    bot: BotType = RandomLegal
    """The policy of every human seat."""
    ai: bool = False
    """The last seat is the card-driven AI (run by the rules as system turns)."""

    def start(self, seed: bytes) -> StartGame:
        humans = self.seats - 1 if self.ai else self.seats
        seats = (*(SeatSpec() for _ in range(humans)), *((SeatSpec(kind="ai"),) if self.ai else ()))
        options = GameOptions(seats=seats, advanced=self.advanced, difficulty=AI_DIFFICULTY if self.ai else None)
        return StartGame(options=options, seed_commitment=commitment_of(seed))


AI_VS_GREEDY = Scenario("2 seats, AI vs greedy bot", 2, bot=Greedy, ai=True)
RANDOM_2 = Scenario("2 seats, random bots", 2)
SCENARIOS = (
    AI_VS_GREEDY,
    RANDOM_2,
    Scenario("4 seats, random bots", 4),
    Scenario("4 seats, advanced, random bots", 4, advanced=True),
)
DEMO = Scenario("3 seats, random bots", 3)
DEMO_SEED = "demo-194"


class Bots:
    """A bot per seat, each with its own reproducible seed (AI seats never ask for one)."""

    def __init__(self, bot: BotType, game: int, seats: int) -> None:
        self.bots = [bot(game * 16 + seat) for seat in range(seats)]

    def __call__(self, state: MagnateState, seat: Seat) -> Command:
        return self.bots[seat](state, seat)


def play_one(scenario: Scenario, game: int) -> Played[MagnateState]:
    """One full game, reproducible from the scenario and the game number."""
    seed = f"bench:{scenario.name}:{game}".encode()
    return play(GAME, scenario.start(seed), seed, Bots(scenario.bot, game, scenario.seats))


@dataclass(frozen=True, slots=True)
class PlayResult:
    scenario: Scenario
    games: int
    repeats: int
    games_per_s: float
    """Median over the repetitions."""
    games_per_s_low: float
    games_per_s_high: float
    game_ms: float
    """Median over every game."""
    game_ms_p90: float
    events: float
    """Median events per game."""
    rounds: float


@dataclass(frozen=True, slots=True)
class LoadResult:
    scenario: Scenario
    games: int
    events: float
    json_kb: float
    """Median size of a game's log as one JSON array, in KiB."""
    fold_ms: float
    fold_ms_p90: float
    decode_fold_ms: float
    decode_fold_ms_p90: float


def bench_play(scenario: Scenario, games: int, repeats: int) -> tuple[PlayResult, list[Played[MagnateState]]]:
    """``repeats`` batches of ``games`` distinct games; returns the result and every finished game."""
    play_one(scenario, -1)  # warm-up: catalogue load, caches
    rates: list[float] = []
    times: list[float] = []
    played: list[Played[MagnateState]] = []
    for rep in range(repeats):
        gc.collect()
        batch_start = time.perf_counter()
        for i in range(games):
            t0 = time.perf_counter()
            outcome = play_one(scenario, rep * games + i)
            times.append(time.perf_counter() - t0)
            played.append(outcome)
        rates.append(games / (time.perf_counter() - batch_start))
    result = PlayResult(
        scenario=scenario,
        games=games,
        repeats=repeats,
        games_per_s=statistics.median(rates),
        games_per_s_low=min(rates),
        games_per_s_high=max(rates),
        game_ms=statistics.median(times) * 1000,
        game_ms_p90=percentile(times, 0.9) * 1000,
        events=statistics.median(len(p.events) for p in played),
        rounds=statistics.median(p.state.round for p in played),
    )
    return result, played


def bench_load(scenario: Scenario, played: Sequence[Played[MagnateState]]) -> LoadResult:
    """Fold, and decode + fold, every finished game ``FOLD_PASSES`` times; checks both give the final state."""
    decoder = msgspec.json.Decoder(list[MagnateEvent])
    blobs = [msgspec.json.encode(p.events) for p in played]
    for p, blob in zip(played, blobs, strict=True):
        if replay(p.events) != p.state or replay(decoder.decode(blob)) != p.state:
            raise AssertionError(f"{scenario.name}: replaying a log did not give the played state")
    folds: list[list[float]] = [[] for _ in played]
    decode_folds: list[list[float]] = [[] for _ in played]
    for _ in range(FOLD_PASSES):
        gc.collect()
        for i, (p, blob) in enumerate(zip(played, blobs, strict=True)):
            t0 = time.perf_counter()
            replay(p.events)
            t1 = time.perf_counter()
            replay(decoder.decode(blob))
            t2 = time.perf_counter()
            folds[i].append(t1 - t0)
            decode_folds[i].append(t2 - t1)
    fold = [statistics.median(f) * 1000 for f in folds]
    decode_fold = [statistics.median(f) * 1000 for f in decode_folds]
    return LoadResult(
        scenario=scenario,
        games=len(played),
        events=statistics.median(len(p.events) for p in played),
        json_kb=statistics.median(len(b) for b in blobs) / 1024,
        fold_ms=statistics.median(fold),
        fold_ms_p90=percentile(fold, 0.9),
        decode_fold_ms=statistics.median(decode_fold),
        decode_fold_ms_p90=percentile(decode_fold, 0.9),
    )


# --- the report ------------------------------------------------------------------------------------


def play_table(results: Sequence[PlayResult]) -> list[str]:
    rows = [
        [
            r.scenario.name,
            f"{r.games_per_s:.1f}",
            f"{r.games_per_s_low:.1f} – {r.games_per_s_high:.1f}",
            f"{r.game_ms:.1f}",
            f"{r.game_ms_p90:.1f}",
            f"{r.events:g}",
            f"{r.rounds:g}",
        ]
        for r in results
    ]
    return table(
        ["Scenario", "games/s (median)", "games/s range", "ms/game (median)", "ms/game p90",
         "events/game", "rounds/game"],
        rows,
    )


def load_table(results: Sequence[LoadResult]) -> list[str]:
    rows = [
        [
            r.scenario.name,
            str(r.games),
            f"{r.events:g}",
            f"{r.json_kb:.1f}",
            f"{r.fold_ms:.2f}",
            f"{r.fold_ms_p90:.2f}",
            f"{r.decode_fold_ms:.2f}",
            f"{r.decode_fold_ms_p90:.2f}",
        ]
        for r in results
    ]
    return table(
        ["Finished games of", "games", "events/game", "JSON KiB/game", "fold ms (median)", "fold ms p90",
         "decode + fold ms (median)", "decode + fold ms p90"],
        rows,
    )


def target_table(plays: Sequence[PlayResult], loads: Sequence[LoadResult]) -> list[str]:
    by_scenario = {r.scenario: r for r in plays}
    rows = []
    if AI_VS_GREEDY in by_scenario:
        ai = by_scenario[AI_VS_GREEDY]
        random_two = ""
        if RANDOM_2 in by_scenario:
            random_two = f"; random bots in both seats: {by_scenario[RANDOM_2].game_ms:.1f} ms"
        rows.append([
            f"In-process full 2-seat game, AI vs greedy bot: ≤ {GAME_TARGET_MS:g} ms median",
            f"{ai.game_ms:.1f} ms ({ai.events:g} events){random_two}",
            "met" if ai.game_ms <= GAME_TARGET_MS else "not met",
        ])
    rows.extend(
        [
            f"Fold of a finished game: ≤ {FOLD_TARGET_MS:g} ms median",
            f"{r.fold_ms:.2f} ms ({r.scenario.name}, {r.events:g} events)",
            "met" if r.fold_ms <= FOLD_TARGET_MS else "not met",
        ]
        for r in loads
    )
    return table(["Target (project issues)", "Measured", "Status"], rows)


def summary(plays: Sequence[PlayResult], loads: Sequence[LoadResult], load_at_start: float | None) -> str:
    """The engine's tables on their own (``make bench`` puts them in docs/BENCHMARKS.md with the rest)."""
    return "\n".join([
        *busy_warning(load_at_start),
        *table(["", ""], machine(load_at_start)),
        "",
        *play_table(plays),
        "",
        *load_table(loads),
        "",
        *target_table(plays, loads),
    ])


def run(games: int, repeats: int) -> tuple[list[PlayResult], list[LoadResult], float]:
    started = time.perf_counter()
    plays: list[PlayResult] = []
    loads: list[LoadResult] = []
    for scenario in SCENARIOS:
        result, played = bench_play(scenario, games, repeats)
        print(f"{scenario.name}: {result.games_per_s:.1f} games/s, {result.game_ms:.1f} ms/game", file=sys.stderr)
        plays.append(result)
        load = bench_load(scenario, played)
        print(f"{scenario.name}: fold {load.fold_ms:.2f} ms, decode + fold {load.decode_fold_ms:.2f} ms",
              file=sys.stderr)
        loads.append(load)
    return plays, loads, time.perf_counter() - started


# --- the demo --------------------------------------------------------------------------------------


def demo(seed_text: str) -> list[str]:
    """Play one 3-seat standard game with random legal bots, reveal the seed, and tell the whole log."""
    seed = seed_text.encode()
    played = play(GAME, DEMO.start(seed), seed, Bots(DEMO.bot, 0, DEMO.seats))
    reveal = GAME.decide(played.state, SYSTEM, GAME.reveal(seed.hex()), Chance(seed, len(played.events) + 1))
    return list(narrate([*played.events, *reveal]))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per repetition and scenario (default 40)")
    parser.add_argument("--repeats", type=int, default=5, help="repetitions per scenario (default 5)")
    parser.add_argument("--demo", action="store_true", help="play one 3-seat game and print its story instead")
    parser.add_argument("--seed", default=DEMO_SEED,
                        help=f"the demo game's seed, any text (default {DEMO_SEED!r}: a game whose random bots "
                             "attract tenants, rebuild and buy adjacent plots, so every kind of event shows)")
    args = parser.parse_args(argv)
    if args.demo:
        print("\n".join(demo(args.seed)))
        return 0
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be at least 1")
    load_at_start = load_average()
    plays, loads, _ = run(args.games, args.repeats)
    print(summary(plays, loads, load_at_start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
