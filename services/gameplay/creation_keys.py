"""Idempotent game creation: what a retried ``POST /api/games`` with the same ``Idempotency-Key`` is answered.

A client that lost the answer to a creation (a timeout, a 503 after the game was committed) sends the same
request again with the same key and must get the same game, with the same seat tokens — not an orphan game
per retry. The service stores only hashes (of the key, and of the request); the seat tokens are not stored at
all (only their hashes, as for every game) but derived from the key: ``HMAC-SHA256(key, "{game}:{seat}")``.
So a retry can re-issue them, a database dump cannot, and whoever does not hold the key cannot either.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from typing import Any

import msgspec

from infra.errors import IdempotencyKeyReused, InvalidIdempotencyKey
from infra.eventstore import CreationKey

KEY_PATTERN = r"^[A-Za-z0-9._~-]{16,128}$"
"""An idempotency key: 16-128 unreserved URL characters (a UUID fits), long enough not to be guessed."""
_KEY = re.compile(KEY_PATTERN)


def check_key(key: str) -> None:
    if not _KEY.fullmatch(key):
        raise InvalidIdempotencyKey("an idempotency key is 16-128 letters, digits and . _ ~ -")


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def request_hash(game_type: str, options: Any, names: list[str] | None, seed: bytes | None) -> str:
    """The hash of everything a creation request asks for (options are msgspec structs: canonical bytes)."""
    body = msgspec.json.encode([game_type, options, names or [], seed.hex() if seed is not None else None])
    return hashlib.sha256(body).hexdigest()


def creation_key(key: str, game_id: str, game_type: str, options: Any, names: list[str] | None,
                 seed: bytes | None) -> CreationKey:
    check_key(key)
    return CreationKey(key_hash(key), request_hash(game_type, options, names, seed), game_id)


def same_request(found: CreationKey, game_type: str, options: Any, names: list[str] | None,
                 seed: bytes | None) -> None:
    """Refuse (IdempotencyKeyReused) a key sent again with a request other than its first."""
    if not hmac.compare_digest(found.request_hash, request_hash(game_type, options, names, seed)):
        raise IdempotencyKeyReused("this Idempotency-Key was used to create a game with another request")


def seat_token(key: str | None, game_id: str, seat: int) -> str:
    """A human seat's secret token: random, or derived from the creation's idempotency key (32 characters
    either way)."""
    if key is None:
        return secrets.token_urlsafe(24)
    mac = hmac.new(key.encode("utf-8"), f"{game_id}:{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode("ascii")
