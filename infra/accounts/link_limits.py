"""How many sign-in links go out per mailbox and per client (issue #24, item 8): counters in Redis, shared by every
API process, one fixed window each (the links' lifetime).

A mailbox is an address with its plus-tag stripped and its case folded (:func:`mailbox`): ``Victim+1@Example.org``
and ``victim+2@example.org`` are one inbox, so a script cycling tags floods nobody. A client is its address (as the
rate limits see it): one script asking links for many mailboxes is stopped too.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from redis.asyncio import Redis

from .players import TooManyLinks

LINKS_PER_MAILBOX = 5
"""Sign-in links one mailbox may be sent per window."""
LINKS_PER_CLIENT = 20
"""Sign-in links one client address may ask for per window (any mailboxes)."""


def mailbox(email: str) -> str:
    """The inbox an address delivers to: ``local+tag@domain`` -> ``local@domain``, case folded."""
    local, at, domain = email.casefold().rpartition("@")
    if not at:
        return email.casefold()
    return f"{local.split('+', 1)[0] or local}@{domain}"


@runtime_checkable
class LinkCounter(Protocol):
    async def count(self, email: str, client: str, window_s: int) -> None:
        """Count one link for ``email``'s mailbox and for ``client``; TooManyLinks (nothing counted) when either
        has had its share of this window."""
        ...


def _refusal(to_mailbox: int, by_client: int) -> TooManyLinks | None:
    if to_mailbox > LINKS_PER_MAILBOX or by_client > LINKS_PER_CLIENT:
        whom = "this mailbox" if to_mailbox > LINKS_PER_MAILBOX else "this client"
        return TooManyLinks(f"too many sign-in links were asked for {whom} lately; use one of them or wait")
    return None


class LinkLimits:
    """:class:`LinkCounter` on Redis: a counter per mailbox and per client, each expiring with its window."""

    def __init__(self, redis: Redis, namespace: str) -> None:
        self._redis = redis
        self._namespace = namespace

    async def count(self, email: str, client: str, window_s: int) -> None:
        """Count one link for ``email``'s mailbox and for ``client``; TooManyLinks (nothing counted) when either
        has had its share of this window."""
        keys = [self._key("mailbox", mailbox(email)), self._key("client", client)]
        async with self._redis.pipeline(transaction=True) as pipe:
            for key in keys:
                pipe.incr(key)
                pipe.expire(key, window_s, nx=True)
            counts = await pipe.execute()
        refused = _refusal(int(counts[0]), int(counts[2]))
        if refused is not None:
            async with self._redis.pipeline(transaction=True) as pipe:
                for key in keys:
                    pipe.decr(key)  # a refused request takes no share: the limit is of links sent
                await pipe.execute()
            raise refused

    def _key(self, kind: str, value: str) -> str:
        digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:32]  # no address kept in Redis
        return f"{self._namespace}:signin:{kind}:{digest}"


class InMemoryLinkLimits:
    """:class:`LinkCounter` within one process (the twin of :class:`LinkLimits`); ``clock``: seconds."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._counts: dict[str, tuple[int, float]] = {}
        """By key: the count and when its window ends."""

    def _current(self, key: str, window_s: int) -> tuple[int, float]:
        count, ends = self._counts.get(key, (0, 0.0))
        now = self._clock()
        return (count, ends) if ends > now else (0, now + window_s)

    async def count(self, email: str, client: str, window_s: int) -> None:
        keys = [f"mailbox:{mailbox(email)}", f"client:{client}"]
        counts = [self._current(key, window_s) for key in keys]
        refused = _refusal(counts[0][0] + 1, counts[1][0] + 1)
        if refused is not None:
            raise refused
        for key, (count, ends) in zip(keys, counts, strict=True):
            self._counts[key] = (count + 1, ends)
