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

from infra.notifications import Channels

KEY_NAME = "unsubscribe_key"
TOKEN_MAX = 100
"""Longer query tokens are refused before any lookup (a real one is 43 characters)."""


async def signing_key(store: Channels, secret_key: str | None) -> bytes:
    """The key tokens are made with (made and kept on first use when no secret key is configured)."""
    if secret_key:
        return hashlib.sha256(b"magnate-unsubscribe:" + secret_key.encode()).digest()
    return bytes.fromhex(await store.server_key(KEY_NAME, lambda: secrets.token_hex(32)))


def token_for(key: bytes, player_id: str) -> str:
    digest = hmac.new(key, f"unsubscribe:{player_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def remember(store: Channels, player_id: str, token: str) -> None:
    """Keep the token's hash with the player's settings (a row with the defaults is made if there is none)."""
    await store.keep_unsubscribe_hash(player_id, token_hash(token))


async def player_of(store: Channels, token: str) -> str | None:
    if not token or len(token) > TOKEN_MAX:
        return None
    return await store.player_of_unsubscribe(token_hash(token))


async def unsubscribe(store: Channels, token: str) -> str | None:
    """Turn email off for the token's player; returns the player id (None for an unknown token). Doing it
    again changes nothing (a mail client may post the one-click request more than once)."""
    if not token or len(token) > TOKEN_MAX:
        return None
    return await store.unsubscribe(token_hash(token))
