"""One Redis subscription per process for every event stream it serves (issue #16).

A stream used to open a pub/sub connection of its own: 10,000 streams were 10,000 Redis clients (Redis refuses
clients past ``maxclients``, 10,000 by default) and about 26 KiB of API memory each. :class:`Fanout` holds one
``redis.asyncio`` PubSub connection, opened lazily by the first stream, and one task that owns it: it subscribes to
a game's channel while at least one stream of this process watches the game, unsubscribes when the last one leaves,
and wakes every local waiter of a game when a version is announced on its channel. A waiter keeps the highest
version it has passed on, so a wake-up that arrives while its stream is busy (reading the store, writing to its
client) is never lost: the next wait sees the game ahead of it and returns at once.

Nothing is missed between a stream's first read and the subscription either: the waiter is registered before the
stream reads, and when Redis confirms the channel's subscription (the first time, and again after every
reconnection) each waiter of the game is told to re-read the store (a ``None`` tick). While the subscription held
throughout a silent ``timeout_s``, the tick is :data:`QUIET` (nothing can have been missed: a
keep-alive needs no read).

Outages: the connection retries forever with redis-py's own exponential back-off (``Retry``), and redis-py
re-subscribes the PubSub's channels when it reconnects (its ``on_connect``); the confirmations then wake the waiters
to re-read. Only the task touches the connection (subscribing, unsubscribing and reading in turn, a read waiting at
most ``poll_s``), so a reconnection never races a second user of the socket. An error redis-py does not retry ends
the fan-out: its waiters raise :class:`~redis.exceptions.RedisError` (their streams end, the browsers reconnect) and
the next stream starts a new one.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from typing import Any, Literal, TypeAlias

from redis.asyncio import Connection, ConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

POLL_S = 0.05
"""The longest a read of the connection waits before the task looks for (un)subscriptions to send."""
CHUNK = 1000
"""Channels per SUBSCRIBE / UNSUBSCRIBE command."""
BACKOFF = ExponentialBackoff(cap=5.0, base=0.05)
"""Between reconnection attempts: 0.1 s, 0.2 s, ... up to 5 s."""


class Tick(enum.Enum):
    QUIET = "quiet"


QUIET = Tick.QUIET
"""A tick after a silence during which the subscription held: nothing can have been missed."""
Heard: TypeAlias = int | Literal[Tick.QUIET] | None
"""What a listener yields: an announced version; None (re-read the store); QUIET (a keep-alive, nothing missed)."""


class _Game:
    """What the waiters of one channel (a game) share: the highest version announced, how many times the
    subscription was (re)confirmed, and the event that wakes them (replaced after each wake-up)."""

    __slots__ = ("changed", "live", "requested", "resyncs", "version", "waiters")

    def __init__(self) -> None:
        self.version = 0
        self.resyncs = 0
        self.waiters = 0
        self.live = False
        """Redis confirmed the subscription (and the connection has not been re-made since without a new one)."""
        self.requested = False
        """A SUBSCRIBE was sent for this entry."""
        self.changed = asyncio.Event()

    def wake(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()


class Fanout:
    """The process's subscription to the games its streams watch (see the module docstring)."""

    def __init__(self, redis: Redis, client_name: str, poll_s: float = POLL_S) -> None:
        """``redis``: the client whose server (and connection settings) to use; the fan-out opens a connection of
        its own, named ``client_name`` (``CLIENT SETNAME``) so an operator can find it in ``CLIENT LIST``."""
        base = redis.connection_pool
        kwargs: dict[str, Any] = {
            **base.connection_kwargs, "client_name": client_name, "retry": Retry(BACKOFF, -1),
            "retry_on_error": [RedisConnectionError, RedisTimeoutError, OSError],
        }
        self.client_name = client_name
        self._pool = ConnectionPool(connection_class=base.connection_class, max_connections=1, **kwargs)
        self._pubsub = Redis(connection_pool=self._pool).pubsub()
        self._poll_s = poll_s
        self._games: dict[str, _Game] = {}
        self._dirty: set[str] = set()
        """Games whose subscription may have to change."""
        self._sent: set[str] = set()
        """Channels subscribed (as far as the commands sent say)."""
        self._work = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.failure: BaseException | None = None

    @property
    def failed(self) -> bool:
        return self.failure is not None

    def channels(self) -> int:
        """Channels (games) watched by a stream of this process."""
        return len(self._games)

    def announced(self, name: str) -> int:
        """The highest version heard on a watched channel (0: none, or not watched)."""
        game = self._games.get(name)
        return 0 if game is None else game.version

    def listen(self, name: str, timeout_s: float) -> Waiter:
        """A waiter on the channel ``name``, registered now (before the caller's first read of the store)."""
        return Waiter(self, name, timeout_s)

    def join(self, name: str) -> _Game:
        game = self._games.get(name)
        if game is None:
            game = self._games[name] = _Game()
            self._changed(name)
        game.waiters += 1
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="magnate-stream-fanout")
        return game

    def leave(self, name: str, game: _Game) -> None:
        game.waiters -= 1
        if game.waiters <= 0 and self._games.get(name) is game:
            del self._games[name]
            self._changed(name)

    def holds(self, game: _Game) -> bool:
        """The game's subscription is confirmed and its connection up: an announcement cannot have been missed."""
        connection = self._connection()
        return game.live and connection is not None and connection.is_connected

    def _connection(self) -> Connection | None:
        connection: Connection | None = self._pubsub.connection  # redis-py declares it None
        return connection

    def _changed(self, name: str) -> None:
        self._dirty.add(name)
        self._work.set()

    async def aclose(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        else:
            await self._close()

    async def _close(self) -> None:
        await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self._pool.aclose()

    async def _run(self) -> None:
        try:
            while True:
                self._work.clear()
                if not self._dirty and not self._games:
                    await self._work.wait()  # nothing watched: no reason to read
                await self._apply()
                if self._connection() is not None:
                    message = await self._pubsub.get_message(timeout=self._poll_s)
                    if message is not None:
                        self._heard(message)
        except Exception as exc:  # not retried by redis-py: end every stream (they reconnect to a new fan-out)
            log.exception("the event streams' Redis subscription failed")
            self.failure = exc
            for game in self._games.values():
                game.wake()
        finally:
            await asyncio.shield(self._close())

    async def _apply(self) -> None:
        if not self._dirty:
            return
        dirty, self._dirty = self._dirty, set()
        subscribe, unsubscribe = [], []
        for name in dirty:
            game = self._games.get(name)
            if game is not None:
                if not game.live and not game.requested:
                    game.requested = True
                    subscribe.append(name)
                    self._sent.add(name)
            elif name in self._sent:
                self._sent.discard(name)
                unsubscribe.append(name)
        for start in range(0, len(subscribe), CHUNK):
            await self._pubsub.subscribe(*subscribe[start:start + CHUNK])
        for start in range(0, len(unsubscribe), CHUNK):
            await self._pubsub.unsubscribe(*unsubscribe[start:start + CHUNK])

    def _heard(self, message: dict[str, Any]) -> None:
        name = message["channel"]
        game = self._games.get(name.decode() if isinstance(name, bytes) else str(name))
        if game is None:
            return
        if message["type"] == "message":
            try:
                version = int(message["data"])
            except (TypeError, ValueError):
                return
            if version > game.version:
                game.version = version
                game.wake()
        elif message["type"] == "subscribe":  # first subscription, or re-subscribed after a reconnection
            game.live = True
            game.resyncs += 1
            game.wake()


class Waiter:
    """One stream's view of its game: yields each new version announced, ``None`` when it must re-read the store,
    :data:`QUIET` after ``timeout_s`` of silence with nothing missed. Registered on creation,
    unregistered by :meth:`aclose` (which never waits, so a cancelled stream still leaves)."""

    def __init__(self, fanout: Fanout, name: str, timeout_s: float) -> None:
        self._fanout, self._name, self._timeout_s = fanout, name, timeout_s
        self._game: _Game | None = fanout.join(name)
        self._version, self._resyncs = self._game.version, self._game.resyncs

    def __aiter__(self) -> Waiter:
        return self

    async def __anext__(self) -> Heard:
        game = self._game
        if game is None:
            raise StopAsyncIteration
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._timeout_s
        while True:
            if self._fanout.failure is not None:
                raise RedisError(f"the event streams' subscription failed: {self._fanout.failure}")
            if game.version > self._version:
                self._version = game.version
                return self._version
            if game.resyncs > self._resyncs:
                self._resyncs = game.resyncs
                return None
            remaining = deadline - loop.time()
            if remaining <= 0:
                return QUIET if self._fanout.holds(game) else None
            try:
                async with asyncio.timeout(remaining):
                    await game.changed.wait()
            except TimeoutError:
                pass

    async def aclose(self) -> None:
        game, self._game = self._game, None
        if game is not None:
            self._fanout.leave(self._name, game)
