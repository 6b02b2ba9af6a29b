"""Solo games against the AI opponent, per difficulty: how often does a bot beat it, and by how much?

    python -m bench.ai_simulation --games 2000               # greedy bot, standard game, 2 processes
    python -m bench.ai_simulation --games 2000 --bot random  # the random legal bot instead
    python -m bench.ai_simulation --games 500 --advanced     # the advanced (tenant subtype) game
    python -m bench.ai_simulation --excerpt                  # the AI's explained decisions in one game

Every game is human seat 0 (played by the bot) against the AI in seat 1, on the 2-player board (§11.1).
Game ``i`` uses the seed ``ai-simulation:<variant>:<i>`` and bot seed ``i`` at **every** difficulty: the
difficulties are compared on the very same games (common random numbers), so their differences are due
to the difficulty alone. A bot "wins" when it finishes with strictly more cash than the AI (§10 step 3:
"in a solo game the human must finish with more cash than the AI"); ties are counted apart.

The table prints as Markdown: the greedy win rate with its 95% Wilson score interval, the AI's mean and
median final cash, the bot's mean final cash and the mean number of rounds. The script also checks, per
game, whether the bot's final cash and the number of rounds are the same at every difficulty (they are
when nothing in the game depends on the AI's cash, see docs/AI.md).
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from domain.kernel import commitment_of
from domain.kernel.driver import Policy, play
from domain.magnate import GAME, GameOptions, MagnateState, SeatSpec, StartGame
from domain.magnate.bots import Greedy, RandomLegal
from domain.magnate.catalog import catalog
from domain.magnate.events import AiDecided, AiLevelRaised, RoundStarted
from domain.magnate.money import money as money_k
from services.simulation.summary import wilson

BOTS: dict[str, Callable[[int], Policy[MagnateState]]] = {"greedy": Greedy, "random": RandomLegal}
HUMAN, AI = 0, 1


@dataclass(frozen=True, slots=True)
class Outcome:
    difficulty: str
    game: int
    human: int
    ai: int
    rounds: int


def difficulties() -> list[tuple[str, str]]:
    """(key, name) of every difficulty, easiest first (T16: rising sale value modifier)."""
    rows = sorted(catalog().ai_difficulties.values(), key=lambda d: d.sale_value_modifier)
    return [(d.key, d.name) for d in rows]


def seed_of(game: int, advanced: bool) -> bytes:
    return f"ai-simulation:{'advanced' if advanced else 'standard'}:{game}".encode()


def start(difficulty: str, advanced: bool, seed: bytes) -> StartGame:
    options = GameOptions(seats=(SeatSpec(), SeatSpec(kind="ai")), advanced=advanced, difficulty=difficulty)
    return StartGame(options=options, seed_commitment=commitment_of(seed))


def play_game(job: tuple[str, str, bool, int]) -> Outcome:
    bot, difficulty, advanced, game = job
    seed = seed_of(game, advanced)
    state = play(GAME, start(difficulty, advanced, seed), seed, BOTS[bot](game)).state
    return Outcome(difficulty, game, state.seats[HUMAN].cash, state.seats[AI].cash, state.round)


def money(k: float) -> str:
    """Cash in $K (or a mean of it, rounded to a whole $K), the one way money is written: 7350 -> "7,350K"."""
    return money_k(round(k))


@dataclass(frozen=True, slots=True)
class Row:
    key: str
    name: str
    games: int
    wins: int
    ties: int
    low: float
    high: float
    ai_mean: float
    ai_median: float
    human_mean: float
    rounds: float

    @property
    def rate(self) -> float:
        return self.wins / self.games


def summarise(key: str, name: str, outcomes: Sequence[Outcome]) -> Row:
    wins = sum(o.human > o.ai for o in outcomes)
    ties = sum(o.human == o.ai for o in outcomes)
    low, high = wilson(wins, len(outcomes))
    return Row(
        key=key,
        name=name,
        games=len(outcomes),
        wins=wins,
        ties=ties,
        low=low,
        high=high,
        ai_mean=statistics.fmean(o.ai for o in outcomes),
        ai_median=statistics.median(o.ai for o in outcomes),
        human_mean=statistics.fmean(o.human for o in outcomes),
        rounds=statistics.fmean(o.rounds for o in outcomes),
    )


def table(bot: str, rows: Sequence[Row]) -> str:
    lines = [
        f"| Difficulty | games | {bot} win rate | 95% CI | ties | AI mean final cash | AI median final cash "
        f"| {bot} mean final cash | mean rounds |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {r.name} | {r.games} | {r.rate:.1%} | {r.low:.1%} – {r.high:.1%} | {r.ties} | {money(r.ai_mean)} "
        f"| {money(r.ai_median)} | {money(r.human_mean)} | {r.rounds:.2f} |"
        for r in rows
    ]
    return "\n".join(lines)


def simulate(bot: str, games: int, advanced: bool, processes: int) -> str:
    order = difficulties()
    jobs = [(bot, key, advanced, game) for key, _ in order for game in range(games)]
    began = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        outcomes = pool.map(play_game, jobs, chunksize=50)
    took = time.perf_counter() - began
    by = {key: [o for o in outcomes if o.difficulty == key] for key, _ in order}
    rows = [summarise(key, name, by[key]) for key, name in order]
    paired = all(len({(by[key][g].human, by[key][g].rounds) for key, _ in order}) == 1 for g in range(games))
    rates = [r.rate for r in rows]
    falls = all(a >= b for a, b in itertools.pairwise(rates)) and rates[0] > rates[-1]
    variant = "advanced" if advanced else "standard"
    return "\n".join(
        [
            f"{games} seeded solo games per difficulty ({variant} game, {bot} bot vs the AI, same seeds at every "
            f"difficulty), {len(jobs)} games in {took:.0f} s on {processes} processes.",
            "",
            table(bot, rows),
            "",
            f"{bot} win rate falls from {rows[0].name} to {rows[-1].name}: {'yes' if falls else 'NO'} "
            f"({' → '.join(f'{r:.1%}' for r in rates)}).",
            f"Every game identical at every difficulty apart from the AI's cash (same {bot} cash and rounds): "
            f"{'yes' if paired else 'no'}.",
        ]
    )


def excerpt(seed: bytes = b"ai-simulation:standard:7", difficulty: str = "generalised_ai") -> str:
    """The AI's explanations from one game against the greedy bot, as the log records them."""
    played = play(GAME, start(difficulty, False, seed), seed, Greedy(7))
    lines: list[str] = []
    for event in played.events:
        if isinstance(event, RoundStarted):
            lines.append(f"-- round {event.round}")
        elif isinstance(event, AiDecided):
            card = f" [{event.card}]" if event.card else ""
            lines.append(f"AiDecided{card} {event.action}: {event.reason}")
        elif isinstance(event, AiLevelRaised):
            lines.append(f"AiLevelRaised to {event.level}: {event.reason}")
    human, ai = (s.cash for s in played.state.seats)
    lines.append(f"-- final cash: greedy {money(human)}, AI {money(ai)}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="seeded games per difficulty")
    parser.add_argument("--bot", choices=sorted(BOTS), default="greedy")
    parser.add_argument("--advanced", action="store_true", help="the advanced (tenant subtype) game")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--excerpt", action="store_true", help="print the AI's decisions in one game")
    args = parser.parse_args(argv)
    if args.excerpt:
        print(excerpt())
        return 0
    print(simulate(args.bot, args.games, args.advanced, args.processes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
