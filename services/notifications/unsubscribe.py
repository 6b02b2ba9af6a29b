"""One-click unsubscribe (RFC 8058): the link in every notification mail turns the player's email off.

The token is ``HMAC-SHA256(key, "unsubscribe:<player_id>")`` (base64url), the key being ``MAGNATE_SECRET_KEY``
when set, else random bytes the server makes once and keeps (``server_keys``). So every mail to a player carries
the same token (a link in last week's mail still works) without the token being stored: the database keeps only
its SHA-256 (``notification_settings.unsubscribe_hash``), by which the link is looked up. Without the key, a
database dump can neither read a token nor make one.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from .db import Executor

KEY_NAME = "unsubscribe_key"
TOKEN_MAX = 100
"""Longer query tokens are refused before any lookup (a real one is 43 characters)."""


async def signing_key(conn: Executor, secret_key: str | None) -> bytes:
    """The key tokens are made with (made and kept on first use when no secret key is configured)."""
    if secret_key:
        return hashlib.sha256(b"magnate-unsubscribe:" + secret_key.encode()).digest()
    made = secrets.token_hex(32)
    await conn.execute("INSERT INTO server_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                       KEY_NAME, made)
    value: str = await conn.fetchval("SELECT value FROM server_keys WHERE name = $1", KEY_NAME)
    return bytes.fromhex(value)


def token_for(key: bytes, player_id: str) -> str:
    digest = hmac.new(key, f"unsubscribe:{player_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def remember(conn: Executor, player_id: str, token: str) -> None:
    """Keep the token's hash with the player's settings (a row with the defaults is made if there is none)."""
    await conn.execute(
        "INSERT INTO notification_settings (player_id, unsubscribe_hash) VALUES ($1, $2)"
        " ON CONFLICT (player_id) DO UPDATE SET unsubscribe_hash = EXCLUDED.unsubscribe_hash"
        " WHERE notification_settings.unsubscribe_hash IS DISTINCT FROM EXCLUDED.unsubscribe_hash",
        player_id, token_hash(token))


async def player_of(conn: Executor, token: str) -> str | None:
    if not token or len(token) > TOKEN_MAX:
        return None
    found: str | None = await conn.fetchval(
        "SELECT player_id FROM notification_settings WHERE unsubscribe_hash = $1", token_hash(token))
    return found


async def unsubscribe(conn: Executor, token: str) -> str | None:
    """Turn email off for the token's player; returns the player id (None for an unknown token). Doing it
    again changes nothing (a mail client may post the one-click request more than once)."""
    if not token or len(token) > TOKEN_MAX:
        return None
    found: str | None = await conn.fetchval(
        "UPDATE notification_settings SET email_mode = 'off' WHERE unsubscribe_hash = $1 RETURNING player_id",
        token_hash(token))
    return found
