"""How many sign-in links go out per mailbox and per client (issue #24, item 8): counters in Redis, shared by every
API process, one fixed window each (the links' lifetime).

A mailbox is an address with its plus-tag stripped and its case folded (:func:`mailbox`): ``Victim+1@Example.org``
and ``victim+2@example.org`` are one inbox, so a script cycling tags floods nobody. A client is its address (as the
rate limits see it): one script asking links for many mailboxes is stopped too.
"""

from __future__ import annotations

import hashlib

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


class LinkLimits:
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
        to_mailbox, by_client = int(counts[0]), int(counts[2])
        if to_mailbox > LINKS_PER_MAILBOX or by_client > LINKS_PER_CLIENT:
            async with self._redis.pipeline(transaction=True) as pipe:
                for key in keys:
                    pipe.decr(key)  # a refused request takes no share: the limit is of links sent
                await pipe.execute()
            whom = "this mailbox" if to_mailbox > LINKS_PER_MAILBOX else "this client"
            raise TooManyLinks(f"too many sign-in links were asked for {whom} lately; use one of them or wait")

    def _key(self, kind: str, value: str) -> str:
        digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:32]  # no address kept in Redis
        return f"{self._namespace}:signin:{kind}:{digest}"
