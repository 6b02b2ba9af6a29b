"""A game's computer players against each other and against its bots: the shared match runner of
``bench/decktet_ai.py`` and ``bench/moe_ai.py`` (win rates with their Wilson intervals, decision times, the table
written between a game's markers in docs/AI.md).

A :class:`Match` says which game (a key of ``domain.games.GAMES``: everything outside domain/ reaches a game
through the registry), how a pairing's table is set up, which system command is the computer's decision and whose
it is, and what a game's length is counted in. In a pairing ``a:b``, game ``i`` uses the seed
``<prefix>:a-b:i``; ``a`` sits in seat ``i % 2`` and ``b`` in the other (each plays first in half of the games). A
computer seat is the computer at its level, playing through its system command exactly as in the service
(``domain.kernel.driver.play``); a bot seat is a person's seat played by the bot of that name, seeded with
``2 i + seat``. ``a`` scores 1 for a win, 1/2 for a shared win and 0 for a loss.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import re
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import date
from pathlib import Path
from typing import Any

import msgspec

from domain.games import GAMES
from domain.kernel import Actor, Chance, GameModule, Outcome, commitment_of, tag_of
from domain.kernel.driver import play
from services.simulation.summary import quantile, wilson


@dataclasses.dataclass(frozen=True, slots=True)
class Match:
    """How one game's computer is benchmarked."""

    game: str
    """The game's key in ``domain.games.GAMES``."""
    prefix: str
    """The seeds' prefix (``decktet-ai``)."""
    markers: tuple[str, str]
    """The begin and end markers of the results block in the Markdown file ``--write`` fills."""
    ai_turn: str
    """The tag of the system command of a computer's decision."""
    options: Callable[[list[dict[str, Any]]], dict[str, Any]]
    """The create options of a pairing's table, from its seat specs (``{"kind", "level"}`` per seat)."""
    decider: Callable[[Any, Any], int]
    """The seat whose decision the computer's system command is, from the state before it and the command."""
    length: Callable[[Any, Outcome], int]
    """A played game's length (its turns, its stages), from its final state and outcome."""
    length_header: str
    """The length column's header (``turns a game``)."""
    label: str
    """The game's short name in the help (``Decktet``)."""
    seats: int = 2

    @property
    def module(self) -> GameModule[Any]:
        return GAMES[self.game]


@dataclasses.dataclass(frozen=True, slots=True)
class Result:
    first: str
    second: str
    game: int
    points: int
    """The first-named player's result in half points: 2 a win, 1 a shared win, 0 a loss."""
    times_ms: dict[str, list[float]]
    """Each level's decision times in this game."""
    turns: int
    """The game's length (:attr:`Match.length`)."""


def seed_of(match: Match, first: str, second: str, game: int) -> bytes:
    return f"{match.prefix}:{first}-{second}:{game}".encode()


def play_game(job: tuple[Match, str, str, int]) -> Result:
    """One seeded game of ``first`` against ``second``; ``first`` sits in seat ``game % 2``."""
    match, first, second, game = job
    module = match.module
    seed = seed_of(match, first, second, game)
    players = {s: first if s % 2 == game % 2 else second for s in range(match.seats)}
    seats = [{"kind": "ai", "level": players[s]} if players[s] in module.ai_levels else {"kind": "human"}
             for s in range(match.seats)]
    bots = {s: module.bots[name](2 * game + s) for s, name in players.items() if name in module.bots}
    times: dict[str, list[float]] = {}

    def timed(state: Any, actor: Actor, command: Any, chance: Chance) -> Any:
        began = time.perf_counter()
        out = module.step(state, actor, command, chance)
        if tag_of(command) == match.ai_turn:
            times.setdefault(players[match.decider(state, command)], []).append(
                1000 * (time.perf_counter() - began))
        return out

    rules = dataclasses.replace(module, step=timed)
    options = msgspec.convert(match.options(seats), module.options_type)
    played = play(rules, module.start(options, commitment_of(seed)), seed,
                  lambda state, seat: bots[int(seat)](state, seat))
    outcome = module.outcome(played.state)
    assert outcome is not None
    mine = {s for s, name in players.items() if s % 2 == game % 2}
    won = mine & set(outcome.winners)
    points = 0 if not won else 2 if set(outcome.winners) <= mine else 1
    return Result(first, second, game, points, times, match.length(played.state, outcome))


def run(match: Match, pairings: Sequence[tuple[str, str]], games: Callable[[str, str], int], processes: int
        ) -> tuple[list[str], float]:
    """Play every pairing (``games(a, b)`` games each); the results table and the decision times, and the wall
    time taken."""
    began = time.perf_counter()
    rows: list[str] = []
    times: dict[str, list[float]] = {}
    with ProcessPoolExecutor(processes) as pool:
        for first, second in pairings:
            n = games(first, second)
            started = time.perf_counter()
            results = list(pool.map(play_game, [(match, first, second, g) for g in range(n)], chunksize=4))
            took = time.perf_counter() - started
            wins = sum(r.points == 2 for r in results)
            ties = sum(r.points == 1 for r in results)
            score = wins + ties / 2
            low, high = wilson(score, n)
            for r in results:
                for level, ms in r.times_ms.items():
                    times.setdefault(level, []).extend(ms)
            rows.append(f"| {first} vs {second} | {n} | {wins} | {ties} | {n - wins - ties} | {score / n:.1%} "
                        f"| {low:.1%} – {high:.1%} | {sum(r.turns for r in results) / n:.1f} | {took:.0f} s |")
            print(rows[-1], file=sys.stderr, flush=True)
    lines = [
        "| pairing (first named: a) | games | a wins | shared | a loses | a's score (shared = ½) | 95% CI "
        f"| {match.length_header} | wall |",
        "|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "| level | decisions | median | p90 | p99 | max |",
        "|---|---|---|---|---|---|",
    ]
    for level in match.module.ai_levels:
        if level in times:
            ms = times[level]
            lines.append(f"| {level} | {len(ms)} | {quantile(ms, 0.5):.1f} ms | {quantile(ms, 0.9):.1f} ms "
                         f"| {quantile(ms, 0.99):.1f} ms | {max(ms):.1f} ms |")
    return lines, time.perf_counter() - began


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def report(match: Match, lines: list[str], took: float, command: str, load: float | None, processes: int) -> str:
    head = [
        f"Measured {date.today().isoformat()} with `{command}`: {took / 60:.0f} min wall on {processes} processes; "
        f"{cpu_model()}, {os.cpu_count()} logical cores, Python {platform.python_version()}"
        + (f", 1-minute load {load:.2f} at the start"
           + (" (the cores were shared with other work)" if load >= (os.cpu_count() or 1) / 2 else "")
           if load is not None else "")
        + f". Seeds: `{match.prefix}:<a>-<b>:<i>` for game `i` of pairing `a vs b`, `a` in seat `i % 2`.",
        "",
    ]
    return "\n".join([*head, *lines])


def write(path: Path, text: str, markers: tuple[str, str]) -> None:
    """Replace the text between ``markers`` in ``path`` with ``text``."""
    begin, end = markers
    old = path.read_text()
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
    if not pattern.search(old):
        raise SystemExit(f"{path} has no {begin} ... {end} block to fill")
    path.write_text(pattern.sub(lambda _: f"{begin}\n{text}\n{end}", old))


def main(match: Match, pairings: Sequence[tuple[str, str]], doc: str | None, script: str,
         argv: Sequence[str] | None = None, heavy: str | None = None) -> int:
    """The command line of a game's bench (``script``: ``bench.decktet_ai``); ``heavy``: a level whose pairings
    may play fewer games (``--<heavy>-games``)."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="seeded games per pairing")
    if heavy is not None:
        parser.add_argument(f"--{heavy}-games", type=int, dest="heavy_games", metavar=f"{heavy.upper()}_GAMES",
                            help=f"games per pairing the {heavy} level plays in (default: --games)")
    parser.add_argument("--pairing", action="append", metavar="A:B", help="a pairing to play (default: all)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--write", type=Path, metavar="PATH",
                        help=f"fill the {match.label} block of this Markdown file")
    args = parser.parse_args(argv)
    module = match.module
    players = (*module.ai_levels, *module.bots)
    chosen = [tuple(p.split(":", 1)) for p in args.pairing] if args.pairing else list(pairings)
    for pairing in chosen:
        if len(pairing) != 2 or not set(pairing) <= set(players):
            parser.error(f"a pairing is two of {', '.join(players)}, as a:b")
    each: int = args.games
    heavy_games: int = getattr(args, "heavy_games", None) or each

    def games(first: str, second: str) -> int:
        return heavy_games if heavy is not None and heavy in (first, second) else each

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    lines, took = run(match, [(a, b) for a, b in chosen], games, args.processes)
    command = f"python -m {script} " + " ".join(sys.argv[1:] if argv is None else argv)
    text = report(match, lines, took, command.strip(), load, args.processes)
    print(text)
    if args.write:
        write(args.write, text, match.markers)
    return 0
