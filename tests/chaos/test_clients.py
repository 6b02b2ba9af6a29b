"""The fault suite's patient client, without any server: what it retries, how long it waits, what it counts."""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx
import pytest

from . import players
from .players import GaveUp, PatientConnection, Traffic


def answers(*replies: httpx.Response | type[httpx.TransportError]) -> tuple[httpx.MockTransport, list[httpx.Request]]:
    """A transport that gives ``replies`` in turn (an exception class: that error instead of an answer) and the
    requests it was sent."""
    sent: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        reply = replies[len(sent) - 1]
        if isinstance(reply, httpx.Response):
            return reply
        raise reply("broken", request=request)

    return httpx.MockTransport(answer), sent


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every wait of the client between attempts (none actually waited)."""
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)

    monkeypatch.setattr(players.asyncio, "sleep", sleep)
    return waited


def patient(transport: httpx.MockTransport, traffic: Traffic, deadline_s: float = 60.0,
            creation_key: str | None = None) -> PatientConnection:
    return PatientConnection("http://test", traffic, time.monotonic() + deadline_s, creation_key, transport)


async def test_503_and_429_are_waited_out_as_retry_after_says_else_backed_off(waits: list[float]) -> None:
    transport, sent = answers(httpx.Response(503, headers={"Retry-After": "2"}), httpx.Response(429),
                              httpx.Response(503), httpx.Response(200, json={"ok": True}))
    traffic = Traffic()
    async with patient(transport, traffic) as conn:
        response = await conn.request("POST", "/api/games/g/commands", b'{"command_id": "chaos-3"}')
    assert response.status == 200 and response.json() == {"ok": True}
    assert [r.content for r in sent] == [b'{"command_id": "chaos-3"}'] * 4  # the same command id every time
    assert waits == [2.0, 0.2, 0.4]
    assert traffic.requests == 4 and traffic.retries == 3 and traffic.statuses == {503: 2, 429: 1, 200: 1}
    assert (traffic.unavailable_with_retry_after, traffic.unavailable_without_retry_after) == (1, 1)


async def test_connection_errors_and_other_5xx_are_retried_and_counted(waits: list[float]) -> None:
    transport, _ = answers(httpx.ConnectError, httpx.RemoteProtocolError, httpx.Response(500, text="boom"),
                           httpx.Response(404, json={"code": "not_found/game"}))
    traffic = Traffic()
    async with patient(transport, traffic) as conn:
        response = await conn.request("GET", "/api/games/g/export")
    assert response.status == 404  # an answer that is not 5xx or 429 is the caller's
    assert traffic.transport_errors == 2 and traffic.requests == 4 and traffic.retries == 3
    assert traffic.server_error_count == 1 and traffic.server_errors == ["GET /api/games/g/export: 500 boom"]


async def test_a_creation_carries_the_same_idempotency_key_on_every_attempt(waits: list[float]) -> None:
    transport, sent = answers(httpx.ReadError, httpx.Response(201, json={}), httpx.Response(200, json={}))
    async with patient(transport, Traffic(), creation_key="chaos-run-00007") as conn:
        await conn.request("POST", "/api/games", b"{}")
        await conn.request("POST", "/api/games/g/commands", b"{}")
    assert [r.headers.get("idempotency-key") for r in sent] == ["chaos-run-00007", "chaos-run-00007", None]


@pytest.mark.parametrize("reply", [lambda: httpx.Response(503, headers={"Retry-After": "5"}),
                                   lambda: httpx.ConnectError])
async def test_it_gives_up_rather_than_wait_past_its_deadline(
        waits: list[float], reply: Callable[[], httpx.Response | type[httpx.TransportError]]) -> None:
    transport, _ = answers(*[reply()] * 10)
    async with patient(transport, Traffic(), deadline_s=0.05) as conn:
        with pytest.raises(GaveUp, match="GET /health"):
            await conn.request("GET", "/health")
    assert waits == []  # neither the 5 s of Retry-After nor the first back-off fit before the deadline
