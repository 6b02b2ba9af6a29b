"""One run of the fault suite: games of every registered game played through the API while the injector carries
out the plan (and, when Redis is to be away longer than a clock's move, games whose clocks run out meanwhile:
:mod:`.clocked`), then the ledger of every game. The test judges the result (:mod:`.verdict`); the full run also
reports it (:mod:`.report`)."""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from domain.games import GAMES
from services.simulation.spec import SimSpec

from .clocked import CLOCK_S, Clocked, create, until_finished
from .faults import Happened, Injector, Size, plan, supervise_until
from .fleet import Exit, Fleet
from .ledger import Ledger, compare_in_process, read_store, verify_exports
from .players import Traffic, play_all
from .stores import Postgres, Redis

SEED = "chaos"
"""The seed text of the games (game ``i`` of a game is game ``i`` of ``magnate simulate --game G --seed chaos``)."""
AUDIT_DEADLINE_S = 120.0


@dataclass
class Rig:
    """The suite's own stores and the service on them."""

    root: Path
    postgres: Postgres
    redis: Redis
    fleet: Fleet


@dataclass
class Exercise:
    size: Size
    planned: int
    started_games: int = 0
    play_s: float = 0.0
    traffic: Traffic = field(default_factory=Traffic)
    timeline: list[Happened] = field(default_factory=list)
    ledger: Ledger = field(default_factory=Ledger)
    worker_kills: int = 0
    exits: list[Exit] = field(default_factory=list)
    """Workers that exited without being killed (and were restarted)."""
    workers_started: int = 0
    api_alive: bool = True
    specs: list[SimSpec] = field(default_factory=list)
    clocked: Clocked = field(default_factory=Clocked)


def specs_of(size: Size) -> list[SimSpec]:
    """Every registered game, with the options, AI level and bots ``magnate simulate`` plays it with by default."""
    return [SimSpec(game=game, games=size.games, seed=SEED) for game in GAMES]


async def exercise(rig: Rig, size: Size) -> Exercise:
    faults = plan(size)
    specs = specs_of(size)
    result = Exercise(size, len(faults), specs=specs)
    began = time.monotonic()
    deadline = began + size.play_deadline_s

    async def clock_games() -> None:
        if size.redis_down_s > CLOCK_S:
            await create(rig.fleet.url, specs, result.traffic, result.clocked, deadline)

    injector = Injector(size, rig.postgres, rig.redis, rig.fleet, before_outage=clock_games)
    finished = asyncio.Event()
    supervisor = asyncio.create_task(supervise_until(rig.fleet, finished))
    injecting = asyncio.create_task(injector.run(faults))
    try:
        result.started_games = await play_all(
            rig.fleet.url, specs, uuid.uuid4().hex[:12], result.traffic, games=size.games,
            concurrency=size.concurrency, think_s=size.think_s, deadline=deadline,
            more=lambda: not injector.done, most=3 * size.games)
        await injecting
        await until_finished(rig.fleet.url, result.clocked, deadline)
    finally:
        injecting.cancel()
        finished.set()
        await asyncio.gather(supervisor, injecting, return_exceptions=True)
    result.play_s = time.monotonic() - began
    result.timeline = injector.timeline
    result.worker_kills = rig.fleet.kills
    result.workers_started = rig.fleet.started_workers
    result.api_alive = rig.fleet.api_alive
    result.exits = list(rig.fleet.exits)

    result.ledger = await read_store(rig.postgres.url, result.traffic)
    await verify_exports(rig.fleet.url, result.ledger.game_ids, result.ledger, time.monotonic() + AUDIT_DEADLINE_S)
    compare_in_process(result.ledger, result.traffic, specs)
    return result
