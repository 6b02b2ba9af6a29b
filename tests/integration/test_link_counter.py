"""The sign-in link limits' contract (:class:`infra.accounts.LinkCounter`), run against the REAL Redis
(:class:`~infra.accounts.LinkLimits`) and the in-memory twin (:class:`~infra.accounts.InMemoryLinkLimits`)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest

from infra.accounts import InMemoryLinkLimits, LinkCounter, LinkLimits, TooManyLinks
from infra.accounts.link_limits import LINKS_PER_CLIENT, LINKS_PER_MAILBOX
from services.gameplay.bootstrap import redis_client

pytestmark = pytest.mark.integration

WINDOW_S = 60


@pytest.fixture(params=["memory", "redis"])
async def counter(request: pytest.FixtureRequest) -> AsyncIterator[LinkCounter]:
    if request.param == "memory":
        yield InMemoryLinkLimits()
        return
    redis = redis_client(request.getfixturevalue("redis_url"))
    try:
        yield LinkLimits(redis, request.getfixturevalue("queue_name"))
    finally:
        await redis.aclose()


def someone() -> str:
    return f"victim-{uuid.uuid4().hex[:8]}@example.org"


async def test_a_mailbox_gets_its_share_whatever_its_plus_tags_and_case(counter: LinkCounter) -> None:
    email = someone()
    local, _, domain = email.partition("@")
    for n in range(LINKS_PER_MAILBOX):
        await counter.count(f"{local.upper()}+{n}@{domain}", f"client-{n}", WINDOW_S)
    with pytest.raises(TooManyLinks, match="this mailbox"):
        await counter.count(email, "client-x", WINDOW_S)
    await counter.count(someone(), "client-x", WINDOW_S)  # the refusal took no share of the client's


async def test_a_client_gets_its_share_over_any_mailboxes(counter: LinkCounter) -> None:
    client = uuid.uuid4().hex
    for _ in range(LINKS_PER_CLIENT):
        await counter.count(someone(), client, WINDOW_S)
    with pytest.raises(TooManyLinks, match="this client"):
        await counter.count(someone(), client, WINDOW_S)


async def test_a_new_window_starts_a_new_share(counter: LinkCounter) -> None:
    email = someone()
    for _ in range(LINKS_PER_MAILBOX):
        await counter.count(email, uuid.uuid4().hex, 1)
    with pytest.raises(TooManyLinks):
        await counter.count(email, uuid.uuid4().hex, 1)
    await asyncio.sleep(1.2)
    await counter.count(email, uuid.uuid4().hex, 1)
