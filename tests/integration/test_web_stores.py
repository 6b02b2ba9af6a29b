"""The contract of the Litestar stores the API keeps, run against the real ones and the twins a runtime of twins
hands out (:mod:`services.gameplay.twins`: Litestar's MemoryStore): the signed-in pages' sessions (REAL PostgreSQL,
:class:`infra.accounts.PostgresSessionStore`) and the request-rate counters (REAL Redis,
:func:`infra.counters.redis_counters`). A value is read back, expires, is renewed and deleted, and every store the
runtime hands out under one name shares it (as every API process shares PostgreSQL and Redis)."""

from __future__ import annotations

import asyncio
import secrets
import uuid
from collections.abc import AsyncIterator, Callable

import pytest
from litestar.stores.base import Store
from redis.asyncio import Redis

from infra.accounts import PostgresSessionStore
from infra.config import Settings
from infra.counters import redis_counters
from services.gameplay.bootstrap import Runtime
from services.gameplay.twins import in_memory

pytestmark = pytest.mark.integration

Stores = Callable[[], Store]
"""Another store of the same name (another API app of the deployment)."""


@pytest.fixture
async def twins() -> AsyncIterator[Runtime]:
    runtime = in_memory(Settings())
    yield runtime
    await runtime.close()


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


@pytest.fixture(params=["memory", "real"])
def sessions(request: pytest.FixtureRequest) -> Stores:
    if request.param == "memory":
        runtime: Runtime = request.getfixturevalue("twins")
        return runtime.session_store
    pool = request.getfixturevalue("pg_pool")
    return lambda: PostgresSessionStore(pool)


@pytest.fixture(params=["memory", "real"])
def counters(request: pytest.FixtureRequest) -> Callable[[str], Store]:
    if request.param == "memory":
        runtime: Runtime = request.getfixturevalue("twins")
        return runtime.counters
    redis: Redis = request.getfixturevalue("redis")
    return lambda name: redis_counters(redis, f"magnate:test:{name}")


async def test_a_session_is_read_back_by_every_store_and_deleted(sessions: Stores) -> None:
    here, elsewhere, key = sessions(), sessions(), secrets.token_hex(16)
    assert await here.get(key) is None and not await here.exists(key)
    await here.set(key, '{"player_id": "p1"}', 86400)
    assert await elsewhere.get(key) == b'{"player_id": "p1"}'
    assert await here.exists(key)
    expires = await here.expires_in(key)
    assert expires is not None and 86300 < expires <= 86400
    await here.delete(key)
    assert await here.get(key) is None and await here.expires_in(key) is None


async def test_a_session_expires_unless_renewed(sessions: Stores) -> None:
    store, kept, lapsed = sessions(), secrets.token_hex(16), secrets.token_hex(16)
    await store.set(kept, b"k", 1)
    await store.set(lapsed, b"l", 1)
    assert await store.get(kept, renew_for=60) == b"k"
    renewed = await store.expires_in(kept)
    assert renewed is not None and renewed > 50
    await asyncio.sleep(1.1)
    assert await store.get(lapsed) is None
    assert await store.get(kept) == b"k"


async def test_counters_are_shared_by_name_and_kept_apart_between_names(
        counters: Callable[[str], Store]) -> None:
    name, key = uuid.uuid4().hex, "client:127.0.0.1"
    one, two, other = counters(name), counters(name), counters(f"{name}-other")
    await one.set(key, b"3", 60)
    assert await two.get(key) == b"3"
    assert await other.get(key) is None
    expires = await two.expires_in(key)
    assert expires is not None and 55 < expires <= 60
    await two.delete(key)
    assert await one.get(key) is None


async def test_a_counter_lapses_with_its_window(counters: Callable[[str], Store]) -> None:
    store = counters(uuid.uuid4().hex)
    await store.set("k", b"1", 1)
    assert await store.get("k") == b"1"
    await asyncio.sleep(1.1)
    assert await store.get("k") is None and not await store.exists("k")
