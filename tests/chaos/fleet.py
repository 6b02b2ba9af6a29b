"""The service under test as real processes: one API (``magnate serve``) and a few workers (``magnate
worker``) on the suite's own stores, supervised the way a process manager would supervise them.

The suite kills workers with SIGKILL and starts replacements, so it owns each process directly (rather
than through :class:`services.supervisor.Services`, which discards their output), each started by
:func:`services.supervisor.spawn` as every other user of the service starts it: every process logs to a file
of its own under the run directory, for the report and for whoever debugs a failure. A worker that exits
without being killed by the suite is restarted too (a supervisor would) but counted, with the end of its
log: a worker must survive a store outage.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from services.supervisor import NotReady, free_port, spawn, wait_healthy

from .stores import kill_group, wait_exit

READY_TIMEOUT_S = 60.0


@dataclass
class Exit:
    """A worker that exited although nobody killed it."""

    name: str
    code: int | None
    at: float
    """``time.time()`` when the supervisor noticed."""
    log_tail: str


@dataclass
class Child:
    name: str
    process: subprocess.Popen[bytes]
    log_path: Path
    log: IO[bytes]


@dataclass
class Fleet:
    """The API and the workers; :meth:`close` stops whatever still runs."""

    root: Path
    database_url: str
    redis_url: str
    workers_wanted: int = 2
    port: int = field(default_factory=free_port)
    queue_name: str = field(default_factory=lambda: f"magnate:chaos:{uuid.uuid4().hex[:10]}")
    api: Child | None = None
    workers: list[Child] = field(default_factory=list)
    kills: int = 0
    started_workers: int = 0
    exits: list[Exit] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "DATABASE_URL": self.database_url, "REDIS_URL": self.redis_url, "HOST": "127.0.0.1",
                "PORT": str(self.port), "MAGNATE_SANDBOX": "true", "MAGNATE_QUEUE_NAME": self.queue_name}

    def _spawn(self, command: str, name: str) -> Child:
        log_path = self.root / f"{name}.log"
        log = log_path.open("ab")
        return Child(name, spawn(command, self.env, log), log_path, log)

    def start(self) -> None:
        self.api = self._spawn("serve", "api")
        for _ in range(self.workers_wanted):
            self.start_worker()
        self.wait_healthy()

    def start_worker(self) -> Child:
        self.started_workers += 1
        child = self._spawn("worker", f"worker-{self.started_workers}")
        self.workers.append(child)
        return child

    def wait_healthy(self, timeout_s: float = READY_TIMEOUT_S) -> None:
        """Until the API answers ``/health``; RuntimeError, with the end of its log, if it exits or is late."""
        assert self.api is not None
        try:
            wait_healthy(f"{self.url}/health", [self.api.process], timeout_s)
        except NotReady as exc:
            raise RuntimeError(f"the API at {self.url}: {exc}: {tail(self.api.log_path)}") from exc

    def kill_worker(self, index: int) -> str:
        """``kill -9`` worker ``index`` (of those running) and start its replacement at once."""
        victim = self.workers.pop(index % len(self.workers))
        kill_group(victim.process)
        victim.process.wait(timeout=10)
        victim.log.close()
        self.kills += 1
        self.start_worker()
        return victim.name

    def supervise(self) -> list[Exit]:
        """Restart every worker that has exited on its own; returns those exits (also kept in ``exits``)."""
        found = []
        for child in list(self.workers):
            if child.process.poll() is None:
                continue
            self.workers.remove(child)
            child.log.close()
            found.append(Exit(child.name, child.process.returncode, time.time(), tail(child.log_path)))
            self.start_worker()
        self.exits.extend(found)
        return found

    @property
    def api_alive(self) -> bool:
        return self.api is not None and self.api.process.poll() is None

    def close(self) -> None:
        children = [c for c in (self.api, *self.workers) if c is not None]
        for child in children:
            if child.process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    child.process.send_signal(signal.SIGTERM)
        for child in children:
            with contextlib.suppress(subprocess.SubprocessError, OSError):
                wait_exit(child.process, 20)
            child.log.close()
        self.workers = []


def tail(path: Path, lines: int = 12) -> str:
    with contextlib.suppress(OSError):
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    return ""
