"""The checkpointed projector: notices and their deliveries, caught up from the log of every watched game.

A game is watched while it has a claimed seat: claiming one makes its cursor at the claim's version. For each
game whose head is past its cursor (:meth:`infra.notifications.Watch.moved`), :meth:`Projector.project` runs ONE
store transaction: hold the cursor (:meth:`~infra.notifications.Watch.hold`: several workers project side by side,
each game by one of them at a time, the others skip it), read with it the head and the claimed seats (a consistent
snapshot: a seat claimed later is not told what came before), fold the new events onto the state at the cursor,
derive the notices (:mod:`.derive`), keep those the players want (:mod:`.preferences`), write them and the
deliveries they need (:mod:`.outbox`), and move the cursor to the head — or drop it when the game has ended, since
nothing will follow. The cursor moving in the transaction that writes the notices is what makes the projection
exactly-once: a projector killed before the commit leaves nothing and the next one does it all; after it, the
cursor says it is done. Ids are deterministic as well (``<game_id>.<version>.<seat>.<kind>``), so even a second
projection of the same versions would write nothing new.

After the commit the new deliveries are queued and the players' pages told (:mod:`infra.notifications.dispatch`);
both may be lost and are made good by :mod:`.sweep`. Each projector keeps the state it reached per game, so the
next run folds only the new events.

When to project: :func:`keep_projecting` is woken by the appends' own announcement (the deployment's news,
:mod:`infra.news`, published in the round trip that tells the event streams) and projects the games it names;
when its subscription is (re)made it catches up on every watched game that lags. An announcement lost by its
publisher is made good by the worker's periodic reconcile (:meth:`Projector.catch_up`). There is no polling loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection
from datetime import UTC, datetime
from typing import Any, Protocol

import msgspec
from cachetools import LRUCache
from redis.exceptions import RedisError

from domain.kernel.table import Rewound
from infra.news import CATCH_UP, News
from infra.notifications import STORE_FAILURES, Channels, Inbox, Outbox
from infra.notifications.base import NotificationStore
from infra.notifications.dispatch import Dispatch
from services.gameplay.cache import Loaded
from services.gameplay.loader import GameLoader

from . import preferences
from .derive import Logged, Told, derive, undone_before
from .outbox import plan, unique
from .seen import Present, at_the_page

log = logging.getLogger("magnate.notify")

BATCH = 64
"""Games looked at per round."""
STATES_KEPT = 4096
LISTEN_AGAIN_S = 1.0
"""The pause before listening again to news whose subscription failed for good (redis-py retries a lost
connection by itself)."""

PG_FAILURES: tuple[type[BaseException], ...] = (*STORE_FAILURES, RedisError)
"""A store away: the round fails as a whole (and is tried again), rather than skipping game after game."""


class NoticeWriter(Inbox, Outbox, Channels, Protocol):
    """What writing notices and their deliveries needs (a transaction of the store)."""


class Projected(msgspec.Struct, frozen=True):
    """What one projection of one game wrote."""

    game_id: str
    version: int
    notices: tuple[Told, ...]
    deliveries: tuple[tuple[str, datetime], ...]
    """(delivery id, due at) of the deliveries it created."""


class Projector:
    def __init__(self, store: NotificationStore, loader: GameLoader, dispatch: Dispatch, *,
                 batch: int = BATCH, clock: Callable[[], datetime] = lambda: datetime.now(UTC),
                 presence: Present | None = None) -> None:
        """``presence``: whose game page is open (their notices are written read, :mod:`.seen`); None: nobody's."""
        self._store = store
        self._presence = presence
        self._loader = loader
        self._dispatch = dispatch
        self._batch = batch
        self._clock = clock
        self._states: LRUCache[str, Loaded] = LRUCache(maxsize=STATES_KEPT)
        self.on_over: Callable[[str], Awaitable[object]] | None = None
        """Told of each watched game that has ended, before its cursor is dropped (the ratings settle it): a
        failure leaves the cursor, so the next round tells it again; it must be idempotent."""

    async def run_once(self, among: Collection[str] | None = None) -> list[Projected]:
        """Project every watched game that has moved (up to the batch), or those of ``among`` (the games an
        announcement named, however many); returns what was written."""
        done: list[Projected] = []
        if among is None:
            moved = await self._store.moved(self._batch)
        else:
            moved = await self._store.moved(len(among), sorted(among)) if among else []
        for game_id in moved:
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

    async def catch_up(self) -> int:
        """Project every watched game that lags, batch after batch, until none does (or the ones left are held
        by other projectors or cannot be projected); returns how many projections wrote something."""
        count = 0
        while done := await self.run_once():
            count += len(done)
        return count

    async def project(self, game_id: str) -> Projected | None:
        """Project one game from its cursor to its head (None if another projector holds it or it is current)."""
        async with self._store.transaction() as tx:
            held = await tx.hold(game_id)
            if held is None:
                return None
            cursor, head = held.cursor, held.head
            told: list[Told] = []
            created: list[tuple[str, datetime]] = []
            if head > cursor:
                told, state = await self._derive(game_id, held.game_type, cursor, head, held.claimed)
                seen = await at_the_page(self._presence, game_id, (t.seat for t in told))
                created = await store_notices(tx, game_id, told, self._clock(), seen)
            if held.over:
                if self.on_over is not None:
                    await self.on_over(game_id)
                await tx.forget(game_id)
            else:
                await tx.advance(game_id, head)
        if head > cursor:
            self._states[game_id] = Loaded(held.game_type, head, state)
        if created:
            await self._dispatch.enqueue(created)
        if told:
            await self._dispatch.announce(t.player_id for t in told)
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
        try:
            state = loader.folded(base, before).state
        except Rewound:  # the events up to the cursor take back moves before the state held
            state = (await loader.state_at(game_id, game_type, cursor)).state
        events = [Logged(e.version, e.command_id, codec.decode_event(e.payload)) for e in stored
                  if e.version > cursor]
        undone = {v: (await loader.state_at(game_id, game_type, v - 1)).state for v in undone_before(events)}
        return derive(game, game_id, state, events, claimed, undone)


async def store_notices(store: NoticeWriter, game_id: str, told: list[Told], now: datetime,
                        seen: Collection[int] = (), unmailed: Collection[str] = ()) -> list[tuple[str, datetime]]:
    """Keep the notices their players want (in place), insert them and their deliveries; returns the deliveries
    that are new. Notices of the ``seen`` seats (their game page is open, :mod:`.seen`) are written read; those
    of ``unmailed`` (notice ids) get no mail (:mod:`.reminders`: one mail per turn)."""
    if not told:
        return []
    prefs = await preferences.load_many(store, (t.player_id for t in told))
    told[:] = [t for t in told if prefs[t.player_id].wants(t.kind, game_id)]
    players = sorted({t.player_id for t in told})
    reach = await store.reach(players)
    deliveries = unique(d for t in told
                        for d in plan(t, prefs[t.player_id], reach[t.player_id], now, mail=t.notice_id not in unmailed))
    await store.write_notices(told)
    for player in players:
        read = [t.notice_id for t in told if t.player_id == player and t.seat in seen]
        if read:  # never empty: an empty list would mark every notice of the player read
            await store.mark_read(player, read)
    return await store.write_deliveries(deliveries)


async def keep_projecting(projector: Projector, news: News) -> None:
    """Until cancelled: project the games the news names as it comes, and catch up on every lagging game when the
    subscription is (re)made (announcements may have been missed). A failed round (a store away) is logged once and
    leaves the projector behind: the next news makes it catch up on every game. A failed subscription is listened
    to again after a pause (and caught up on when it is made again). The periodic reconcile
    (:meth:`Projector.catch_up`) makes good whatever a failure with no news after it left behind."""
    failing = False
    while True:
        try:
            async for heard in news.listen():
                try:
                    if heard is CATCH_UP or failing:
                        await projector.catch_up()
                    else:
                        await projector.run_once(heard)
                except PG_FAILURES as exc:
                    if not failing:
                        log.warning("notification projector paused: %s", exc)
                    failing = True
                else:
                    failing = False
        except (RedisError, OSError) as exc:
            log.warning("the projector's news subscription failed (%s); listening again", exc)
        await asyncio.sleep(LISTEN_AGAIN_S)
