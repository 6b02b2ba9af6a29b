"""The live service under load: K concurrent AI solo games, each driven by a bot client over HTTP.

    python -m bench.service --games 100 --workers 1          # K=100 games to the crash with one worker
    python -m bench.service --games 1000 --workers 2 --window 30   # K=1000 for 30 s after they all started

Each case starts, against a fresh database and its own Redis queue, one API process
(``magnate serve``) and W worker processes (``magnate worker``), with their production settings, then
plays K solo games of a registered game (``--game``, default the first registered: its first bot against its
AI at its middle level, 2 seats; Magnate: the greedy bot against ``generalised_ai``) with
:func:`services.simulation.live.drive`: each game is created over HTTP (with a seed: the server runs in
sandbox mode), followed over Server-Sent Events, and the bot submits every human command over HTTP; the
workers do the dice, the market and the AI's turns. The bot clients run in this process.

Measured:

* commands/s: bot commands answered 200 per second; system jobs/s: system commands appended per second
  (seen by the clients in the log); both over the whole run (crash runs) or over the window after the last
  game was created (window runs);
* command latency: the HTTP round trip of a command as the client sees it (p50, p99);
* job latency: from the recorded time of the append that made a job due to the recorded time of the job's own
  append (both stamped by the server when the append starts), i.e. enqueue + wait + pick-up + load + decide;
* peak resident memory of each process (sampled every 0.25 s) and the CPU time each used during the run,
  which shows where the two cores went (PostgreSQL and Redis are counted over all their processes,
  other clients' included).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import asyncpg
import psutil  # type: ignore[import-untyped]
import redis.asyncio
from arq.constants import in_progress_key_prefix, job_key_prefix, retry_key_prefix

from domain.games import GAMES
from services.simulation import SimSpec
from services.simulation.http import Connection, HttpError
from services.simulation.live import Created, LiveError, LiveMetrics, create, drive, run
from services.supervisor import Services

from . import round_trips
from .common import REDIS_URL, drop_queue, fresh_database, median, percentile, queue_name

SEED = "bench-service"


def solo(game: str | None = None) -> SimSpec:
    """The games the service plays: 2 seats, the game's first bot against its AI at its middle level (Magnate:
    greedy against generalised_ai), seeded from :data:`SEED`."""
    return SimSpec(games=0, seats=2, seed=SEED, game=game or "")

CREATE_AT_ONCE = 25
"""Games being created at the same moment."""


@dataclass
class ServiceResult:
    games: int
    workers: int
    window_s: float | None
    """None: every game played to the crash; else measured over this window."""
    think_s: float
    spec: SimSpec
    """What the K games were (each game ``i`` of it)."""
    seconds: float
    finished: int
    progressed: int
    """Games that appended at least one bot command and one system job while they were played."""
    errors: list[str]
    commands: int
    jobs: int
    cmd_p50_ms: float
    cmd_p99_ms: float
    job_p50_ms: float
    job_p99_ms: float
    create_s: float
    """Time to create every game (before any is played)."""
    min_version: int
    median_version: float
    peak_rss_mib: dict[str, float] = field(default_factory=dict)
    cpu_s: dict[str, float] = field(default_factory=dict)
    pg_transactions: int = 0
    """Transactions of the run's own database, creation of the games included (:mod:`.round_trips`)."""
    redis_calls: dict[str, int] = field(default_factory=dict)
    """Redis commands run during the whole case, by command (all clients of the server: :mod:`.round_trips`)."""

    @property
    def commands_s(self) -> float:
        return self.commands / self.seconds if self.seconds else 0.0

    @property
    def jobs_s(self) -> float:
        return self.jobs / self.seconds if self.seconds else 0.0

    @property
    def games_s(self) -> float:
        return self.finished / self.seconds if self.seconds else 0.0


class Sampler:
    """Peak RSS of the API, the workers and this process; CPU time of those plus PostgreSQL and Redis. (A subclass
    names other processes in :meth:`_processes` and counts its CPU time in :meth:`_cpu`.)"""

    def __init__(self, services: Services) -> None:
        self.named: dict[str, psutil.Process] = self._processes(services)
        self.peak: dict[str, float] = dict.fromkeys(self.named, 0.0)
        self._cpu0 = self._cpu()

    def _processes(self, services: Services) -> dict[str, psutil.Process]:
        """The processes whose peak RSS is sampled (and whose CPU time :meth:`_cpu` counts), by name."""
        named = {"API": psutil.Process(services.api.pid)}
        for i, worker in enumerate(services.workers, 1):
            named[f"worker {i}"] = psutil.Process(worker.pid)
        named["bot clients"] = psutil.Process()
        return named

    @staticmethod
    def _times(process: psutil.Process, children: bool = False) -> float:
        """CPU seconds (user and system) the process used, and with ``children`` those of its children that ended."""
        with contextlib.suppress(psutil.Error):
            t = process.cpu_times()
            used = t.user + t.system
            if children:
                used = used + t.children_user + t.children_system
            return float(used)
        return 0.0

    def _cpu(self) -> dict[str, float]:
        out = {name: self._times(p) for name, p in self.named.items()}
        groups = {"PostgreSQL (all)": 0.0, "Redis (all)": 0.0}
        for p in psutil.process_iter(["name"]):
            name = p.info["name"] or ""
            if name.startswith("postgres"):
                groups["PostgreSQL (all)"] += self._times(p)
            elif name.startswith("redis-server"):
                groups["Redis (all)"] += self._times(p)
        return out | groups

    def restart(self, peak: bool = False) -> None:
        """Count CPU time from now on (and with ``peak``, the peak RSS too: a window's own peak)."""
        self._cpu0 = self._cpu()
        if peak:
            self.peak = dict.fromkeys(self.named, 0.0)

    def sample(self) -> dict[str, float]:
        """Each process's RSS now (MiB; 0 where it cannot be read), also kept in :attr:`peak`."""
        now = dict.fromkeys(self.named, 0.0)
        for name, process in self.named.items():
            with contextlib.suppress(psutil.Error):
                now[name] = process.memory_info().rss / 2**20
            self.peak[name] = max(self.peak[name], now[name])
        return now

    def cpu(self) -> dict[str, float]:
        now = self._cpu()
        return {name: now[name] - self._cpu0.get(name, 0.0) for name in now}

    async def run(self, every_s: float = 0.25) -> None:
        while True:
            self.sample()
            await asyncio.sleep(every_s)


async def create_games(conns: Sequence[Connection], spec: SimSpec) -> list[Created]:
    """Create the K games first (``CREATE_AT_ONCE`` requests at a time, game ``i`` through ``conns[i]``), so that
    playing starts for all at once."""
    gate = asyncio.Semaphore(CREATE_AT_ONCE)

    async def one(index: int) -> Created:
        async with gate:
            return await create(conns[index], spec, index)

    return list(await asyncio.gather(*(one(i) for i in range(len(conns)))))


async def play(services: Services, games: int, window_s: float | None, think_s: float = 0.0,
               spec: SimSpec | None = None) -> tuple[ServiceResult, list[str]]:
    """Create K games, then play them all at once: to the crash, or for ``window_s``. Also returns their ids.
    Each game's bot has its own HTTP client (:class:`Connection`), which creates the game and plays it."""
    conns = [Connection(services.url) for _ in range(games)]
    try:
        return await _play(conns, services, games, window_s, think_s, spec or solo())
    finally:
        await asyncio.gather(*(conn.close() for conn in conns))


async def _play(conns: Sequence[Connection], services: Services, games: int, window_s: float | None,
                think_s: float, spec: SimSpec) -> tuple[ServiceResult, list[str]]:
    metrics = LiveMetrics()
    sampler = Sampler(services)
    sampling = asyncio.create_task(sampler.run())
    began = time.monotonic()
    created = await create_games(conns, spec)
    created_at = time.monotonic()
    sampler.restart()

    async def one(index: int) -> None:
        try:
            await drive(conns[index], spec, 0, index, metrics, key=index, existing=created[index], think_s=think_s)
        except (LiveError, HttpError) as exc:
            metrics.errors.append(f"game {index}: {exc!r}")

    tasks = [asyncio.create_task(one(i)) for i in range(games)]
    window_start = created_at
    if window_s is None:
        await asyncio.gather(*tasks)
    else:
        await asyncio.sleep(window_s)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    ended = time.monotonic()
    sampling.cancel()
    sampler.sample()
    commands = [lat for t, lat in metrics.commands if window_start <= t <= ended]
    jobs = [lat for t, lat in metrics.jobs if window_start <= t <= ended]
    progressed = sum(min(metrics.progress.get(i, (0, 0))) > 0 for i in range(games))
    versions = [metrics.versions.get(i, 0) for i in range(games)]
    result = ServiceResult(
        games=games, workers=len(services.workers), window_s=window_s, think_s=think_s, spec=spec,
        seconds=ended - window_start,
        finished=metrics.finished, progressed=progressed, errors=list(metrics.errors),
        commands=len(commands), jobs=len(jobs),
        cmd_p50_ms=median(commands) * 1000, cmd_p99_ms=percentile(commands, 0.99) * 1000,
        job_p50_ms=median(jobs) * 1000, job_p99_ms=percentile(jobs, 0.99) * 1000,
        create_s=created_at - began, min_version=min(versions), median_version=median(versions),
        peak_rss_mib=dict(sampler.peak), cpu_s=sampler.cpu(),
    )
    return result, list(metrics.game_ids.values())


async def run_case(games: int, workers: int, window_s: float | None, think_s: float = 0.0,
                   redis_url: str = REDIS_URL, spec: SimSpec | None = None) -> ServiceResult:
    """One case (of ``spec``'s games, default :func:`solo`) in a fresh database with a fresh queue; the services
    are stopped afterwards."""
    async with fresh_database() as dsn:
        name = queue_name()
        # Started and stopped from this (the main) thread: a child dies with the thread that started it.
        redis_before = await round_trips.redis_commands(redis_url)
        services = Services.start(dsn, redis_url, name, workers)
        try:
            result, _ = await play(services, games, window_s, think_s, spec)
        finally:
            services.stop()
            await drop_jobs(dsn, redis_url, name)
        result.redis_calls = round_trips.delta(await round_trips.redis_commands(redis_url), redis_before)
        result.pg_transactions = await round_trips.database_transactions(dsn)
    return result


async def drop_jobs(dsn: str, redis_url: str, name: str) -> None:
    """The queue, and the arq keys of the jobs still due when a window run stopped (arq would keep them a
    day): exactly the ids ``{game_id}:{version}:{kind}`` the read model says are due."""
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch("SELECT game_id, version, system_job FROM games WHERE system_job IS NOT NULL")
    finally:
        await conn.close()
    client = redis.asyncio.Redis.from_url(redis_url)
    try:
        keys = [f"{prefix}{r['game_id']}:{r['version']}:{r['system_job']}" for r in rows
                for prefix in (job_key_prefix, in_progress_key_prefix, retry_key_prefix)]
        for start in range(0, len(keys), 500):
            await client.delete(*keys[start:start + 500])
    finally:
        await client.aclose()
    await drop_queue(redis_url, name)


def describe(r: ServiceResult) -> str:
    scope = "to the crash" if r.window_s is None else f"{r.window_s:.0f} s window"
    if r.think_s:
        scope += f", {r.think_s:g} s think time"
    return (f"{r.spec.game} K={r.games} W={r.workers} ({scope}): {r.seconds:.1f} s, finished {r.finished}, progressed "
            f"{r.progressed}, errors {len(r.errors)}; {r.commands_s:.0f} commands/s, {r.jobs_s:.0f} jobs/s; "
            f"command p50 {r.cmd_p50_ms:.1f} ms p99 {r.cmd_p99_ms:.1f} ms; job p50 {r.job_p50_ms:.1f} ms p99 "
            f"{r.job_p99_ms:.1f} ms; created in {r.create_s:.1f} s; peak RSS "
            + ", ".join(f"{k} {v:.0f} MiB" for k, v in r.peak_rss_mib.items())
            + "; CPU s " + ", ".join(f"{k} {v:.1f}" for k, v in r.cpu_s.items())
            + f"; per command or job: PostgreSQL transactions {r.pg_transactions / max(1, r.commands + r.jobs):.2f}, "
            + "Redis " + round_trips.per_unit(r.redis_calls, r.commands + r.jobs))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.service", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--window", type=float, default=None, help="seconds to measure after every game started "
                                                                   "(default: play every game to the crash)")
    parser.add_argument("--think", type=float, default=0.0, help="seconds each bot waits before a command")
    parser.add_argument("--game", choices=list(GAMES), help="the game played (default: the first registered)")
    args = parser.parse_args(argv)
    result = run(run_case(args.games, args.workers, args.window, args.think, spec=solo(args.game)))
    print(describe(result))
    for error in result.errors[:5]:
        print("error:", error)
    return 0 if not result.errors else 1


if __name__ == "__main__":
    sys.exit(main())
