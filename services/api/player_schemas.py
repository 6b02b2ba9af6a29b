"""Request and response bodies of players: signing in, "My games", claiming seats and managing invites."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from .names import NAME_PATTERN, check_name
from .schemas import NAME_MAX, NO_NUL

NEXT_PATTERN = r"^/([^/\\\x00][^\\\x00]*)?$"
"""A path on this server (never ``//host``: no open redirect)."""


class LinkRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    email: Annotated[str, Meta(min_length=3, max_length=254, pattern=r"^[^@\x00-\x20]+@[^@\x00-\x20]+$")]
    """An email address (one ``@``; an address that is well formed only at a glance is a 422)."""
    next: Annotated[str, Meta(max_length=300, pattern=NEXT_PATTERN)] = "/"
    """Where the page goes once signed in (a path on this server: an invite link to claim, say)."""


class LinkSentOut(msgspec.Struct, frozen=True):
    email: str
    expires_in_minutes: int


class SessionRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    token: Annotated[str, Meta(min_length=1, max_length=200, pattern=NO_NUL)]


class CsrfOut(msgspec.Struct, frozen=True):
    csrf_token: str
    """Send it as ``X-CSRFToken`` with every change this browser's session makes (signing in included)."""


class PlayerMeOut(msgspec.Struct, frozen=True):
    player_id: str
    email: str
    name: str
    next: str | None = None
    """After signing in: where the page was going."""
    language: str | None = None
    """The language the player chose for the service (None: never chosen; the browser's is used)."""


class LanguageRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    language: Annotated[str, Meta(min_length=1, max_length=20, pattern=NO_NUL)]
    """One of the languages the service speaks (``MAGNATE_LANGUAGES``: ``en``, ``ru``, ``de``)."""


class RenameRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: Annotated[str, Meta(min_length=1, max_length=NAME_MAX, pattern=NAME_PATTERN)]
    """A visible character at least, no control character (``services.api.names``)."""

    def __post_init__(self) -> None:
        check_name(self.name)


class MyGameOut(msgspec.Struct, frozen=True):
    game_id: str
    game_type: str
    title: str
    status: str
    version: int
    seat: int
    names: tuple[str, ...]
    on_turn: tuple[int, ...]
    your_turn: bool
    updated_at: str
    url: str
    """The game's page (the player's session opens their seat there)."""


class MyGamesOut(msgspec.Struct, frozen=True):
    games: tuple[MyGameOut, ...]
    waiting: int
    """How many of them wait for you."""


class ClaimedOut(msgspec.Struct, frozen=True):
    game_id: str
    seat: int
    version: int


class InviteOut(msgspec.Struct, frozen=True):
    seat: int
    token: str
    invite_url: str
