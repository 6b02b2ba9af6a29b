"""What the fault suite does to the service, and how much of it: the two sizes, the fault plan built from
a size, and the injector that carries the plan out while games are being played.

Faults are spread evenly over the play (the store faults among the worker kills, not bunched at the
start), each separated from the next by ``spacing_s``, so the service has to recover from one while the
games go on before the next arrives. Everything is bounded: a fixed number of faults, each outage a fixed
number of seconds.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

from arq.constants import in_progress_key_prefix

from .fleet import Fleet
from .stores import Postgres, Redis

Kind = Literal["worker_kill", "redis_flush", "redis_restart", "pg_stop", "pg_crash"]
STORE_FAULTS: tuple[Kind, ...] = ("redis_flush", "redis_restart", "pg_stop", "pg_crash")
SUPERVISE_EVERY_S = 0.25
AIM_S = 1.0
AIM_POLL_S = 0.01
IN_PROGRESS = f"{in_progress_key_prefix}*"
"""arq's claims of the jobs being run (``{prefix}{game}:{version}:{kind}``), read just before each kill: a kill
can only have caught a job claimed at that moment (by the victim or the other worker)."""


@dataclass(frozen=True)
class Size:
    """One size of the suite (``MAGNATE_CHAOS=full`` picks :data:`FULL`, anything else :data:`BOUNDED`)."""

    name: str
    games: int
    """Games played at least, the registered games in turn (more are started while faults remain, so every fault
    meets a load)."""
    concurrency: int
    think_s: float
    """A bot waits uniformly 0 to twice this before each move, so games last long enough to meet faults."""
    worker_kills: int
    redis_flushes: int
    redis_restarts: int
    redis_down_s: float
    """How long a Redis restart keeps Redis away: in the full run longer than a clock's move (:mod:`.clocked`), so
    clocks run out meanwhile, and far longer than arq's own connection retries (about 5 s)."""
    pg_stops: int
    """Clean stops (SIGINT: fast shutdown) of PostgreSQL, down ``pg_down_s`` each."""
    pg_crashes: int
    """kill -9 of PostgreSQL (every process of it), down ``pg_crash_down_s`` each, then crash recovery."""
    pg_down_s: float
    pg_crash_down_s: float
    lead_s: float
    """Play before the first fault."""
    spacing_s: float
    """Between the end of one fault and the start of the next."""
    play_deadline_s: float
    """The whole play phase ends by then, whatever happens (games not finished by then are failures)."""
    fuzz_examples: int
    """schemathesis: at most this many test cases per API operation..."""
    fuzz_seconds: int
    """...and this long in all."""
    writes_report: bool


BOUNDED = Size(name="bounded", games=12, concurrency=12, think_s=0.15, worker_kills=3, redis_flushes=0,
               redis_restarts=1, redis_down_s=2.0, pg_stops=1, pg_crashes=0, pg_down_s=3.0, pg_crash_down_s=0.0,
               lead_s=2.0, spacing_s=3.0, play_deadline_s=90.0, fuzz_examples=5, fuzz_seconds=15,
               writes_report=False)
FULL = Size(name="full", games=150, concurrency=24, think_s=0.25, worker_kills=40, redis_flushes=1,
            redis_restarts=1, redis_down_s=30.0, pg_stops=1, pg_crashes=1, pg_down_s=10.0, pg_crash_down_s=3.0,
            lead_s=5.0, spacing_s=3.5, play_deadline_s=480.0, fuzz_examples=40, fuzz_seconds=120,
            writes_report=True)


def chosen_size() -> Size:
    return FULL if os.environ.get("MAGNATE_CHAOS", "").lower() == "full" else BOUNDED


def plan(size: Size) -> list[Kind]:
    """The faults in order: the store faults spread evenly among the worker kills."""
    stores: list[Kind] = (["redis_flush"] * size.redis_flushes + ["redis_restart"] * size.redis_restarts
                          + ["pg_stop"] * size.pg_stops + ["pg_crash"] * size.pg_crashes)
    faults: list[Kind] = ["worker_kill"] * size.worker_kills
    step = (len(faults) + 1) / (len(stores) + 1)
    for n, kind in enumerate(stores, start=1):
        faults.insert(int(n * step) + n - 1, kind)  # int(n * step) kills before the n-th store fault
    return faults


@dataclass(frozen=True)
class Happened:
    """One fault as it was carried out (``time.time()`` seconds, comparable with the store's timestamps)."""

    kind: Kind
    began: float
    ended: float
    """When the store was back (the same as ``began`` for a kill or a flush)."""
    detail: str
    claimed: frozenset[str] = frozenset()
    """For a worker kill: the ids of the jobs claimed just before it."""

    @property
    def store(self) -> bool:
        return self.kind in STORE_FAULTS


@dataclass
class Injector:
    """Carries out a plan against the stores and the fleet; ``done`` once every fault has happened."""

    size: Size
    postgres: Postgres
    redis: Redis
    fleet: Fleet
    before_outage: Callable[[], Awaitable[None]] | None = None
    """Run just before Redis is taken away (the clocked games are created then)."""
    timeline: list[Happened] = field(default_factory=list)
    done: bool = False
    rng: random.Random = field(default_factory=lambda: random.Random(20240601))

    async def run(self, faults: list[Kind]) -> None:
        start = time.monotonic()
        try:
            await asyncio.sleep(self.size.lead_s)
            for n, kind in enumerate(faults, start=1):
                claimed = await self._aim() if kind == "worker_kill" else frozenset()
                began = time.time()
                detail = await self._do(kind, len(claimed))
                self.timeline.append(Happened(kind, began, time.time(), detail, claimed))
                print(f"[{time.monotonic() - start:6.1f} s] fault {n}/{len(faults)} {kind}: {detail}", flush=True)
                await asyncio.sleep(self.size.spacing_s)
        finally:
            self.done = True
            self._restore()

    def _restore(self) -> None:
        """Interrupted in an outage (the play failed): bring the store back for whatever runs next."""
        for store in (self.postgres, self.redis):
            if not store.running:
                store.start()

    async def _aim(self) -> frozenset[str]:
        """Wait (a little) for a moment when some job is claimed, so a kill tends to catch one in flight; the
        ids of the jobs claimed then."""
        until = time.monotonic() + AIM_S
        while True:
            claimed = frozenset(k.removeprefix(in_progress_key_prefix) for k in self.redis.keys(IN_PROGRESS))
            if claimed or time.monotonic() > until:
                return claimed
            await asyncio.sleep(AIM_POLL_S)

    async def _do(self, kind: Kind, claimed: int) -> str:
        match kind:
            case "worker_kill":
                victim = self.fleet.kill_worker(self.rng.randrange(len(self.fleet.workers)))
                return f"killed {victim} ({claimed} job(s) claimed among the workers)"
            case "redis_flush":
                self.redis.flushall()
                return "FLUSHALL"
            case "redis_restart":
                if self.before_outage is not None:
                    await self.before_outage()
                self.redis.kill()
                await asyncio.sleep(self.size.redis_down_s)
                await self.redis.restart()
                return f"kill -9, down {self.size.redis_down_s:.0f} s, restarted empty"
            case "pg_stop":
                self.postgres.stop()
                await asyncio.sleep(self.size.pg_down_s)
                await self.postgres.restart()
                return f"fast shutdown, down {self.size.pg_down_s:.0f} s, restarted"
            case "pg_crash":
                self.postgres.kill()
                await asyncio.sleep(self.size.pg_crash_down_s)
                await self.postgres.restart()
                return f"kill -9, down {self.size.pg_crash_down_s:.0f} s, crash recovery"
        raise AssertionError(kind)


async def supervise_until(fleet: Fleet, finished: asyncio.Event) -> None:
    """Restart every worker that exits on its own, as a process manager would, until ``finished``."""
    while not finished.is_set():
        fleet.supervise()
        await asyncio.sleep(SUPERVISE_EVERY_S)
