"""The summary of a simulation: win rates, rounds played and final scores per arm and seat, as data and text.

A seat *wins* a game when it alone is ranked first by the game's outcome (Magnate: the most cash; in a solo
game the human must finish with more cash than the AI, §10); a *shared win* is a first place shared. Win rates
come with their 95% Wilson score interval. Scores are written the game's way (:func:`.spec.score_text`).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence

import msgspec

from services.gameplay.registry import DEFAULT as OFFERED

from .spec import GameResult, SimSpec, module, score_text

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


class Distribution(msgspec.Struct, frozen=True, kw_only=True):
    mean: float
    min: int
    p10: float
    median: float
    p90: float
    max: int


class SeatSummary(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    label: str
    """"AI (generalised_ai)" or "greedy bot"."""
    wins: int
    shared_wins: int
    win_rate: float
    """Sole wins / games."""
    win_rate_low: float
    win_rate_high: float
    score: Distribution
    """The final score."""
    score_histogram: tuple[tuple[int, int], ...]
    """(lower bound of a bin, games); bins of equal width over every seat of the arm."""


class ArmSummary(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    arm: int
    name: str
    game: str
    """The game's type name."""
    registry: str = OFFERED
    """The registry the game is in (the ``MAGNATE_GAMES`` setting; left out of the result when it is the default)."""
    difficulty: str | None
    games: int
    seats: tuple[SeatSummary, ...]
    rounds: Distribution
    """Rounds played (Magnate: the crash round)."""
    rounds_histogram: tuple[tuple[int, int], ...]
    """(rounds, games)."""
    events_mean: float
    player_commands_mean: float
    system_jobs_mean: float


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (``successes`` may hold halves: a shared win)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile with linear interpolation (statistics' "inclusive" method)."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return float(ordered[0])
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def distribution(values: Sequence[int]) -> Distribution:
    return Distribution(mean=statistics.fmean(values), min=min(values), p10=quantile(values, 0.1),
                        median=float(statistics.median(values)), p90=quantile(values, 0.9), max=max(values))


def histogram(values: Sequence[int], low: int, width: int, bins: int) -> tuple[tuple[int, int], ...]:
    counts = Counter(min(bins - 1, (v - low) // width) for v in values)
    return tuple((low + i * width, counts.get(i, 0)) for i in range(bins))


def score_bins(values: Sequence[int], bins: int = 20) -> tuple[int, int, int]:
    """(low, width, bins): round bin edges covering every value."""
    low, high = min(values), max(values)
    raw = max(1.0, (high - low) / bins)
    magnitude = 10 ** math.floor(math.log10(raw))
    width = next(int(m * magnitude) for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw) or 1
    start = (low // width) * width
    return start, width, (high - start) // width + 1


def seat_label(spec: SimSpec, seat: int) -> str:
    return f"AI ({spec.difficulty})" if spec.ai and seat == spec.seats - 1 else f"{spec.bot} bot {seat}"


def summarise(specs: Sequence[SimSpec], results: Sequence[GameResult]) -> list[ArmSummary]:
    arms: list[ArmSummary] = []
    for arm, spec in enumerate(specs):
        games = [r for r in results if r.arm == arm]
        if not games:
            continue
        n = len(games)
        low, width, bins = score_bins([c for r in games for c in r.scores])
        seats = []
        for seat in range(spec.seats):
            wins = sum(r.winners == (seat,) for r in games)
            shared = sum(seat in r.winners and len(r.winners) > 1 for r in games)
            scores = [r.scores[seat] for r in games]
            lo, hi = wilson(wins, n)
            seats.append(SeatSummary(
                seat=seat, label=seat_label(spec, seat), wins=wins, shared_wins=shared, win_rate=wins / n,
                win_rate_low=lo, win_rate_high=hi, score=distribution(scores),
                score_histogram=histogram(scores, low, width, bins),
            ))
        rounds = [r.rounds for r in games]
        arms.append(ArmSummary(
            arm=arm, name=spec.name, game=spec.game, registry=spec.registry, difficulty=spec.difficulty, games=n,
            seats=tuple(seats),
            rounds=distribution(rounds),
            rounds_histogram=tuple(sorted(Counter(rounds).items())),
            events_mean=statistics.fmean(r.events for r in games),
            player_commands_mean=statistics.fmean(r.player_commands for r in games),
            system_jobs_mean=statistics.fmean(r.system_jobs for r in games),
        ))
    return arms


def scores_of(arm: ArmSummary) -> Callable[[float], str]:
    """How the arm's game writes a statistic of scores (a mean, a quantile): rounded to a whole point, then
    written as the game writes a score (Magnate: 7350.4 -> "7,350K")."""
    write = score_text(module(arm.game, arm.registry))
    return lambda value: write(round(value))


def text(arms: Sequence[ArmSummary]) -> str:
    """The summary as Markdown tables: one row per seat of each arm, then the rounds played."""
    lines = [
        "| Arm | Seat | games | wins | win rate | 95% CI | shared wins | mean score | median score | p10 – p90 score |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for a in arms:
        score = scores_of(a)
        lines += [
            f"| {a.name} | {s.label} | {a.games} | {s.wins} | {s.win_rate:.1%} | {s.win_rate_low:.1%} – "
            f"{s.win_rate_high:.1%} | {s.shared_wins} | {score(s.score.mean)} | {score(s.score.median)} | "
            f"{score(s.score.p10)} – {score(s.score.p90)} |"
            for s in a.seats
        ]
    lines += [
        "",
        "| Arm | rounds: mean | median | min – max | games per rounds played | events/game | bot commands/game "
        "| system jobs/game |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {a.name} | {a.rounds.mean:.2f} | {a.rounds.median:g} | {a.rounds.min} – {a.rounds.max} | "
        f"{', '.join(f'{r}: {c}' for r, c in a.rounds_histogram)} | {a.events_mean:.1f} | "
        f"{a.player_commands_mean:.1f} | {a.system_jobs_mean:.1f} |"
        for a in arms
    ]
    return "\n".join(lines)
