"""The notifications service over its twins (no PostgreSQL, no Redis): the in-memory store and dispatch, a gameplay
service over the in-memory event store, a mailbox that keeps what it is given, a presence the test sets, and
webhooks answered by an in-process HTTP transport. The twin's game facts (heads, seats, cursors) are what the event
store and a claim keep in production: :meth:`Twins.sync` copies them."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import httpx

from domain.games import GAMES
from domain.magnate import GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from infra.channels.mail import Mail
from infra.config import Settings
from infra.eventstore.memory import InMemoryEventStore
from infra.notifications.dispatch import RecordingDispatch
from infra.notifications.memory import InMemoryNotificationStore
from infra.notify import RecordingNotifier
from infra.queue import RecordingJobQueue
from services.gameplay import Gameplay
from services.notifications.context import assemble

TWO_HUMANS = GameOptions(seats=(SeatSpec(), SeatSpec()))


class Mailbox:
    def __init__(self) -> None:
        self.sent: list[Mail] = []

    async def send(self, mail: Mail) -> None:
        self.sent.append(mail)


class Here:
    """Who has a live page open (the keys of :mod:`infra.presence`)."""

    def __init__(self) -> None:
        self.keys: set[str] = set()

    async def present(self, *keys: str) -> bool:
        return any(k in self.keys for k in keys)


class Twins:
    def __init__(self, answer: Callable[[httpx.Request], httpx.Response] | None = None) -> None:
        self.events = InMemoryEventStore()
        self.gameplay = Gameplay(self.events, RecordingJobQueue(), RecordingNotifier(), GAMES)
        self.skew = timedelta(0)
        """How far the store's clock is ahead of the wall clock (a back-off waited out at once)."""
        self.store = InMemoryNotificationStore(clock=lambda: datetime.now(UTC) + self.skew)
        self.dispatch = RecordingDispatch()
        self.mail = Mailbox()
        self.here = Here()
        self.posted: list[httpx.Request] = []

        def handle(request: httpx.Request) -> httpx.Response:
            self.posted.append(request)
            return answer(request) if answer is not None else httpx.Response(204)

        http = httpx.AsyncClient(transport=httpx.MockTransport(handle))
        settings = Settings(public_url="http://magnate.test", secret_key="test-secret", allow_private_webhooks=True,
                            webhook_failures_max=2)
        self.notifications = assemble(settings, self.store, self.dispatch, self.here, self.gameplay, self.mail,
                                      http=http)

    def player(self, name: str = "bea", language: str | None = None) -> str:
        player_id = uuid.uuid4().hex
        self.store.add_player(player_id, f"{name}-{player_id[:6]}@example.test", language)
        return player_id

    async def game(self) -> str:
        return (await self.gameplay.create_game("magnate", TWO_HUMANS)).game_id

    async def claim(self, game_id: str, seat: int, player_id: str) -> None:
        """What a claim does: the seat is the player's, and the projector watches the game from now."""
        head = await self.events.head(game_id)
        self.store.put_seat(game_id, seat, player_id)
        self.store.watch(game_id, head.version)
        await self.sync(game_id)

    async def sync(self, game_id: str) -> None:
        head = await self.events.head(game_id)
        self.store.put_game(game_id, head.game_type, head.version, head.status, head.on_turn)

    async def play_until_turn_of(self, game_id: str, seat: int) -> None:
        gameplay = self.gameplay
        for _ in range(400):
            head = await self.events.head(game_id)
            if head.system_job is not None:
                await gameplay.run_system(game_id, head.version, head.system_job)
            else:
                loaded = await gameplay.load(game_id)
                mover = GAMES["magnate"].pending(loaded.state).seats[0]
                await gameplay.submit(game_id, int(mover), uuid.uuid4().hex, RandomLegal(3)(loaded.state, mover))
            if seat in (await self.events.head(game_id)).on_turn:
                await self.sync(game_id)
                return
        raise AssertionError(f"seat {seat} never came on turn")

    async def waiting_for(self, player_id: str) -> tuple[str, int]:
        """A new game whose seat held by the player has just come on turn, projected."""
        game_id = await self.game()
        seat = 1 if 1 not in (await self.events.head(game_id)).on_turn else 0
        await self.claim(game_id, seat, player_id)
        await self.play_until_turn_of(game_id, seat)
        await self.notifications.projector.run_once()
        return game_id, seat
