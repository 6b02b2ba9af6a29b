"""A player's notification choices (``notification_settings``); a player without a row has the defaults."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from infra.notifications import DEFAULT_KINDS, Channels
from infra.notifications import Settings as Stored

EMAIL_MODES = ("off", "each", "digest")
KINDS = DEFAULT_KINDS
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



def _of(stored: Stored) -> Preferences:
    return Preferences(email_mode=stored.email_mode, digest_hours=stored.digest_hours, push=stored.push,
                       webhooks=stored.webhooks, kinds=stored.kinds, muted_games=stored.muted_games)


async def load_many(store: Channels, player_ids: Iterable[str]) -> dict[str, Preferences]:
    """Every given player's preferences (the defaults for a player without a row)."""
    ids = sorted(set(player_ids))
    found = await store.settings(ids)
    return {player_id: _of(found[player_id]) if player_id in found else DEFAULT for player_id in ids}


async def load(store: Channels, player_id: str) -> Preferences:
    return (await load_many(store, [player_id]))[player_id]


async def save(store: Channels, player_id: str, prefs: Preferences) -> None:
    """Store a player's choices (the unsubscribe token and the last digest's time are kept)."""
    await store.save_settings(player_id, Stored(email_mode=prefs.email_mode, digest_hours=prefs.digest_hours,
                                                push=prefs.push, webhooks=prefs.webhooks, kinds=prefs.kinds,
                                                muted_games=prefs.muted_games))
