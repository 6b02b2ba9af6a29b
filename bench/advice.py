"""The engine's advice measured: a bot that always plays the first advice option (``advice``) against each game's
weakest computer level, beside the bot that plays the first legal command (``first``, what the page suggested
before issue #26) and the game's ``greedy`` bot, over the same seeded games.

    python -m bench.advice --games 500 --write docs/AI.md     # every game, the table into docs/AI.md
    python -m bench.advice --games 20 --game decktet          # a quick look at one game

Game ``i`` of a game's measurement uses the seed ``advice:<game>:<i>`` whichever bot plays, so the three bots
meet the same deals; the bot sits in seat ``i % 2`` and the computer at the game's weakest level
(``GameModule.ai_levels[0]``) in the other (each plays first in half of the games), through the game's
``sim_options`` as ``simulate`` sets a table up. The bot scores 1 for a win, 1/2 for a shared win and 0 for a
loss; the table gives that rate with its 95% Wilson score interval.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from domain.games import GAMES
from domain.kernel import Seat, commitment_of
from domain.kernel.driver import play
from services.simulation.summary import wilson

from .ai_match import cpu_model, write

BOTS = ("advice", "first", "greedy")
GAME_KEYS = ("decktet", "master_of_economy", "magnate")
BEGIN, END = "<!-- advice:begin -->", "<!-- advice:end -->"


def first_legal(state: Any, seat: Seat, module: Any) -> Any:
    return module.legal_commands(state, seat)[0].command


def play_one(job: tuple[str, str, int]) -> tuple[int, float]:
    """One seeded game of ``bot`` against the weakest level: the bot's half points and its mean decision ms."""
    game, bot, i = job
    module = GAMES[game]
    mine = i % 2
    kinds = tuple("human" if s == mine else "ai" for s in range(2))
    assert module.sim_options is not None and module.advise is not None
    advise = module.advise
    options = module.sim_options(kinds, module.ai_levels[0], frozenset())
    seed = f"advice:{game}:{i}".encode()
    greedy = module.bots["greedy"](2 * i + mine)
    spent: list[float] = []

    def policy(state: Any, seat: Seat) -> Any:
        began = time.perf_counter()
        if bot == "advice":
            advice = advise(state, seat)
            command = advice.options[0].command
        elif bot == "first":
            command = first_legal(state, seat, module)
        else:
            command = greedy(state, seat)
        spent.append(time.perf_counter() - began)
        return command

    played = play(module, module.start(options, commitment_of(seed)), seed, policy)
    outcome = module.outcome(played.state)
    assert outcome is not None
    winners = set(outcome.winners)
    points = 0 if mine not in winners else 2 if winners == {mine} else 1
    return points, 1000 * sum(spent) / max(1, len(spent))


def measure(game: str, bot: str, games: int, processes: int) -> tuple[float, float, float, float, float]:
    """The bot's score rate, its 95% interval, its mean decision time (ms) and the wall time (s)."""
    began = time.perf_counter()
    jobs = [(game, bot, i) for i in range(games)]
    if processes > 1:
        with ProcessPoolExecutor(processes) as pool:
            results = list(pool.map(play_one, jobs, chunksize=2))
    else:
        results = [play_one(job) for job in jobs]
    score = sum(p for p, _ in results) / 2
    low, high = wilson(score, games)
    return score / games, low, high, sum(ms for _, ms in results) / games, time.perf_counter() - began


def table(games: int, processes: int, chosen: Sequence[str], bots: Sequence[str] = BOTS) -> list[str]:
    lines = ["| game | against | bot | games | score (shared = ½) | 95% CI | ms a decision | wall |",
             "|---|---|---|---|---|---|---|---|"]
    for game in chosen:
        level = GAMES[game].ai_levels[0]
        for bot in bots:
            rate, low, high, ms, took = measure(game, bot, games, processes)
            lines.append(f"| {GAMES[game].title or game} | {level} | {bot} | {games} | {rate:.1%} "
                         f"| {low:.1%} – {high:.1%} | {ms:.1f} | {took:.0f} s |")
            print(lines[-1], file=sys.stderr, flush=True)
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500, help="seeded games per game and bot")
    parser.add_argument("--game", action="append", choices=GAME_KEYS, help="a game to measure (default: all)")
    parser.add_argument("--bot", action="append", choices=BOTS, help="a bot to measure (default: all)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--write", type=Path, metavar="PATH", help="fill the advice block of this Markdown file")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    began = time.perf_counter()
    lines = table(args.games, args.processes, args.game or GAME_KEYS, args.bot or BOTS)
    took = time.perf_counter() - began
    command = "python -m bench.advice " + " ".join(sys.argv[1:] if argv is None else argv)
    head = (f"Measured {time.strftime('%Y-%m-%d')} with `{command.strip()}`: {took / 60:.0f} min wall on "
            f"{args.processes} processes; {cpu_model()}" + (f", 1-minute load {load:.2f} at the start" if load
                                                             is not None else "") + ".")
    text = "\n".join([head, "", *lines])
    print(text)
    if args.write:
        write(args.write, text, (BEGIN, END))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
