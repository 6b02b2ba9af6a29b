"""A deployment whose pages' streams are nchan's (``MAGNATE_PUSH=nchan``, docs/SCALING.md): an API process and a
worker, and in front of them one nginx box with nchan (the site, the API and the push locations on one address)
with the pusher, in nchan's Redis mode on the test Redis under a key namespace of their own. The push test
(tests/integration/test_nchan.py) and the game page's browser test over nginx (tests/browser/test_nchan_page.py)
start it, on ports 18400-18499."""

from __future__ import annotations

import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import redis

from infra.nchan.process import nginx_binary
from services.supervisor import PushServer, Services
from tests.live import DEV_MAILBOX

PORTS = range(18400, 18500)
NCHAN = {**DEV_MAILBOX, "MAGNATE_PUSH": "nchan"}
"""The API's settings behind nginx with nchan: its pages open their stream on nchan."""


def free_ports(count: int, ports: range = PORTS) -> list[str]:
    found: list[str] = []
    for port in ports:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        found.append(f"127.0.0.1:{port}")
        if len(found) == count:
            return found
    raise RuntimeError(f"no free port in {ports.start}-{ports.stop - 1}")


@dataclass
class Pushing:
    services: Services
    push: PushServer

    @property
    def url(self) -> str:
        """The site as the pages reach it: through nginx."""
        return self.push.url


@contextmanager
def pushing_deployment(pg_dsn: str, redis_url: str, work: Path, ports: range = PORTS, subscription_s: int = 100
                       ) -> Iterator[Pushing]:
    """``ports``: where nginx may listen (the modules that start one at the same time, on pytest-xdist's workers,
    each look in a range of their own); ``subscription_s``: how long a page holds one subscription before it renews it
    (``MAGNATE_NCHAN_SUBSCRIPTION_S``)."""
    nginx_binary()  # fails loudly, with how to install it, when nginx or nchan is missing
    namespace = f"magnate:test-push:{uuid.uuid4().hex[:10]}:"
    queue = f"magnate:test:{uuid.uuid4().hex[:10]}"
    services = Services.start(pg_dsn, redis_url, queue, workers=1,
                              env={**NCHAN, "MAGNATE_NCHAN_SUBSCRIPTION_S": str(subscription_s)})
    try:
        listen, publish = free_ports(2, ports)
        push = PushServer.start(services.env, [services.url.removeprefix("http://")], listen, publish, work,
                                redis_url, namespace)
        try:
            yield Pushing(services, push)
        finally:
            push.stop()
    finally:
        services.stop()
        client = redis.Redis.from_url(redis_url)
        for pattern in (f"{namespace}*", f"{queue}*"):
            keys = list(client.scan_iter(pattern))
            if keys:
                client.delete(*keys)
        client.close()
