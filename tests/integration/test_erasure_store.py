"""Erasing an account on the REAL PostgreSQL (:class:`infra.accounts.erasure.PostgresErasure`): every row that is the
player's goes (whatever table keys it by the player), their sessions on every device go, their seats and chat lines
stay under "Player N" linked to nobody, the game's log is untouched, and other players keep everything."""

from __future__ import annotations

import asyncpg
import pytest

from infra.accounts import PlayerStore
from infra.accounts.erasure import PostgresErasure
from infra.accounts.vacations import VacationStore
from infra.eventstore.postgres import PostgresEventStore
from infra.eventstore.tables import PostgresTables
from infra.notes import PostgresNotes

from .store_records import new_id
from .table_world import World

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
