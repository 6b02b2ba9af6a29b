"""System-job throughput of the workers alone: K real system jobs due at once, drained by W worker processes.

    python -m bench.drain --jobs 1000 --workers 1

The arq baseline (:mod:`bench.arq_noop`) measures what arq can do with no-op jobs all due at one instant; this
is the same measurement with the service's real jobs, so the two give the ratio the issue asks for without the
API, the bot clients and the closed loop of a played game in the way. In a fresh database and queue:

1. K solo games of a registered game (``--game``, default the first registered: its first bot against its AI at
   its middle level; Magnate: the greedy bot against ``generalised_ai``) are created and the bot makes its first
   move in each, through the gameplay service in this process (the code path the API runs), with no worker
   running: each game is left with a system job due (an AI turn, a roll of the dice), queued in Redis;
2. W worker processes (``magnate worker``, production settings) start and drain the queue. Each job does what
   a live one does: load the game (it is not in the worker's cache: one snapshot read and one read of its
   events), decide (the AI's turn is played by the rules), append in one statement, announce and enqueue the
   next job if the game is still the system's to move;
3. the rate is the K jobs over the span between the first and the last of their appends (as recorded by the
   store), which leaves out the workers' start-up; the CPU time of the workers and of PostgreSQL during the
   drain is measured too. Jobs that a finished job made due (the AI's turn followed by the dice, say) are run
   as well but not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import asyncpg
import psutil  # type: ignore[import-untyped]
import redis.asyncio

from domain.games import GAMES
from infra.config import Settings
from services.gameplay.bootstrap import build
from services.simulation import SimSpec
from services.supervisor import spawn, stop

from .common import REDIS_URL, drop_queue, fresh_database, median, queue_name
from .service import drop_jobs, solo


@dataclass(frozen=True)
class DrainResult:
    jobs: int
    workers: int
    cold: tuple[float, ...]
    """jobs/s of each repetition, with workers that had never seen the games."""
    warm: tuple[float, ...]
    """jobs/s of each repetition, with workers that ran the games' previous jobs (the steady state)."""
    worker_cpu_ms_per_job: float
    """Warm drains."""
    postgres_cpu_ms_per_job: float

    @property
    def jobs_s(self) -> float:
        return median(list(self.warm))

    @property
    def cold_jobs_s(self) -> float:
        return median(list(self.cold))


class _Games:
    """K solo games of ``spec``, moved on by its bot through a gameplay service in this process whose queue is a
    holding queue: the system job each game ends up waiting for is queued there, not where the workers look."""

    def __init__(self, settings: Settings, jobs: int, spec: SimSpec) -> None:
        self.settings = settings
        self.jobs = jobs
        self.spec = spec
        self.game_ids: list[str] = []

    async def to_a_due_job(self, round_: int) -> list[tuple[str, str]]:
        """Move every game (creating them in round 0) until a system job is due; (game id, command id) of the
        jobs."""
        runtime = await build(self.settings)
        gameplay = runtime.gameplay
        spec = self.spec
        game = gameplay.module(spec.game)
        options = spec.options()
        ids: list[tuple[str, str]] = []

        async def one(index: int) -> None:
            if round_ == 0:
                created = await gameplay.create_game(spec.game, options, seed=f"bench-drain:{index}".encode())
                self.game_ids.append(created.game_id)
                game_id = created.game_id
            else:
                game_id = self.game_ids[index]
            bot = game.bots[spec.bot](index * 100 + round_)
            moved = False
            for _ in range(100):
                head = await gameplay.queries.head(game_id)
                if head.status != "running":
                    return
                if head.system_job is not None and (moved or round_ == 0):  # queued in the holding queue
                    ids.append((game_id, f"system:{head.version}:{head.system_job}"))
                    return
                loaded = await gameplay.load(game_id)
                due = game.pending(loaded.state)
                if due.system is not None:  # the previous drain's follow-up, still running: wait for it
                    await asyncio.sleep(0.05)
                    continue
                seat = due.seats[0]
                await gameplay.submit(game_id, int(seat), f"drain-{index}-{loaded.version}", bot(loaded.state, seat))
                moved = True
            head = await gameplay.queries.head(game_id)
            raise RuntimeError(f"game {game_id}: no system job became due ({head})")

        try:
            count = self.jobs if round_ == 0 else len(self.game_ids)
            for start in range(0, count, 50):
                await asyncio.gather(*(one(i) for i in range(start, min(count, start + 50))))
        finally:
            await runtime.close()
        return ids


def _postgres_cpu() -> dict[int, float]:
    """CPU seconds of every PostgreSQL process now (backends come and go with connections)."""
    found: dict[int, float] = {}
    for p in psutil.process_iter(["name"]):
        if (p.info["name"] or "").startswith("postgres"):
            try:
                t = p.cpu_times()
                found[p.pid] = t.user + t.system
            except psutil.Error:
                pass
    return found


def _cpu(processes: Sequence[psutil.Process]) -> float:
    total = 0.0
    for p in processes:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.Error:
            pass
    return total


async def _drained(dsn: str, ids: list[tuple[str, str]], timeout_s: float) -> tuple[datetime, datetime]:
    """Wait until every job in ``ids`` has appended; the first and last of their recorded times."""
    conn = await asyncpg.connect(dsn)
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            row = await conn.fetchrow(
                "SELECT count(*) AS n, min(recorded_at) AS first, max(recorded_at) AS last FROM commands"
                " JOIN unnest($1::text[], $2::text[]) AS j (game_id, command_id) USING (game_id, command_id)",
                [i[0] for i in ids], [i[1] for i in ids])
            assert row is not None
            if row["n"] >= len(ids):
                return row["first"], row["last"]
            if time.monotonic() > deadline:
                raise RuntimeError(f"only {row['n']} of {len(ids)} jobs ran within {timeout_s:.0f} s")
            await asyncio.sleep(0.05)
    finally:
        await conn.close()


async def drain(jobs: int, workers: int, rounds: int = 2, redis_url: str = REDIS_URL, spec: SimSpec | None = None
                ) -> list[tuple[float, float, float]]:
    """Rounds of K jobs (of ``spec``'s games, default :func:`.service.solo`) released at once to W running workers
    (the first round cold, the others warm): (jobs/s, worker CPU ms per job, PostgreSQL CPU ms per job) of each."""
    results: list[tuple[float, float, float]] = []
    async with fresh_database() as dsn:
        name, hold = queue_name(), queue_name()
        games = _Games(Settings(database_url=dsn, redis_url=redis_url, queue_name=hold), jobs, spec or solo())
        env = {**os.environ, "DATABASE_URL": dsn, "REDIS_URL": redis_url, "MAGNATE_QUEUE_NAME": name}
        spawned = [spawn("worker", env) for _ in range(workers)]
        procs = [psutil.Process(p.pid) for p in spawned]
        client = redis.asyncio.Redis.from_url(redis_url)
        try:
            for round_ in range(rounds):
                ids = await games.to_a_due_job(round_)
                await asyncio.sleep(0.5)  # the workers idle (and, the first time, have started)
                worker_before, pg_before = _cpu(procs), _postgres_cpu()
                await client.rename(hold, name)  # every job due at once where the workers look
                first, last = await _drained(dsn, ids, timeout_s=120 + len(ids) / 20)
                worker_cpu = _cpu(procs) - worker_before
                pg_cpu = sum(cpu - pg_before.get(pid, 0.0) for pid, cpu in _postgres_cpu().items())
                span = (last - first).total_seconds()
                results.append(((len(ids) - 1) / span if span > 0 else 0.0, worker_cpu * 1000 / len(ids),
                                pg_cpu * 1000 / len(ids)))
        finally:
            stop(spawned, 20.0)
            await client.aclose()
            await drop_jobs(dsn, redis_url, name)
            await drop_queue(redis_url, hold)
    return results


async def measure(jobs: int, workers: int, repeats: int = 2, redis_url: str = REDIS_URL,
                  spec: SimSpec | None = None) -> DrainResult:
    """``repeats`` databases, each drained once cold and twice warm."""
    cold: list[float] = []
    warm: list[tuple[float, float, float]] = []
    for _ in range(repeats):
        first, *rest = await drain(jobs, workers, rounds=3, redis_url=redis_url, spec=spec)
        cold.append(first[0])
        warm.extend(rest)
    return DrainResult(jobs, workers, tuple(cold), tuple(w[0] for w in warm), median([w[1] for w in warm]),
                       median([w[2] for w in warm]))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.drain", description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--game", choices=list(GAMES), help="the game played (default: the first registered)")
    args = parser.parse_args(argv)
    r = asyncio.run(measure(args.jobs, args.workers, args.repeats, spec=solo(args.game)))
    print(f"{r.jobs} jobs, {r.workers} worker(s): warm {r.jobs_s:.0f} jobs/s (each: "
          f"{' / '.join(f'{x:.0f}' for x in r.warm)}), cold {r.cold_jobs_s:.0f}; worker CPU "
          f"{r.worker_cpu_ms_per_job:.2f} ms/job, PostgreSQL CPU {r.postgres_cpu_ms_per_job:.2f} ms/job")
    return 0


if __name__ == "__main__":
    sys.exit(main())
