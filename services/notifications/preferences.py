"""A player's notification choices (``notification_settings``); a player without a row has the defaults."""

from __future__ import annotations

from collections.abc import Iterable

import asyncpg
import msgspec

from .db import Executor

EMAIL_MODES = ("off", "each", "digest")
KINDS = ("your_turn", "outbid", "market", "game_over", "deadline")
"""The kinds a player may choose to be told (``channel_disabled`` is always told: it is about the player's own
channel)."""
DIGEST_HOURS = (1, 2, 3, 4, 6, 8, 12, 24, 48, 72, 168)
"""Digest periods a player may choose: each divides a week or a day, so periods line up with the clock."""


class Preferences(msgspec.Struct, frozen=True, kw_only=True):
    email_mode: str = "each"
    digest_hours: int = 12
    push: bool = True
    webhooks: bool = True
    kinds: tuple[str, ...] = KINDS
    muted_games: tuple[str, ...] = ()

    def wants(self, kind: str, game_id: str) -> bool:
        """Whether a notice of ``kind`` about ``game_id`` is told at all (in the page and every channel)."""
        return game_id not in self.muted_games and (kind not in KINDS or kind in self.kinds)


DEFAULT = Preferences()

_COLUMNS = "player_id, email_mode, digest_hours, push, webhooks, kinds, muted_games"


def _of(row: asyncpg.Record) -> Preferences:
    return Preferences(email_mode=row["email_mode"], digest_hours=row["digest_hours"], push=row["push"],
                       webhooks=row["webhooks"], kinds=tuple(row["kinds"]), muted_games=tuple(row["muted_games"]))


async def load_many(conn: Executor, player_ids: Iterable[str]) -> dict[str, Preferences]:
    """Every given player's preferences (the defaults for a player without a row)."""
    ids = sorted(set(player_ids))
    rows = await conn.fetch(f"SELECT {_COLUMNS} FROM notification_settings WHERE player_id = ANY($1)", ids)
    found = {row["player_id"]: _of(row) for row in rows}
    return {player_id: found.get(player_id, DEFAULT) for player_id in ids}


async def load(conn: Executor, player_id: str) -> Preferences:
    return (await load_many(conn, [player_id]))[player_id]


async def save(conn: Executor, player_id: str, prefs: Preferences) -> None:
    """Store a player's choices (the unsubscribe token and the last digest's time are kept)."""
    await conn.execute(
        "INSERT INTO notification_settings (player_id, email_mode, digest_hours, push, webhooks, kinds, muted_games)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (player_id) DO UPDATE SET email_mode = EXCLUDED.email_mode,"
        " digest_hours = EXCLUDED.digest_hours, push = EXCLUDED.push, webhooks = EXCLUDED.webhooks,"
        " kinds = EXCLUDED.kinds, muted_games = EXCLUDED.muted_games",
        player_id, prefs.email_mode, prefs.digest_hours, prefs.push, prefs.webhooks, list(prefs.kinds),
        list(prefs.muted_games))
