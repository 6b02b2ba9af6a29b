"""Rate limits behind the shipped HAProxy (``infra/haproxy/magnate.cfg``): a real ``magnate serve`` that trusts only
HAProxy's address (``MAGNATE_TRUSTED_PROXIES``) and a real HAProxy in front of it. A client cannot dodge the limit
with an ``X-Forwarded-For`` header of its own, and two honest clients (distinct loopback source addresses) count
against two buckets, not HAProxy's one."""

from __future__ import annotations

import itertools
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from bench.balanced import haproxy_binary, render
from services.supervisor import spawn, stop, wait_healthy

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]

API_PORT, PROXY_PORT = 18311, 18312
"""This test's own ports (18300-18399)."""
LIMIT = 4
BODY = {"game": "magnate", "options": {"seats": [{}, {}]}}


@dataclass
class Proxied:
    url: str
    """HAProxy's address."""
    api_url: str


@pytest.fixture
def proxied(pg_dsn: str, redis_url: str, queue_name: str, tmp_path: Path) -> Iterator[Proxied]:
    haproxy_binary()  # fails loudly, with how to install it, when HAProxy is missing
    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": pg_dsn, "REDIS_URL": redis_url, "MAGNATE_QUEUE_NAME": queue_name,
           "HOST": "127.0.0.1", "PORT": str(API_PORT), "MAGNATE_RATE_CREATE_PER_MIN": str(LIMIT),
           "MAGNATE_TRUSTED_PROXIES": "127.0.0.1", "MAGNATE_SECRET_KEY": "proxy-test-secret",
           "MAGNATE_LOG_FORMAT": "json", "MAGNATE_LOG_LEVEL": "WARNING"}
    processes: list[subprocess.Popen[bytes]] = [spawn("serve", env)]
    try:
        wait_healthy(f"http://127.0.0.1:{API_PORT}/health", processes)
        config = tmp_path / "haproxy.cfg"
        config.write_text(render(PROXY_PORT, [API_PORT]), encoding="utf-8")
        processes.append(subprocess.Popen([haproxy_binary(), "-db", "-f", str(config)], stdin=subprocess.DEVNULL,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_healthy(f"http://127.0.0.1:{PROXY_PORT}/health", processes)
        yield Proxied(f"http://127.0.0.1:{PROXY_PORT}", f"http://127.0.0.1:{API_PORT}")
    finally:
        stop(processes)


def client_from(source: str, base_url: str) -> httpx.Client:
    """A client whose connections leave from the loopback address ``source``."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=source), base_url=base_url, timeout=10)


def test_a_spoofed_forwarded_for_does_not_dodge_the_limit(proxied: Proxied) -> None:
    spoofed = (f"203.0.113.{i}" for i in itertools.count(1))
    with client_from("127.0.0.2", proxied.url) as attacker:
        answers = [attacker.post("/api/games", json=BODY, headers={"X-Forwarded-For": next(spoofed)}).status_code
                   for _ in range(LIMIT * 2)]
        assert answers == [201] * LIMIT + [429] * LIMIT
        # the same from a list of addresses, and from several headers
        many = {"X-Forwarded-For": f"{next(spoofed)}, {next(spoofed)}"}
        assert attacker.post("/api/games", json=BODY, headers=many).status_code == 429
        headers = [("X-Forwarded-For", next(spoofed)), ("X-Forwarded-For", next(spoofed))]
        assert attacker.post("/api/games", json=BODY, headers=headers).status_code == 429


def test_honest_clients_behind_the_proxy_have_their_own_buckets(proxied: Proxied) -> None:
    with client_from("127.0.0.3", proxied.url) as one, client_from("127.0.0.4", proxied.url) as two:
        assert [one.post("/api/games", json=BODY).status_code for _ in range(LIMIT + 1)] == [201] * LIMIT + [429]
        assert [two.post("/api/games", json=BODY).status_code for _ in range(LIMIT)] == [201] * LIMIT


def test_a_client_reaching_the_api_directly_is_its_own_peer(proxied: Proxied) -> None:
    """Only the named proxy's header is believed: a client that connects to the API itself (from an address that is
    not HAProxy's) is counted by its own address whatever it says it forwards for."""
    spoofed = (f"198.51.100.{i}" for i in itertools.count(1))
    with client_from("127.0.0.5", proxied.api_url) as direct:
        answers = [direct.post("/api/games", json=BODY, headers={"X-Forwarded-For": next(spoofed)}).status_code
                   for _ in range(LIMIT + 1)]
    assert answers == [201] * LIMIT + [429]
