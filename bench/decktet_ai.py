"""Decktet Magnate's computer players against each other and against the bots: win rates and decision times.

    python -m bench.decktet_ai --games 2000 --write docs/AI.md    # every pairing, the table into docs/AI.md
    python -m bench.decktet_ai --games 200 --pairing easy:greedy  # one pairing
    python -m bench.decktet_ai --games 2000 --hard-games 500      # fewer games where the hard level plays

Every game is the base two-player game (Courts in, spec §2.10's defaults). In a pairing ``a:b``, game ``i`` uses
the seed ``decktet-ai:a-b:i``; ``a`` sits in seat ``i % 2`` and ``b`` in the other, so each plays first in half of
the games (seats alternate). A computer seat is the computer at its level, playing through the system command
``TakeAiTurn`` exactly as in the service (``domain.kernel.driver.play``); a bot seat (``random``, ``greedy``) is a
person's seat played by the bot of that name, seeded with ``2 i`` or ``2 i + 1``. ``a`` scores 1 for a win, 1/2
for a shared win (R7.5's full tie) and 0 for a loss; the table gives that rate with its 95% Wilson score interval
(the interval of the proportion ``(wins + ties / 2) / games``), and the ties apart.

The decision time of a level is the wall time of each ``TakeAiTurn`` decision it makes in these games (planning,
then applying the plan and ending the turn; the last two take well under a millisecond), over all its games, in
processes that share the machine's cores with each other.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import platform
import re
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import date
from pathlib import Path
from typing import Any

import msgspec

from domain.games import GAMES
from domain.kernel import Actor, Chance, commitment_of, tag_of
from domain.kernel.driver import play

GAME = GAMES["decktet"]
"""Decktet Magnate as the service runs it (through the registry, as everything outside domain/ reaches a game)."""
AI_LEVELS: tuple[str, ...] = GAME.ai_levels
AI_TURN = "decktet.take_ai_turn"
"""The tag of the system command of a computer's turn."""

PAIRINGS = (
    ("random", "greedy"),
    ("easy", "greedy"),
    ("medium", "easy"),
    ("hard", "medium"),
    ("hard", "greedy"),
)
"""The default pairings, each level against the one below (and the bots); others by ``--pairing``."""
BEGIN, END = "<!-- decktet-ai:begin -->", "<!-- decktet-ai:end -->"
Z95 = 1.959963984540054


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


def seed_of(first: str, second: str, game: int) -> bytes:
    return f"decktet-ai:{first}-{second}:{game}".encode()


def play_game(job: tuple[str, str, int]) -> Result:
    """One seeded game of ``first`` against ``second``; ``first`` sits in seat ``game % 2``."""
    first, second, game = job
    seed = seed_of(first, second, game)
    players = {game % 2: first, 1 - game % 2: second}
    seats = [{"kind": "ai", "level": players[s]} if players[s] in AI_LEVELS else {"kind": "human"} for s in (0, 1)]
    bots = {s: GAME.bots[name](2 * game + s) for s, name in players.items() if name in GAME.bots}
    times: dict[str, list[float]] = {}

    def timed(state: Any, actor: Actor, command: Any, chance: Chance) -> Any:
        began = time.perf_counter()
        out = GAME.step(state, actor, command, chance)
        if tag_of(command) == AI_TURN:
            times.setdefault(players[state.active], []).append(1000 * (time.perf_counter() - began))
        return out

    rules = dataclasses.replace(GAME, step=timed)
    options = msgspec.convert({"seats": seats}, GAME.options_type)
    played = play(rules, GAME.start(options, commitment_of(seed)), seed,
                  lambda state, seat: bots[int(seat)](state, seat))
    outcome = GAME.outcome(played.state)
    assert outcome is not None
    mine = game % 2
    points = 0 if mine not in outcome.winners else 2 if len(outcome.winners) == 1 else 1
    return Result(first, second, game, points, times, played.state.turn)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (``successes`` may hold halves)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def run(pairings: Sequence[tuple[str, str]], games: int, hard_games: int, processes: int
        ) -> tuple[list[str], float]:
    began = time.perf_counter()
    rows: list[str] = []
    times: dict[str, list[float]] = {}
    with ProcessPoolExecutor(processes) as pool:
        for first, second in pairings:
            n = hard_games if "hard" in (first, second) else games
            started = time.perf_counter()
            results = list(pool.map(play_game, [(first, second, g) for g in range(n)], chunksize=4))
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
        "| turns a game | wall |",
        "|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "| level | decisions | median | p90 | p99 | max |",
        "|---|---|---|---|---|---|",
    ]
    for level in AI_LEVELS:
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


def report(lines: list[str], took: float, command: str, load: float | None, processes: int) -> str:
    head = [
        f"Measured {date.today().isoformat()} with `{command}`: {took / 60:.0f} min wall on {processes} processes; "
        f"{cpu_model()}, {os.cpu_count()} logical cores, Python {platform.python_version()}"
        + (f", 1-minute load {load:.2f} at the start (the cores were shared with other work)" if load else "")
        + ". Seeds: `decktet-ai:<a>-<b>:<i>` for game `i` of pairing `a vs b`, `a` in seat `i % 2`.",
        "",
    ]
    return "\n".join([*head, *lines])


def write(path: Path, text: str) -> None:
    """Replace the text between the Decktet markers of ``path`` with ``text``."""
    old = path.read_text()
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pattern.search(old):
        raise SystemExit(f"{path} has no {BEGIN} ... {END} block to fill")
    path.write_text(pattern.sub(lambda _: f"{BEGIN}\n{text}\n{END}", old))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="seeded games per pairing")
    parser.add_argument("--hard-games", type=int, help="games per pairing the hard level plays in (default: --games)")
    parser.add_argument("--pairing", action="append", metavar="A:B", help="a pairing to play (default: all)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--write", type=Path, metavar="PATH", help="fill the Decktet block of this Markdown file")
    args = parser.parse_args(argv)
    players = (*AI_LEVELS, *GAME.bots)
    pairings = [tuple(p.split(":", 1)) for p in args.pairing] if args.pairing else list(PAIRINGS)
    for pairing in pairings:
        if len(pairing) != 2 or not set(pairing) <= set(players):
            parser.error(f"a pairing is two of {', '.join(players)}, as a:b")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    lines, took = run([(a, b) for a, b in pairings], args.games, args.hard_games or args.games, args.processes)
    command = "python -m bench.decktet_ai " + " ".join(sys.argv[1:] if argv is None else argv)
    text = report(lines, took, command.strip(), load, args.processes)
    print(text)
    if args.write:
        write(args.write, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
