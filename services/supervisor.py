"""Starting and stopping the service's processes, for everyone who does: ``magnate run``, ``magnate simulate
--mode service``, the benchmarks and the tests.

* :func:`spawn` starts one ``magnate serve`` or ``magnate worker`` child (``python -m services.cli ...``) in a
  process group of its own (so a Ctrl-C in the terminal reaches only its parent, which stops the children in
  order), told its parent's pid so that it gets SIGTERM if the parent dies, even by SIGKILL
  (:func:`die_with_parent`, Linux);
* :func:`wait_healthy` waits until an API answers ``/health`` with 200, and fails as soon as a child exits;
* :func:`stop` sends every child SIGTERM, waits, then kills whoever is left;
* :class:`Services` is an API and W workers on given stores in sandbox mode (a client may choose a game's
  seed): what ``magnate simulate --mode service``, the service benchmarks and the end-to-end and browser tests
  run.

``magnate run`` (:func:`run`) starts the stores (unless ``DATABASE_URL``/``REDIS_URL`` are set), migrates, then
runs the API and one worker as children. A child that exits on its own (a crash, an out-of-memory kill) is
started again after an exponential back-off (redis-py's ``ExponentialBackoff``, reset once a child has run for a
minute), so one failure never stops the service: not even an API that cannot start (a Redis or PostgreSQL at
``REDIS_URL``/``DATABASE_URL`` that is away), which is started again until it answers; SIGINT/SIGTERM stop
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
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import IO, TYPE_CHECKING, Any, cast

import msgspec
from redis.backoff import ExponentialBackoff

from infra.config import Settings

if TYPE_CHECKING:
    from infra.nchan.process import NginxProcess

log = logging.getLogger("magnate")

ROOT = Path(__file__).resolve().parents[1]
"""The directory ``python -m services.cli`` runs in (it holds the ``services`` package)."""
STOP_TIMEOUT_S = 10.0
"""How long :func:`stop` waits for the children to exit after SIGTERM before it kills them."""
READY_TIMEOUT_S = 60.0
HEALTHY_AFTER_S = 60.0
"""A child that has run this long is healthy: its next crash is restarted after the shortest wait again."""
BACKOFF = ExponentialBackoff(cap=30.0, base=0.5)
RUNNING_FILE = "running.json"
PARENT_ENV = "MAGNATE_PARENT_PID"
_PR_SET_PDEATHSIG = 1


# -- one child, waiting for it, stopping it ---------------------------------------------------------------


class NotReady(RuntimeError):
    """The API did not answer ``/health`` in time, or a child exited while the service was starting."""


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PUSHER = "pusher"
"""The command of the nchan publisher (``python -m services.pusher``, beside nginx when ``MAGNATE_PUSH=nchan``)."""


def spawn(command: str, env: Mapping[str, str], output: int | IO[bytes] | None = subprocess.DEVNULL
          ) -> subprocess.Popen[bytes]:
    """Start ``magnate <command>`` (``serve`` or ``worker``; or :data:`PUSHER`) with ``env``, its standard output and
    error going to ``output`` (None: this process's own). Its own process group; it dies with this process
    (``PARENT_ENV``). Spawn from the main thread: the parent-death signal fires when the *thread* that started the
    child ends."""
    module = ["services.pusher"] if command == PUSHER else ["services.cli", command]
    return subprocess.Popen([sys.executable, "-m", *module], cwd=ROOT,
                            env={**env, PARENT_ENV: str(os.getpid())}, stdin=subprocess.DEVNULL, stdout=output,
                            stderr=output, process_group=0)


def _name(process: subprocess.Popen[bytes]) -> str:
    args = process.args
    return f"`magnate {args[-1]}`" if isinstance(args, list) and args else repr(args)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def wait_healthy(url: str, processes: Sequence[subprocess.Popen[bytes]], timeout_s: float = READY_TIMEOUT_S,
                 stopping: threading.Event | None = None) -> bool:
    """Wait until ``url`` (an API's ``/health``) answers 200: True then, False if ``stopping`` is set first.
    Raises :class:`NotReady` when one of ``processes`` exits or after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while stopping is None or not stopping.is_set():
        dead = next((p for p in processes if p.poll() is not None), None)
        if dead is not None:
            raise NotReady(f"{_name(dead)} exited with code {dead.returncode} while starting")
        if _answers(url):
            return True
        if time.monotonic() > deadline:
            raise NotReady(f"{url} did not answer 200 within {timeout_s:.0f} s")
        if stopping is None:
            time.sleep(0.1)
        else:
            stopping.wait(0.1)
    return False


def stop(processes: Sequence[subprocess.Popen[bytes]], timeout_s: float = STOP_TIMEOUT_S) -> None:
    """SIGTERM to every process still running; whoever has not exited ``timeout_s`` later is killed."""
    for process in processes:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    for process in processes:
        try:
            process.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            log.warning("%s did not stop within %.0f s; killing it", _name(process), timeout_s)
            process.kill()
            process.wait()


@dataclass
class Services:
    """An API process and worker processes on the given stores, in sandbox mode (a client may choose a game's
    seed), the API on a free loopback port. Their output is discarded."""

    url: str
    env: dict[str, str]
    api: subprocess.Popen[bytes]
    workers: list[subprocess.Popen[bytes]]

    @property
    def processes(self) -> list[subprocess.Popen[bytes]]:
        return [self.api, *self.workers]

    @classmethod
    def start(cls, database_url: str, redis_url: str, queue_name: str, workers: int = 1,
              env: Mapping[str, str] | None = None, ready_timeout_s: float = READY_TIMEOUT_S) -> Services:
        """Start them and wait until the API is healthy (raises :class:`NotReady`, having stopped them, if not)."""
        port = free_port()
        environ = {**os.environ, **(env or {}), "DATABASE_URL": database_url, "REDIS_URL": redis_url,
                   "MAGNATE_QUEUE_NAME": queue_name, "MAGNATE_SANDBOX": "true", "HOST": "127.0.0.1",
                   "PORT": str(port)}
        running = cls(f"http://127.0.0.1:{port}", environ, spawn("serve", environ), [])
        try:
            for _ in range(workers):
                running.start_worker()
            wait_healthy(f"{running.url}/health", running.processes, ready_timeout_s)
        except BaseException:
            running.stop()
            raise
        return running

    def start_worker(self) -> subprocess.Popen[bytes]:
        """One more worker."""
        worker = spawn("worker", self.env)
        self.workers.append(worker)
        return worker

    def stop_worker(self, index: int = -1) -> None:
        """Stop one worker (SIGTERM, then kill)."""
        stop([self.workers.pop(index)], 20.0)

    def stop(self, timeout_s: float = 20.0) -> None:
        stop(self.processes, timeout_s)
        self.workers.clear()


@dataclass
class PushServer:
    """nginx with nchan in front of API processes (pages' side ``listen``, publisher side ``publish_listen``), and
    the pusher that publishes every new version to it (``MAGNATE_PUSH=nchan``; docs/SCALING.md). ``redis_url``:
    nchan's Redis mode (channels shared by every box on it, keys under ``namespace``); None: memory mode."""

    nginx: NginxProcess
    pusher: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return self.nginx.box.url

    @classmethod
    def start(cls, env: Mapping[str, str], apis: Sequence[str], listen: str, publish_listen: str, work: Path,
              redis_url: str | None, namespace: str = "magnate:push:", output: int | IO[bytes] | None = None
              ) -> PushServer:
        from infra.nchan.config import NchanBox
        from infra.nchan.process import NginxProcess

        box = NchanBox(listen=listen, publish_listen=publish_listen, apis=apis, work=work, redis_url=redis_url,
                       redis_namespace=namespace)
        nginx = NginxProcess.start(box)
        if output is not None:
            pusher = spawn(PUSHER, {**env, "MAGNATE_NCHAN_PUBLISH_URL": box.publish_url}, output)
        else:
            with (work / "pusher.log").open("wb") as log:  # beside nginx's own log
                pusher = spawn(PUSHER, {**env, "MAGNATE_NCHAN_PUBLISH_URL": box.publish_url}, log)
        running = cls(nginx, pusher)
        try:
            running.wait_listening(env["REDIS_URL"], env.get("MAGNATE_QUEUE_NAME", "magnate:queue"))
        except BaseException:
            running.stop()
            raise
        return running

    def wait_listening(self, redis_url: str, queue_name: str, timeout_s: float = READY_TIMEOUT_S) -> None:
        """Until the pusher listens to the news (what is appended before would wait for the game's next move)."""
        import redis

        from services.pusher import pusher_name

        name = pusher_name(queue_name)
        client = (redis.Redis(unix_socket_path=redis_url.removeprefix("unix://")) if redis_url.startswith("unix://")
                  else redis.Redis.from_url(redis_url))
        deadline = time.monotonic() + timeout_s
        try:
            while not any(c.get("name") == name and int(c.get("sub", 0)) > 0
                          for c in cast("list[dict[str, Any]]", client.client_list("pubsub"))):
                if self.pusher.poll() is not None:
                    raise NotReady(f"the pusher exited with code {self.pusher.returncode} while starting")
                if time.monotonic() > deadline:
                    raise NotReady(f"the pusher did not subscribe to the news within {timeout_s:.0f} s")
                time.sleep(0.05)
        finally:
            client.close()

    def stop(self) -> None:
        stop([self.pusher])
        self.nginx.stop()


# -- magnate run -------------------------------------------------------------------------------------------


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
        self.process = spawn(command, env, output=None)
        self.started = time.monotonic()
        self.crashes = 0
        self.restart_at: float | None = None

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
            self.process, self.started, self.restart_at = spawn(self.command, self.env, output=None), now, None


SECRET_FILE = "secret_key"


def _child_env(database_url: str, redis_url: str, secret_key: str, worker_metrics_port: int) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, "MAGNATE_SECRET_KEY": secret_key,
            "MAGNATE_WORKER_METRICS_PORT": str(worker_metrics_port)}


def worker_metrics_port(settings: Settings) -> int:
    """Where ``magnate run``'s worker serves its metrics: ``MAGNATE_WORKER_METRICS_PORT``, else the API's port + 1."""
    return settings.worker_metrics_port or settings.port + 1


def secret_key(settings: Settings) -> str:
    """``MAGNATE_SECRET_KEY``, or the one ``magnate run`` made on its first start and keeps in its data folder (so
    signed-in pages survive a restart, and a restarted API accepts the CSRF tokens of the pages already open)."""
    if settings.secret_key:
        return settings.secret_key
    path = Path(settings.data_dir) / SECRET_FILE
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        made = secrets.token_urlsafe(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(made)
        return made


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

    stopping = _Stop()
    signals = [s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None]
    previous = {sig: signal.signal(sig, stopping) for sig in signals}
    stores: embedded.Embedded | None = None
    children: list[Child] = []
    nginx: NginxProcess | None = None
    running_file = Path(settings.data_dir) / RUNNING_FILE
    try:
        database_url, redis_url = settings.database_url, settings.redis_url
        if not database_url or not redis_url:
            data_dir = Path(settings.data_dir).resolve()
            print(f"magnate: starting embedded {'PostgreSQL' if not database_url else ''}"
                  f"{' and ' if not database_url and not redis_url else ''}{'Redis' if not redis_url else ''}"
                  f" under {data_dir}", flush=True)
            stores = embedded.start(data_dir, postgres=not database_url, redis=not redis_url)
            database_url = database_url or stores.database_url
            redis_url = redis_url or stores.redis_url
        assert database_url and redis_url
        if stopping:
            return 0
        applied = asyncio.run(migrate_database(database_url))
        if applied:
            print(f"magnate: applied migrations {', '.join(applied)}", flush=True)
        if stopping:
            return 0
        running_file.parent.mkdir(parents=True, exist_ok=True)
        running_file.write_bytes(msgspec.json.encode(Running(os.getpid(), database_url, redis_url)))
        env = _child_env(database_url, redis_url, secret_key(settings), worker_metrics_port(settings))
        api, worker = Child("serve", env), Child("worker", env)
        children = [api, worker]
        if settings.push == "nchan":
            nginx = _start_nginx(settings, redis_url)
            children.append(Child(PUSHER, {**env, "MAGNATE_NCHAN_PUBLISH_URL": nginx.box.publish_url}))
        _supervise(settings, children, stopping)
    finally:
        stop([c.process for c in children])
        if nginx is not None:
            nginx.stop()
        with contextlib.suppress(OSError, ValueError):
            if json.loads(running_file.read_bytes()).get("pid") == os.getpid():
                running_file.unlink()
        if stores is not None:
            stores.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        print("magnate: stopped", file=sys.stderr, flush=True)
    return 0


def nchan_ports(settings: Settings) -> tuple[int, int]:
    """The pages' port of ``magnate run``'s nginx (``MAGNATE_NCHAN_PORT``, else the API's + 2) and its publisher's."""
    port = settings.nchan_port or settings.port + 2
    return port, port + 1


def _start_nginx(settings: Settings, redis_url: str) -> NginxProcess:
    """``MAGNATE_PUSH=nchan``: nginx with nchan in front of the API, its channels in the service's Redis."""
    from infra.nchan.config import NchanBox
    from infra.nchan.process import NginxProcess

    pages, publisher = nchan_ports(settings)
    box = NchanBox(listen=f"{settings.host}:{pages}", publish_listen=f"127.0.0.1:{publisher}",
                   apis=[f"{_probe_host(settings.host)}:{settings.port}"],
                   work=Path(settings.data_dir).resolve() / "nginx",
                   redis_url=None if redis_url.startswith("unix://") else redis_url)
    nginx = NginxProcess.start(box)
    print(f"magnate: nginx with nchan holds the pages' streams at http://{settings.host}:{pages}/", flush=True)
    return nginx


def _supervise(settings: Settings, children: list[Child], stopping: _Stop) -> None:
    """Tend the children (the API first) until told to stop. Only the API says whether the service is up: a worker
    that dies meanwhile is restarted like any crashed child, and an API that does not come up (a store away at
    start-up) is restarted until it answers, never a reason to stop everything."""
    base = f"http://{_probe_host(settings.host)}:{settings.port}"
    try:
        if up := wait_healthy(f"{base}/health", [children[0].process], READY_TIMEOUT_S, stopping.event):
            _announce(settings, base)
    except NotReady as exc:
        print(f"magnate: {exc}; restarting it until it answers (Ctrl-C to stop)", file=sys.stderr, flush=True)
        up = False
    while not stopping:
        now = time.monotonic()
        for child in children:
            child.tend(now)
        if not up and (up := _answers(f"{base}/health")):
            _announce(settings, base)
        stopping.event.wait(0.5)


def _announce(settings: Settings, base: str) -> None:
    public = (settings.public_url or f"http://{settings.host}:{settings.port}").rstrip("/")
    print(f"\nMagnate is running: open {public}/  (Ctrl-C to stop)\n"
          f"Metrics: {base}/metrics (API), http://{_probe_host(settings.host)}:"
          f"{worker_metrics_port(settings)}/metrics (worker)\n", flush=True)


def die_with_parent() -> None:
    """A child started by :func:`spawn` gets SIGTERM when its parent dies, even by SIGKILL (Linux), so a killed
    ``magnate run`` (or simulation, benchmark or test run) leaves no API or worker behind."""
    parent = os.environ.get(PARENT_ENV)
    if not parent or not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if str(os.getppid()) != parent:  # the supervisor died before we armed the signal
        sys.exit(1)
