"""Simulated games in-process: the pure rules (``domain.kernel.driver.play``), on every core.

A game runs exactly as the service runs it, minus storage: ``pending`` → the bot's command or the due
system command → ``step`` with ``Chance(seed, next version)`` → fold; once it has ended, the seed is
revealed as the service does in the same append. Games are spread over a process pool; results come back
in game order, so the output does not depend on the number of processes.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from domain.kernel import SYSTEM, Chance
from domain.kernel.driver import play

from .spec import GameResult, SimSpec


def outcome(spec: SimSpec, arm: int, game: int, state: Any, events: int, player_commands: int,
            system_jobs: int) -> GameResult:
    """The result of a finished game from its final state, by the game's own ``outcome`` (in-process and live
    runs share it): each seat's score, the seats ranked first, the rounds played."""
    ended = spec.module.outcome(state)
    if ended is None:
        raise ValueError(f"game {game} of {spec.name} has not ended")
    scores = {s.seat: s.score for s in ended.standings}
    return GameResult(
        arm=arm, game=game, difficulty=spec.difficulty, seed=spec.game_seed(game).hex(),
        scores=tuple(scores[seat] for seat in sorted(scores)), winners=tuple(sorted(ended.winners)),
        rounds=ended.rounds, events=events, player_commands=player_commands, system_jobs=system_jobs,
    )


def play_game(spec: SimSpec, arm: int, game: int) -> GameResult:
    """Play game ``game`` of ``spec`` to its end and reveal its seed."""
    rules = spec.module
    seed = spec.game_seed(game)
    played = play(rules, spec.start(seed), seed, spec.bots(game))
    revealed, state = rules.step(played.state, SYSTEM, rules.reveal(seed.hex()), Chance(seed, len(played.events) + 1))
    # A command counts when it appended events (as in the live log); the start command is the service's.
    versions = [v for v, _, _ in played.commands] + [len(played.events) + 1]
    appended = [(actor, command) for (v, actor, command), nxt in zip(played.commands, versions[1:], strict=True)
                if nxt > v]
    players = sum(actor != SYSTEM for actor, _ in appended)
    jobs = len(appended) - players - 1  # minus the start
    return outcome(spec, arm, game, state, len(played.events) + len(revealed), players, jobs)


def _play(job: tuple[SimSpec, int, int]) -> GameResult:
    return play_game(*job)


def _context() -> multiprocessing.context.BaseContext:
    """forkserver where it exists (no inherited threads or sockets, cheap starts), else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])  # the server imports the rules once; workers fork from it
        return context
    return multiprocessing.get_context("spawn")


def run_local(specs: Sequence[SimSpec], processes: int = 1,
              progress: Callable[[int], None] | None = None) -> list[GameResult]:
    """Every game of every spec (arm), in (arm, game) order; ``progress(n)`` after each n finished games."""
    jobs = [(spec, arm, game) for arm, spec in enumerate(specs) for game in range(spec.games)]
    results: list[GameResult] = []
    for result in _results(jobs, processes):
        results.append(result)
        if progress is not None:
            progress(1)
    return results


def _results(jobs: list[tuple[SimSpec, int, int]], processes: int) -> Iterator[GameResult]:
    if processes <= 1 or len(jobs) <= 1:
        yield from map(_play, jobs)
        return
    workers = min(processes, len(jobs))
    chunk = max(1, min(32, len(jobs) // (workers * 8)))
    with ProcessPoolExecutor(workers, mp_context=_context()) as pool:
        yield from pool.map(_play, jobs, chunksize=chunk)
