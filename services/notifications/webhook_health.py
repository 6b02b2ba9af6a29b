"""A webhook's health: every failed attempt counts on its row, a success resets the count, and at
``MAGNATE_WEBHOOK_FAILURES_MAX`` failures in a row the webhook is turned off (``disabled_at``) and its player is
told with a ``channel_disabled`` notice: in the page always, by email too when their email is on. The count,
the switch and the notice are one transaction, so a player is told once."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import urlsplit

import asyncpg

from . import preferences
from .claim import Claimed
from .db import Conn
from .derive import Told
from .outbox import EMAIL, Delivery
from .projector import write_deliveries, write_notices
from .texts import CHANNEL_DISABLED, channel_disabled_text


async def succeeded(pool: asyncpg.Pool, webhook_id: str) -> None:
    await pool.execute("UPDATE webhooks SET failures = 0 WHERE webhook_id = $1 AND failures <> 0", webhook_id)


async def failed(pool: asyncpg.Pool, delivery: Claimed, failures_max: int,
                 ) -> tuple[bool, list[tuple[str, datetime]]]:
    """Count a failed attempt of ``delivery`` (a webhook delivery). Returns whether the webhook is off now and
    the deliveries made to tell the player (the email of the notice; the caller queues it)."""
    async with pool.acquire() as conn, conn.transaction():
        row = await conn.fetchrow(
            "UPDATE webhooks SET failures = failures + 1,"
            " disabled_at = CASE WHEN failures + 1 >= $2 THEN now() ELSE disabled_at END"
            " WHERE webhook_id = $1 AND disabled_at IS NULL RETURNING url, failures, disabled_at",
            delivery.target, failures_max)
        if row is None:  # removed, or turned off by another attempt meanwhile
            return True, []
        if row["disabled_at"] is None:
            return False, []
        return True, await _tell(conn, delivery, urlsplit(row["url"]).hostname or "?", row["failures"])


async def _tell(conn: Conn, delivery: Claimed, host: str, failures: int) -> list[tuple[str, datetime]]:
    about = await conn.fetchrow("SELECT game_id, seat, version FROM notices WHERE notice_id = $1",
                                delivery.notice_id)
    if about is None:
        return []
    notice_id = f"{CHANNEL_DISABLED}.{delivery.target}"
    told = Told(notice_id, delivery.player_id, about["game_id"], about["seat"], about["version"], CHANNEL_DISABLED,
                channel_disabled_text(host, failures))
    await write_notices(conn, [told])
    prefs = await preferences.load(conn, delivery.player_id)
    if prefs.email_mode == "off":
        return []
    email = await conn.fetchval("SELECT email FROM players WHERE player_id = $1", delivery.player_id)
    mail = Delivery(f"{notice_id}.email", delivery.player_id, EMAIL, email, notice_id, datetime.now(UTC))
    return await write_deliveries(conn, [mail])
