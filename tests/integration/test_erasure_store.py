"""Erasing an account on the REAL PostgreSQL (:class:`infra.accounts.erasure.PostgresErasure`): every row that is the
player's goes (whatever table keys it by the player), their sessions on every device go, their seats and chat lines
stay under "Player N" linked to nobody, the game's log is untouched, and other players keep everything."""

from __future__ import annotations

import asyncpg
import pytest

from infra.accounts import InMemoryPlayerStore, PlayerStore
from infra.accounts.erasure import Erasure, InMemoryErasure, PostgresErasure
from infra.accounts.vacations import InMemoryVacations, VacationStore
from infra.channels.push import PushSubscription
from infra.chat import ChatLines, InMemoryChatStore, PostgresChatStore
from infra.eventstore.memory import InMemoryEventStore
from infra.eventstore.postgres import PostgresEventStore
from infra.eventstore.tables import PostgresTables
from infra.notes import InMemoryNotes, PostgresNotes
from infra.notifications import NotificationStore
from infra.notifications.memory import InMemoryNotificationStore
from infra.notifications.postgres import PostgresNotificationStore
from infra.notifications.records import Settings

from .store_records import new_id
from .table_world import World, world_of

pytestmark = pytest.mark.integration


async def own_rows(pool: asyncpg.Pool, player_id: str) -> dict[str, int]:
    counts = {}
    for table in ("notes", "notices", "deliveries", "notification_settings", "webhooks", "push_subscriptions",
                  "vacations"):
        counts[table] = await pool.fetchval(f"SELECT count(*) FROM {table} WHERE player_id = $1", player_id)
    return counts


async def give_everything(pool: asyncpg.Pool, player_id: str, game_id: str, seat: int, name: str) -> None:
    await PostgresNotes(pool).put(player_id, game_id, seat, "secret")
    await pool.execute("INSERT INTO notices (notice_id, player_id, game_id, seat, version, kind, text) VALUES "
                       "($1, $2, $3, 1, 1, 'your_turn', 'x')", f"n-{new_id()}", player_id, game_id)
    await pool.execute("INSERT INTO deliveries (delivery_id, player_id, channel, target, status) VALUES "
                       "($1, $2, 'email', 'a@example.org', 'pending')", f"d-{new_id()}", player_id)
    await pool.execute("INSERT INTO notification_settings (player_id) VALUES ($1)", player_id)
    await pool.execute("INSERT INTO webhooks (webhook_id, player_id, url, shape, secret) VALUES "
                       "($1, $2, 'https://hooks.example/x', 'json', 'whsec_x')", f"w-{new_id()}", player_id)
    await pool.execute("INSERT INTO push_subscriptions (endpoint_id, player_id, endpoint, p256dh, auth) VALUES "
                       "($1, $2, 'https://push.example/x', 'k', 'a')", f"e-{new_id()}", player_id)
    await pool.execute("INSERT INTO vacations (vacation_id, player_id, starts_at, ends_at) VALUES "
                       "($1, $2, now(), now() + interval '1 day')", f"v-{new_id()}", player_id)
    await pool.execute("INSERT INTO chat_lines (game_id, seq, seat, player_id, name, text) VALUES "
                       "($1, (SELECT coalesce(max(seq), 0) + 1 FROM chat_lines WHERE game_id = $1), $3, $2, $4, 'hi')",
                       game_id, player_id, seat, name)
    await pool.execute("INSERT INTO web_sessions (key, value) VALUES ($1, $2)", f"s-{new_id()}",
                       f'{{"player_id":"{player_id}","csrf":"t"}}'.encode())


async def test_an_erasure_deletes_the_players_rows_and_leaves_their_seats_anonymous(pg_pool: asyncpg.Pool) -> None:
    world = World(PostgresEventStore(pg_pool), PostgresTables(pg_pool), VacationStore(pg_pool), PlayerStore(pg_pool))
    email = f"quux-{new_id()}@example.org"
    gone, kept = await world.player(email), await world.player(f"kept-{new_id()}@example.org")
    game = await world.game()
    await world.claim(game, 1, gone, None, "Quux")
    await world.claim(game, 0, kept, None, "Kept")
    await give_everything(pg_pool, gone, game, 1, "Quux")
    await give_everything(pg_pool, kept, game, 0, "Kept")
    log_before = await pg_pool.fetch("SELECT version, payload, hash FROM events WHERE game_id = $1 ORDER BY 1", game)
    erasure = PostgresErasure(pg_pool)
    assert await erasure.created_at(gone) is not None

    erased = await erasure.erase(gone)
    assert erased is not None and erased.seats == ((game, 1),)
    assert set((await own_rows(pg_pool, gone)).values()) == {0}
    assert set((await own_rows(pg_pool, kept)).values()) == {1}, "another player keeps everything"
    assert await PlayerStore(pg_pool).get(gone) is None and await erasure.created_at(gone) is None
    assert await pg_pool.fetchval("SELECT count(*) FROM sign_in_links WHERE email = $1", email) == 0
    sessions = await pg_pool.fetch("SELECT value FROM web_sessions")
    assert not any(gone.encode() in bytes(r["value"]) for r in sessions)
    assert any(kept.encode() in bytes(r["value"]) for r in sessions)
    seats = {s.seat: s for s in await world.events.seats(game)}
    assert (seats[1].name, seats[1].player_id) == ("Player 2", None)
    assert (seats[0].name, seats[0].player_id) == ("Kept", kept)
    chat = await pg_pool.fetch("SELECT seat, player_id, name FROM chat_lines WHERE game_id = $1 ORDER BY seq", game)
    assert [(r["seat"], r["player_id"], r["name"]) for r in chat] == [(1, None, "Player 2"), (0, kept, "Kept")]
    assert await pg_pool.fetch("SELECT version, payload, hash FROM events WHERE game_id = $1 ORDER BY 1",
                               game) == log_before, "the log is never rewritten"
    assert await erasure.erase(gone) is None, "erasing twice changes nothing"


@pytest.fixture(params=["memory", "postgres"])
def erasing(request: pytest.FixtureRequest) -> tuple[World, Erasure, ChatLines, NotificationStore]:
    """An erasure over its event store, chat and notification store: PostgreSQL's, or the twins' (held to the same
    contract: what the in-memory runtime deletes is what PostgreSQL deletes)."""
    world = world_of(request)
    if request.param == "memory":
        assert isinstance(world.events, InMemoryEventStore) and isinstance(world.vacations, InMemoryVacations)
        assert isinstance(world.players, InMemoryPlayerStore)
        chat = InMemoryChatStore()
        inbox = InMemoryNotificationStore()
        erasure: Erasure = InMemoryErasure(world.players, world.events, world.vacations,
                                           InMemoryNotes(_known), chat, inbox)
        return world, erasure, chat, inbox
    pool = request.getfixturevalue("pg_pool")
    return world, PostgresErasure(pool), PostgresChatStore(pool), PostgresNotificationStore(pool)


async def _known(game_id: str) -> bool:
    return True


async def test_an_erasure_reaches_the_chat_and_the_notifications_on_both_sides(
    erasing: tuple[World, Erasure, ChatLines, NotificationStore]
) -> None:
    world, erasure, chat, inbox = erasing
    if isinstance(inbox, InMemoryNotificationStore):  # the players live in another store in production
        inbox.add_player(gone := await world.player(f"gone-{new_id()}@example.org"), "gone@example.org")
        inbox.add_player(kept := await world.player(f"kept-{new_id()}@example.org"), "kept@example.org")
    else:
        gone = await world.player(f"gone-{new_id()}@example.org")
        kept = await world.player(f"kept-{new_id()}@example.org")
    game = await world.game()
    await world.claim(game, 1, gone, None, "Quux")
    await world.claim(game, 0, kept, None, "Kept")
    for player, seat, name in ((gone, 1, "Quux"), (kept, 0, "Kept")):
        assert (await chat.post(game, seat, player, name, "hi", 0)).line is not None
        await inbox.save_settings(player, Settings(email_mode="digest"))
        assert await inbox.add_webhook(f"w-{new_id()}", player, "https://hooks.example/x", "json", "s", 5)
        await inbox.keep_device(player, f"e-{player}", PushSubscription("https://push.example/x", "k", "a"), 5)

    assert await erasure.erase(gone) is not None
    assert [(line.seat, line.name) for line in await chat.lines(game)] == [(1, "Player 2"), (0, "Kept")]
    assert set(await inbox.settings([gone, kept])) == {kept}
    assert await inbox.webhooks(gone) == [] and len(await inbox.webhooks(kept)) == 1
    assert await inbox.device(gone, f"e-{gone}") is None and await inbox.device(kept, f"e-{kept}") is not None
    assert await inbox.email_of(gone) is None and await inbox.email_of(kept) is not None
