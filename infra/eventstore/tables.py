"""The table around the games, on PostgreSQL: games their creators listed publicly (open to join, or to watch), the
options a game was created with, and a finished game's rematch (``games.listed``, ``games.options``,
``games.rematch_id``; migration 009). Nothing here is secret except the rematch's idempotency key, kept with the
game's seed in ``game_secrets``."""

from __future__ import annotations

from typing import Any, Protocol

import asyncpg
import msgspec

from infra.errors import InviteInvalid, StreamNotFound

from .base import timestamp

PAGE_MAX = 100


class TableRow(msgspec.Struct, frozen=True):
    """A listed game as the public lists show it: no tokens, nobody's account."""

    game_id: str
    game_type: str
    created_at: str
    updated_at: str
    updated_us: int
    """``updated_at`` in microseconds since the epoch (the cursor of the next page of games to watch)."""
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    """Each seat's kind ("human", "ai"), by seat."""
    taken: tuple[bool, ...]
    """Whether the seat is held, by seat: a signed-in player claimed it, it is the creator's (the host's), or a guest
    plays it by its invite link (the link was used)."""


class TableOf(msgspec.Struct, frozen=True):
    listed: bool
    options: bytes | None
    """The game's options as JSON (None: a game created before migration 009)."""
    rematch_id: str | None
    host_seat: int | None = None
    """The creator's seat (see :meth:`OwnershipStore.host_seat`)."""


_ROWS = """
SELECT g.game_id, g.game_type, g.created_at, g.updated_at,
       (extract(epoch FROM g.updated_at) * 1000000)::bigint AS updated_us,
       array_agg(s.name ORDER BY s.seat) AS names, array_agg(s.kind ORDER BY s.seat) AS kinds,
       array_agg(s.player_id IS NOT NULL OR s.seat IS NOT DISTINCT FROM g.host_seat OR s.link_used
                 ORDER BY s.seat) AS taken
FROM games g JOIN seats s USING (game_id)
WHERE g.listed AND g.status = 'running' {where}
GROUP BY g.game_id
{having}
ORDER BY {order}
LIMIT $1
"""

_OPEN = _ROWS.format(where="", having="HAVING bool_or(s.kind = 'human' AND s.player_id IS NULL AND NOT s.link_used"
                     " AND s.seat IS DISTINCT FROM g.host_seat)",
                     order="g.created_at DESC, g.game_id")
_LIVE = _ROWS.format(where="AND ($2::bigint IS NULL OR (extract(epoch FROM g.updated_at) * 1000000)::bigint < $2)",
                     having="", order="g.updated_at DESC, g.game_id")


class TableStore(Protocol):
    """The port: the listed games, the options games were made with, and rematches (:class:`PostgresTables`, and
    its twin :class:`~.memory_tables.InMemoryTables`, held to one contract: tests/integration/test_tables_store.py)."""

    async def set_table(self, game_id: str, listed: bool, options: bytes) -> None: ...

    async def table_of(self, game_id: str) -> TableOf: ...

    async def unclaimed(self, game_id: str) -> tuple[list[int], list[int]]: ...

    async def release_seat(self, game_id: str, token_hash: str) -> int: ...

    async def open_tables(self, limit: int) -> list[TableRow]: ...

    async def live_tables(self, limit: int, before_us: int | None) -> list[TableRow]: ...

    async def rematch_key(self, game_id: str, candidate: str) -> str: ...

    async def set_rematch(self, game_id: str, rematch_id: str) -> bool: ...


def _row(r: Any) -> TableRow:
    return TableRow(r["game_id"], r["game_type"], timestamp(r["created_at"]), timestamp(r["updated_at"]),
                    int(r["updated_us"]), tuple(r["names"]), tuple(r["kinds"]), tuple(r["taken"]))


class PostgresTables:
    """The listed games, the options games were made with, and rematches."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def set_table(self, game_id: str, listed: bool, options: bytes) -> None:
        """Record a new game's listing and options (a retried creation writes the same again)."""
        async with self._pool.acquire() as conn:
            await conn.execute("UPDATE games SET listed = $2, options = $3::text::jsonb WHERE game_id = $1",
                               game_id, listed, options.decode())

    async def table_of(self, game_id: str) -> TableOf:
        """StreamNotFound for an unknown game."""
        async with self._pool.acquire() as conn:
            row = await conn.fetchrow("SELECT listed, options::text AS options, rematch_id, host_seat FROM games"
                                      " WHERE game_id = $1", game_id)
        if row is None:
            raise StreamNotFound(f"no game {game_id}")
        options = row["options"]
        return TableOf(row["listed"], options.encode() if options is not None else None, row["rematch_id"],
                       row["host_seat"])

    async def unclaimed(self, game_id: str) -> tuple[list[int], list[int]]:
        """A game's person's seats nobody claimed but the host's: those free to join, and those a guest plays by
        the invite link (``link_used``), by seat."""
        async with self._pool.acquire() as conn:
            rows = await conn.fetch(
                "SELECT s.seat, s.link_used FROM seats s JOIN games g USING (game_id) WHERE s.game_id = $1"
                " AND s.kind = 'human' AND s.player_id IS NULL AND s.seat IS DISTINCT FROM g.host_seat ORDER BY s.seat",
                game_id)
        return [r["seat"] for r in rows if not r["link_used"]], [r["seat"] for r in rows if r["link_used"]]

    async def release_seat(self, game_id: str, token_hash: str) -> int:
        """The guest holding a seat by its invite gives it up: the link stops opening it and the seat is free again
        (to join, if the game is listed; the host may also issue a new invite). InviteInvalid if the token opens no
        unclaimed seat of the game."""
        async with self._pool.acquire() as conn:
            seat: int | None = await conn.fetchval(
                "UPDATE seats SET token_hash = NULL, link_used = false"
                " WHERE game_id = $1 AND token_hash = $2 AND player_id IS NULL RETURNING seat", game_id, token_hash)
        if seat is None:
            raise InviteInvalid("this invite does not open a seat of this game (it was released, revoked or replaced)")
        return seat

    async def open_tables(self, limit: int) -> list[TableRow]:
        """Listed running games with a free person's seat, newest first."""
        async with self._pool.acquire() as conn:
            return [_row(r) for r in await conn.fetch(_OPEN, min(limit, PAGE_MAX))]

    async def live_tables(self, limit: int, before_us: int | None) -> list[TableRow]:
        """Listed running games, the most recently moved first; ``before_us``: only those that moved before."""
        async with self._pool.acquire() as conn:
            return [_row(r) for r in await conn.fetch(_LIVE, min(limit, PAGE_MAX), before_us)]

    async def rematch_key(self, game_id: str, candidate: str) -> str:
        """The idempotency key of the game's rematch: ``candidate`` if none was chosen before, else the first."""
        async with self._pool.acquire() as conn:
            key: str | None = await conn.fetchval(
                "UPDATE game_secrets SET rematch_key = coalesce(rematch_key, $2) WHERE game_id = $1"
                " RETURNING rematch_key", game_id, candidate)
        if key is None:
            raise StreamNotFound(f"no game {game_id}")
        return key

    async def set_rematch(self, game_id: str, rematch_id: str) -> bool:
        """Link the finished game to its rematch; True for the request that linked it first."""
        async with self._pool.acquire() as conn:
            done = await conn.execute("UPDATE games SET rematch_id = $2 WHERE game_id = $1 AND rematch_id IS NULL",
                                      game_id, rematch_id)
        return bool(done.endswith(" 1"))
