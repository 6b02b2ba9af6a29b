"""Benchmark of the in-process rules engine, and a narrated demo game.

    python -m bench.engine                         # measure and print the results
    python -m bench.engine --write docs/BENCHMARKS.md
    python -m bench.engine --demo [--seed TEXT]    # play one 3-seat game and tell it round by round

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
import datetime
import gc
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import msgspec

from domain.kernel import SYSTEM, Chance, Command, Seat, commitment_of
from domain.kernel.driver import Played, play
from domain.magnate import GAME, GameOptions, MagnateEvent, MagnateState, SeatSpec, StartGame, replay
from domain.magnate.bots import Greedy, RandomLegal
from services.gameplay.narrate import narrate

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


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


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


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Model", "Hardware"):
                return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine(load_at_start: float | None) -> list[tuple[str, str]]:
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return [
        ("Python", f"{platform.python_implementation()} {platform.python_version()}"),
        ("msgspec", msgspec.__version__),
        ("Platform", platform.platform()),
        ("CPU", cpu_model()),
        ("Cores", f"{os.cpu_count()} logical ({affinity} usable by this process)"),
        ("1-minute load average", "unknown" if load_at_start is None else f"{load_at_start:.2f} at the start"),
    ]


def load_average() -> float | None:
    """The 1-minute load average: other work on the machine skews every wall-clock number."""
    try:
        return os.getloadavg()[0]
    except (OSError, AttributeError):
        return None


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out.extend("| " + " | ".join(row) + " |" for row in rows)
    return out


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


def busy_warning(load_at_start: float | None) -> list[str]:
    """A note when other work competed for the cores: wall-clock times are then pessimistic."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if load_at_start is None or load_at_start < cores / 2:
        return []
    return [
        f"**The machine was busy** (1-minute load {load_at_start:.2f} on {cores} cores when the run started): "
        "other processes competed for the CPU, so these wall-clock times are pessimistic. Re-run on an idle "
        "machine to compare with earlier reports.",
        "",
    ]


def report(
    plays: Sequence[PlayResult], loads: Sequence[LoadResult], elapsed_s: float, load_at_start: float | None
) -> str:
    first = plays[0]
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Benchmarks",
        "",
        f"Written by `make bench` (`python -m bench.engine --write docs/BENCHMARKS.md`) on {now}; "
        f"the run took {elapsed_s:.0f} s. Numbers from one small machine: compare runs on the same machine only.",
        "",
        *busy_warning(load_at_start),
        "## Machine",
        "",
        *table(["", ""], machine(load_at_start)),
        "",
        "## Full games, in-process",
        "",
        f"`domain.kernel.driver.play` runs a whole game exactly as the service would (pending → decide → evolve, "
        f"chance from the seed and stream version). *AI vs greedy bot*: the `Greedy` bot in seat 0 against the "
        f"card-driven AI in seat 1 (difficulty `{AI_DIFFICULTY}`; the AI's turns are system commands, so its "
        f"decision time is included). *Random bots*: a `RandomLegal` bot chooses every seat's move from "
        f"`legal_commands`; they make poor, short games, so these rows are engine costs rather than typical play. "
        f"Each scenario is {first.repeats} repetitions of {first.games} distinct games (distinct seeds); games/s "
        f"is the median over the repetitions (range: slowest to fastest), ms/game the median over all "
        f"{first.repeats * first.games} games.",
        "",
        *play_table(plays),
        "",
        "## Loading a finished game",
        "",
        f"Every finished game above is folded from its events with `domain.magnate.replay` (`fold`), and decoded "
        f"from its JSON bytes with `msgspec.json.Decoder(list[MagnateEvent])` and folded (`decode + fold`, what the "
        f"service does on load without a snapshot). Each game is timed {FOLD_PASSES} times and its median kept; the "
        f"table gives the median and 90th percentile over games. Both paths are checked to reproduce the played "
        f"state before timing.",
        "",
        *load_table(loads),
        "",
        "## Targets",
        "",
        *target_table(plays, loads),
        "",
        "Both targets are medians on this machine; the fold target is checked for the finished games of every "
        "scenario.",
        "",
    ]
    return "\n".join(lines)


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
    parser.add_argument("--write", metavar="PATH", type=Path, help="write the Markdown report to PATH")
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
    plays, loads, elapsed = run(args.games, args.repeats)
    text = report(plays, loads, elapsed, load_at_start)
    if args.write is not None:
        args.write.parent.mkdir(parents=True, exist_ok=True)
        args.write.write_text(text, encoding="utf-8")
        print(f"wrote {args.write}", file=sys.stderr)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
