"""Migration 004 (a seat is a display name plus a game-specific payload, not a Magnate company) keeps games
created before it playable and verifiable: the seats of a game stored in the old layout (a ``company``
column) come out with ``{"company": key}`` payloads, and the game loads, plays on and verifies."""

from __future__ import annotations

import pytest

from domain.magnate.bots import RandomLegal
from infra.migrate import migrate
from services.gameplay.audit import export_lines, verify

from .harness import GAMES, drive, make, migrated_database, new_game

pytestmark = [pytest.mark.integration]

OLD_LAYOUT = """
ALTER TABLE seats ADD COLUMN company text NOT NULL DEFAULT '';
UPDATE seats SET company = payload->>'company' WHERE game_id = $game$;
ALTER TABLE seats DROP COLUMN payload;
ALTER TABLE games DROP COLUMN rules_version;
DELETE FROM schema_migrations WHERE name = '004_seat_payload.sql';
"""


async def test_a_game_of_the_old_seat_layout_loads_plays_on_and_verifies(pg_dsn: str) -> None:
    async with migrated_database(pg_dsn) as (conn, pool):
        gameplay = make(pool)
        game_id = await new_game(gameplay)
        await drive(gameplay, game_id, RandomLegal(3), until=lambda loaded, _: loaded.version >= 30)
        await conn.execute(OLD_LAYOUT.replace("$game$", f"'{game_id}'"))  # as before this change
        assert await conn.fetchval("SELECT company FROM seats WHERE game_id = $1 AND seat = 0", game_id)

        assert await migrate(conn) == ["004_seat_payload.sql"]

        later = make(pool)  # another process, after the upgrade
        seats = await later.store.seats(game_id)
        assert [s.payload for s in seats] == [{"company": "vector_properties"}, {"company": "urhme"},
                                               {"company": "penforth_davey"}]
        assert [s.name for s in seats] == ["Ada", "Bob", "Cyd"]
        await drive(later, game_id, RandomLegal(4))  # plays on to the end
        assert (await later.store.head(game_id)).status == "finished"
        verdict = verify(await export_lines(later, game_id), dict(GAMES))
        assert verdict.ok, verdict.problems
