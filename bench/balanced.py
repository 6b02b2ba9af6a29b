"""Two API processes behind HAProxy against one: does a second process buy anything on this box?

    python -m bench.balanced --games 100 --workers 1                   # the three cases, printed
    python -m bench.balanced --games 100 --write docs/SCALING.md       # and written into docs/SCALING.md

Every case plays the same K AI solo games to the crash as :mod:`bench.service` (a fresh database, a queue of its
own, W workers, the bot clients in this process, every game followed over Server-Sent Events), three ways:

* **direct**: the clients talk to one API process (the baseline of ``make bench``);
* **HAProxy → 1 API**: the same, through HAProxy (what the proxy itself costs);
* **HAProxy → 2 APIs**: two API processes behind HAProxy, a game's requests always on the same process: HAProxy
  hashes the first three segments of the path (``/api/games/<id>``; ``balance uri path-only depth 3`` with
  consistent hashing), so the process that holds a game's folded state (``services/gameplay/cache.py``) gets its
  commands and streams; every other route goes wherever its own path hashes.

HAProxy is the Debian package (``apt-get install haproxy``; ``HAPROXY`` names another binary); the configuration
is ``infra/haproxy/magnate.cfg`` with the ports filled in. Reported per case: games/s, commands/s, jobs/s, command
latency p50/p99 as the clients see it, job latency p50/p99, and the CPU time of each process (the API processes,
HAProxy, the workers, PostgreSQL, Redis and the clients), which shows where the two cores went.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import psutil  # type: ignore[import-untyped]

from services.simulation.live import run
from services.supervisor import Services, free_port, spawn, stop, wait_healthy

from .common import REDIS_URL, busy_warning, fresh_database, load_average, queue_name
from .service import ServiceResult, drop_jobs, play, solo

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "infra" / "haproxy" / "magnate.cfg"
BEGIN, END = "<!-- bench-balanced:begin -->", "<!-- bench-balanced:end -->"
CASES = (("direct", 1, False), ("HAProxy → 1 API", 1, True), ("HAProxy → 2 APIs", 2, True))
"""Each case: its name, API processes, through HAProxy."""


def haproxy_binary() -> str:
    found = os.environ.get("HAPROXY") or shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not Path(found).exists():
        raise SystemExit("HAProxy is not installed: `make haproxy` (Debian's package), or set HAPROXY to its path")
    return found


def render(front: int, backends: Sequence[int]) -> str:
    """``infra/haproxy/magnate.cfg`` listening on ``front`` with one server per API port."""
    servers = "\n".join(f"    server api{i} 127.0.0.1:{port} check" for i, port in enumerate(backends, 1))
    text = CONFIG.read_text(encoding="utf-8").replace("127.0.0.1:8000", f"127.0.0.1:{front}")
    descriptors = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    text = re.sub(r"(?m)^    maxconn \d+$", f"    maxconn {max(100, (descriptors - 200) // 2)}", text)
    return re.sub(r"(?m)^    server api\d+ .*\n(?:    server api\d+ .*\n)*", servers + "\n", text)


@dataclass
class Balanced:
    """The services of one case: ``services`` (its API and workers), more API processes, HAProxy in front."""

    services: Services
    extra_apis: list[subprocess.Popen[bytes]]
    proxy: subprocess.Popen[bytes] | None
    url: str
    """Where clients go: HAProxy's address, or the one API's."""
    api_urls: list[str]
    """Each API process's own address (the first is ``services``')."""

    @property
    def processes(self) -> list[subprocess.Popen[bytes]]:
        return [*self.extra_apis, *([self.proxy] if self.proxy else [])]

    def stop(self) -> None:
        stop(self.processes)
        self.services.stop()


def start(dsn: str, redis_url: str, queue: str, apis: int, proxied: bool, workers: int, work: Path) -> Balanced:
    """``apis`` API processes and ``workers`` workers on one database and queue; with ``proxied``, HAProxy in front
    (``url`` is then HAProxy's). Stop it with :meth:`Balanced.stop`."""
    services = Services.start(dsn, redis_url, queue, workers)
    extra: list[subprocess.Popen[bytes]] = []
    proxy = None
    try:
        ports = [int(services.url.rsplit(":", 1)[1])]
        for _ in range(apis - 1):
            port = free_port()
            extra.append(spawn("serve", {**services.env, "PORT": str(port)}))
            wait_healthy(f"http://127.0.0.1:{port}/health", extra)
            ports.append(port)
        url = services.url
        if proxied:
            front = free_port()
            config = work / "haproxy.cfg"
            config.write_text(render(front, ports), encoding="utf-8")
            proxy = subprocess.Popen([haproxy_binary(), "-db", "-f", str(config)], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            url = f"http://127.0.0.1:{front}"
            wait_healthy(f"{url}/health", [proxy])
    except BaseException:
        stop([*extra, *([proxy] if proxy else [])])
        services.stop()
        raise
    return Balanced(services, extra, proxy, url, [f"http://127.0.0.1:{port}" for port in ports])


@dataclass
class Case:
    name: str
    result: ServiceResult
    cpu_s: dict[str, float]


async def run_case(name: str, apis: int, proxied: bool, games: int, workers: int) -> Case:
    async with fresh_database() as dsn:
        queue = queue_name("magnate:bench-balanced")
        with tempfile.TemporaryDirectory() as work:
            running = start(dsn, REDIS_URL, queue, apis, proxied, workers, Path(work))
            extra = {f"API {i}": psutil.Process(p.pid) for i, p in enumerate(running.extra_apis, 2)}
            if running.proxy is not None:
                extra["HAProxy"] = psutil.Process(running.proxy.pid)
            before = {key: _cpu(p) for key, p in extra.items()}
            try:
                front = Services(running.url, running.services.env, running.services.api, running.services.workers)
                result, _ = await play(front, games, None, 0.0, solo())
            finally:
                after = {key: _cpu(p) for key, p in extra.items()}
                running.stop()
                await drop_jobs(dsn, REDIS_URL, queue)
    cpu = {("API 1" if key == "API" else key): value for key, value in result.cpu_s.items()}
    cpu |= {key: after[key] - before[key] for key in extra}
    return Case(name, result, cpu)


def _cpu(process: psutil.Process) -> float:
    try:
        t = process.cpu_times()
        return float(t.user + t.system + t.children_user + t.children_system)
    except psutil.Error:
        return 0.0


def table(cases: Sequence[Case]) -> list[str]:
    lines = ["| case | games | workers | seconds | games/s | commands/s | jobs/s | command ms p50 / p99 "
             "| job ms p50 / p99 | errors | CPU seconds during the run |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for c in cases:
        r = c.result
        cpu = ", ".join(f"{k} {v:.1f}" for k, v in c.cpu_s.items() if v >= 0.05)
        lines.append(f"| {c.name} | {r.games} | {r.workers} | {r.seconds:.1f} | {r.games_s:.2f} | {r.commands_s:.0f} "
                     f"| {r.jobs_s:.0f} | {r.cmd_p50_ms:.0f} / {r.cmd_p99_ms:.0f} | {r.job_p50_ms:.0f} / "
                     f"{r.job_p99_ms:.0f} | {len(r.errors)} | {cpu} |")
    return lines


def section(cases: Sequence[Case], load: float | None, took: float) -> str:
    now = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    return "\n".join([
        BEGIN,
        f"Measured {now} by `python -m bench.balanced --games {cases[0].result.games} --workers "
        f"{cases[0].result.workers} --write docs/SCALING.md` ({took:.0f} s; 1-minute load {load or 0:.2f} at the "
        "start). "
        "Every process shares the same two cores: the API processes, HAProxy, the workers, PostgreSQL, Redis and "
        "the bot clients.",
        "",
        *busy_warning(load),
        *table(cases),
        END,
    ])


def write(path: Path, text: str) -> None:
    old = path.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pattern.search(old):
        raise SystemExit(f"{path} has no {BEGIN} ... {END} block to fill")
    path.write_text(pattern.sub(lambda _: text, old), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.balanced", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="AI solo games per case, played to the crash")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--write", type=Path, metavar="PATH", help="fill the bench-balanced block of this file")
    args = parser.parse_args(argv)
    haproxy_binary()
    load = load_average()
    began = time.monotonic()
    cases = []
    for name, apis, proxied in CASES:
        case = run(run_case(name, apis, proxied, args.games, args.workers))
        print(f"{name}: {case.result.seconds:.1f} s, {case.result.games_s:.2f} games/s, command p50 "
              f"{case.result.cmd_p50_ms:.0f} ms p99 {case.result.cmd_p99_ms:.0f} ms, errors "
              f"{len(case.result.errors)}", file=sys.stderr, flush=True)
        cases.append(case)
    text = section(cases, load, time.monotonic() - began)
    print(text)
    if args.write:
        write(args.write, text)
    return 0 if not any(c.result.errors for c in cases) else 1


if __name__ == "__main__":
    sys.exit(main())
