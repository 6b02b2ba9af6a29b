"""Migration 018 (the takeback notices become kinds a player chooses): a player who saved settings before it keeps
being told takebacks, as they were before (always), and can untick them now; a player without settings is told them
by the column's default."""

from __future__ import annotations

import pytest

from infra.migrate import migrate
from infra.notifications import DEFAULT_KINDS

from .harness import migrated_database

pytestmark = [pytest.mark.integration]

BEFORE = """
ALTER TABLE notification_settings ALTER COLUMN kinds SET DEFAULT '{your_turn,outbid,market,game_over,deadline}';
DELETE FROM schema_migrations WHERE name = '018_takeback_kinds.sql';
"""


async def test_the_players_settings_gain_the_takeback_kinds_and_the_default_has_them(pg_dsn: str) -> None:
    async with migrated_database(pg_dsn, pool_size=1) as (conn, _):
        await conn.execute(BEFORE)  # as before this change
        for player in ("few", "all", "fresh"):
            await conn.execute("INSERT INTO players (player_id, email) VALUES ($1, $2)", player, f"{player}@x.test")
        await conn.execute("INSERT INTO notification_settings (player_id, kinds) VALUES ('few', '{game_over}')")
        await conn.execute("INSERT INTO notification_settings (player_id) VALUES ('all')")

        assert await migrate(conn) == ["018_takeback_kinds.sql"]

        await conn.execute("INSERT INTO notification_settings (player_id) VALUES ('fresh')")
        kinds = {r["player_id"]: r["kinds"] for r in await conn.fetch(
            "SELECT player_id, kinds FROM notification_settings")}
        assert kinds == {"few": ["game_over", "undo_asked", "undo_answered"], "all": list(DEFAULT_KINDS),
                         "fresh": list(DEFAULT_KINDS)}
