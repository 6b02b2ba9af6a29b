"""The lobby's lists as the API hands them out: games listed to join and to watch (``GET /api/tables/open``,
``/live``, and the lobby's stream)."""

from __future__ import annotations

from infra.eventstore.tables import TableRow
from services.gameplay import Gameplay
from services.gameplay.tables import Tables

from .table_schemas import TableOut, TableSeatOut, TablesOut


def table_out(gameplay: Gameplay, row: TableRow, base: str) -> TableOut:
    module = gameplay.games.get(row.game_type)
    seats = tuple(TableSeatOut(i, kind, name, taken)
                  for i, (kind, name, taken) in enumerate(zip(row.kinds, row.names, row.taken, strict=True)))
    people = [s for s in seats if s.kind == "human"]
    return TableOut(row.game_id, row.game_type, module.title if module else row.game_type, row.created_at,
                    row.updated_at, seats, sum(s.taken for s in people), sum(not s.taken for s in people),
                    f"{base}/play/{row.game_id}")


async def open_tables(tables: Tables, base: str, limit: int) -> TablesOut:
    """Running listed games with a person's seat nobody holds, newest first."""
    rows = await tables.open_tables(limit)
    return TablesOut(tuple(table_out(tables.gameplay, r, base) for r in rows))


async def watched_tables(tables: Tables, base: str, limit: int, before: int) -> TablesOut:
    """Running listed games, the most recently moved first, a page at a time (``before``: 0 from the newest)."""
    rows = await tables.live_tables(limit, before or None)
    more = rows[-1].updated_us if len(rows) == limit else None
    return TablesOut(tuple(table_out(tables.gameplay, r, base) for r in rows), more)
