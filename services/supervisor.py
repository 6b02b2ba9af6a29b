"""``magnate run``: the API server and a worker as one process tree, on embedded stores when no URLs are set.

The supervisor starts the stores (unless ``DATABASE_URL``/``REDIS_URL`` are set), migrates, then runs the API
(``magnate serve``) and one worker (``magnate worker``) as children. A child that exits on its own (a crash,
an out-of-memory kill) is started again after an exponential back-off (redis-py's ``ExponentialBackoff``,
reset once a child has run for a minute), so one failure never stops the service; SIGINT/SIGTERM stop
everything in order (children first, then the stores they use).

While it runs, ``<data dir>/running.json`` says where its stores are, so the other commands (``magnate
export``, ``migrate``, ``simulate``) reach the embedded database with no URL to copy (see
:func:`store_urls`).
"""
# ruff: noqa: PLC0415

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

import msgspec
from redis.backoff import ExponentialBackoff

from infra.config import Settings

log = logging.getLogger("magnate")

CHILD_STOP_TIMEOUT_S = 10.0
READY_TIMEOUT_S = 60.0
HEALTHY_AFTER_S = 60.0
"""A child that has run this long is healthy: its next crash is restarted after the shortest wait again."""
BACKOFF = ExponentialBackoff(cap=30.0, base=0.5)
RUNNING_FILE = "running.json"
PARENT_ENV = "MAGNATE_PARENT_PID"
_PR_SET_PDEATHSIG = 1


class _Stop:
    """SIGINT/SIGTERM set a flag that the supervisor checks between steps and while it waits, so a
    signal never interrupts a half-done start or stop of the embedded servers."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.signal: int | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.signal is None:
            self.signal = signum
            print(f"\nmagnate: {signal.Signals(signum).name} received, stopping...", file=sys.stderr, flush=True)
        self.event.set()

    def __bool__(self) -> bool:
        return self.event.is_set()


class Child:
    """One supervised command (``serve`` or ``worker``): its process, and when to start it again."""

    def __init__(self, command: str, env: dict[str, str]) -> None:
        self.command = command
        self.env = env
        self.process = self._spawn()
        self.started = time.monotonic()
        self.crashes = 0
        self.restart_at: float | None = None

    def _spawn(self) -> subprocess.Popen[bytes]:
        # A process group of its own: Ctrl-C in the terminal reaches only this supervisor, which stops the
        # children in order (API and worker first, then the stores they use).
        return subprocess.Popen([sys.executable, "-m", "services.cli", self.command], env=self.env,
                                process_group=0)

    def tend(self, now: float) -> None:
        """Notice an exit (and schedule a restart with back-off), or restart when the wait is over."""
        if self.restart_at is None and self.process.poll() is not None:
            if now - self.started > HEALTHY_AFTER_S:
                self.crashes = 0
            delay = BACKOFF.compute(self.crashes - 1)
            self.crashes += 1
            self.restart_at = now + delay
            print(f"magnate: `{self.command}` exited with code {self.process.returncode}; restarting it in "
                  f"{delay:.1f} s", file=sys.stderr, flush=True)
        elif self.restart_at is not None and now >= self.restart_at:
            self.process, self.started, self.restart_at = self._spawn(), now, None


def _child_env(database_url: str, redis_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"DATABASE_URL": database_url, "REDIS_URL": redis_url, PARENT_ENV: str(os.getpid())})
    return env


def _stop_children(children: Sequence[Child]) -> None:
    processes = [c.process for c in children]
    for process in processes:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + CHILD_STOP_TIMEOUT_S
    for process in processes:
        try:
            process.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            log.warning("%s did not stop within %.0f s; killing it", process.args, CHILD_STOP_TIMEOUT_S)
            process.kill()
            process.wait()


def _wait_ready(url: str, children: Sequence[Child], stop: _Stop) -> bool:
    """True once ``url`` answers 200; False if told to stop, if a child exits or after the timeout."""
    deadline = time.monotonic() + READY_TIMEOUT_S
    while not stop and time.monotonic() < deadline:
        if any(c.process.poll() is not None for c in children):
            return False
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
        stop.event.wait(0.2)
    return False


def _probe_host(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "") else "[::1]" if host == "::" else host


class Running(msgspec.Struct, frozen=True):
    """What ``<data dir>/running.json`` holds while ``magnate run`` runs."""

    pid: int
    database_url: str
    redis_url: str


def store_urls(settings: Settings) -> Settings:
    """The settings with the URLs of a running ``magnate run``'s stores filled in where none are set."""
    if settings.database_url and settings.redis_url:
        return settings
    path = Path(settings.data_dir) / RUNNING_FILE
    try:
        running = msgspec.json.decode(path.read_bytes(), type=Running)
        os.kill(running.pid, 0)  # still running?
    except (OSError, msgspec.DecodeError):
        return settings
    return msgspec.structs.replace(settings, database_url=settings.database_url or running.database_url,
                                   redis_url=settings.redis_url or running.redis_url)


async def migrate_database(database_url: str) -> list[str]:
    import asyncpg

    from infra.migrate import migrate

    conn = await asyncpg.connect(database_url)
    try:
        return await migrate(conn)
    finally:
        await conn.close()


def run(settings: Settings) -> int:
    """``magnate run`` (see the module docstring); the exit code."""
    from infra import embedded

    stop = _Stop()
    signals = [s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None]
    previous = {sig: signal.signal(sig, stop) for sig in signals}
    services: embedded.Embedded | None = None
    children: list[Child] = []
    running_file = Path(settings.data_dir) / RUNNING_FILE
    code = 0
    try:
        database_url, redis_url = settings.database_url, settings.redis_url
        if not database_url or not redis_url:
            data_dir = Path(settings.data_dir).resolve()
            print(f"magnate: starting embedded {'PostgreSQL' if not database_url else ''}"
                  f"{' and ' if not database_url and not redis_url else ''}{'Redis' if not redis_url else ''}"
                  f" under {data_dir}", flush=True)
            services = embedded.start(data_dir, postgres=not database_url, redis=not redis_url)
            database_url = database_url or services.database_url
            redis_url = redis_url or services.redis_url
        assert database_url and redis_url
        if stop:
            return 0
        applied = asyncio.run(migrate_database(database_url))
        if applied:
            print(f"magnate: applied migrations {', '.join(applied)}", flush=True)
        if stop:
            return 0
        running_file.parent.mkdir(parents=True, exist_ok=True)
        running_file.write_bytes(msgspec.json.encode(Running(os.getpid(), database_url, redis_url)))
        env = _child_env(database_url, redis_url)
        children = [Child("serve", env), Child("worker", env)]
        base = f"http://{_probe_host(settings.host)}:{settings.port}"
        if _wait_ready(f"{base}/health", children, stop):
            public = (settings.public_url or f"http://{settings.host}:{settings.port}").rstrip("/")
            print(f"\nMagnate is running: open {public}/  (Ctrl-C to stop)\n", flush=True)
        elif not stop:
            print(f"magnate: {base}/health did not answer within {READY_TIMEOUT_S:.0f} s (or a child exited at "
                  "start-up); stopping", file=sys.stderr, flush=True)
            code = 1
        while not stop and code == 0:
            now = time.monotonic()
            for child in children:
                child.tend(now)
            stop.event.wait(0.5)
    finally:
        _stop_children(children)
        with contextlib.suppress(OSError, ValueError):
            if json.loads(running_file.read_bytes()).get("pid") == os.getpid():
                running_file.unlink()
        if services is not None:
            services.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        print("magnate: stopped", file=sys.stderr, flush=True)
    return code


def die_with_parent() -> None:
    """A child of ``magnate run`` gets SIGTERM when the supervisor dies, even by SIGKILL (Linux), so a
    killed supervisor leaves no API or worker behind."""
    parent = os.environ.get(PARENT_ENV)
    if not parent or not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if str(os.getppid()) != parent:  # the supervisor died before we armed the signal
        sys.exit(1)
