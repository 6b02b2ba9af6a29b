"""Bulk simulation of seeded games of any registered game (``magnate simulate``): in-process on every core, or
through the live service (API + PostgreSQL + arq workers), with the same seeds giving the same results either
way. The game's module (in the registry ``MAGNATE_GAMES`` names, :mod:`services.gameplay.registry`) gives the
bots, the AI levels, the options and the outcome.

:func:`simulate` plays the games and returns a :class:`Simulation`; :func:`write` stores it as a JSON result
and an SVG chart side by side.
"""

from __future__ import annotations

import datetime
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Literal, TextIO

import msgspec

from .chart import svg
from .live import LiveMetrics, run, run_live
from .local import run_local
from .spec import DEFAULT, NO_AI, GameResult, SimSpec, arms, default_level, difficulties, first_game
from .summary import ArmSummary, summarise, text

Mode = Literal["inprocess", "service"]

__all__ = [
    "DEFAULT",
    "NO_AI",
    "ArmSummary",
    "GameResult",
    "Progress",
    "SimSpec",
    "Simulation",
    "arms",
    "default_level",
    "difficulties",
    "first_game",
    "simulate",
    "write",
]


class RunInfo(msgspec.Struct, frozen=True, kw_only=True):
    """How the games were played (not part of the results: it differs between runs)."""

    mode: str
    started_at: str
    seconds: float
    games_per_s: float
    processes: int | None = None
    url: str | None = None
    concurrency: int | None = None


class Simulation(msgspec.Struct, frozen=True, kw_only=True):
    specs: tuple[dict[str, object], ...]
    summary: tuple[ArmSummary, ...]
    games: tuple[GameResult, ...]
    run: RunInfo

    def text(self) -> str:
        return text(self.summary)


class Progress:
    """A progress bar on a terminal (one line, redrawn), else a line at every tenth of the way."""

    def __init__(self, total: int, stream: TextIO | None = None, enabled: bool = True) -> None:
        self.total = total
        self.done = 0
        self.stream = stream or sys.stderr
        self.enabled = enabled and total > 0
        self.tty = self.stream.isatty()
        self.began = time.monotonic()
        self._last_tenth = 0
        self._last_draw = 0.0

    def __call__(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if self.tty:
            if now - self._last_draw >= 0.1 or self.done == self.total:
                self._last_draw = now
                self.stream.write("\r" + self.line(now))
                if self.done == self.total:
                    self.stream.write("\n")
                self.stream.flush()
        elif self.done * 10 // self.total > self._last_tenth:
            self._last_tenth = self.done * 10 // self.total
            self.stream.write(self.line(now) + "\n")
            self.stream.flush()

    def line(self, now: float) -> str:
        elapsed = max(1e-9, now - self.began)
        rate = self.done / elapsed
        filled = 30 * self.done // self.total
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        return (f"[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} games  {rate:.1f} games/s  "
                f"{elapsed:.0f} s elapsed, ~{eta:.0f} s left")


def simulate(
    specs: Sequence[SimSpec],
    mode: Mode = "inprocess",
    *,
    processes: int = 1,
    url: str | None = None,
    concurrency: int = 50,
    progress: Progress | None = None,
    metrics: LiveMetrics | None = None,
) -> Simulation:
    """Play every game of every spec; ``url`` (service mode) is a running API in sandbox mode."""
    started = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    began = time.perf_counter()
    if mode == "inprocess":
        results = run_local(specs, processes, progress)
    else:
        if url is None:
            raise ValueError("service mode needs the API's URL")
        results = run(run_live(specs, url, concurrency, progress, metrics))
    seconds = time.perf_counter() - began
    info = RunInfo(mode=mode, started_at=started, seconds=round(seconds, 3),
                   games_per_s=round(len(results) / seconds, 2) if seconds > 0 else 0.0,
                   processes=processes if mode == "inprocess" else None,
                   url=url if mode == "service" else None,
                   concurrency=concurrency if mode == "service" else None)
    return Simulation(
        specs=tuple(s.describe() for s in specs),
        summary=tuple(summarise(specs, results)),
        games=tuple(results),
        run=info,
    )


def title(simulation: Simulation) -> str:
    games = len(simulation.games)
    spec = simulation.specs[0] if simulation.specs else {}
    return (f"magnate simulate: {games} games of {spec.get('game')} ({simulation.run.mode}), "
            f"seed {spec.get('seed')!r}")


def write(simulation: Simulation, json_path: Path) -> tuple[Path, Path]:
    """Write the JSON result to ``json_path`` and the chart next to it (same name, ``.svg``)."""
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_bytes(msgspec.json.format(msgspec.json.encode(simulation), indent=1) + b"\n")
    chart_path = json_path.with_suffix(".svg")
    chart_path.write_text(svg(title(simulation), simulation.summary), encoding="utf-8")
    return json_path, chart_path
