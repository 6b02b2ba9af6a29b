"""Ratings on PostgreSQL (``ratings`` and ``rated_games``, migration 015). Settling a game is one transaction: it
marks the game settled (only if it was not: a second settling returns None at once), locks the players' rating rows
in one order (two games ending together for one player apply one after the other, never lost) and writes what the
service's update computed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import asyncpg

from infra.eventstore.base import timestamp

from .base import PAGE_MAX, BoardRow, HostRating, PlayerRating, Result, Skill, Update

_SETTLE = """
INSERT INTO rated_games (game_id, game_type, result, settled_at) VALUES ($1, $2, $3, now())
ON CONFLICT (game_id) DO UPDATE SET result = excluded.result, settled_at = excluded.settled_at
WHERE rated_games.settled_at IS NULL
RETURNING game_id
"""

_BOARD = """
SELECT rank() OVER (ORDER BY r.shown DESC) AS position, r.player_id, p.name, r.shown, r.mu, r.sigma, r.games
FROM ratings r JOIN players p USING (player_id)
WHERE r.game_type = $1 AND r.games > 0
ORDER BY r.shown DESC, r.games DESC, r.player_id
LIMIT $2 OFFSET $3
"""

_HOSTS = """
SELECT rg.game_id, rg.game_type, r.shown, coalesce(r.games, 0) AS games
FROM rated_games rg JOIN games g USING (game_id)
LEFT JOIN seats s ON s.game_id = g.game_id AND s.seat = g.host_seat
LEFT JOIN ratings r ON r.player_id = s.player_id AND r.game_type = rg.game_type AND r.games > 0
WHERE rg.game_id = ANY($1::text[])
ORDER BY rg.game_id
"""


def _skill(row: Any) -> Skill:
    return Skill(row["mu"], row["sigma"], row["games"], row["shown"])


class PostgresRatings:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def open(self, game_id: str, game_type: str) -> None:
        async with self._pool.acquire() as conn:
            await conn.execute("INSERT INTO rated_games (game_id, game_type, result) VALUES ($1, $2, 'open')"
                               " ON CONFLICT (game_id) DO NOTHING", game_id, game_type)

    async def settle(self, game_id: str, game_type: str, players: Sequence[str], fresh: Skill,
                     update: Update | None, result: Result) -> tuple[Skill, ...] | None:
        async with self._pool.acquire() as conn, conn.transaction():
            if await conn.fetchval(_SETTLE, game_id, game_type, result) is None:
                return None
            if update is None:
                return ()
            known = {r["player_id"] for r in await conn.fetch(
                "SELECT player_id FROM players WHERE player_id = ANY($1::text[]) ORDER BY player_id FOR KEY SHARE",
                list(players))}
            kept = [p for p in players if p in known]
            if len(kept) < 2:
                await conn.execute("UPDATE rated_games SET result = 'too_few_players' WHERE game_id = $1", game_id)
                return ()
            await conn.executemany(
                "INSERT INTO ratings (player_id, game_type, mu, sigma, games, shown) VALUES ($1, $2, $3, $4, 0, $5)"
                " ON CONFLICT (player_id, game_type) DO NOTHING",
                [(p, game_type, fresh.mu, fresh.sigma, fresh.shown) for p in sorted(kept)])
            rows = await conn.fetch(
                "SELECT player_id, mu, sigma, games, shown FROM ratings WHERE game_type = $1"
                " AND player_id = ANY($2::text[]) ORDER BY player_id FOR UPDATE", game_type, kept)
            before = {r["player_id"]: _skill(r) for r in rows}
            after = tuple(update([(p, before[p]) for p in kept]))
            await conn.executemany(
                "UPDATE ratings SET mu = $3, sigma = $4, games = $5, shown = $6, updated_at = now()"
                " WHERE player_id = $1 AND game_type = $2",
                [(p, game_type, s.mu, s.sigma, s.games, s.shown) for p, s in zip(kept, after, strict=True)])
            await conn.execute("UPDATE rated_games SET players = $2 WHERE game_id = $1", game_id, len(kept))
        return after

    async def result(self, game_id: str) -> Result | None:
        async with self._pool.acquire() as conn:
            found: Result | None = await conn.fetchval("SELECT result FROM rated_games WHERE game_id = $1", game_id)
        return found

    async def of_player(self, player_id: str) -> list[PlayerRating]:
        async with self._pool.acquire() as conn:
            rows = await conn.fetch("SELECT game_type, mu, sigma, games, shown, updated_at FROM ratings"
                                    " WHERE player_id = $1 AND games > 0 ORDER BY game_type", player_id)
        return [PlayerRating(r["game_type"], r["mu"], r["sigma"], r["games"], r["shown"], timestamp(r["updated_at"]))
                for r in rows]

    async def leaderboard(self, game_type: str, limit: int, offset: int) -> list[BoardRow]:
        async with self._pool.acquire() as conn:
            rows = await conn.fetch(_BOARD, game_type, min(limit, PAGE_MAX), offset)
        return [BoardRow(r["position"], r["player_id"], r["name"], r["shown"], r["mu"], r["sigma"], r["games"])
                for r in rows]

    async def hosts(self, game_ids: Sequence[str]) -> list[HostRating]:
        async with self._pool.acquire() as conn:
            rows = await conn.fetch(_HOSTS, list(game_ids))
        return [HostRating(r["game_id"], r["game_type"], r["shown"], r["games"]) for r in rows]
