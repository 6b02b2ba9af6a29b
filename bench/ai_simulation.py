"""Solo games against a game's AI, per level: how often does a bot beat it, and by how much?

    python -m bench.ai_simulation --games 2000               # the first bot, standard game, 2 processes
    python -m bench.ai_simulation --games 2000 --bot random  # another of the game's bots
    python -m bench.ai_simulation --games 500 --flag advanced  # a variant (Magnate: the advanced game)
    python -m bench.ai_simulation --excerpt                  # the AI's explained decisions in one game

The game is ``--game`` (default: the first registered; everything comes from its module: its bots, its AI
levels, its options, its outcome and its narrator). Every game is human seat 0 (played by the bot) against the
AI in seat 1. Game ``i`` uses the seed ``ai-simulation:<variant>:<i>`` (the variant: ``standard``, or the flags
switched on) and bot seed ``i`` at **every** level: the levels are compared on the very same games (common
random numbers), so their differences are due to the level alone. A bot "wins" when the game ranks it alone
first (Magnate, §10 step 3: "in a solo game the human must finish with more cash than the AI"); ties are
counted apart.

The table prints as Markdown: the bot's win rate with its 95% Wilson score interval, the AI's mean and median
final score, the bot's mean final score and the mean number of rounds. The script also checks, per game,
whether the bot's final score and the number of rounds are the same at every level (in Magnate they are when
nothing in the game depends on the AI's cash, see docs/AI.md).
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
from typing import Any

from domain.games import GAMES
from domain.kernel import GameModule, commitment_of, tag_of
from domain.kernel.driver import play
from services.simulation.spec import default_level, score_text
from services.simulation.summary import wilson

HUMAN, AI = 0, 1


@dataclass(frozen=True, slots=True)
class Outcome:
    difficulty: str
    game: int
    human: int
    ai: int
    rounds: int
    human_alone_first: bool


def seed_of(game: int, flags: frozenset[str]) -> bytes:
    return f"ai-simulation:{'+'.join(sorted(flags)) or 'standard'}:{game}".encode()


def start(rules: GameModule[Any], difficulty: str, flags: frozenset[str], seed: bytes) -> Any:
    options = rules.sim_options
    assert options is not None
    return rules.start(options(("human", "ai"), difficulty, flags), commitment_of(seed))


def play_game(job: tuple[str, str, str, frozenset[str], int]) -> Outcome:
    name, bot, difficulty, flags, game = job
    rules = GAMES[name]
    seed = seed_of(game, flags)
    state = play(rules, start(rules, difficulty, flags, seed), seed, rules.bots[bot](game)).state
    ended = rules.outcome(state)
    assert ended is not None
    score = {s.seat: s.score for s in ended.standings}
    return Outcome(difficulty, game, score[HUMAN], score[AI], ended.rounds, ended.winners == (HUMAN,))


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
    wins = sum(o.human_alone_first for o in outcomes)
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


def table(bot: str, rows: Sequence[Row], score: Callable[[int], str] = "{:,}".format) -> str:
    """The rows as Markdown; ``score`` writes a (rounded) score the game's way (:func:`score_text`)."""

    def stat(value: float) -> str:
        return score(round(value))

    lines = [
        f"| Difficulty | games | {bot} win rate | 95% CI | ties | AI mean final score | AI median final score "
        f"| {bot} mean final score | mean rounds |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {r.name} | {r.games} | {r.rate:.1%} | {r.low:.1%} – {r.high:.1%} | {r.ties} | {stat(r.ai_mean)} "
        f"| {stat(r.ai_median)} | {stat(r.human_mean)} | {r.rounds:.2f} |"
        for r in rows
    ]
    return "\n".join(lines)


def simulate(name: str, bot: str, games: int, flags: frozenset[str], processes: int) -> str:
    rules = GAMES[name]
    order = list(rules.ai_levels)
    jobs = [(name, bot, key, flags, game) for key in order for game in range(games)]
    began = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        outcomes = pool.map(play_game, jobs, chunksize=50)
    took = time.perf_counter() - began
    by = {key: [o for o in outcomes if o.difficulty == key] for key in order}
    rows = [summarise(key, key, by[key]) for key in order]
    paired = all(len({(by[key][g].human, by[key][g].rounds) for key in order}) == 1 for g in range(games))
    rates = [r.rate for r in rows]
    falls = all(a >= b for a, b in itertools.pairwise(rates)) and rates[0] > rates[-1]
    variant = ", ".join(sorted(flags)) or "standard"
    return "\n".join(
        [
            f"{games} seeded solo games of {name} per level ({variant} game, {bot} bot vs the AI, same seeds at "
            f"every level), {len(jobs)} games in {took:.0f} s on {processes} processes.",
            "",
            table(bot, rows, score_text(rules)),
            "",
            f"{bot} win rate falls from {rows[0].name} to {rows[-1].name}: {'yes' if falls else 'NO'} "
            f"({' → '.join(f'{r:.1%}' for r in rates)}).",
            f"Every game identical at every level apart from the AI's score (same {bot} score and rounds): "
            f"{'yes' if paired else 'no'}.",
        ]
    )


def excerpt(name: str, bot: str, seed: bytes = b"ai-simulation:standard:7", difficulty: str | None = None) -> str:
    """The AI's part of one game against ``bot`` (seed 7), told by the game's narrator: every line that names the
    AI's seat, under the story's headings (its lines at depth 0: in Magnate, the rounds)."""
    rules = GAMES[name]
    level = difficulty or default_level(rules)
    assert level is not None and rules.narrator is not None
    played = play(rules, start(rules, level, frozenset(), seed), seed, rules.bots[bot](7))
    narrator = rules.narrator({HUMAN: bot, AI: "AI"})
    lines = [f"{'  ' * told.depth}{told.text}" for version, event in enumerate(played.events, start=1)
             for told in narrator.tell(version, tag_of(event), event)
             if told.depth == 0 or any(named.seat == AI for named in told.seats)]
    ended = rules.outcome(played.state)
    assert ended is not None
    score = score_text(rules)
    final = {s.seat: score(s.score) for s in ended.standings}
    lines.append(f"-- final scores: {bot} {final[HUMAN]}, AI {final[AI]}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=list(GAMES), help="the game (default: the first registered)")
    parser.add_argument("--games", type=int, default=2000, help="seeded games per level")
    parser.add_argument("--bot", help="the bot in seat 0, one of the game's (default: its first)")
    parser.add_argument("--flag", dest="flags", action="append", metavar="NAME", help="a variant of the game")
    parser.add_argument("--advanced", dest="flags", action="append_const", const="advanced",
                        help="the same as --flag advanced")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--excerpt", action="store_true", help="print the AI's decisions in one game")
    args = parser.parse_args(argv)
    name = args.game or next(iter(GAMES))
    rules = GAMES[name]
    bot = args.bot or next(iter(rules.bots))
    flags = frozenset(args.flags or ())
    if bot not in rules.bots:
        parser.error(f"unknown bot {bot!r} for {name}; one of {', '.join(rules.bots)}")
    if not rules.ai_levels or rules.sim_options is None:
        parser.error(f"{name} has no AI to play against")
    if unknown := flags - set(rules.sim_flags):
        parser.error(f"unknown flag(s) {', '.join(sorted(unknown))} for {name}; one of {', '.join(rules.sim_flags)}")
    if args.excerpt:
        print(excerpt(name, bot))
        return 0
    print(simulate(name, bot, args.games, flags, args.processes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
