"""Benchmark of the in-process rules engine of every registered game, and a narrated demo game.

    python -m bench.engine                                       # measure and print the engine's tables
    python -m bench.engine --demo [--game NAME] [--seed TEXT]    # play one 3-seat game and tell it

``make bench`` (:mod:`bench.report`) runs this with the other benchmarks and writes docs/BENCHMARKS.md.

What is measured for each game in the registry (wall clock, ``time.perf_counter``, one process, garbage
collector on as in the service), everything taken from the game's module:

* full games played by ``domain.kernel.driver.play``: the game's AI (at its middle level) against its first
  bot, 2 seats (Magnate: the card-driven AI against the ``greedy`` bot), and its ``random`` bot (else its first)
  in every seat, 2 and 4 seats, and 4 seats with each of its variants (Magnate: advanced): games per second
  per repetition and the time of each game. A scenario the game refuses (4 seats where it takes fewer) is left
  out;
* the fold of a finished game from its events (``evolve`` over the log): what loading costs once the events are
  in memory;
* decoding the log from JSON bytes (``msgspec.json.Decoder(list[event_type])``) and folding it: what the service
  does when it loads a game without a snapshot.

Every number is a median: over the repetitions for games per second, over all games for per-game times.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.games import GAMES
from domain.kernel import SYSTEM, Chance, Command, GameError, GameModule, Seat, commitment_of, tag_of
from domain.kernel import fold as fold_log
from domain.kernel.driver import Played, play

from .common import busy_warning, load_average, machine, percentile, table

GAME_TARGET_MS = 20.0
"""Issue target: an in-process full 2-seat game (AI vs the first bot), median."""
FOLD_TARGET_MS = 2.0
"""Issue target: folding a finished game from its events, median."""
FOLD_PASSES = 3
"""Each finished game is folded (and decoded + folded) this many times; its time is the median."""
RANDOM = "random"
"""The bot of the engine-cost scenarios when the game has one by that name (a uniformly random legal move)."""


@dataclass(frozen=True, slots=True)
class Scenario:
    game: str
    """The game's type name in the registry."""
    seats: int
    """Every seat, the AI's included."""
    bot: str
    """The policy of every human seat (a key of the game's ``bots``)."""
    ai: bool = False
    """The last seat is the game's AI at its weakest level (run by the rules as system turns): the engine's cost,
    not the search's (a searching level's time per move is in docs/AI.md)."""
    flags: frozenset[str] = field(default_factory=frozenset)

    @property
    def module(self) -> GameModule[Any]:
        return GAMES[self.game]

    @property
    def difficulty(self) -> str | None:
        return self.module.ai_levels[0] if self.ai else None

    @property
    def name(self) -> str:
        """``2 seats, AI (easy) vs greedy bot``, ``4 seats, advanced, random bots`` (also the seed text of its
        games)."""
        players = f"AI ({self.difficulty}) vs {self.bot} bot" if self.ai else f"{self.bot} bots"
        return ", ".join([f"{self.seats} seats", *sorted(self.flags), players])

    def start(self, seed: bytes) -> Any:
        options = self.module.sim_options
        assert options is not None
        kinds = ("human",) * (self.seats - 1 if self.ai else self.seats) + (("ai",) if self.ai else ())
        return self.module.start(options(kinds, self.difficulty, self.flags), commitment_of(seed))


def scenarios(name: str) -> list[Scenario]:
    """What the engine plays of game ``name``: its AI against its first bot (if it has an AI), then its random
    bot (else its first) in 2 seats and in the most seats it takes (up to 4), and there with each of its variants
    (in 2 seats a variant that needs them)."""
    game = GAMES[name]
    if game.sim_options is None or not game.bots:
        return []
    first = next(iter(game.bots))
    bot = RANDOM if RANDOM in game.bots else first
    most = max(n for n in (2, 3, 4) if _takes(game, n, frozenset()))
    found = [Scenario(name, 2, first, ai=True)] if game.ai_levels else []
    found += [Scenario(name, 2, bot), Scenario(name, most, bot)]
    found += [Scenario(name, most if _takes(game, most, frozenset({flag})) else 2, bot, flags=frozenset({flag}))
              for flag in game.sim_flags]
    return found


def _takes(game: GameModule[Any], seats: int, flags: frozenset[str]) -> bool:
    """The game can be simulated with ``seats`` seats and ``flags``."""
    assert game.sim_options is not None
    try:
        game.sim_options(("human",) * seats, None, flags)
    except ValueError:
        return False
    return True


def ai_scenario(name: str) -> Scenario | None:
    """The scenario of the game-time target: 2 seats, the AI against the first bot."""
    return next((s for s in scenarios(name) if s.ai), None)


DEMO_SEATS = 3
DEMO_SEED = "demo-194"


class Bots:
    """A bot per seat, each with its own reproducible seed (AI seats never ask for one)."""

    def __init__(self, scenario: Scenario, game: int) -> None:
        make = scenario.module.bots[scenario.bot]
        self.bots = [make(game * 16 + seat) for seat in range(scenario.seats)]

    def __call__(self, state: Any, seat: Seat) -> Command:
        command: Command = self.bots[seat](state, seat)
        return command


def play_one(scenario: Scenario, game: int) -> Played[Any]:
    """One full game, reproducible from the scenario and the game number."""
    seed = f"bench:{scenario.name}:{game}".encode()
    return play(scenario.module, scenario.start(seed), seed, Bots(scenario, game))


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


def bench_play(scenario: Scenario, games: int, repeats: int) -> tuple[PlayResult, list[Played[Any]]]:
    """``repeats`` batches of ``games`` distinct games; returns the result and every finished game."""
    play_one(scenario, -1)  # warm-up: catalogue load, caches
    rates: list[float] = []
    times: list[float] = []
    played: list[Played[Any]] = []
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
        rounds=statistics.median(_rounds(scenario, p) for p in played),
    )
    return result, played


def _rounds(scenario: Scenario, played: Played[Any]) -> int:
    outcome = scenario.module.outcome(played.state)
    return outcome.rounds if outcome is not None else 0


def bench_load(scenario: Scenario, played: Sequence[Played[Any]]) -> LoadResult:
    """Fold, and decode + fold, every finished game ``FOLD_PASSES`` times; checks both give the final state."""
    game = scenario.module
    decoder = msgspec.json.Decoder(list[game.event_type])  # type: ignore[name-defined]

    def replay(events: list[Any]) -> Any:
        return fold_log(game.evolve, events, game.initial_state())

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
            r.scenario.game,
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
        ["Game", "Scenario", "games/s (median)", "games/s range", "ms/game (median)", "ms/game p90",
         "events/game", "rounds/game"],
        rows,
    )


def load_table(results: Sequence[LoadResult]) -> list[str]:
    rows = [
        [
            r.scenario.game,
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
        ["Game", "Finished games of", "games", "events/game", "JSON KiB/game", "fold ms (median)", "fold ms p90",
         "decode + fold ms (median)", "decode + fold ms p90"],
        rows,
    )


def ai_games(plays: Sequence[PlayResult]) -> list[tuple[PlayResult, PlayResult | None]]:
    """Each game's 2-seat AI game (the game-time target), with its 2-seat game of bots alone to compare."""
    found = []
    for ai in (r for r in plays if r.scenario == ai_scenario(r.scenario.game)):
        bots = next((r for r in plays if r.scenario.game == ai.scenario.game and r.scenario.seats == 2
                     and not r.scenario.ai and not r.scenario.flags), None)
        found.append((ai, bots))
    return found


def target_table(plays: Sequence[PlayResult], loads: Sequence[LoadResult]) -> list[str]:
    rows = []
    for ai, bots in ai_games(plays):
        alone = f"; {bots.scenario.bot} bots in both seats: {bots.game_ms:.1f} ms" if bots is not None else ""
        rows.append([
            f"In-process full 2-seat game of {ai.scenario.game}, {ai.scenario.name[len('2 seats, '):]}: "
            f"≤ {GAME_TARGET_MS:g} ms median",
            f"{ai.game_ms:.1f} ms ({ai.events:g} events){alone}",
            "met" if ai.game_ms <= GAME_TARGET_MS else "not met",
        ])
    rows.extend(
        [
            f"Fold of a finished game: ≤ {FOLD_TARGET_MS:g} ms median",
            f"{r.fold_ms:.2f} ms ({r.scenario.game}: {r.scenario.name}, {r.events:g} events)",
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
    """Every scenario of every registered game (a scenario the game refuses is left out)."""
    started = time.perf_counter()
    plays: list[PlayResult] = []
    loads: list[LoadResult] = []
    for scenario in (s for name in GAMES for s in scenarios(name)):
        label = f"{scenario.game}: {scenario.name}"
        try:
            result, played = bench_play(scenario, games, repeats)
        except GameError as exc:
            print(f"{label}: left out, the game refuses it ({exc})", file=sys.stderr)
            continue
        print(f"{label}: {result.games_per_s:.1f} games/s, {result.game_ms:.1f} ms/game", file=sys.stderr)
        plays.append(result)
        load = bench_load(scenario, played)
        print(f"{label}: fold {load.fold_ms:.2f} ms, decode + fold {load.decode_fold_ms:.2f} ms", file=sys.stderr)
        loads.append(load)
    return plays, loads, time.perf_counter() - started


# --- the demo --------------------------------------------------------------------------------------


def demo(seed_text: str, name: str | None = None) -> list[str]:
    """Play one 3-seat game of ``name`` (default: the first registered) with its random bots, reveal the seed, and
    tell the whole log with the game's narrator."""
    name = name or next(iter(GAMES))
    game = GAMES[name]
    bot = RANDOM if RANDOM in game.bots else next(iter(game.bots))
    scenario = Scenario(name, DEMO_SEATS, bot)
    seed = seed_text.encode()
    played = play(game, scenario.start(seed), seed, Bots(scenario, 0))
    reveal = game.decide(played.state, SYSTEM, game.reveal(seed.hex()), Chance(seed, len(played.events) + 1))
    if game.narrator is None:
        return [tag_of(event) for event in [*played.events, *reveal]]
    narrator = game.narrator({})
    return [f"{'  ' * told.depth}{told.text}" for version, event in enumerate([*played.events, *reveal], start=1)
            for told in narrator.tell(version, tag_of(event), event)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per repetition and scenario (default 40)")
    parser.add_argument("--repeats", type=int, default=5, help="repetitions per scenario (default 5)")
    parser.add_argument("--demo", action="store_true", help="play one 3-seat game and print its story instead")
    parser.add_argument("--game", choices=list(GAMES), help="the demo's game (default: the first registered)")
    parser.add_argument("--seed", default=DEMO_SEED,
                        help=f"the demo game's seed, any text (default {DEMO_SEED!r}: in Magnate, a game whose random "
                             "bots attract tenants, rebuild and buy adjacent plots, so every kind of event shows)")
    args = parser.parse_args(argv)
    if args.demo:
        print("\n".join(demo(args.seed, args.game)))
        return 0
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be at least 1")
    load_at_start = load_average()
    plays, loads, _ = run(args.games, args.repeats)
    print(summary(plays, loads, load_at_start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
