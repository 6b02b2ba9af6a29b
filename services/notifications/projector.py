"""The checkpointed projector: notices and their deliveries, caught up from the log of every watched game.

A game is watched while it has a claimed seat: claiming one writes its ``notice_cursors`` row at the claim's
version. For each game whose ``games.version`` is past its cursor, :meth:`Projector.project` runs ONE
transaction: lock the cursor row (``FOR UPDATE SKIP LOCKED``: several workers project side by side, each game by
one of them at a time), read the head and the claimed seats in the same statement (a consistent snapshot: a seat
claimed later is not told what came before), fold the new events onto the state at the cursor, derive the
notices (:mod:`.derive`), keep those the players want (:mod:`.preferences`), write them and the deliveries they
need (:mod:`.outbox`), and move the cursor to the head — or drop it when the game has ended, since nothing will
follow. The cursor moving in the transaction that writes the notices is what makes the projection exactly-once:
a projector killed before the commit leaves nothing and the next one does it all; after it, the cursor says
it is done. Ids are deterministic as well (``<game_id>.<version>.<seat>.<kind>``), so even a second projection
of the same versions would write nothing new.

After the commit the new deliveries are queued and the players' pages told (:mod:`.dispatch`); both may be lost
and are made good by :mod:`.sweep`. Each projector keeps the state it reached per game, so the next run folds
only the new events.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import asyncpg
import msgspec
from arq.connections import ArqRedis
from cachetools import LRUCache
from redis.asyncio import Redis
from redis.exceptions import RedisError

from infra.errors import StoreUnavailable
from services.gameplay.cache import Loaded
from services.gameplay.loader import GameLoader

from . import dispatch, preferences
from .db import Conn
from .derive import Logged, Told, derive
from .outbox import Delivery, plan, reach_of, unique

log = logging.getLogger("magnate.notify")

BATCH = 64
"""Games looked at per round."""
STATES_KEPT = 4096

_CANDIDATES = """
SELECT c.game_id FROM notice_cursors c JOIN games g USING (game_id)
WHERE g.version > c.version OR g.status <> 'running'
LIMIT $1
"""
_LOCK = """
SELECT c.version AS cursor, g.version AS head, g.game_type, g.status,
       coalesce((SELECT array_agg(s.seat ORDER BY s.seat) FROM seats s
                 WHERE s.game_id = g.game_id AND s.player_id IS NOT NULL), '{}') AS seats,
       coalesce((SELECT array_agg(s.player_id ORDER BY s.seat) FROM seats s
                 WHERE s.game_id = g.game_id AND s.player_id IS NOT NULL), '{}') AS players
FROM notice_cursors c JOIN games g USING (game_id)
WHERE c.game_id = $1
FOR UPDATE OF c SKIP LOCKED
"""
_NOTICES = """
INSERT INTO notices (notice_id, player_id, game_id, seat, version, kind, text)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[])
ON CONFLICT (notice_id) DO NOTHING
"""
_DELIVERIES = """
INSERT INTO deliveries (delivery_id, player_id, channel, target, notice_id, status, due_at)
SELECT d, p, c, t, n, 'pending', due
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[]) AS x(d, p, c, t, n, due)
ON CONFLICT (delivery_id) DO NOTHING
RETURNING delivery_id, due_at
"""

PG_FAILURES = (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, StoreUnavailable, RedisError)


class Projected(msgspec.Struct, frozen=True):
    """What one projection of one game wrote."""

    game_id: str
    version: int
    notices: tuple[Told, ...]
    deliveries: tuple[tuple[str, datetime], ...]
    """(delivery id, due at) of the deliveries it created."""


class Projector:
    def __init__(self, pool: asyncpg.Pool, loader: GameLoader, arq: ArqRedis, redis: Redis, *,
                 batch: int = BATCH, clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self._pool = pool
        self._loader = loader
        self._arq = arq
        self._redis = redis
        self._batch = batch
        self._clock = clock
        self._states: LRUCache[str, Loaded] = LRUCache(maxsize=STATES_KEPT)

    async def run_once(self) -> list[Projected]:
        """Project every watched game that has moved (up to the batch); returns what was written."""
        ids = [r["game_id"] for r in await self._pool.fetch(_CANDIDATES, self._batch)]
        done: list[Projected] = []
        for game_id in ids:
            try:
                projected = await self.project(game_id)
            except PG_FAILURES:
                raise
            except Exception:  # a game that cannot be projected must not hold back every other game's notices
                log.exception("cannot project the notices of game %s", game_id)
                continue
            if projected is not None:
                done.append(projected)
        return done

    async def project(self, game_id: str) -> Projected | None:
        """Project one game from its cursor to its head (None if another projector holds it or it is current)."""
        async with self._pool.acquire() as conn, conn.transaction():
            row = await conn.fetchrow(_LOCK, game_id)
            if row is None:
                return None
            cursor, head, over = row["cursor"], row["head"], row["status"] != "running"
            told: list[Told] = []
            created: list[tuple[str, datetime]] = []
            if head > cursor:
                claimed = dict(zip(row["seats"], row["players"], strict=True))
                told, state = await self._derive(game_id, row["game_type"], cursor, head, claimed)
                created = await self._write(conn, game_id, told)
            if over:
                await conn.execute("DELETE FROM notice_cursors WHERE game_id = $1", game_id)
            else:
                await conn.execute("UPDATE notice_cursors SET version = $2 WHERE game_id = $1", game_id, head)
        if head > cursor:
            self._states[game_id] = Loaded(row["game_type"], head, state)
        if created:
            await dispatch.enqueue(self._arq, created)
        if told:
            await dispatch.announce(self._redis, (t.player_id for t in told))
        return Projected(game_id, head, tuple(told), tuple(created))

    async def _derive(
        self, game_id: str, game_type: str, cursor: int, head: int, claimed: dict[int, str]
    ) -> tuple[list[Told], Any]:
        loader = self._loader
        codec, game = loader.codecs[game_type], loader.module(game_type)
        base = self._states.get(game_id)
        if base is None or base.version != cursor:
            base = await loader.base(game_id, game_type, at_most=cursor)
        stored = await loader.store.read(game_id, after=base.version, until=head, known=True)
        before = [e for e in stored if e.version <= cursor]
        state = loader.folded(base, before).state
        events = [Logged(e.version, e.command_id, codec.decode_event(e.payload)) for e in stored
                  if e.version > cursor]
        return derive(game, game_id, state, events, claimed)

    async def _write(self, conn: Conn, game_id: str, told: list[Told]) -> list[tuple[str, datetime]]:
        return await store_notices(conn, game_id, told, self._clock())


async def store_notices(conn: Conn, game_id: str, told: list[Told], now: datetime) -> list[tuple[str, datetime]]:
    """Keep the notices their players want (in place), insert them and their deliveries; returns the deliveries
    that are new."""
    if not told:
        return []
    prefs = await preferences.load_many(conn, (t.player_id for t in told))
    told[:] = [t for t in told if prefs[t.player_id].wants(t.kind, game_id)]
    players = sorted({t.player_id for t in told})
    reach = await reach_of(conn, players)
    deliveries = unique(d for t in told for d in plan(t, prefs[t.player_id], reach[t.player_id], now))
    await write_notices(conn, told)
    return await write_deliveries(conn, deliveries)


async def write_notices(conn: Conn, told: Sequence[Told]) -> None:
    await conn.execute(_NOTICES, [t.notice_id for t in told], [t.player_id for t in told],
                       [t.game_id for t in told], [t.seat for t in told], [t.version for t in told],
                       [t.kind for t in told], [t.text for t in told])


async def write_deliveries(conn: Conn, deliveries: Sequence[Delivery]) -> list[tuple[str, datetime]]:
    """Insert deliveries (a repeat of an id is ignored); returns (id, due at) of the new ones."""
    if not deliveries:
        return []
    rows = await conn.fetch(_DELIVERIES, [d.delivery_id for d in deliveries], [d.player_id for d in deliveries],
                            [d.channel for d in deliveries], [d.target for d in deliveries],
                            [d.notice_id for d in deliveries], [d.due_at for d in deliveries])
    return [(r["delivery_id"], r["due_at"]) for r in rows]


async def keep_projecting(projector: Projector, poll_s: float) -> None:
    """Until cancelled: project, and wait ``poll_s`` when a round found less than a batch to do. A failed round
    (a store away) is logged once and tried again."""
    failing = False
    while True:
        try:
            done = await projector.run_once()
        except PG_FAILURES as exc:
            if not failing:
                log.warning("notification projector paused: %s", exc)
            failing, done = True, []
        else:
            failing = False
        if not done:
            await asyncio.sleep(poll_s)
