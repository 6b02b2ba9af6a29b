"""The presence contract, run against the REAL Redis (:class:`infra.presence.Presence`) and the in-memory twin
(:class:`infra.presence.InMemoryPresence`): a page is present from ``here`` until ``gone`` or until it lapses."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest

from infra.presence import InMemoryPresence, Presence, PresencePort, player_key, seat_key
from services.gameplay.bootstrap import redis_client

pytestmark = pytest.mark.integration

TTL_S = 0.5


@pytest.fixture(params=["memory", "redis"])
async def presence(request: pytest.FixtureRequest) -> AsyncIterator[PresencePort]:
    if request.param == "memory":
        yield InMemoryPresence(TTL_S)
        return
    redis = redis_client(request.getfixturevalue("redis_url"))
    try:
        yield Presence(redis, TTL_S)
    finally:
        await redis.aclose()


async def test_a_page_is_present_until_it_goes(presence: PresencePort) -> None:
    seat, player = seat_key(uuid.uuid4().hex, 1), player_key(uuid.uuid4().hex)
    assert not await presence.present(seat, player)
    await presence.here(seat, "tab-1")
    await presence.here(seat, "tab-2")
    assert await presence.present(seat) and await presence.present(player, seat)
    assert not await presence.present(player)
    await presence.gone(seat, "tab-1")
    assert await presence.present(seat)
    await presence.gone(seat, "tab-2")
    assert not await presence.present(seat)


async def test_a_page_not_refreshed_lapses(presence: PresencePort) -> None:
    key = player_key(uuid.uuid4().hex)
    await presence.here(key, "tab")
    await asyncio.sleep(TTL_S / 2)
    await presence.here(key, "tab")  # refreshed: lives another ttl from now
    await asyncio.sleep(TTL_S * 0.7)
    assert await presence.present(key)
    await asyncio.sleep(TTL_S * 0.6)
    assert not await presence.present(key)


async def test_a_page_marked_for_longer_outlives_a_shorter_mark_on_its_key(presence: PresencePort) -> None:
    """A page held by nchan is marked for longer than the Python stream's (``ttl_s``): another tab's shorter mark on
    the same key, and its lapse, leave it present."""
    seat = seat_key(uuid.uuid4().hex, 0)
    await presence.here(seat, "held-by-nchan", ttl_s=3.0)
    await presence.here(seat, "python-tab")
    await asyncio.sleep(TTL_S * 3)  # the shorter mark lapsed, and with the key's old expiry the key would have too
    assert await presence.present(seat)
