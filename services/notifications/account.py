"""A signed-in player's notification settings as the API reads and changes them (``GET/PUT /api/me/settings``)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.kernel.phrases import Phrase, plain, say
from infra.notifications import Channels

from . import preferences
from .preferences import DIGEST_HOURS, EMAIL_MODES, KINDS, Preferences

MUTED_MAX = 200
"""Games a player may mute (a longer list is refused, not cut)."""


class InvalidSetting(ValueError):
    """A setting outside what a player may choose (400 ``request/invalid`` with the field)."""

    def __init__(self, field: str, message: Phrase) -> None:
        super().__init__(plain(message))
        self.field = field
        self.message = message


def checked(email_mode: str, digest_hours: int, push: bool, webhooks: bool, kinds: Sequence[str],
            muted_games: Sequence[str]) -> Preferences:
    """The preferences a request asks for, or InvalidSetting."""
    if email_mode not in EMAIL_MODES:
        raise InvalidSetting("email_mode", say("email_mode is one of {values}", values=", ".join(EMAIL_MODES)))
    if digest_hours not in DIGEST_HOURS:
        raise InvalidSetting("digest_hours", say("digest_hours is one of {values}",
                                                 values=", ".join(map(str, DIGEST_HOURS))))
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        raise InvalidSetting("kinds", say("unknown kind(s) {unknown}; kinds are {kinds}", unknown=", ".join(unknown),
                                          kinds=", ".join(KINDS)))
    if len(set(muted_games)) > MUTED_MAX:
        raise InvalidSetting("muted_games", say("at most {n} games may be muted", n=MUTED_MAX))
    return Preferences(email_mode=email_mode, digest_hours=digest_hours, push=push, webhooks=webhooks,
                       kinds=tuple(k for k in KINDS if k in set(kinds)), muted_games=tuple(sorted(set(muted_games))))


async def read(store: Channels, player_id: str) -> Preferences:
    return await preferences.load(store, player_id)


async def change(store: Channels, player_id: str, prefs: Preferences) -> Preferences:
    await preferences.save(store, player_id, prefs)
    return prefs
