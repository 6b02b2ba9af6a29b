"""Fixtures of the notification tests: a database and queue of the module's own (the projector reads every
watched game of its database), a real SMTP server and webhook receiver on loopback, players, claimed seats and
games moved until a given seat is on turn."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from bench.receivers import MailInbox, WebhookReceiver, http_serving, smtp_serving
from domain.games import GAMES
from domain.magnate import GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from infra.config import Settings
from services.gameplay.bootstrap import Runtime
from services.notifications.context import Notifications

from .store_world import world  # noqa: F401 (the contract suites' parametrised store, a fixture)

TWO_HUMANS = GameOptions(seats=(SeatSpec(), SeatSpec()))


@pytest.fixture
async def inbox() -> AsyncIterator[tuple[MailInbox, str]]:
    inbox = MailInbox()
    async with smtp_serving(inbox) as url:
        yield inbox, url


@pytest.fixture
async def hooks() -> AsyncIterator[WebhookReceiver]:
    receiver = WebhookReceiver()
    async with http_serving(receiver) as url:
        receiver.url = url
        yield receiver


@pytest.fixture
def settings(own_dsn: str, redis_url: str, queue_name: str, inbox: tuple[MailInbox, str]) -> Settings:
    return Settings(database_url=own_dsn, redis_url=redis_url, queue_name=queue_name, smtp_url=inbox[1],
                    allow_private_webhooks=True, webhook_failures_max=3, public_url="http://magnate.test",
                    secret_key="test-secret")


@pytest.fixture
async def notifications(settings: Settings, runtime: Runtime) -> Notifications:
    """The runtime's notifications service (built once with it, over the module's ``settings``)."""
    await runtime.pool.execute("DELETE FROM notice_cursors")  # earlier tests' games stay in the module's database
    return runtime.notifications


async def new_player(runtime: Runtime, name: str = "") -> str:
    player_id = uuid.uuid4().hex
    await runtime.pool.execute("INSERT INTO players (player_id, email, name) VALUES ($1, $2, $3)",
                               player_id, f"{name or 'p'}-{player_id[:6]}@example.test", name or "player")
    return player_id


async def claim(runtime: Runtime, game_id: str, seat: int, player_id: str) -> int:
    """Bind a seat to a player as a claim does (the seat's player, the game's cursor at its current version);
    returns that version."""
    async with runtime.pool.acquire() as conn, conn.transaction():
        version: int = await conn.fetchval("SELECT version FROM games WHERE game_id = $1 FOR UPDATE", game_id)
        await conn.execute("UPDATE seats SET player_id = $3 WHERE game_id = $1 AND seat = $2", game_id, seat,
                           player_id)
        await conn.execute("INSERT INTO notice_cursors (game_id, version) VALUES ($1, $2)"
                           " ON CONFLICT (game_id) DO NOTHING", game_id, version)
    return version


async def new_game(runtime: Runtime, seed: bytes | None = None) -> str:
    return (await runtime.gameplay.create_game("magnate", TWO_HUMANS, seed=seed)).game_id


async def on_turn(runtime: Runtime, game_id: str) -> tuple[int, ...]:
    return (await runtime.gameplay.store.head(game_id)).on_turn


async def move(runtime: Runtime, game_id: str, policy_seed: int = 3) -> None:
    """One move: the due system job, or the first seat on turn plays a random legal command."""
    gameplay = runtime.gameplay
    head = await gameplay.store.head(game_id)
    if head.system_job is not None:
        await gameplay.run_system(game_id, head.version, head.system_job)
        return
    loaded = await gameplay.load(game_id)
    seat = GAMES["magnate"].pending(loaded.state).seats[0]
    await gameplay.submit(game_id, int(seat), uuid.uuid4().hex, RandomLegal(policy_seed)(loaded.state, seat))


async def play_until_turn_of(runtime: Runtime, game_id: str, seat: int) -> None:
    """Move the game on (at least once) until ``seat`` is on turn."""
    for _ in range(400):
        await move(runtime, game_id)
        if seat in await on_turn(runtime, game_id):
            return
    raise AssertionError(f"seat {seat} never came on turn")
