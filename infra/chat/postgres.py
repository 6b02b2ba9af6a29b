"""The chat on PostgreSQL (infra/migrations/008_chat.sql): :class:`~.base.ChatLines` over the ``chat_lines``,
``chat_heads`` and ``chat_mutes`` tables."""

from __future__ import annotations

from datetime import UTC, datetime

import asyncpg

from infra.errors import StoreUnavailable, StreamNotFound

from .base import RATE_WINDOW_S, ChatLine, Posted


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _line(row: asyncpg.Record) -> ChatLine:
    return ChatLine(row["seq"], row["seat"], row["name"], row["text"], _iso(row["posted_at"]), row["hidden"])


_COLUMNS = "seq, seat, name, text, posted_at, hidden"


class PostgresChatStore:
    """The chat tables of PostgreSQL."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def post(self, game_id: str, seat: int, player_id: str | None, name: str, text: str,
                   per_minute: int) -> Posted:
        """Append a line for ``seat`` unless it is muted or has posted ``per_minute`` lines in the last minute
        (0: no rate). The number comes from the game's chat head, locked until the line is in."""
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                if await conn.fetchval("SELECT 1 FROM chat_mutes WHERE game_id = $1 AND seat = $2", game_id, seat):
                    return Posted(None, muted=True)
                if per_minute > 0:
                    recent = await conn.fetch(
                        "SELECT posted_at FROM chat_lines WHERE game_id = $1 AND seat = $2 AND posted_at > now() - "
                        "make_interval(secs => $3) ORDER BY posted_at DESC LIMIT $4",
                        game_id, seat, float(RATE_WINDOW_S), per_minute)
                    if len(recent) >= per_minute:
                        now = await conn.fetchval("SELECT now()")
                        left = RATE_WINDOW_S - (now - recent[-1]["posted_at"]).total_seconds()
                        return Posted(None, retry_after_s=max(1, int(left) + 1))
                seq = await conn.fetchval(
                    "INSERT INTO chat_heads (game_id, last_seq) VALUES ($1, 1) ON CONFLICT (game_id) DO UPDATE "
                    "SET last_seq = chat_heads.last_seq + 1 RETURNING last_seq", game_id)
                row = await conn.fetchrow(
                    f"INSERT INTO chat_lines (game_id, seq, seat, player_id, name, text) VALUES ($1, $2, $3, $4, $5, "
                    f"$6) RETURNING {_COLUMNS}", game_id, seq, seat, player_id, name, text)
        except asyncpg.ForeignKeyViolationError as exc:
            raise StreamNotFound("no such game") from exc
        except (OSError, asyncpg.PostgresConnectionError) as exc:
            raise StoreUnavailable(f"PostgreSQL is unavailable: {exc}") from exc
        assert row is not None
        return Posted(_line(row))

    async def lines(self, game_id: str, after: int = 0, *, hidden: bool = False) -> list[ChatLine]:
        """The lines after ``after`` in order; the hidden ones only with ``hidden``."""
        rows = await self._pool.fetch(
            f"SELECT {_COLUMNS} FROM chat_lines WHERE game_id = $1 AND seq > $2 AND ($3 OR NOT hidden) ORDER BY seq",
            game_id, after, hidden)
        return [_line(r) for r in rows]

    async def muted(self, game_id: str) -> list[int]:
        rows = await self._pool.fetch("SELECT seat FROM chat_mutes WHERE game_id = $1 ORDER BY seat", game_id)
        return [r["seat"] for r in rows]

    async def mute(self, game_id: str, seat: int, muted: bool) -> None:
        """Mute (hide the seat's lines, refuse its new ones) or unmute (show them again); idempotent."""
        async with self._pool.acquire() as conn, conn.transaction():
            if muted:
                await conn.execute("INSERT INTO chat_mutes (game_id, seat) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                                   game_id, seat)
            else:
                await conn.execute("DELETE FROM chat_mutes WHERE game_id = $1 AND seat = $2", game_id, seat)
            await conn.execute("UPDATE chat_lines SET hidden = $3 WHERE game_id = $1 AND seat = $2 AND hidden <> $3",
                               game_id, seat, muted)


ChatStore = PostgresChatStore
"""The name the command line's export still uses (``services/cli.py``)."""
