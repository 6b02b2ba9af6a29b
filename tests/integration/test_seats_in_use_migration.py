"""Migration 012 (a seat whose invite link was used is a guest's, not free to join): in a game stored before it, a
seat that has moved counts as used (its guest played it by the link), and a seat that never moved stays free."""

from __future__ import annotations

import pytest

from domain.magnate.bots import RandomLegal
from infra.migrate import migrate

from .harness import drive, make, migrated_database, new_game

pytestmark = [pytest.mark.integration]

BEFORE = """
ALTER TABLE seats DROP COLUMN link_used;
DELETE FROM schema_migrations WHERE name = '012_seats_in_use.sql';
"""


async def test_the_seats_that_moved_before_the_migration_are_in_use(pg_dsn: str) -> None:
    async with migrated_database(pg_dsn, pool_size=2) as (conn, pool):
        gameplay = make(pool)
        moved, idle = await new_game(gameplay), await new_game(gameplay, b"integration-test-seed-idle-00000")
        await drive(gameplay, moved, RandomLegal(3), until=lambda loaded, _: loaded.version >= 40)
        actors = {r["actor"] for r in await conn.fetch(
            "SELECT DISTINCT actor FROM commands WHERE game_id = $1", moved)}
        await conn.execute(BEFORE)  # as before this change

        assert await migrate(conn) == ["012_seats_in_use.sql"]

        rows = await conn.fetch("SELECT game_id, seat, link_used FROM seats WHERE game_id = ANY($1)"
                                " ORDER BY game_id, seat", [moved, idle])
        used = {(r["game_id"], r["seat"]): r["link_used"] for r in rows}
        assert {seat for (game, seat), u in used.items() if game == moved and u} == {
            int(a.removeprefix("seat:")) for a in actors if a.startswith("seat:")} != set()
        assert not any(u for (game, _), u in used.items() if game == idle)
