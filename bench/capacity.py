"""The open-loop capacity run: how many people at human pace one box serves within 50 ms at p99.

    python -m bench.capacity                                   # the full run (70 s a step, at most 15 min; bench-full)
    python -m bench.capacity --quick                           # tiny sizes: checks the harness, measures nothing
    python -m bench.capacity --push nchan                      # the pages' streams on nginx + nchan
    python -m bench.capacity --write docs/BENCHMARKS.md        # and put the section and docs/images/capacity.svg there

One API process and one worker (:class:`services.supervisor.Services`, sandbox mode) on a fresh database and a Redis
server of the run's own; C client processes (:mod:`bench.capacity_clients`) in which simulated people arrive at a
fixed rate (a Poisson process: open loop, whatever the service answers), sign in, create or join a game, hold its
game page for their visit and move after log-normal think times (:class:`bench.capacity_model.Model`: by default the
one-stream page of issue #28). ``--push python`` (the default): the page's stream is the API's; ``--push nchan``: the
run also starts nginx with nchan in front of the API and the pusher (``MAGNATE_PUSH=nchan``, as
:mod:`bench.streams_nchan` does), every request of the people goes through nginx (commands included, as a browser's
would), and each page opens the channel ``GET .../stream/address`` names. The arrival rate rises
step by step; each step runs a warm-up (the population settles, carrying on from the previous step's) and then a
measured window: moves/s and their round trip, system jobs/s and notices/s (from the database), the push delay of
every command to every other person's stream (its append's recorded time to the ``events`` message), the API's and
worker's RSS, KiB per open stream (of the API, or of nginx's workers), and the CPU time of each part. The run stops
after the first step whose p99 command latency or p99 push delay passes 50 ms (or at the last step).
:mod:`bench.capacity_page` writes the table and the capacity sentence, :mod:`bench.capacity_chart` the chart.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from multiprocessing.connection import Connection as Pipe
from multiprocessing.process import BaseProcess
from pathlib import Path

import asyncpg
import psutil  # type: ignore[import-untyped]

from services.supervisor import PushServer, Services, free_port

from .capacity_chart import chart
from .capacity_clients import client_main
from .capacity_model import PAGES, PUSHES, Model, Records
from .capacity_page import FIRST_WARM, SERVERS, CapacityResult, Step, step_table, update_page
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
    """The processes whose CPU time and memory the run reports: the peak RSS of the API, the worker and (``push``)
    nginx's workers; the CPU time of those, of PostgreSQL (all its processes), the run's Redis, the client
    processes, and nginx (master and workers) and the pusher."""

    def __init__(self, services: Services, redis_pid: int, clients: Sequence[BaseProcess],
                 push: PushServer | None = None) -> None:
        self.redis = psutil.Process(redis_pid)
        self.clients = [psutil.Process(c.pid) for c in clients]
        self.nginx = psutil.Process(push.nginx.process.pid) if push is not None else None
        self.pusher = psutil.Process(push.pusher.pid) if push is not None else None
        super().__init__(services)
        if self.nginx is not None:
            self.peak["nginx"] = 0.0

    def _processes(self, services: Services) -> dict[str, psutil.Process]:
        return {"API": psutil.Process(services.api.pid), "worker": psutil.Process(services.workers[0].pid)}

    def _nginx_workers(self) -> list[psutil.Process]:
        if self.nginx is None:
            return []
        with contextlib.suppress(psutil.Error):
            return list(self.nginx.children())
        return []

    def _cpu(self) -> dict[str, float]:
        """PostgreSQL's with that of its ended children (its backends come and go: the postmaster keeps their time)."""
        postgres = sum(self._times(p, children=True) for p in psutil.process_iter(["name"])
                       if (p.info["name"] or "").startswith("postgres"))
        out = {"API": self._times(self.named["API"]), "worker": self._times(self.named["worker"]),
               "PostgreSQL (all)": postgres, "Redis": self._times(self.redis),
               "clients": sum(self._times(c) for c in self.clients)}
        if self.nginx is not None and self.pusher is not None:
            out["nginx"] = self._times(self.nginx) + sum(self._times(w) for w in self._nginx_workers())
            out["pusher"] = self._times(self.pusher)
        return out

    def sample(self) -> dict[str, float]:
        """Also nginx's workers' RSS summed (``nginx``): what holds nchan's streams."""
        now = super().sample()
        if self.nginx is not None:
            rss = 0
            for worker in self._nginx_workers():
                with contextlib.suppress(psutil.Error):
                    rss += worker.memory_info().rss
            now["nginx"] = rss / 2**20
            self.peak["nginx"] = max(self.peak.get("nginx", 0.0), now["nginx"])
        return now

    def restart(self, peak: bool = False) -> None:
        super().restart(peak)
        if peak and self.nginx is not None:
            self.peak["nginx"] = 0.0

    @property
    def server(self) -> str:
        """The part holding the pages' streams."""
        return "API" if self.nginx is None else "nginx"


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
    def __init__(self, services: Services, redis_pid: int, pool: asyncpg.Pool, model: Model, clients: int,
                 push: PushServer | None = None) -> None:
        self.services, self.redis_pid, self.pool, self.model, self.count = services, redis_pid, pool, model, clients
        self.push = push
        self.site = push.url if push is not None else services.url
        """Where the people's pages send every request: the API, or nginx in front of it."""
        self.pipes: list[Pipe] = []
        self.processes: list[BaseProcess] = []
        self.open = 0

    def start(self, dsn: str) -> Parts:
        context = multiprocessing.get_context("spawn")
        for c in range(self.count):
            ours, theirs = context.Pipe()
            process = context.Process(target=client_main, daemon=True,
                                      args=(self.site, dsn, f"c{c}", self.model, 1000 + c, theirs))
            process.start()
            self.pipes.append(ours)
            self.processes.append(process)
        for pipe in self.pipes:
            if not pipe.poll(60):
                raise RuntimeError("a client process did not start")
            pipe.recv()
        return Parts(self.services, self.redis_pid, self.processes, self.push)

    async def records(self) -> list[Records]:
        out = []
        for pipe in self.pipes:
            pipe.send(("report", None))
            _, records = await asyncio.to_thread(pipe.recv)
            out.append(records)
        return out

    async def step(self, parts: Parts, rate: float, warm_s: float, window_s: float, idle: dict[str, float]) -> Step:
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
            worker_rss_mib=parts.peak["worker"], api_rss_idle_mib=idle["API"],
            stream_rss_mib=parts.peak[parts.server], stream_rss_idle_mib=idle[parts.server], cpu_s=cpu,
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
                  model: Model | None = None, clients: int = CLIENTS, all_steps: bool = False,
                  push_ports: tuple[int, int] | None = None) -> CapacityResult:
    """Step through ``rates`` (arrivals/s) until a step fails the 50 ms target (every step with ``all_steps``).
    ``push_ports``: nginx's two ports (the pages' and the publisher's) when ``model.push`` is nchan (free ones
    when None)."""
    raise_open_files()
    model = model or Model()
    result = CapacityResult(model, warm_s, window_s, clients, [], load_average())
    began = time.monotonic()
    env = {"MAGNATE_DEV_MAILBOX": "1"}  # the players' sign-in links
    if model.push == "nchan":
        env["MAGNATE_PUSH"] = "nchan"
    with own_redis() as own:
        async with fresh_database("magnate_bench_capacity") as dsn:
            services = Services.start(dsn, own.url, queue_name("magnate:bench-capacity"), 1, env=env)
            pool = await asyncpg.create_pool(dsn, min_size=1, max_size=2)
            try:
                with push_server(services, own.url, model.push, push_ports) as push:
                    run = Run(services, own.pid, pool, model, clients, push)
                    try:
                        parts = run.start(dsn)
                        idle = parts.sample()
                        for rate in rates:
                            say(f"capacity ({model.push}): {rate:g} arrivals/s")
                            warm = warm_s * (FIRST_WARM if not result.steps else 1.0)
                            step = await run.step(parts, rate, warm, window_s, idle)
                            result.steps.append(step)
                            say(f"  {step.people:.0f} people, {step.commands_s:.0f} moves/s, {step.jobs_s:.0f} "
                                f"jobs/s, command p50/p99 {step.cmd_p50_ms:.0f}/{step.cmd_p99_ms:.0f} ms, push p99 "
                                f"{step.push_p99_ms:.0f} ms, {step.failures} failed visits {step.errors[:1]}")
                            if not step.passed and not all_steps:
                                break
                    finally:
                        run.stop()
            finally:
                await pool.close()
                services.stop()
    result.seconds = time.monotonic() - began
    return result


@contextlib.contextmanager
def push_server(services: Services, redis_url: str, push: str, ports: tuple[int, int] | None,
                namespace: str = "magnate:push:") -> Iterator[PushServer | None]:
    """nginx with nchan in front of the API, and the pusher (``push`` nchan; nothing for python), as
    :mod:`bench.streams_nchan` starts them: nchan in Redis mode on ``redis_url`` (the run's own Redis), its keys
    under ``namespace``."""
    if push != "nchan":
        yield None
        return
    listen, publish = ports or (free_port(), free_port())
    with tempfile.TemporaryDirectory(prefix="magnate-bench-capacity-nginx-") as work:
        server = PushServer.start(services.env, [services.url.removeprefix("http://")], f"127.0.0.1:{listen}",
                                  f"127.0.0.1:{publish}", Path(work), redis_url, namespace)
        try:
            yield server
        finally:
            server.stop()


async def measure_plan(quick: bool = False) -> CapacityResult:
    """The run ``make bench-full`` makes (``quick``: the tiny one of ``python -m bench --quick --full``): the
    one-stream page on the Python stream."""
    if quick:
        return await measure(QUICK_RATES, QUICK_WARM_S, QUICK_WINDOW_S, QUICK)
    return await measure()


def write(page: Path, result: CapacityResult) -> None:
    """The section of the run's push mode into ``page`` (docs/BENCHMARKS.md) and its chart beside it
    (docs/images/capacity.svg, or capacity-nchan.svg)."""
    page.write_text(update_page(page.read_text(encoding="utf-8") if page.exists() else "", result), encoding="utf-8")
    write_chart(page, result)


def write_chart(page: Path, result: CapacityResult) -> None:
    svg = page.parent / result.chart_path
    svg.parent.mkdir(parents=True, exist_ok=True)
    svg.write_text(chart(result), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.capacity", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes: checks the harness, measures nothing")
    parser.add_argument("--rates", type=float, nargs="+", help="arrivals per second, step by step")
    parser.add_argument("--warm", type=float, help="seconds of each step before its window")
    parser.add_argument("--window", type=float, help="seconds measured in each step")
    parser.add_argument("--clients", type=int, default=CLIENTS, help="client processes")
    parser.add_argument("--push", choices=PUSHES, default="python",
                        help="whose stream the pages hold: the API's (python) or nginx + nchan's (nchan)")
    parser.add_argument("--page", choices=PAGES, default="one",
                        help="the one-stream page (one) or the page before issue #28 (old: python only)")
    parser.add_argument("--write", metavar="PATH", type=Path,
                        help="put the section into this page (docs/BENCHMARKS.md) and the chart beside it")
    args = parser.parse_args(argv)
    rates = args.rates or (QUICK_RATES if args.quick else RATES)
    warm = args.warm if args.warm is not None else QUICK_WARM_S if args.quick else WARM_S
    window = args.window if args.window is not None else QUICK_WINDOW_S if args.quick else WINDOW_S
    if args.page == "old" and args.push != "python":
        parser.error("the old page holds only the Python streams")
    model = replace(QUICK if args.quick else Model(), page=args.page, push=args.push)
    result = asyncio.run(measure(rates, warm, window, model, args.clients))
    print(f"The {args.page} page on {SERVERS[args.push]}:")
    print("\n".join(step_table(result.steps)))
    if args.write is not None:
        write(args.write, result)
        say(f"wrote {args.write} and {args.write.parent / result.chart_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
