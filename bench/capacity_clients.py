"""The people of the capacity run (bench/capacity.py): client processes in which simulated people arrive at a fixed
rate, each signed in, each holding its game's page for its visit and moving after human think times.

A client process keeps a pool of signed-in players (a returning player's session is reused; a new one signs in
through the site with the link the development mailbox kept) and runs an open loop: arrivals are a Poisson process
of the rate it is told, drawn from its own generator, whatever the service answers. An arrival is one game: a
person alone against the AI, or a table of k people who each claim their own seat of a k-human game. Every person
is the game page (:attr:`Model.page`): the one-stream page reads the game once, asks where its stream is (the API's,
or nchan's behind nginx: :attr:`Model.push`) and holds that one stream (with the session, so it is the seat's and
keeps the seat present); it waits for their turn, thinks, and sends the move their game's bot chooses; the visit
ends when the people of the game have made :attr:`Model.moves` moves between them (or the game ends), and they all
close their streams and leave (the game stays, waiting for them: the notifications then tell them, as they would a
person). Every request goes to the site's address: the API's, or nginx's in front of it (commands included). The
streams are read with httpx-sse.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import random
import re
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from multiprocessing.connection import Connection as Pipe
from typing import Any

import asyncpg
import httpx
import msgspec
from httpx_sse import ServerSentEvent, aconnect_sse

from services.simulation import SimSpec
from services.simulation.folded import FoldedGame, LiveError, StreamEvent
from services.simulation.http import Connection, HttpError
from services.simulation.live import Page, read_applied, read_page

from .capacity_model import Model, Records
from .stream_clients import client_process

SILENCE_S = {"python": 60.0, "nchan": 300.0}
"""A stream that hears nothing for this long has failed: the API's sends a keep-alive every 15 s; nchan's none (an
EventSource waits as long as it takes), so only a stream gone far longer than a turn counts there."""
LAST_MOVE_S = 5.0
"""At the end of a visit each person waits (at most this long) until their stream brought the last move."""
_TOKEN = re.compile(r"#token=([A-Za-z0-9_.~%-]+)")


class _Version(msgspec.Struct):
    """nchan's ``version`` message, as far as the clients read it (its ``events`` part)."""

    events: Page


read_version = msgspec.json.Decoder(_Version).decode


class Player:
    """A signed-in player: an HTTP client holding the session cookie, and the CSRF token its writes send."""

    def __init__(self, url: str, email: str) -> None:
        self.email = email
        self.conn = Connection(url, connections=6)  # a browser's connections per host
        self.csrf = ""

    def writes(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        return {"X-CSRFToken": self.csrf, **(extra or {})}


class Table:
    """One arrival's game, shared by its people."""

    def __init__(self, game_id: str, moves: int, size: int) -> None:
        self.game_id = game_id
        self.moves_left = moves
        self.size = size
        self.sat = 0
        self.seated = asyncio.Event()
        """Every person's stream is open: the table plays."""
        self.over = asyncio.Event()
        self.last_version = 0
        """The version of the visit's last move (which everyone sees before leaving)."""


class Clients:
    def __init__(self, url: str, dsn: str, name: str, model: Model, seed: int) -> None:
        self.url, self.dsn, self.name, self.model = url, dsn, name, model
        self.rng = random.Random(seed)
        self.idle: list[Player] = []
        self.signed = itertools.count()
        self.arrived = itertools.count()
        self.records = Records()
        self.visits: set[asyncio.Task[None]] = set()
        self.pool: asyncpg.Pool | None = None

    # -- players -----------------------------------------------------------------------------------------------

    async def player(self) -> Player:
        if self.idle:
            return self.idle.pop()
        player = Player(self.url, f"{self.name}-{next(self.signed)}@example.com")
        await self._expect(player.conn.request("POST", "/api/auth/link", _json({"email": player.email})), 202)
        assert self.pool is not None
        body = await self.pool.fetchval("SELECT text_body FROM dev_mail WHERE recipient = $1 AND subject LIKE "
                                        "'Sign in%' ORDER BY mail_id DESC LIMIT 1", player.email)
        found = _TOKEN.search(body or "")
        if found is None:
            raise HttpError(f"no sign-in link was kept for {player.email}")
        # as the page signs in: the CSRF token of a pre-session first; the session it gets has a token of its own
        pre = (await self._expect(player.conn.request("GET", "/api/auth/csrf"), 200)).json()
        await self._expect(player.conn.request("POST", "/api/auth/session", _json({"token": found.group(1)}),
                                               {"X-CSRFToken": pre["csrf_token"] if isinstance(pre, dict) else ""}),
                           200)
        player.csrf = player.conn.client.cookies.get("csrftoken") or ""
        self.records.sign_ins += 1
        return player

    @staticmethod
    async def _expect(sent: Awaitable[Any], status: int) -> Any:
        response = await sent
        if response.status != status:
            raise HttpError(f"answered {response.status}, not {status}: {response.body[:200]!r}")
        return response

    # -- arrivals ------------------------------------------------------------------------------------------------

    async def arrive(self, scheduled: float) -> None:
        self.records.lags.append(max(0.0, time.time() - scheduled))
        self.records.arrivals += 1
        index = next(self.arrived)
        solo = self.rng.random() < self.model.solo_share
        size = 1 if solo else self.rng.choice(self.model.table_sizes)
        spec = SimSpec(games=0, seats=2, seed=self.name) if solo else SimSpec(games=0, seats=size, difficulty=None,
                                                                              seed=self.name)
        people: list[Player] = []
        try:
            people = [await self.player() for _ in range(size)]
            self.records.people += size
            host = people[0]
            body = _json({"game": spec.game, "options": spec.options()})
            created = (await self._expect(host.conn.request("POST", "/api/games", body, host.writes()), 201)).json()
            tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
            table = Table(created["game_id"], self.model.moves, size)
            for seat, person in enumerate(people):  # each claims their own seat, as the invite's receiver does
                await self._expect(person.conn.request(
                    "POST", f"/api/games/{table.game_id}/claim", None,
                    person.writes({"Authorization": f"Bearer {tokens[seat]}"})), 200)
            bots = spec.bots(index)
            played = await asyncio.gather(*(self.play(p, seat, table, bots, random.Random(self.rng.random()))
                                            for seat, p in enumerate(people)), return_exceptions=True)
            for outcome in played:
                if isinstance(outcome, BaseException):
                    raise outcome
        except (HttpError, LiveError, OSError) as exc:
            self.records.failures += 1
            if len(self.records.errors) < 20:
                self.records.errors.append(repr(exc)[:300])
        finally:
            self.idle.extend(people)

    async def play(self, person: Player, seat: int, table: Table, bots: Any, rng: random.Random) -> None:
        game = FoldedGame(table.game_id, "magnate")
        changed, connected, updated = asyncio.Event(), asyncio.Event(), asyncio.Event()
        loaded = time.time()
        if self.model.page == "old":
            path = f"/api/games/{table.game_id}/stream?after=0"
        else:
            path = await self.load(person, game, loaded)
        reader = asyncio.create_task(self.follow(person, seat, game, path, (changed, updated), connected))
        page = [asyncio.create_task(self.page(person, table.game_id, updated))] if self.model.page == "old" else []
        watched = (reader, *page)
        try:
            await _first(connected.wait(), reader)
            _alive(reader)
            table.sat += 1
            if table.sat == table.size:
                table.seated.set()
            await _first(table.seated.wait(), table.over.wait(), *watched)
            _alive(*watched)
            while not table.over.is_set():
                changed.clear()
                due = game.module.pending(game.state)
                if due.finished:
                    table.over.set()
                elif due.seats and due.seats[0] == seat:
                    await _first(asyncio.sleep(self.model.think_s(rng)), table.over.wait())
                    if table.over.is_set() or await self.move(person, seat, game, table, bots):
                        continue
                await _first(changed.wait(), table.over.wait(), *watched)
                _alive(*watched)
            await _first(_seen_up_to(game, table.last_version, changed), asyncio.sleep(LAST_MOVE_S), reader)
        finally:
            table.over.set()  # one person failing ends the visit for the table
            for task in (reader, *page):
                task.cancel()
            await asyncio.gather(reader, *page, return_exceptions=True)

    async def move(self, person: Player, seat: int, game: FoldedGame, table: Table, bots: Any) -> bool:
        """Send the bot's move; False when the game had moved on (the stream will say how)."""
        body = msgspec.json.encode({"command_id": f"cap-{seat}-{game.version}", "expected_version": game.version,
                                    "command": bots(game.state, seat)})
        sent = time.time()
        response = await person.conn.request("POST", f"/api/games/{table.game_id}/commands", body, person.writes())
        answered = time.time()
        if response.status == 409:  # the game moved on meanwhile (a claim, a job)
            self.records.conflicts += 1
            return False
        if response.status != 200:
            raise HttpError(f"a move was refused: {response.status} {response.body[:200]!r}")
        self.records.commands.append((answered, answered - sent))
        applied = read_applied(response.body)
        game.apply(applied.events, applied.version)
        table.moves_left -= 1
        if table.moves_left <= 0:
            table.last_version = applied.version
            table.over.set()
        return True

    async def page(self, person: Player, game_id: str, updated: asyncio.Event) -> None:
        """The rest of the play page: its two other streams, and its reads after each update."""
        held = [asyncio.create_task(self.hold(person, path))
                for path in (f"/api/games/{game_id}/chat/stream?after=0", "/api/me/stream")]
        told = 0
        try:
            while True:
                await _first(updated.wait(), *held)
                _alive(*held)
                updated.clear()  # what comes during the reads makes one more
                base = f"/api/games/{game_id}"
                views = await asyncio.gather(person.conn.request("GET", base), person.conn.request("GET", f"{base}/me"))
                history = await person.conn.request("GET", f"{base}/history?after={told}")
                for response in (*views, history):
                    if response.status != 200:
                        raise HttpError(f"a page read was refused: {response.status} {response.body[:200]!r}")
                told = int(msgspec.json.decode(history.body)["version"])
                self.records.reads += 3
        finally:
            for task in held:
                task.cancel()
            await asyncio.gather(*held, return_exceptions=True)

    async def load(self, person: Player, game: FoldedGame, began: float) -> str:
        """The one-stream page's load: the seat's view and the game's events read once (the bot plays from them),
        the stream's address asked as ``live.js`` asks it (nchan's from the time the page began loading); returns
        the path of the stream to open."""
        base = f"/api/games/{game.game_id}"
        me, events = await asyncio.gather(person.conn.request("GET", f"{base}/me"),
                                          person.conn.request("GET", f"{base}/events?after=0"))
        back = math.ceil(time.time() - began) + 2
        address = await person.conn.request("GET", f"{base}/stream/address?back={back}")
        for response in (me, events, address):
            if response.status != 200:
                raise HttpError(f"a page load read was refused: {response.status} {response.body[:200]!r}")
        self.records.reads += 3
        told = read_page(events.body)
        game.apply(told.events, told.version)
        where = msgspec.json.decode(address.body)
        if where["kind"] != self.model.push:
            raise HttpError(f"the page was told to open a {where['kind']} stream, not {self.model.push}")
        return str(where["url"]) if where["kind"] == "nchan" else f"{where['url']}?after={game.version}&chat=0"

    async def hold(self, person: Player, path: str,
                   message: Callable[[ServerSentEvent], None] | None = None,
                   opened: Callable[[], None] | None = None) -> None:
        """A stream held open (httpx-sse): ``opened`` once it is answered, each message given to ``message``, or
        (without it, as the old page's other streams) its bytes only read."""
        timeout = httpx.Timeout(person.conn.timeout_s, read=SILENCE_S[self.model.push])
        try:
            async with aconnect_sse(person.conn.client, "GET", path, timeout=timeout) as source:
                if source.response.status_code != 200:
                    raise HttpError(f"GET {path}: {source.response.status_code}")
                if opened is not None:
                    opened()
                if message is None:
                    async for _ in source.response.aiter_bytes():
                        pass
                else:
                    async for sse in source.aiter_sse():
                        message(sse)
        except httpx.HTTPError as exc:
            raise HttpError(f"GET {path}: {exc!r}") from exc

    async def follow(self, person: Player, seat: int, game: FoldedGame, path: str,
                     changed: tuple[asyncio.Event, ...], connected: asyncio.Event) -> None:
        """The page's stream of the game, folded into ``game``; each other author's command timed as its ``events``
        message (or nchan's ``version`` message, which holds it) arrives (the page's other messages, history, state,
        chat, are not the log's)."""
        mine, since = f"seat:{seat}", time.time()

        def opened() -> None:
            nonlocal since
            since = time.time()
            self.records.opened.append((since, 1))
            connected.set()

        def message(sse: ServerSentEvent) -> None:
            if sse.event == "events":
                self._seen(read_page(sse.data), game, mine, since)
            elif sse.event == "version":  # a push server's channel: the version's three messages in one
                self._seen(read_version(sse.data).events, game, mine, since)
            for event in changed:
                event.set()

        try:
            await self.hold(person, path, message, opened)
        finally:
            if connected.is_set():
                self.records.opened.append((time.time(), -1))

    def _seen(self, page: Any, game: FoldedGame, mine: str, since: float) -> None:
        now, told = time.time(), set()
        for e in page.events:
            if e.version > game.version and e.actor != mine and e.command_id not in told:
                told.add(e.command_id)
                recorded = _moment(e)
                if recorded >= since:  # not the backlog the stream sent on connecting
                    self.records.pushes.append((now, max(0.0, now - recorded)))
                    self.records.people_pushes += e.actor.startswith("seat:")
        game.apply(page.events, page.version)

    def _ended(self, task: asyncio.Task[None]) -> None:
        """A visit that failed in a way :meth:`arrive` does not expect is counted too, not lost with its task."""
        self.visits.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            self.records.failures += 1
            if len(self.records.errors) < 20:
                self.records.errors.append(repr(error)[:300])

    # -- the open loop -----------------------------------------------------------------------------------------------

    async def run(self, pipe: Pipe) -> None:
        self.pool = await asyncpg.create_pool(self.dsn, min_size=1, max_size=2)
        rate, due = 0.0, math.inf
        pipe.send(("ready", None))
        try:
            while True:
                while pipe.poll():
                    kind, value = pipe.recv()
                    if kind == "stop":
                        return
                    if kind == "rate":
                        rate = float(value)
                        due = time.time() + self.rng.expovariate(rate) if rate > 0 else math.inf
                    elif kind == "report":
                        pipe.send(("records", self.records))
                        self.records = Records()
                if (wait := due - time.time()) > 0:
                    await asyncio.sleep(min(wait, 0.05))
                    continue
                task = asyncio.create_task(self.arrive(due))
                self.visits.add(task)
                task.add_done_callback(self._ended)
                due += self.rng.expovariate(rate)
        finally:
            for task in list(self.visits):
                task.cancel()
            await asyncio.gather(*self.visits, return_exceptions=True)
            await asyncio.gather(*(p.conn.close() for p in self.idle), return_exceptions=True)
            await self.pool.close()
            pipe.send(("records", self.records))


async def _seen_up_to(game: FoldedGame, version: int, changed: asyncio.Event) -> None:
    while game.version < version:
        changed.clear()
        if game.version >= version:
            return
        await changed.wait()


def _alive(*tasks: asyncio.Task[None]) -> None:
    """Raises what ended a stream (or the page), if one ended."""
    for task in tasks:
        if task.done():
            task.result()
            raise HttpError("an event stream ended")


def _json(value: Any) -> bytes:
    return msgspec.json.encode(value)


def _moment(event: StreamEvent) -> float:
    return datetime.fromisoformat(event.recorded_at).timestamp()


async def _first(*waits: Awaitable[Any]) -> None:
    """Until the first of ``waits`` is done (tasks given are left running; the others are cancelled)."""
    tasks = [w if isinstance(w, asyncio.Task) else asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task, given in zip(tasks, waits, strict=True):
            if task is not given:
                task.cancel()


def client_main(url: str, dsn: str, name: str, model: Model, seed: int, pipe: Pipe) -> None:
    """A client process: arrivals at the rate it is told (``("rate", per_s)``), what it saw on ``("report",
    None)``, everyone leaves on ``("stop", None)``."""
    client_process()
    asyncio.run(Clients(url, dsn, name, model, seed).run(pipe))
