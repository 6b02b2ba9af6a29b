"""nginx with nchan as the pages' push server (infra/nchan/, services/pusher.py), in nchan's Redis mode on the test
Redis under a key namespace of its own (tests/pushing.py): a game played through nginx reaches a seat's page-like
EventSource client as the page's named messages (``history`` in the channel's language, ``state``, ``events``, and
the chat's ``chat``), equal to what the API answers that seat, resumes with Last-Event-ID, and a seat's channel is
refused to anyone but that seat. The publisher adapter and its in-memory twin pass one contract suite."""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from redis import asyncio as aioredis

from infra.nchan.publisher import MemoryPush, NchanPush, Pushed, public_channel, seat_channel
from infra.presence import seat_key
from services.api.seat_access import SEAT_COOKIE
from tests.pushing import Pushing, pushing_deployment

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]

WAIT_S = 10.0


@pytest.fixture(scope="module")
def pushing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pushing]:
    from tests.conftest import REDIS_TEST_URL, own_database

    with own_database("magnate_test") as dsn, pushing_deployment(dsn, REDIS_TEST_URL, tmp_path_factory.mktemp("nginx"),
                                                                  range(18400, 18450)) as deployed:
        yield deployed


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


async def until_present(game_id: str, seat: int, present: bool) -> None:
    """Until the seat's presence (infra/presence.py, kept by nchan's subscribe and unsubscribe calls) is ``present``."""
    from tests.conftest import REDIS_TEST_URL

    client = aioredis.Redis.from_url(REDIS_TEST_URL)
    try:
        deadline = time.monotonic() + WAIT_S
        while (await client.zcount(seat_key(game_id, seat), time.time(), "+inf") > 0) != present:
            assert time.monotonic() < deadline, f"seat {seat} of {game_id} never became {present=}"
            await asyncio.sleep(0.05)
    finally:
        await client.aclose()


def since(path: str, back_s: int = 2) -> str:
    """``path`` from the messages of the last ``back_s`` seconds, as the page subscribes (GET .../stream/address): a
    new subscription in nchan's Redis mode hears what is published from when it has asked Redis, a moment after its
    answer's headers."""
    return f"{path}?last_event_id={int(time.time()) - back_s}:0"


class Listening:
    """A subscription read in the background from the moment nchan accepted it (:meth:`open`)."""

    def __init__(self, http: httpx.AsyncClient, path: str, last_event_id: str | None = None) -> None:
        self._opened = asyncio.Event()
        self._heard: asyncio.Queue[Pushed] = asyncio.Queue()
        self._task = asyncio.ensure_future(self._read(events(http, path, last_event_id, self._opened)))

    async def _read(self, stream: AsyncGenerator[Pushed, None]) -> None:
        async for message in stream:
            self._heard.put_nowait(message)

    async def open(self) -> Listening:
        opened = asyncio.ensure_future(self._opened.wait())
        await asyncio.wait([opened, self._task], timeout=WAIT_S, return_when=asyncio.FIRST_COMPLETED)
        if self._task.done():
            self._task.result()  # the refusal
        assert self._opened.is_set(), "not opened"
        return self

    async def next(self) -> Pushed:
        return await asyncio.wait_for(self._heard.get(), WAIT_S)

    async def until(self, version: int) -> list[Pushed]:
        """The messages up to the ``version`` message that reaches ``version``."""
        heard = [await self.next()]
        while not (heard[-1].event == "version" and version_of(heard[-1]) >= version):
            heard.append(await self.next())
        return heard

    async def close(self) -> None:
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)


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
    """The version a ``version`` message brings the page to (its ``events``')."""
    return int(parts_of(message)["events"]["version"])


def parts_of(message: Pushed) -> dict[str, Any]:
    """A ``version`` message's parts: ``history``, ``state``, ``events``, each the API's stream's message of that
    name."""
    assert message.event == "version", message.event
    parts: dict[str, Any] = httpx.Response(200, content=message.data).json()
    assert list(parts) == ["history", "state", "events"], list(parts)
    return parts


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())  # type: ignore[arg-type]


def test_a_seat_page_hears_the_other_seats_move_through_nchan_and_resumes(pushing: Pushing) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=pushing.url, timeout=WAIT_S) as http:
            game = await create(http)
            auth = {"Authorization": f"Bearer {game.tokens[0]}"}
            address = await http.get(f"/api/games/{game.game_id}/stream/address", headers=auth)
            assert address.json() == {"kind": "nchan", "url": f"/push/games/{game.game_id}/seat/0/en", "renew_s": 100}
            direct = await http.get(f"{pushing.services.url}/api/games/{game.game_id}/stream/address", headers=auth)
            assert direct.json()["kind"] == "python"  # a page not served through nginx: the API's own stream
            kept = await http.post(f"/api/games/{game.game_id}/stream/seat", headers=auth)  # as the page does
            assert kept.status_code == 204, kept.text
            address = await http.get(f"/api/games/{game.game_id}/stream/address?back=2",
                                     headers={"Accept-Language": "ru"})
            channel = f"/push/games/{game.game_id}/seat/0/ru"
            url = address.json()["url"]  # the seat's cookie, the page's language, from two seconds ago
            assert address.json()["kind"] == "nchan" and url.startswith(f"{channel}?last_event_id="), url
            page = await Listening(http, url).open()  # the seat cookie, no token in the URL
            await until_present(game.game_id, 0, True)  # the seat's page is open: email and push wait (2 minutes)
            while True:  # until the other seat has moved
                seat, version = await move(http, game)
                if seat == 1:
                    break
            last = parts_of((await page.until(version))[-1])
            history, state, told = last["history"], last["state"], last["events"]
            # what that seat reads from the API (its redactions, its language), as the Python stream sends it
            after = told["events"][0]["version"] - 1
            read = await http.get(f"/api/games/{game.game_id}/events?after={after}", headers=auth)
            assert read.json() == told
            said = await http.get(f"/api/games/{game.game_id}/history?after={after}",
                                  headers={**auth, "Accept-Language": "ru"})
            assert said.json() == history and history["lines"]
            me = await http.get(f"/api/games/{game.game_id}/me", headers=auth)
            assert state["me"]["legal"] == me.json()["legal"] and state["me"]["version"] == version
            assert state["game"]["version"] == version
            # a chat line of the other seat comes on the same channel
            posted = await http.post(f"/api/games/{game.game_id}/chat", json={"text": "hello"},
                                     headers={"Authorization": f"Bearer {game.tokens[1]}"})
            assert posted.status_code == 201, posted.text
            line = await page.next()
            assert line.event == "chat" and httpx.Response(200, content=line.data).json()["text"] == "hello"
            await page.close()
            # the page reconnects after a move it missed: nchan resumes after the last id it saw
            _, missed = await move(http, game)
            resumed = await Listening(http, channel, line.id).open()
            again = await resumed.until(missed)
            assert [m.event for m in again] == ["version"]
            assert parts_of(again[-1])["events"]["events"][0]["version"] == version + 1
            await resumed.close()

    run(scenario)


def test_a_seats_channel_is_refused_to_another_seat_and_to_no_one_the_public_one_is_open(pushing: Pushing) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=pushing.url, timeout=WAIT_S) as http:
            game = await create(http)
            other = await create(http)
            seat0 = f"/push/games/{game.game_id}/seat/0/en"
            for path in (f"{seat0}?token={game.tokens[1]}", seat0, f"{seat0}?token={other.tokens[0]}",
                         f"{seat0}?token=forged", f"/push/games/{uuid.uuid4().hex}/public/en",
                         f"/push/games/{game.game_id}/public/xx", f"/push/games/{game.game_id}/seat/0"):
                with pytest.raises(httpx.HTTPStatusError) as refused:
                    await anext(events(http, path))
                assert refused.value.response.status_code in (403, 404), path
            # the other seat's page, with its own seat cookie (as POST .../stream/seat sets it), is refused seat 0's
            kept = await http.post(f"/api/games/{game.game_id}/stream/seat",
                                   headers={"Authorization": f"Bearer {game.tokens[1]}"})
            assert kept.status_code == 204, kept.text
            assert any(c.name == SEAT_COOKIE and c.path == f"/push/games/{game.game_id}/" for c in http.cookies.jar)
            with pytest.raises(httpx.HTTPStatusError) as refused:
                await anext(events(http, seat0))
            assert refused.value.response.status_code == 403
            own = await Listening(http, since(f"/push/games/{game.game_id}/seat/1/en")).open()  # its own: open
            public = await Listening(http, since(f"/push/games/{game.game_id}/public/de")).open()
            _, version = await move(http, game)
            assert parts_of((await public.until(version))[-1])["state"]["me"] is None  # the public's: no seat's view
            assert parts_of((await own.until(version))[-1])["state"]["me"]["seat"] == 1
            await own.close()
            await public.close()
            assert (await http.get("/internal/push-auth", headers={"X-Original-URI": seat0})).status_code == 404

    run(scenario)


async def sign_in(http: httpx.AsyncClient, email: str) -> dict[str, str]:
    """Sign the client in through nginx as a page does (the link from the development mailbox); its CSRF header."""
    assert (await http.post("/api/auth/link", json={"email": email})).status_code == 202
    mails = (await http.get("/api/dev/mail")).json()["mails"]
    body = next(m["text_body"] for m in mails if m["recipient"] == email)
    found = re.search(r"/signin#token=([A-Za-z0-9_-]+)", body)
    assert found, body
    csrf = {"X-CSRFToken": (await http.get("/api/auth/csrf")).json()["csrf_token"]}
    signed = await http.post("/api/auth/session", json={"token": found.group(1)}, headers=csrf)
    assert signed.status_code == 200, signed.text
    return {"X-CSRFToken": http.cookies["csrftoken"]}


def test_a_signed_in_players_page_hears_its_games_and_notices_beside_its_game(pushing: Pushing) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=pushing.url, timeout=WAIT_S) as http, \
                httpx.AsyncClient(base_url=pushing.url, timeout=WAIT_S) as stranger:
            game = await create(http)
            while (await http.get(f"/api/games/{game.game_id}")).json()["on_turn"] != [0]:
                await move(http, game)  # until seat 0 alone is to move: seat 1's turn comes after its claim
            csrf = await sign_in(http, f"bea-{uuid.uuid4().hex[:8]}@example.com")
            claimed = await http.post(f"/api/games/{game.game_id}/claim",
                                      headers={"Authorization": f"Bearer {game.tokens[1]}", **csrf})
            assert claimed.status_code == 200, claimed.text
            me = (await http.get("/api/me")).json()["player_id"]
            address = (await http.get(f"/api/games/{game.game_id}/stream/address?back=2")).json()
            channel = f"/push/games/{game.game_id}/seat/1/en/player/{me}"
            assert address["url"].startswith(f"{channel}?last_event_id="), address  # the session's seat, and its own
            with pytest.raises(httpx.HTTPStatusError) as refused:  # not that player's session
                await anext(events(stranger, f"/push/games/{game.game_id}/public/en/player/{me}"))
            assert refused.value.response.status_code == 403
            page = await Listening(http, address["url"]).open()
            on_turn = (await http.get(f"/api/games/{game.game_id}")).json()["on_turn"]
            while 1 not in on_turn:  # seat 0 moves (through another client: the signed-in one sends CSRF)
                await move(stranger, game, (0,))
                on_turn = (await http.get(f"/api/games/{game.game_id}")).json()["on_turn"]
            heard: dict[str, Any] = {}
            while not ("notices" in heard and heard.get("games", {}).get("waiting")):
                message = await page.next()
                if message.event in ("games", "notices"):
                    heard[message.event] = httpx.Response(200, content=message.data).json()
            assert [g["game_id"] for g in heard["games"]["games"]] == [game.game_id]
            read = (await http.get("/api/me/notices")).json()
            assert heard["notices"] == read  # as GET /api/me/notices answers
            assert [n["game_id"] for n in read["notices"]] == [game.game_id]  # its turn, told
            await page.close()

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
            token = f"?token={game.tokens[0]}" if channel == seat_channel(game.game_id, 0, "en") else ""
            answered = asyncio.Event()
            probing = asyncio.ensure_future(probe(channel, answered)) if opened is not None else None
            try:
                async for message in events(http, f"/push/{channel}{token}", last_event_id, answered):
                    if message.event == "probe":
                        if opened is not None and probing is not None:
                            opened.set()  # nchan hears the channel for this subscriber now
                            probing.cancel()
                    elif message.data.startswith(('{"n"', '{"to"')):
                        yield message
            finally:
                if probing is not None:
                    probing.cancel()

        async def probe(channel: str, answered: asyncio.Event) -> None:
            """In Redis mode a new subscriber hears what is published once nchan has asked Redis, a moment after
            its answer's headers: probes until one is heard."""
            await answered.wait()
            while True:
                await push.publish(channel, '{"probe": true}', "probe")
                await asyncio.sleep(0.05)

        try:
            yield push, subscribe, public_channel(game.game_id, "en"), seat_channel(game.game_id, 0, "en")
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

    yield push, subscribe, public_channel("g", "en"), seat_channel("g", 0, "en")


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
            # one message to several channels at once: each of their subscribers hears it
            opened = asyncio.Event()
            again = subscribe(seat, None, opened)
            also = asyncio.ensure_future(next_within(again))
            await asyncio.wait_for(opened.wait(), WAIT_S)
            heard = asyncio.ensure_future(next_within(later))
            await push.publish_to([public, seat], '{"to": "both"}', "state")
            assert [((await f).event, (await f).data) for f in (heard, also)] == [("state", '{"to": "both"}')] * 2
            await later.aclose()
            await again.aclose()

    run(scenario)
