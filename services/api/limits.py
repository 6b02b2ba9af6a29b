"""Limits per client address, so one script can neither fill the database nor hold every connection.

- **Request rates** (Litestar's rate-limit middleware, counters in Redis so every API process shares them):
  game creation (``rate_create_per_min``), commands (``rate_commands_per_min``) and every other ``/api`` request
  (``rate_reads_per_min``), each per minute and per client address. Beyond a limit: 429 ``rate/limited`` with
  ``Retry-After`` (the seconds until the window resets).
- **Open event streams** (``max_streams_per_client``): counted in the API process that serves them (a stream is a
  connection to that process), so the cap is per process. Beyond it: 429 with ``Retry-After``.

A handler says which rate it counts against with ``opt={RATE: CREATE}`` (or ``COMMANDS``); ``/health``, the
schema and the web page are not limited. A sandbox server (``MAGNATE_SANDBOX``, for simulations and
benchmarks) has no limits at all; a limit set to 0 is off.

The client address is the connection's peer (Litestar's ``get_remote_address``), unless that peer is one of the
proxies the operator names (``MAGNATE_TRUSTED_PROXIES``): then it is the right-most address of ``X-Forwarded-For``
that is not a trusted proxy (uvicorn's ``ProxyHeadersMiddleware``, run here, first of the app's middlewares, so
every limit and every handler sees the same address). Nothing else is believed: ``magnate serve`` turns uvicorn's
own proxy-header handling off, which would otherwise trust any header sent from 127.0.0.1. Behind the shipped
HAProxy (``infra/haproxy/magnate.cfg``, which replaces a client's ``X-Forwarded-For`` with the address it saw),
name HAProxy's address.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, cast

from litestar import Request
from litestar.middleware.base import DefineMiddleware
from litestar.middleware.rate_limit import RateLimitConfig, get_remote_address
from litestar.stores.base import Store
from litestar.types import ASGIApp
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from infra import metrics
from infra.config import Settings

from .errors import too_many

RATE = "rate_limit"
"""The ``opt`` key naming a handler's rate."""
CREATE = "create"
COMMANDS = "commands"
READS = "reads"

STREAM_RETRY_AFTER_S = 5
"""What a client refused a stream is asked to wait (streams end when their page closes)."""


def rate_of(request: Request[Any, Any, Any]) -> str | None:
    """The rate a request counts against, or None for a route that is not limited."""
    if not request.url.path.startswith("/api/"):
        return None
    return str(request.route_handler.opt.get(RATE, READS))


def _counts(rate: str) -> Callable[[Request[Any, Any, Any]], bool]:
    def check(request: Request[Any, Any, Any]) -> bool:
        return rate_of(request) == rate

    return check


def store_name(rate: str) -> str:
    return f"{RATE}:{rate}"


def rates(settings: Settings) -> dict[str, int]:
    """Requests per minute per client address, by rate; none in a sandbox, none for a limit set to 0."""
    if settings.sandbox:
        return {}
    limits = {CREATE: settings.rate_create_per_min, COMMANDS: settings.rate_commands_per_min,
              READS: settings.rate_reads_per_min}
    return {rate: limit for rate, limit in limits.items() if limit > 0}


def client_address_middleware(settings: Settings) -> list[DefineMiddleware]:
    """The client's address from the trusted proxies' ``X-Forwarded-For`` (none named: the peer, as it is)."""
    if not settings.trusted_proxies:
        return []
    return [DefineMiddleware(_proxy_headers, trusted_hosts=list(settings.trusted_proxies))]


def _proxy_headers(app: ASGIApp, trusted_hosts: list[str]) -> ASGIApp:
    """uvicorn's middleware between Litestar's ASGI types and uvicorn's own (the same protocol, typed twice)."""
    return cast(ASGIApp, ProxyHeadersMiddleware(cast(Any, app), trusted_hosts=trusted_hosts))


def rate_limit_middleware(settings: Settings) -> list[DefineMiddleware]:
    """The client address first (:func:`client_address_middleware`), then one middleware per rate (each counts
    only its own requests, in its own store)."""
    return [*client_address_middleware(settings)] + [
        RateLimitConfig(rate_limit=("minute", limit), check_throttle_handler=_counts(rate),
                        identifier_for_request=get_remote_address, store=store_name(rate)).middleware
        for rate, limit in rates(settings).items()
    ]


def rate_limit_stores(settings: Settings, counters: Callable[[str], Store]) -> dict[str, Store]:
    """The counters' stores (``counters(namespace)``: the runtime's, on Redis), named after the deployment's queue
    (so every API process of one deployment shares them, and tests, each with a queue of its own, never see each
    other's)."""
    return {store_name(rate): counters(f"{settings.queue_name}:{store_name(rate)}") for rate in rates(settings)}


class StreamSlots:
    """The event streams each client address holds open in this process. A slot is held by the stream's
    generator and given back when it ends; one that never started (the client left before the first byte) is
    given back when the generator is collected."""

    def __init__(self, per_client: int) -> None:
        self.per_client = per_client
        self._open: dict[str, weakref.WeakSet[Any]] = {}

    def count(self, client: str) -> int:
        held = self._open.get(client)
        return len(held) if held is not None else 0

    def total(self) -> int:
        """Streams open in this process, every client's."""
        return sum(len(held) for held in list(self._open.values()))

    def busiest(self) -> int:
        """Streams open in this process by the client address that holds the most."""
        return max((len(held) for held in list(self._open.values())), default=0)

    def full(self, client: str) -> bool:
        return self.per_client > 0 and self.count(client) >= self.per_client

    def admit(self, client: str) -> None:
        """Refuse (429, ``rate/limited``, counted in ``magnate_streams_refused_total``) one more stream for a client
        address that holds ``per_client`` already."""
        if self.full(client):
            metrics.STREAMS_REFUSED.inc()
            raise too_many(f"this client already holds {self.per_client} open event streams", STREAM_RETRY_AFTER_S,
                           max_streams=self.per_client)

    def hold(self, client: str, stream: Any) -> None:
        self._open.setdefault(client, weakref.WeakSet()).add(stream)

    def release(self, client: str, stream: Any) -> None:
        held = self._open.get(client)
        if held is not None:
            held.discard(stream)
            if not held:
                del self._open[client]


def stream_slots(settings: Settings) -> StreamSlots:
    return StreamSlots(0 if settings.sandbox else settings.max_streams_per_client)
