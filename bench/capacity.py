"""The open-loop capacity run: how many people at human pace one box serves within 50 ms at p99.

    python -m bench.capacity                                   # the full run (up to 8 minutes; part of make bench-full)
    python -m bench.capacity --quick                           # tiny sizes: checks the harness, measures nothing
    python -m bench.capacity --write docs/BENCHMARKS.md        # and put the section and docs/images/capacity.svg there

One API process and one worker (:class:`services.supervisor.Services`, sandbox mode) on a fresh database and a Redis
server of the run's own; C client processes (:mod:`bench.capacity_clients`) in which simulated people arrive at a
fixed rate (a Poisson process: open loop, whatever the service answers), sign in, create or join a game, hold its
event stream for their visit and move after log-normal think times (:class:`bench.capacity_model.Model`; by default
each person is also the play page: its other two streams, and its reads after every update). The arrival rate rises
step by step; each step runs a warm-up (the population settles, carrying on from the previous step's) and then a
measured window: moves/s and their round trip, system jobs/s and notices/s (from the database), the push delay of
every command to every other person's stream, the API's and worker's RSS, KiB per open stream, and the CPU time of
each part. The run stops after the first step whose p99 command latency or p99 push delay passes 50 ms (or at the
last step). :mod:`bench.capacity_page` writes the table and the capacity sentence, :mod:`bench.capacity_chart` the
chart.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import sys
import time
from collections.abc import Sequence
from multiprocessing.connection import Connection as Pipe
from multiprocessing.process import BaseProcess
from pathlib import Path

import asyncpg
import psutil  # type: ignore[import-untyped]

from services.supervisor import Services

from .capacity_chart import chart
from .capacity_clients import client_main
from .capacity_model import Model, Records
from .capacity_page import CHART, FIRST_WARM, CapacityResult, Step, step_table, update_page
from .common import fresh_database, load_average, own_redis, percentile, queue_name
from .service import Sampler
from .stream_clients import raise_open_files

RATES = (1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0, 64.0)
"""Arrivals per second, step by step (each step offers a half or a third more: the capacity is read to that)."""
WARM_S = 40.0
"""Each step's time for its population to settle before its window: about one visit (the first step, which starts
from nobody, gets :data:`FIRST_WARM` times as much)."""
WINDOW_S = 30.0
CLIENTS = 2
QUICK = Model(think_median_s=0.3, think_sigma=0.5, moves=4)
QUICK_RATES = (1.0, 2.0)
QUICK_WARM_S, QUICK_WINDOW_S = 3.0, 4.0
SAMPLE_S = 0.5


class Parts(Sampler):
    """The processes whose CPU time and memory the run reports: the peak RSS of the API and the worker; the CPU time
    of those, of PostgreSQL (all its processes), the run's Redis and the client processes."""

    def __init__(self, services: Services, redis_pid: int, clients: Sequence[BaseProcess]) -> None:
        self.redis = psutil.Process(redis_pid)
        self.clients = [psutil.Process(c.pid) for c in clients]
        super().__init__(services)

    def _processes(self, services: Services) -> dict[str, psutil.Process]:
        return {"API": psutil.Process(services.api.pid), "worker": psutil.Process(services.workers[0].pid)}

    def _cpu(self) -> dict[str, float]:
        """PostgreSQL's with that of its ended children (its backends come and go: the postmaster keeps their time)."""
        postgres = sum(self._times(p, children=True) for p in psutil.process_iter(["name"])
                       if (p.info["name"] or "").startswith("postgres"))
        return {"API": self._times(self.named["API"]), "worker": self._times(self.named["worker"]),
                "PostgreSQL (all)": postgres, "Redis": self._times(self.redis),
                "clients": sum(self._times(c) for c in self.clients)}


async def _counts(pool: asyncpg.Pool, since: float, until: float) -> tuple[int, int, int]:
    """System jobs, notices and deliveries written between two ``time.time()`` moments."""
    row = await pool.fetchrow(
        "SELECT (SELECT count(*) FROM commands WHERE command_id LIKE 'system:%' AND recorded_at >= to_timestamp($1)"
        "        AND recorded_at < to_timestamp($2)) AS jobs,"
        " (SELECT count(*) FROM notices WHERE created_at >= to_timestamp($1) AND created_at < to_timestamp($2))"
        "   AS notices,"
        " (SELECT count(*) FROM deliveries WHERE created_at >= to_timestamp($1) AND created_at < to_timestamp($2))"
        "   AS deliveries", since, until)
    assert row is not None
    return int(row["jobs"]), int(row["notices"]), int(row["deliveries"])


def _streams(opened: Sequence[tuple[float, int]], since: float, until: float, before: int) -> tuple[float, int, int]:
    """Mean and peak of the streams open over [since, until], and how many are open after ``opened``; ``before``:
    those open before the first of ``opened`` (a stream opening is +1, closing -1)."""
    count, area, at, peak, later = before, 0.0, since, 0, 0
    for moment, delta in sorted(opened):
        if moment > until:
            later += delta
            continue
        if moment > since:
            peak = max(peak, count)
            area += count * (moment - at)
            at = moment
        count += delta
    peak = max(peak, count)
    area += count * (until - at)
    return area / (until - since), peak, count + later


class Run:
    def __init__(self, services: Services, redis_pid: int, pool: asyncpg.Pool, model: Model, clients: int) -> None:
        self.services, self.redis_pid, self.pool, self.model, self.count = services, redis_pid, pool, model, clients
        self.pipes: list[Pipe] = []
        self.processes: list[BaseProcess] = []
        self.open = 0

    def start(self, dsn: str) -> Parts:
        context = multiprocessing.get_context("spawn")
        for c in range(self.count):
            ours, theirs = context.Pipe()
            process = context.Process(target=client_main, daemon=True,
                                      args=(self.services.url, dsn, f"c{c}", self.model, 1000 + c, theirs))
            process.start()
            self.pipes.append(ours)
            self.processes.append(process)
        for pipe in self.pipes:
            if not pipe.poll(60):
                raise RuntimeError("a client process did not start")
            pipe.recv()
        return Parts(self.services, self.redis_pid, self.processes)

    async def records(self) -> list[Records]:
        out = []
        for pipe in self.pipes:
            pipe.send(("report", None))
            _, records = await asyncio.to_thread(pipe.recv)
            out.append(records)
        return out

    async def step(self, parts: Parts, rate: float, warm_s: float, window_s: float, rss_idle: float) -> Step:
        for pipe in self.pipes:
            pipe.send(("rate", rate / self.count))
        await asyncio.sleep(warm_s)
        warm = await self.records()
        self.open += sum(delta for r in warm for _, delta in r.opened)
        since = time.time()
        parts.restart(peak=True)
        while time.time() < since + window_s:
            await asyncio.sleep(min(SAMPLE_S, since + window_s - time.time()))
            parts.sample()
        until, cpu = time.time(), parts.cpu()
        seen = await self.records()
        opened = [x for r in seen for x in r.opened]
        people, people_peak, self.open = _streams(opened, since, until, self.open)
        jobs, notices, deliveries = await _counts(self.pool, since, until)
        commands = [lat for r in seen for t, lat in r.commands if since <= t <= until]
        pushes = [d for r in seen for t, d in r.pushes if since <= t <= until]
        return Step(
            arrivals_s=rate, window_s=until - since, people_s=sum(r.people for r in seen) / (until - since),
            people=people, people_peak=people_peak, streams_per_person=self.model.streams_per_person,
            commands=len(commands), reads=sum(r.reads for r in seen), jobs=jobs, notices=notices,
            deliveries=deliveries, cmd_p50_ms=percentile(commands, 0.5) * 1000,
            cmd_p99_ms=percentile(commands, 0.99) * 1000, push_p50_ms=percentile(pushes, 0.5) * 1000,
            push_p99_ms=percentile(pushes, 0.99) * 1000, pushes=len(pushes), api_rss_mib=parts.peak["API"],
            worker_rss_mib=parts.peak["worker"], api_rss_idle_mib=rss_idle, cpu_s=cpu,
            lag_p99_ms=percentile([x for r in seen for x in r.lags], 0.99) * 1000,
            failures=sum(r.failures for r in warm + seen), conflicts=sum(r.conflicts for r in seen),
            sign_ins=sum(r.sign_ins for r in seen), load=load_average(),
            errors=[e for r in warm + seen for e in r.errors][:5],
        )

    def stop(self) -> None:
        for pipe in self.pipes:
            with contextlib.suppress(OSError):
                pipe.send(("stop", None))
        for pipe in self.pipes:
            with contextlib.suppress(OSError, EOFError):
                if pipe.poll(30):
                    pipe.recv()
        for process in self.processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()


def say(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


async def measure(rates: Sequence[float] = RATES, warm_s: float = WARM_S, window_s: float = WINDOW_S,
                  model: Model | None = None, clients: int = CLIENTS, all_steps: bool = False) -> CapacityResult:
    """Step through ``rates`` (arrivals/s) until a step fails the 50 ms target (every step with ``all_steps``)."""
    raise_open_files()
    model = model or Model()
    result = CapacityResult(model, warm_s, window_s, clients, [], load_average())
    began = time.monotonic()
    with own_redis() as own:
        async with fresh_database("magnate_bench_capacity") as dsn:
            services = Services.start(dsn, own.url, queue_name("magnate:bench-capacity"), 1,
                                      env={"MAGNATE_DEV_MAILBOX": "1"})  # the players' sign-in links
            pool = await asyncpg.create_pool(dsn, min_size=1, max_size=2)
            run = Run(services, own.pid, pool, model, clients)
            try:
                parts = run.start(dsn)
                rss_idle = parts.sample()["API"]
                for rate in rates:
                    say(f"capacity: {rate:g} arrivals/s")
                    warm = warm_s * (FIRST_WARM if not result.steps else 1.0)
                    step = await run.step(parts, rate, warm, window_s, rss_idle)
                    result.steps.append(step)
                    say(f"  {step.people:.0f} people, {step.commands_s:.0f} moves/s, {step.jobs_s:.0f} jobs/s, "
                        f"command p50/p99 {step.cmd_p50_ms:.0f}/{step.cmd_p99_ms:.0f} ms, push p99 "
                        f"{step.push_p99_ms:.0f} ms, {step.failures} failed visits {step.errors[:1]}")
                    if not step.passed and not all_steps:
                        break
            finally:
                run.stop()
                await pool.close()
                services.stop()
    result.seconds = time.monotonic() - began
    return result


async def measure_plan(quick: bool = False) -> CapacityResult:
    """The run ``make bench-full`` makes (``quick``: the tiny one of ``python -m bench --quick --full``)."""
    if quick:
        return await measure(QUICK_RATES, QUICK_WARM_S, QUICK_WINDOW_S, QUICK)
    return await measure()


def write(page: Path, result: CapacityResult) -> None:
    """The section into ``page`` (docs/BENCHMARKS.md) and the chart beside it (docs/images/capacity.svg)."""
    page.write_text(update_page(page.read_text(encoding="utf-8") if page.exists() else "", result), encoding="utf-8")
    write_chart(page, result)


def write_chart(page: Path, result: CapacityResult) -> None:
    svg = page.parent / CHART
    svg.parent.mkdir(parents=True, exist_ok=True)
    svg.write_text(chart(result), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.capacity", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes: checks the harness, measures nothing")
    parser.add_argument("--rates", type=float, nargs="+", help="arrivals per second, step by step")
    parser.add_argument("--warm", type=float, help="seconds of each step before its window")
    parser.add_argument("--window", type=float, help="seconds measured in each step")
    parser.add_argument("--clients", type=int, default=CLIENTS, help="client processes")
    parser.add_argument("--write", metavar="PATH", type=Path,
                        help="put the section into this page (docs/BENCHMARKS.md) and the chart beside it")
    args = parser.parse_args(argv)
    rates = args.rates or (QUICK_RATES if args.quick else RATES)
    warm = args.warm if args.warm is not None else QUICK_WARM_S if args.quick else WARM_S
    window = args.window if args.window is not None else QUICK_WINDOW_S if args.quick else WINDOW_S
    result = asyncio.run(measure(rates, warm, window, QUICK if args.quick else Model(), args.clients))
    print("\n".join(step_table(result.steps)))
    if args.write is not None:
        write(args.write, result)
        say(f"wrote {args.write} and {args.write.parent / CHART}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
