"""Players and their one-time sign-in links: the :class:`Players` port, on PostgreSQL (:class:`PlayerStore`) and in
memory (:class:`InMemoryPlayerStore`, its twin), held to one contract (tests/integration/test_players_store.py).

A link's token is 32 random bytes shown once (in the mail); only its SHA-256 is stored. Redeeming it marks it used
in the same statement that checks it, so a replayed link fails even when two redeem it at once;
redeeming one spends every other unused link of the address.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol, runtime_checkable

import asyncpg
import msgspec

NAME_MAX = 40
LINKS_PER_WINDOW = 5
"""Sign-in links one address may be sent per link lifetime (a mailbox is not to be flooded)."""


class Player(msgspec.Struct, frozen=True):
    player_id: str
    email: str
    name: str
    language: str | None = None
    """The language the player chose for the service (None: never chosen)."""


class SignInLink(msgspec.Struct, frozen=True):
    token: str
    """Shown once, in the mail."""
    email: str
    expires_at: datetime


class LinkInvalid(Exception):
    code = "auth/link_invalid"


class LinkUsed(Exception):
    code = "auth/link_used"


class LinkExpired(Exception):
    code = "auth/link_expired"


class TooManyLinks(Exception):
    code = "rate/limited"


def link_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def default_name(email: str) -> str:
    """A new player's name until they choose one: the part of their email before ``@`` (others see it; the
    address itself is shown to nobody else), or "player" for one that reads as the computer's
    (:func:`services.gameplay.seat_names.reads_as_computer`)."""
    local = email.split("@", 1)[0][:NAME_MAX]
    key = "".join(ch for ch in local.casefold() if ch.isalnum())
    return "player" if not local or key.startswith(("thecomputer", "computer")) else local


@runtime_checkable
class Players(Protocol):
    async def issue_link(self, email: str, next_path: str, minutes: int, *, limited: bool = True) -> SignInLink:
        """A new sign-in link for ``email`` (checked, lower-cased), valid ``minutes``: TooManyLinks beyond
        :data:`LINKS_PER_WINDOW` in the last ``minutes`` (unless not ``limited``)."""
        ...

    async def redeem(self, token: str) -> tuple[Player, str]:
        """The player the link signs in (made on first sign-in) and where to go next; LinkInvalid, LinkUsed or
        LinkExpired otherwise. A link works once, and spends every other unused link of its address."""
        ...

    async def get(self, player_id: str) -> Player | None: ...

    async def rename(self, player_id: str, name: str) -> Player | None: ...

    async def choose_language(self, player_id: str, language: str | None) -> Player | None:
        """Keep the player's language (None: no choice); None for an unknown player."""
        ...


class PlayerStore:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def issue_link(self, email: str, next_path: str, minutes: int, *, limited: bool = True) -> SignInLink:
        """A new sign-in link for ``email`` (a checked, lower-cased address): TooManyLinks beyond
        :data:`LINKS_PER_WINDOW` in the last ``minutes`` (unless not ``limited``: a sandbox)."""
        token = secrets.token_urlsafe(32)
        expires = datetime.now(UTC) + timedelta(minutes=minutes)
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", email)
            recent = await conn.fetchval(
                "SELECT count(*) FROM sign_in_links WHERE email = $1"
                " AND created_at > now() - make_interval(mins => $2)", email, minutes)
            if limited and recent >= LINKS_PER_WINDOW:
                raise TooManyLinks(f"{LINKS_PER_WINDOW} sign-in links were sent to this address lately; "
                                   "use one of them or wait")
            await conn.execute(
                "INSERT INTO sign_in_links (token_hash, email, next_path, expires_at) VALUES ($1, $2, $3, $4)",
                link_hash(token), email, next_path, expires)
        return SignInLink(token, email, expires)

    async def redeem(self, token: str) -> tuple[Player, str]:
        """The player the link signs in (made on first sign-in) and where to go next; LinkInvalid, LinkUsed or
        LinkExpired otherwise. A link works once."""
        async with self._pool.acquire() as conn, conn.transaction():
            row = await conn.fetchrow(
                "UPDATE sign_in_links SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL"
                " AND expires_at > now() RETURNING email, next_path", link_hash(token))
            if row is None:
                known = await conn.fetchrow(
                    "SELECT used_at, expires_at FROM sign_in_links WHERE token_hash = $1", link_hash(token))
                if known is None:
                    raise LinkInvalid("this sign-in link is not valid")
                if known["used_at"] is not None:
                    raise LinkUsed("this sign-in link was used already, or a newer one was: ask for a new one")
                raise LinkExpired("this sign-in link has expired: ask for a new one")
            # Signing in spends every other link of the address: one mailed earlier (and perhaps read by someone
            # else since) cannot sign in again after its owner did.
            await conn.execute("UPDATE sign_in_links SET used_at = now() WHERE email = $1 AND used_at IS NULL",
                               row["email"])
            player = await conn.fetchrow(
                "INSERT INTO players (player_id, email, name) VALUES ($1, $2, $3)"
                " ON CONFLICT (email) DO UPDATE SET email = excluded.email RETURNING " + _COLUMNS,
                "p" + secrets.token_hex(12), row["email"], default_name(row["email"]))
        assert player is not None  # the upsert returns its row
        return _player(player), row["next_path"]

    async def get(self, player_id: str) -> Player | None:
        async with self._pool.acquire() as conn:
            row = await conn.fetchrow(f"SELECT {_COLUMNS} FROM players WHERE player_id = $1", player_id)
        return None if row is None else _player(row)

    async def rename(self, player_id: str, name: str) -> Player | None:
        async with self._pool.acquire() as conn:
            row = await conn.fetchrow(
                f"UPDATE players SET name = $2 WHERE player_id = $1 RETURNING {_COLUMNS}", player_id, name)
        return None if row is None else _player(row)

    async def choose_language(self, player_id: str, language: str | None) -> Player | None:
        async with self._pool.acquire() as conn:
            row = await conn.fetchrow(
                f"UPDATE players SET language = $2 WHERE player_id = $1 RETURNING {_COLUMNS}", player_id, language)
        return None if row is None else _player(row)


_COLUMNS = "player_id, email, name, language"


def _player(row: asyncpg.Record) -> Player:
    return Player(row["player_id"], row["email"], row["name"], row["language"])


class _Link(msgspec.Struct):
    email: str
    next_path: str
    created_at: datetime
    expires_at: datetime
    used: bool = False


class InMemoryPlayerStore:
    """:class:`Players` within one process; ``clock``: the time now (UTC)."""

    def __init__(self, clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self._clock = clock
        self._links: dict[str, _Link] = {}
        self._players: dict[str, Player] = {}
        self._created: dict[str, datetime] = {}

    async def issue_link(self, email: str, next_path: str, minutes: int, *, limited: bool = True) -> SignInLink:
        now = self._clock()
        recent = sum(1 for link in self._links.values()
                     if link.email == email and link.created_at > now - timedelta(minutes=minutes))
        if limited and recent >= LINKS_PER_WINDOW:
            raise TooManyLinks(f"{LINKS_PER_WINDOW} sign-in links were sent to this address lately; "
                               "use one of them or wait")
        token = secrets.token_urlsafe(32)
        expires = now + timedelta(minutes=minutes)
        self._links[link_hash(token)] = _Link(email, next_path, now, expires)
        return SignInLink(token, email, expires)

    async def redeem(self, token: str) -> tuple[Player, str]:
        link = self._links.get(link_hash(token))
        if link is None:
            raise LinkInvalid("this sign-in link is not valid")
        if link.used:
            raise LinkUsed("this sign-in link was used already, or a newer one was: ask for a new one")
        if link.expires_at <= self._clock():
            raise LinkExpired("this sign-in link has expired: ask for a new one")
        for other in self._links.values():
            if other.email == link.email:
                other.used = True
        player = next((p for p in self._players.values() if p.email == link.email), None)
        if player is None:
            player = Player("p" + secrets.token_hex(12), link.email, default_name(link.email))
            self._players[player.player_id] = player
            self._created[player.player_id] = self._clock()
        return player, link.next_path

    async def get(self, player_id: str) -> Player | None:
        return self._players.get(player_id)

    async def rename(self, player_id: str, name: str) -> Player | None:
        if player_id not in self._players:
            return None
        self._players[player_id] = msgspec.structs.replace(self._players[player_id], name=name)
        return self._players[player_id]

    async def choose_language(self, player_id: str, language: str | None) -> Player | None:
        if player_id not in self._players:
            return None
        self._players[player_id] = msgspec.structs.replace(self._players[player_id], language=language)
        return self._players[player_id]

    def created_at(self, player_id: str) -> str | None:
        """When the player's account was made (ISO 8601), as the real table's ``created_at``."""
        at = self._created.get(player_id)
        return None if at is None else at.isoformat()

    def forget(self, player_id: str) -> None:
        """The account is erased (:mod:`.erasure`): the player and their address's links go."""
        player = self._players.pop(player_id, None)
        self._created.pop(player_id, None)
        if player is not None:
            self._links = {key: link for key, link in self._links.items() if link.email != player.email}
