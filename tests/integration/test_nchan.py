"""nginx with nchan as the pages' push server (infra/nchan/, services/pusher.py), in nchan's Redis mode on the test
Redis under a key namespace of its own: a game played through nginx reaches a seat's page-like EventSource client,
resumes with Last-Event-ID, and a seat's channel is refused to anyone but that seat. The publisher adapter and its
in-memory twin pass one contract suite."""

from __future__ import annotations

import asyncio
import socket
import uuid
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import redis

from infra.nchan.process import nginx_binary
from infra.nchan.publisher import MemoryPush, NchanPush, Pushed, public_channel, seat_channel
from services.supervisor import PushServer, Services
from tests.live import DEV_MAILBOX

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]

PORTS = range(18400, 18500)
WAIT_S = 10.0


def _free_ports(count: int) -> list[str]:
    found: list[str] = []
    for port in PORTS:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        found.append(f"127.0.0.1:{port}")
        if len(found) == count:
            return found
    raise RuntimeError("no free port in 18400-18499")


@dataclass
class Pushing:
    services: Services
    push: PushServer

    @property
    def url(self) -> str:
        return self.push.url


@pytest.fixture(scope="module")
def pushing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pushing]:
    from tests.conftest import REDIS_TEST_URL, own_database

    nginx_binary()  # fails loudly, with how to install it, when nginx or nchan is missing
    namespace = f"magnate:test-push:{uuid.uuid4().hex[:10]}:"
    queue = f"magnate:test:{uuid.uuid4().hex[:10]}"
    with own_database("magnate_test") as dsn:
        services = Services.start(dsn, REDIS_TEST_URL, queue, workers=1, env=DEV_MAILBOX)
        try:
            listen, publish = _free_ports(2)
            push = PushServer.start(services.env, [services.url.removeprefix("http://")], listen, publish,
                                    tmp_path_factory.mktemp("nginx"), REDIS_TEST_URL, namespace)
            try:
                yield Pushing(services, push)
            finally:
                push.stop()
        finally:
            services.stop()
            client = redis.Redis.from_url(REDIS_TEST_URL)
            for pattern in (f"{namespace}*", f"{queue}*"):
                keys = list(client.scan_iter(pattern))
                if keys:
                    client.delete(*keys)
            client.close()


# -- an EventSource client ---------------------------------------------------------------------------------------


async def events(http: httpx.AsyncClient, path: str, last_event_id: str | None = None,
                 opened: asyncio.Event | None = None) -> AsyncGenerator[Pushed, None]:
    """The messages of an EventSource subscription (raises on a refusal); ``opened`` is set once nchan accepted it
    (a new subscriber hears what is published from then on)."""
    headers = {"Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    async with http.stream("GET", path, headers=headers, timeout=httpx.Timeout(WAIT_S, read=None)) as response:
        response.raise_for_status()
        if opened is not None:
            opened.set()
        fields: dict[str, str] = {}
        async for line in response.aiter_lines():
            if not line:
                if "data" in fields:
                    yield Pushed(fields.get("id", ""), fields.get("event", "message"), fields["data"])
                fields = {}
                continue
            name, _, value = line.partition(":")
            if name:
                fields[name] = fields[name] + "\n" + value.lstrip() if name == "data" and name in fields \
                    else value.removeprefix(" ")


async def next_within(stream: AsyncIterator[Pushed]) -> Pushed:
    return await asyncio.wait_for(anext(stream), WAIT_S)


# -- a game through nginx ------------------------------------------------------------------------------------------


@dataclass
class Game:
    game_id: str
    tokens: dict[int, str]


async def create(http: httpx.AsyncClient) -> Game:
    body = {"game": "magnate", "options": {"seats": [{"kind": "human"}, {"kind": "human"}]}}
    response = await http.post("/api/games", json=body)
    response.raise_for_status()
    created = response.json()
    return Game(created["game_id"], {s["seat"]: s["token"] for s in created["seats"] if s["token"]})


async def move(http: httpx.AsyncClient, game: Game, seats: tuple[int, ...] = (0, 1)) -> tuple[int, int]:
    """One legal command of whichever of ``seats`` may move: (the seat, the version it brought the game to)."""
    for _ in range(100):
        for seat in seats:
            auth = {"Authorization": f"Bearer {game.tokens[seat]}"}
            me = (await http.get(f"/api/games/{game.game_id}/me", headers=auth)).json()
            if me["legal"]:
                body = {"command_id": uuid.uuid4().hex, "command": me["legal"][0]["command"],
                        "expected_version": me["version"]}
                answer = await http.post(f"/api/games/{game.game_id}/commands", json=body, headers=auth)
                answer.raise_for_status()
                return seat, int(answer.json()["version"])
        await asyncio.sleep(0.1)  # the worker's turn
    raise AssertionError("no seat could move")


def version_of(message: Pushed) -> int:
    return int(httpx.Response(200, content=message.data).json()["version"])


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())  # type: ignore[arg-type]


def test_a_seat_page_hears_the_other_seats_move_through_nchan_and_resumes(pushing: Pushing) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=pushing.url, timeout=WAIT_S) as http:
            game = await create(http)
            opened = asyncio.Event()
            page = events(http, f"/push/games/{game.game_id}/seat/0?token={game.tokens[0]}", None, opened)
            first = asyncio.ensure_future(next_within(page))
            await asyncio.wait_for(opened.wait(), WAIT_S)
            while True:  # until the other seat has moved
                seat, version = await move(http, game)
                if seat == 1:
                    break
            heard = await first
            while version_of(heard) < version:
                heard = await next_within(page)
            assert heard.event == "events" and version_of(heard) == version
            # the events that seat reads from the API (its redactions included), as the Python stream sends them
            body = httpx.Response(200, content=heard.data).json()
            first_version = body["events"][0]["version"]
            read = await http.get(f"/api/games/{game.game_id}/events?after={first_version - 1}",
                                  headers={"Authorization": f"Bearer {game.tokens[0]}"})
            assert read.json() == body
            await page.aclose()
            # the page reconnects after a move it missed: nchan resumes after the last id it saw
            _, missed = await move(http, game)
            resumed = events(http, f"/push/games/{game.game_id}/seat/0?token={game.tokens[0]}", heard.id)
            again = await next_within(resumed)
            assert version_of(again) == missed
            assert httpx.Response(200, content=again.data).json()["events"][0]["version"] == version + 1
            await resumed.aclose()

    run(scenario)


def test_a_seats_channel_is_refused_to_another_seat_and_to_no_one_the_public_one_is_open(pushing: Pushing) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=pushing.url, timeout=WAIT_S) as http:
            game = await create(http)
            other = await create(http)
            seat0 = f"/push/games/{game.game_id}/seat/0"
            for path in (f"{seat0}?token={game.tokens[1]}", seat0, f"{seat0}?token={other.tokens[0]}",
                         f"{seat0}?token=forged", f"/push/games/{uuid.uuid4().hex}/public"):
                with pytest.raises(httpx.HTTPStatusError) as refused:
                    await anext(events(http, path))
                assert refused.value.response.status_code == 403, path
            opened = asyncio.Event()
            public = events(http, f"/push/games/{game.game_id}/public", None, opened)
            heard = asyncio.ensure_future(next_within(public))
            await asyncio.wait_for(opened.wait(), WAIT_S)
            _, version = await move(http, game)
            message = await heard
            while version_of(message) < version:
                message = await next_within(public)
            assert version_of(message) == version
            await public.aclose()

    run(scenario)


# -- the publisher's contract: nchan and its twin --------------------------------------------------------------


Side = tuple[Any, Callable[..., AsyncGenerator[Pushed, None]], str, str]
"""A push adapter, how to subscribe to one of its channels, a public channel and a seat's."""


@asynccontextmanager
async def nchan_side(pushing: Pushing) -> AsyncIterator[Side]:
    async with httpx.AsyncClient(base_url=pushing.url, timeout=WAIT_S) as http:
        game = await create(http)
        push = NchanPush(pushing.push.nginx.box.publish_url)

        async def subscribe(channel: str, last_event_id: str | None = None, opened: asyncio.Event | None = None
                            ) -> AsyncGenerator[Pushed, None]:
            """The contract's own messages: the pusher publishes the game's creation to the same channels."""
            token = f"?token={game.tokens[0]}" if channel == seat_channel(game.game_id, 0) else ""
            async for message in events(http, f"/push/{channel}{token}", last_event_id, opened):
                if not message.data.startswith('{"version"'):
                    yield message

        try:
            yield push, subscribe, public_channel(game.game_id), seat_channel(game.game_id, 0)
        finally:
            await push.aclose()


@asynccontextmanager
async def memory_side(_: Pushing) -> AsyncIterator[Side]:
    push = MemoryPush()

    async def subscribe(channel: str, last_event_id: str | None = None, opened: asyncio.Event | None = None
                        ) -> AsyncGenerator[Pushed, None]:
        messages = push.subscribe(channel, last_event_id)
        if opened is not None:
            opened.set()
        async for message in messages:
            yield message

    yield push, subscribe, public_channel("g"), seat_channel("g", 0)


@pytest.mark.parametrize("side", [nchan_side, memory_side], ids=["nchan", "twin"])
def test_push_contract_in_order_per_channel_resumes_after_an_id(pushing: Pushing, side: Any) -> None:
    async def scenario() -> None:
        async with side(pushing) as (push, subscribe, public, seat):
            opened = asyncio.Event()
            listening = subscribe(seat, None, opened)
            first = asyncio.ensure_future(next_within(listening))
            await asyncio.wait_for(opened.wait(), WAIT_S)
            await push.publish(public, '{"to": "public"}', "events")
            await push.publish(seat, '{"n": 1}', "events")
            await push.publish(seat, '{"n": 2}', "chat")
            one, two = await first, await next_within(listening)
            assert [(m.event, m.data) for m in (one, two)] == [("events", '{"n": 1}'), ("chat", '{"n": 2}')]
            await listening.aclose()
            resumed = subscribe(seat, one.id)
            assert (await next_within(resumed)).data == '{"n": 2}'
            await resumed.aclose()
            opened = asyncio.Event()
            later = subscribe(public, None, opened)  # a new subscriber hears only what is published after it
            heard = asyncio.ensure_future(next_within(later))
            await asyncio.wait_for(opened.wait(), WAIT_S)
            await push.publish(public, '{"to": "later"}', "events")
            assert (await heard).data == '{"to": "later"}'
            await later.aclose()

    run(scenario)
