"""A game's chat: lines kept append-only beside its log (never in it: a line moves no version), numbered 1..n per
game, and the host's mutes. Nothing is deleted: muting a seat hides its lines (``hidden``) and unmuting shows
them again. New lines and mutes are announced on a Redis channel per game (:func:`chat_channel`)."""

from __future__ import annotations

from datetime import UTC, datetime

import asyncpg
import msgspec
from redis.asyncio import Redis
from redis.exceptions import RedisError

from infra.errors import StoreUnavailable, StreamNotFound

RATE_WINDOW_S = 60
"""The window of the per-seat rate."""


class ChatLine(msgspec.Struct, frozen=True):
    seq: int
    seat: int
    name: str
    text: str
    posted_at: str
    """ISO 8601, UTC."""
    hidden: bool = False
    """The host muted the seat (only the host is shown such lines; the export keeps them)."""


class Posted(msgspec.Struct, frozen=True):
    """What posting came to: the line, or why not (``muted``; ``retry_after_s`` > 0: over the rate)."""

    line: ChatLine | None
    muted: bool = False
    retry_after_s: int = 0


def chat_channel(game_id: str) -> str:
    return f"magnate:chat:{game_id}"


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _line(row: asyncpg.Record) -> ChatLine:
    return ChatLine(row["seq"], row["seat"], row["name"], row["text"], _iso(row["posted_at"]), row["hidden"])


_COLUMNS = "seq, seat, name, text, posted_at, hidden"


class ChatStore:
    """The chat tables of PostgreSQL (infra/migrations/008_chat.sql)."""

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


async def announce(redis: Redis, game_id: str, what: str) -> None:
    """Tell the chat streams of every API process: ``what`` is a line's seq, or "mutes"."""
    try:
        await redis.publish(chat_channel(game_id), what)
    except (RedisError, OSError) as exc:
        raise StoreUnavailable(f"Redis is unavailable: {exc}") from exc
