"""A worker outlives a long Redis outage (issue #24, item 2): with Redis away for 30 s, four times as long as the
connection retries arq makes on its own, the worker waits, and once Redis is back (empty, as a restarted cache-only
Redis is) it reconnects and does what fell due meanwhile: the system job of a move made during the outage, and the
timeout of a clock that ran out during it. And ``magnate run`` waits for a Redis that is away when it starts.

Redis is a server of this test's own (``tests.chaos.stores.Redis``, killed and restarted here; the shared one is
never touched); PostgreSQL is a database of this module's own. The 120 s outage is the fault suite's
(``make chaos``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

from bench.receivers import MailInbox, smtp_serving
from domain.kernel.table import TableOptions, TimeControl, facts_of
from domain.magnate import GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from infra.config import Settings
from infra.errors import StoreUnavailable
from infra.queue import Job
from services.gameplay.bootstrap import Runtime
from tests.chaos.stores import Redis
from tests.live import ROOT

from .notifications.conftest import claim, new_player
from .test_worker_faults import moved_past, stop, worker

pytestmark = [pytest.mark.integration]

OUTAGE_S = 30.0
RUN_PORT = 18140
"""``magnate run``'s API (and its worker's metrics on the next port)."""
TWO_HUMANS = GameOptions(seats=(SeatSpec(), SeatSpec()))
TEN_SECONDS_A_MOVE = TableOptions(clock=TimeControl(kind="per_move", seconds=10), on_timeout="stand_in_move")


@pytest.fixture
def settings(own_dsn: str, own_redis: Redis) -> Settings:
    return Settings(database_url=own_dsn, redis_url=own_redis.url, queue_name=f"outage:{uuid.uuid4().hex[:8]}")


async def until_due_in_outage(runtime: Runtime, game_id: str, seed: int) -> Job:
    """The game played by random seats, while Redis is away, until a system job is due. Each move is stored and
    then its announcement fails (StoreUnavailable, the API's 503): the job exists only in the games table."""
    gameplay = runtime.gameplay
    bot = RandomLegal(seed)
    for _ in range(500):
        head = await gameplay.store.head(game_id)
        if head.system_job is not None:
            return Job(game_id, head.version, head.system_job)
        loaded = await gameplay.load(game_id)
        seat = gameplay.module("magnate").pending(loaded.state).seats[0]
        with contextlib.suppress(StoreUnavailable):  # stored; only its announcement and its job's enqueue failed
            await gameplay.submit(game_id, int(seat), uuid.uuid4().hex, bot(loaded.state, seat))
    raise AssertionError("no system job became due")


async def stood_in(runtime: Runtime, game_id: str, within_s: float) -> float:
    """Seconds until the game's log holds a stand-in's move (after a timeout; fails after ``within_s``)."""
    started = time.monotonic()
    while "table.stood_in" not in [e.type for e in await runtime.gameplay.store.read(game_id)]:
        assert time.monotonic() - started < within_s, f"{game_id}: no stand-in within {within_s} s"
        await asyncio.sleep(0.1)
    return time.monotonic() - started


async def until_turn_in_outage(runtime: Runtime, game_id: str, seat: int) -> None:
    """Move the game on while Redis is away (system jobs run here, as no worker can take them) until ``seat`` is on
    turn: its player's "your turn" falls due during the outage."""
    gameplay = runtime.gameplay
    bot = RandomLegal(3)
    for _ in range(400):
        head = await gameplay.store.head(game_id)
        if seat in head.on_turn:
            return
        with contextlib.suppress(StoreUnavailable):  # stored; only the announcement and the enqueue failed
            if head.system_job is not None:
                await gameplay.run_system(game_id, head.version, head.system_job)
            else:
                loaded = await gameplay.load(game_id)
                acting = gameplay.module("magnate").pending(loaded.state).seats[0]
                await gameplay.submit(game_id, int(acting), uuid.uuid4().hex, bot(loaded.state, acting))
    raise AssertionError(f"seat {seat} never came on turn")


async def mailed(inbox: MailInbox, subject: str, within_s: float) -> None:
    started = time.monotonic()
    while not any(m["Subject"] == subject for m in inbox.mails):
        assert time.monotonic() - started < within_s, f"no mail {subject!r} within {within_s} s"
        await asyncio.sleep(0.1)


@pytest.mark.timeout(180)
async def test_the_worker_outlives_a_30_s_redis_outage_and_does_what_fell_due_meanwhile(
    runtime: Runtime, settings: Settings, own_redis: Redis
) -> None:
    inbox = MailInbox()
    async with smtp_serving(inbox) as smtp_url:
        process = worker(settings, {"SMTP_URL": smtp_url, "PUBLIC_URL": "http://magnate.test",
                                    "MAGNATE_SECRET_KEY": "test-secret"})
        try:
            await through_outage(runtime, own_redis, process, inbox)
        finally:
            stop(process)


async def through_outage(runtime: Runtime, own_redis: Redis, process: subprocess.Popen[bytes],
                         inbox: MailInbox) -> None:
    # A game whose seat has 10 s a move: its timeout is a deferred job in Redis, lost with it.
    clocked = (await runtime.gameplay.create_game("magnate", TWO_HUMANS, table=TEN_SECONDS_A_MOVE)).game_id
    loaded = await runtime.gameplay.load(clocked)
    (seat,) = runtime.gameplay.module("magnate").pending(loaded.state).seats
    deadline = facts_of(loaded.state).clock(seat).deadline
    assert deadline is not None
    played = (await runtime.gameplay.create_game("magnate", TWO_HUMANS)).game_id
    # A game with a player who is told by mail when it is her turn, which comes during the outage.
    told = (await runtime.gameplay.create_game("magnate", TWO_HUMANS)).game_id
    waiting = 1 if 1 not in (await runtime.gameplay.store.head(told)).on_turn else 0
    await claim(runtime, told, waiting, await new_player(runtime, "bea"))

    own_redis.kill()  # kill -9: every queued job and deferred timer is gone with it
    went = time.monotonic()
    due = await until_due_in_outage(runtime, played, seed=11)  # a move made during the outage makes a job due
    await until_turn_in_outage(runtime, told, waiting)
    await asyncio.sleep(OUTAGE_S - (time.monotonic() - went))
    assert time.time() * 1000 > deadline, "the clock ran out during the outage"
    assert process.poll() is None, f"the worker exited during a {OUTAGE_S:.0f} s Redis outage"
    assert "table.timed_out" not in [e.type for e in await runtime.gameplay.store.read(clocked)]
    assert inbox.mails == []
    await own_redis.restart()  # back, empty

    await moved_past(runtime, due, within_s=30)  # the job that fell due runs
    await stood_in(runtime, clocked, within_s=30)  # the clock that ran out times out: a stand-in plays
    await mailed(inbox, "Your turn in Magnate: The First City", within_s=30)  # the player is told
    assert [e.type for e in await runtime.gameplay.store.read(clocked)].count("table.timed_out") == 1
    assert process.poll() is None


def test_magnate_run_waits_for_a_redis_that_is_away_at_start_up(own_dsn: str, own_redis: Redis,
                                                                tmp_path: Path) -> None:
    """``magnate run`` with a REDIS_URL that does not answer yet: the API cannot start, and the supervisor restarts it
    (with back-off) until Redis is there, instead of stopping everything for good."""
    own_redis.stop()
    port = RUN_PORT
    env = {**os.environ, "DATABASE_URL": own_dsn, "REDIS_URL": own_redis.url, "HOST": "127.0.0.1",
           "PORT": str(port), "MAGNATE_WORKER_METRICS_PORT": str(port + 1), "MAGNATE_DATA_DIR": str(tmp_path / "var"),
           "MAGNATE_QUEUE_NAME": f"outage:{uuid.uuid4().hex[:8]}"}
    log_path = tmp_path / "run.log"
    with log_path.open("wb") as log:
        run = subprocess.Popen([sys.executable, "-m", "services.cli", "run"], cwd=ROOT, env=env, stdout=log,
                               stderr=subprocess.STDOUT)
    try:
        time.sleep(15)  # the API's first start fails on Redis, and so do its restarts
        assert run.poll() is None, f"magnate run stopped:\n{log_path.read_text()[-2000:]}"
        own_redis.start()
        deadline = time.monotonic() + 60
        while not answers(f"http://127.0.0.1:{port}/health"):
            assert run.poll() is None, f"magnate run stopped:\n{log_path.read_text()[-2000:]}"
            assert time.monotonic() < deadline, f"/health never answered:\n{log_path.read_text()[-2000:]}"
            time.sleep(0.25)
        while "Magnate is running" not in log_path.read_text():  # the supervisor sees it too, and says so
            assert time.monotonic() < deadline, f"no banner:\n{log_path.read_text()[-2000:]}"
            time.sleep(0.25)
    finally:
        stop(run)


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False
