"""A burst of notifications delivered by workers killed again and again: every delivery reaches its receiver and is
recorded ``sent`` once, by its id, and nothing is lost.

Its own PostgreSQL and Redis (:mod:`.stores`), a real SMTP server and a real webhook receiver on loopback
(:mod:`bench.receivers`, which count every acceptance and each id, as Standard Webhooks tells receivers to), and
real ``magnate worker`` processes. Games with both seats claimed by players who are away are played in this
process, so the workers' projectors turn their moves into notices (an email and a webhook each) while the workers
deliver them — and every ``KILL_EVERY_S`` one worker is killed with SIGKILL and replaced.

What is asserted: the notices are exactly those the log gives (derived again here from each game's log, purely),
each once; every delivery is ``sent``; each receiver got every delivery's id and no other. What is reported (and
bounded): the raw repeats, messages the receiver had accepted when a kill came before the worker wrote ``sent``,
sent again with the same id (at-least-once toward the outside world, docs/PLAYERS.md "Delivery guarantees").

``make test`` runs the bounded size (about 1,000 notices, 2,000 deliveries, 4 kills, well under a minute);
``MAGNATE_CHAOS=full`` a larger one.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import asyncpg
import pytest

from bench.receivers import MailInbox, WebhookReceiver, http_serving, smtp_serving
from domain.games import GAMES
from domain.kernel import RuleViolation
from domain.magnate import GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from infra.channels.webhooks import new_secret
from infra.config import Settings
from infra.errors import ConcurrencyConflict
from infra.migrate import migrate
from services.gameplay.bootstrap import Runtime, build
from services.notifications.claim import MAX_ATTEMPTS
from services.notifications.derive import Logged, derive
from services.supervisor import spawn

from .stores import Postgres, Redis, kill_group

pytestmark = [pytest.mark.chaos,
              pytest.mark.filterwarnings("ignore:Call to deprecated close:DeprecationWarning")]

FULL = os.environ.get("MAGNATE_CHAOS", "").lower() == "full"
GAMES_PLAYED = 60 if FULL else 24
NOTICES_WANTED = 3000 if FULL else 1000
WORKERS = 3
KILL_EVERY_S = 2.0
KILLS = 12 if FULL else 4
DRAIN_DEADLINE_S = 50.0
"""After the last kill: a killed worker's deliveries wait out their lease (10 s), then the sweep (1 s here)."""
SLOTS = 64
"""A worker's job slots (``MAGNATE_WORKER_MAX_JOBS``): at most this many messages in flight per kill."""


@dataclass
class Workers:
    root: Path
    env: dict[str, str]
    running: list[tuple[subprocess.Popen[bytes], IO[bytes]]]
    started: int = 0
    kills: int = 0

    def start(self) -> None:
        self.started += 1
        log = (self.root / f"worker-{self.started}.log").open("ab")
        self.running.append((spawn("worker", self.env, log), log))

    def kill_one(self, rng: random.Random) -> None:
        process, log = self.running.pop(rng.randrange(len(self.running)))
        kill_group(process)
        process.wait(timeout=10)
        log.close()
        self.kills += 1
        self.start()

    def close(self) -> None:
        for process, log in self.running:
            with contextlib.suppress(ProcessLookupError, OSError):
                kill_group(process)
            with contextlib.suppress(subprocess.SubprocessError):
                process.wait(timeout=10)
            log.close()
        self.running = []


@pytest.fixture
def stores() -> Iterator[tuple[Path, Postgres, Redis]]:
    root = Path(tempfile.mkdtemp(prefix="magnate-notify-chaos-"))
    postgres, redis = Postgres(root), Redis(root)
    try:
        postgres.start()
        redis.start()
        yield root, postgres, redis
    finally:
        redis.close()
        postgres.close()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
async def receivers() -> AsyncIterator[tuple[MailInbox, str, WebhookReceiver]]:
    inbox, hooks = MailInbox(), WebhookReceiver()
    async with smtp_serving(inbox) as smtp_url, http_serving(hooks) as hooks_url:
        hooks.url = hooks_url
        yield inbox, smtp_url, hooks


async def setup_players(runtime: Runtime, games: int, hook_url: str) -> list[tuple[str, int]]:
    """Games whose two seats are claimed by two players (each with an email and a webhook), claimed as a claim
    does (the seats' player, the game's cursor at that version); returns (game id, claim version) of each."""
    claimed: list[tuple[str, int]] = []
    options = GameOptions(seats=(SeatSpec(), SeatSpec()))
    for _ in range(games):
        game_id = (await runtime.gameplay.create_game("magnate", options)).game_id
        async with runtime.pool.acquire() as conn, conn.transaction():
            version = await conn.fetchval("SELECT version FROM games WHERE game_id = $1 FOR UPDATE", game_id)
            for seat in (0, 1):
                player = uuid.uuid4().hex
                await conn.execute("INSERT INTO players (player_id, email) VALUES ($1, $2)", player,
                                   f"{player[:12]}@example.test")
                await conn.execute("INSERT INTO webhooks (webhook_id, player_id, url, shape, secret)"
                                   " VALUES ($1, $2, $3, 'json', $4)", player[:16], player, f"{hook_url}/hook",
                                   new_secret())
                await conn.execute("UPDATE seats SET player_id = $3 WHERE game_id = $1 AND seat = $2", game_id,
                                   seat, player)
            await conn.execute("INSERT INTO notice_cursors (game_id, version) VALUES ($1, $2)", game_id, version)
        claimed.append((game_id, version))
    return claimed


async def play(runtime: Runtime, game_ids: list[str], notices_wanted: int) -> int:
    """Random legal moves round the games (system jobs run here when the workers have not yet) until the log
    holds enough notices' worth of moves; returns the moves made."""
    gameplay, game = runtime.gameplay, GAMES["magnate"]
    bot = RandomLegal(11)
    moves = 0
    while moves < notices_wanted * 1.2:
        for game_id in game_ids:
            head = await gameplay.store.head(game_id)
            if head.status != "running":
                continue
            if head.system_job is not None:
                await gameplay.run_system(game_id, head.version, head.system_job)
                continue
            loaded = await gameplay.load(game_id)
            seat = game.pending(loaded.state).seats[0]
            with contextlib.suppress(RuleViolation, ConcurrencyConflict):  # a worker's job moved the game first
                await gameplay.submit(game_id, int(seat), uuid.uuid4().hex, bot(loaded.state, seat))
            moves += 1
        count = await runtime.pool.fetchval("SELECT count(*) FROM notices")
        if count >= notices_wanted:
            break
    return moves


async def expected_notices(runtime: Runtime, claimed: list[tuple[str, int]]) -> set[str]:
    """Every notice id the logs give, derived here from scratch (purely), for the claimed seats."""
    loader = runtime.gameplay.loader
    expected: set[str] = set()
    for game_id, version in claimed:
        players = {r["seat"]: r["player_id"] for r in await runtime.pool.fetch(
            "SELECT seat, player_id FROM seats WHERE game_id = $1", game_id)}
        codec, game = loader.codecs["magnate"], loader.module("magnate")
        stored = await loader.store.read(game_id)
        state = loader.folded(await loader.base(game_id, "magnate", at_most=0),
                              [e for e in stored if e.version <= version]).state
        events = [Logged(e.version, e.command_id, codec.decode_event(e.payload)) for e in stored
                  if e.version > version]
        told, _ = derive(game, game_id, state, events, players)
        expected |= {t.notice_id for t in told}
    return expected


async def drained(pool: asyncpg.Pool) -> bool:
    behind = await pool.fetchval(
        "SELECT count(*) FROM notice_cursors c JOIN games g USING (game_id) WHERE g.version > c.version"
        " OR g.status <> 'running'")
    open_ = await pool.fetchval("SELECT count(*) FROM deliveries WHERE status IN ('pending', 'sending')")
    return behind == 0 and open_ == 0


@pytest.mark.timeout(240 if FULL else 120)
async def test_a_burst_of_notifications_is_delivered_once_each_through_repeated_worker_kills(
        stores: tuple[Path, Postgres, Redis], receivers: tuple[MailInbox, str, WebhookReceiver]) -> None:
    root, postgres, redis = stores
    inbox, smtp_url, hooks = receivers
    queue = f"magnate:notify-chaos:{uuid.uuid4().hex[:8]}"
    conn = await asyncpg.connect(postgres.url)
    try:
        await migrate(conn)
    finally:
        await conn.close()
    env = {**os.environ, "DATABASE_URL": postgres.url, "REDIS_URL": redis.url, "MAGNATE_QUEUE_NAME": queue,
           "SMTP_URL": smtp_url, "MAGNATE_ALLOW_PRIVATE_WEBHOOKS": "true", "MAGNATE_RECONCILE_EVERY_S": "1",
           "MAGNATE_WORKER_MAX_JOBS": str(SLOTS), "PUBLIC_URL": "http://m.test"}
    workers = Workers(root, env, [])
    runtime = await build(Settings(database_url=postgres.url, redis_url=redis.url, queue_name=queue),
                          run_migrations=False)
    rng = random.Random(5)
    try:
        claimed = await setup_players(runtime, GAMES_PLAYED, hooks.url)
        for _ in range(WORKERS):
            workers.start()

        async def kill_repeatedly() -> None:
            for _ in range(KILLS):
                await asyncio.sleep(KILL_EVERY_S)
                workers.kill_one(rng)

        killing = asyncio.create_task(kill_repeatedly())
        started = time.monotonic()
        await play(runtime, [g for g, _ in claimed], NOTICES_WANTED)
        await killing
        last_kill = time.monotonic()
        while not await drained(runtime.pool):
            assert time.monotonic() - last_kill < DRAIN_DEADLINE_S, "deliveries still open after the deadline"
            await asyncio.sleep(0.5)
        took = time.monotonic() - started

        notices = [r["notice_id"] for r in await runtime.pool.fetch("SELECT notice_id FROM notices")]
        assert len(notices) >= NOTICES_WANTED
        assert set(notices) == await expected_notices(runtime, claimed)  # each notice once, none missing
        rows = await runtime.pool.fetch("SELECT delivery_id, channel, status, attempts FROM deliveries")
        assert {r["status"] for r in rows} == {"sent"}
        assert max(r["attempts"] for r in rows) <= MAX_ATTEMPTS
        emails = {r["delivery_id"] for r in rows if r["channel"] == "email"}
        webhooks = {r["delivery_id"] for r in rows if r["channel"] == "webhook"}
        assert len(emails) == len(webhooks) == len(notices)
        assert set(hooks.by_id) == webhooks  # every webhook delivery arrived, by its webhook-id, and no other
        assert {mid.strip("<>").rpartition("@")[0] for mid in inbox.by_id} == emails
        repeats = hooks.repeats + inbox.repeats
        print(f"\n{len(notices)} notices, {len(rows)} deliveries in {took:.1f} s through {workers.kills} kills of "
              f"{WORKERS} workers: {repeats} raw repeat(s) of messages in flight at a kill "
              f"({hooks.repeats} webhook, {inbox.repeats} mail), none lost")
        assert repeats <= workers.kills * SLOTS
    finally:
        workers.close()
        await runtime.close()
