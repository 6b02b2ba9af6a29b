"""Notices a player is looking at (issue #26, point 7): a notice about a seat whose game page is open (its event
stream keeps the seat present, :mod:`infra.presence`) is written read, so the badge never counts the turn the
player is making on screen. Its mail and push are held back as any other's are while the page is open: whether the
player is away is judged when a delivery is sent (:mod:`.deliver`), so the delivery log still says "at the page".

Presence is what the server knows: a page open in a hidden tab counts as open. The page itself shows a notice of
its own game as the browser's notification while its tab is hidden (``shell/account.js``), and marks its game's
notices read when it is on screen."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Protocol

from redis.exceptions import RedisError

from infra.presence import seat_key

log = logging.getLogger("magnate.notify")


class Present(Protocol):
    """Who has a live page open (:class:`infra.presence.Presence`)."""

    async def present(self, *keys: str) -> bool: ...


async def at_the_page(presence: Present | None, game_id: str, seats: Iterable[int]) -> frozenset[int]:
    """The ``seats`` of ``game_id`` whose page is open now (none when presence is unknown or Redis is away: the
    notice is then unread, as it always was)."""
    if presence is None:
        return frozenset()
    seen = set()
    try:
        for seat in sorted(set(seats)):
            if await presence.present(seat_key(game_id, seat)):
                seen.add(seat)
    except (RedisError, OSError) as exc:
        log.warning("presence unknown, notices of %s stay unread: %s", game_id, exc)
        return frozenset()
    return frozenset(seen)
