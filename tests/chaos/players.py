"""Bot clients that play through faults: the live simulation's clients, made patient.

Each game is played as ``magnate simulate --mode service`` plays it (:mod:`services.simulation.live`: the
same seeds and bots, created by its :func:`~services.simulation.live.create`, the state folded from the event
stream by the game's module, a seat's own copy read with its token when the game hides events (Decktet's hands),
only ``pending(state).seats[0]`` ever played, and a system job due beside seats waited for first, as the in-process
driver runs it first: every game of every registered game is its in-process game), with what a real client must add
when the service has bad moments. The simulation's client (:class:`services.simulation.http.Connection`, on
httpx) tries a request once more on a broken connection and otherwise hands back whatever the server answered;
:class:`PatientConnection` adds, on the same httpx client:

* every request is retried on a connection error, a 5xx and a 429, waiting what the ``Retry-After``
  header says (or backing off) — a retried command carries the same ``command_id``, so the service answers it
  with its first result instead of applying it twice;
* a game is created (as the simulation creates it) with an ``Idempotency-Key``, so a creation retried
  after a lost answer gets the same game (a server without idempotent creation ignores the header, and the
  ledger then finds the orphan);

and :func:`play` re-opens the event stream (after the version already folded) whenever it breaks or ends.

What the clients see is recorded in :class:`Traffic`: every status code, whether each 503 said when to
come back, every command acknowledged (what the ledger must find in the store) and every game's failure.
Command ids are ``chaos-{version}``: a client's id may not contain a colon (the service's own ids do).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec

from services.simulation.http import Connection, HttpError, Response
from services.simulation.live import FoldedGame, LiveError, Seats, create, read_applied, read_page
from services.simulation.local import outcome
from services.simulation.spec import GameResult, SimSpec

REQUEST_TIMEOUT_S = 30.0
"""The longest one attempt of a request waits to connect, to send, for each read and for a pooled connection."""
STREAM_SILENCE_S = 40.0
"""Re-open a stream that sends nothing, not even a keep-alive (every 15 s), for this long."""
BACKOFF_FIRST_S = 0.1
BACKOFF_CAP_S = 2.0
RETRY_AFTER_CAP_S = 10.0
"""Never wait longer than this for one retry, whatever ``Retry-After`` says."""
SHOWN_ERRORS = 20
"""Keep at most this many server-error bodies for the report."""


class GaveUp(Exception):
    """A request kept failing until the game's deadline."""


@dataclass(frozen=True)
class Acknowledged:
    """A command the service answered with 200: the store must hold it, with these versions."""

    game_id: str
    command_id: str
    first_version: int
    last_version: int
    duplicate: bool


@dataclass
class Traffic:
    """Everything the clients saw (shared by all games of a run; asyncio runs them on one thread)."""

    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    transport_errors: int = 0
    retries: int = 0
    unavailable_with_retry_after: int = 0
    unavailable_without_retry_after: int = 0
    server_errors: list[str] = field(default_factory=list)
    """Bodies of 5xx answers other than 503 (at most :data:`SHOWN_ERRORS`)."""
    stream_opens: int = 0
    stream_breaks: int = 0
    acknowledged: list[Acknowledged] = field(default_factory=list)
    duplicates_answered: int = 0
    """Retried commands the service answered with their first result (``duplicate: true``)."""
    creations: dict[int, str] = field(default_factory=dict)
    """Game index -> the game id its creation was answered with."""
    timed: list[str] = field(default_factory=list)
    """Games created with a clock nobody plays against (:mod:`.clocked`): created, but in no ``results``."""
    results: dict[int, GameResult] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def saw(self, status: int, headers: Mapping[str, str], body: bytes, what: str) -> None:
        """One answer; ``headers`` looked up case-insensitively (httpx's)."""
        self.requests += 1
        self.statuses[status] += 1
        if status == 503:
            if "retry-after" in headers:
                self.unavailable_with_retry_after += 1
            else:
                self.unavailable_without_retry_after += 1
        elif status >= 500 and len(self.server_errors) < SHOWN_ERRORS:
            self.server_errors.append(f"{what}: {status} {body[:200].decode(errors='replace')}")

    @property
    def server_error_count(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500 and status != 503)


def retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds from a ``Retry-After`` header (its delay-seconds form; an HTTP date counts as 1 s)."""
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return min(RETRY_AFTER_CAP_S, max(0.0, float(value)))
    except ValueError:
        return 1.0


class PatientConnection(Connection):
    """A :class:`~services.simulation.http.Connection` whose requests are retried until ``deadline``
    (``time.monotonic()``): on connection errors and on 5xx and 429 answers (honouring ``Retry-After``). Each
    attempt is one request of the connection's httpx client, so :class:`Traffic` counts every one. A game's
    creation (``POST /api/games``, whose body :func:`services.simulation.live.create` makes) carries
    ``creation_key`` as its ``Idempotency-Key``. Its event streams are the connection's own
    (:meth:`~services.simulation.http.Connection.events`)."""

    def __init__(self, url: str, traffic: Traffic, deadline: float, creation_key: str | None = None,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        """``transport``: instead of the network (a test's ``httpx.MockTransport``)."""
        super().__init__(url, timeout_s=REQUEST_TIMEOUT_S, transport=transport)
        self.traffic = traffic
        self.deadline = deadline
        self.creation_key = creation_key

    async def request(self, method: str, path: str, body: bytes | None = None,
                      headers: Mapping[str, str] | None = None) -> Response:
        sent = dict(headers or {})
        if body is not None:
            sent["Content-Type"] = "application/json"
        if self.creation_key and (method, path) == ("POST", "/api/games"):
            sent["Idempotency-Key"] = self.creation_key
        delay = BACKOFF_FIRST_S
        while True:
            try:
                answer = await self.client.request(method, path, content=body, headers=sent)
            except httpx.HTTPError as exc:  # the pool drops a broken connection; the next attempt opens another
                self.traffic.requests += 1
                self.traffic.transport_errors += 1
                wait, problem = delay, f"{method} {path}: {exc!r}"
            else:
                status, content = answer.status_code, answer.content
                self.traffic.saw(status, answer.headers, content, f"{method} {path}")
                if status < 500 and status != 429:
                    return Response(status, content, answer.headers)
                wait = retry_after(answer.headers) or delay
                problem = f"{method} {path}: {status} {content[:200].decode(errors='replace')}"
            if time.monotonic() + wait > self.deadline:
                raise GaveUp(problem)
            self.traffic.retries += 1
            await asyncio.sleep(wait)
            delay = min(BACKOFF_CAP_S, delay * 2)


async def submit(conn: Connection, game: FoldedGame, token: str, command: Any, traffic: Traffic) -> None:
    command_id = f"chaos-{game.version}"
    body = msgspec.json.encode({"command_id": command_id, "expected_version": game.version, "command": command})
    response = await conn.request("POST", f"/api/games/{game.game_id}/commands", body,
                                  {"Authorization": f"Bearer {token}"})
    if response.status != 200:
        raise GaveUp(f"game {game.game_id}: command {command_id} refused: {response.status} "
                     f"{response.body[:300].decode(errors='replace')}")
    applied = read_applied(response.body)
    # the answer may carry the events of the service's own commands of the same append (the seed's reveal)
    versions = [e.version for e in applied.events if e.command_id == command_id]
    if versions:
        traffic.acknowledged.append(Acknowledged(game.game_id, command_id, versions[0], versions[-1],
                                                 applied.duplicate))
    traffic.duplicates_answered += applied.duplicate
    game.apply(applied.events, applied.version)


STREAM_BREAKS = (HttpError, TimeoutError, ValueError)
"""A stream that failed (no answer, not 200, broken, silent too long, past the deadline, a garbled message):
re-opened. ``msgspec.DecodeError`` is a ValueError."""


async def play(url: str, spec: SimSpec, index: int, run_id: str, traffic: Traffic, think_s: float,
               deadline: float, key: int | None = None) -> None:
    """Play game ``index`` of ``spec`` to its end through the service at ``url``, or record why it could not by
    ``deadline`` (``time.monotonic()``) in ``traffic.failures``. ``key`` (default ``index``) names the game in
    ``traffic`` and in its creation's idempotency key (a run plays several specs)."""
    key = index if key is None else key
    conn = PatientConnection(url, traffic, deadline, creation_key=f"chaos-{run_id}-{key:05d}")
    try:
        created = await create(conn, spec, index)
        traffic.creations[key] = created.game_id
        if created.game_type != spec.game:
            raise LiveError(f"game {created.game_id} is a {created.game_type} game, not {spec.game}")
        game = FoldedGame(created.game_id, created.game_type)
        seats = _Seats(Seats(game, created), created.tokens, spec.bots(index), random.Random(key), think_s)
        delay = BACKOFF_FIRST_S
        while not game.finished:
            if time.monotonic() > deadline:
                raise GaveUp(f"game {game.game_id} did not finish in time (version {game.version}, "
                             f"waiting for {_waiting_for(game)})")
            opened_at = game.version
            await _follow(conn, game, seats, traffic, deadline)
            # A stream that brought nothing is backed off from, so an outage is not a busy loop.
            delay = BACKOFF_FIRST_S if game.version > opened_at else min(BACKOFF_CAP_S, delay * 2)
            if not game.finished:
                await asyncio.sleep(delay)
        whole = await seats.copies.whole(conn)
        traffic.results[key] = outcome(spec, 0, index, whole.state, whole.version, whole.players, whole.jobs)
    except (GaveUp, LiveError) as exc:
        traffic.failures.append(f"game {key} ({spec.game}): {exc}")
    finally:
        await conn.close()


@dataclass
class _Seats:
    """The bots of one game's human seats, the copies they decide on (:class:`~services.simulation.live.Seats`: a
    seat's own copy when the game hides events), their tokens, and the pause before each move."""

    copies: Seats
    tokens: dict[int, str]
    bots: Callable[[Any, int], Any]
    pause: random.Random
    think_s: float

    async def move(self, conn: Connection, seat: int, traffic: Traffic) -> None:
        if self.think_s > 0:
            await asyncio.sleep(self.pause.uniform(0, 2 * self.think_s))
        mine = await self.copies.ready(conn, seat)
        await submit(conn, mine, self.tokens[seat], self.bots(mine.state, seat), traffic)
        await self.copies.moved(conn, mine)


async def _follow(conn: Connection, game: FoldedGame, seats: _Seats, traffic: Traffic, deadline: float) -> None:
    """Open the game's stream after the version folded and play the bots' moves as they come due, until the game
    ends, the server ends the stream, it breaks (counted) or the deadline passes. A system job due beside seats (the
    computer's sealed choice in Master of Economy) is waited for first, as the in-process driver runs it first, so
    the game stays the in-process game of its seeds."""
    traffic.stream_opens += 1
    traffic.requests += 1
    messages = conn.events(f"/api/games/{game.game_id}/stream?after={game.version}", STREAM_SILENCE_S)
    try:
        while not (due := game.module.pending(game.state)).finished:
            if due.seats and due.system is None:
                await seats.move(conn, due.seats[0], traffic)
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                return
            async with asyncio.timeout(left):  # a stalled game ends by the deadline
                data = await anext(messages, None)
            if data is None:
                return  # the server ended the stream: the caller opens it again from where we are
            page = read_page(data)
            game.apply(page.events, page.version)
    except STREAM_BREAKS:
        traffic.stream_breaks += 1
    finally:
        await messages.aclose()


def _waiting_for(game: FoldedGame) -> str:
    due = game.module.pending(game.state)
    if due.system is not None:
        return f"the system job {type(due.system).__name__}"
    return f"seats {list(due.seats)}"


async def play_all(url: str, specs: Sequence[SimSpec], run_id: str, traffic: Traffic, *, games: int,
                   concurrency: int, think_s: float, deadline: float, more: Callable[[], bool] = lambda: False,
                   most: int | None = None) -> int:
    """Play ``games`` games, ``concurrency`` at a time, the specs in turn: game ``n`` (its key in ``traffic``) is
    game ``n // len(specs)`` of ``specs[n % len(specs)]`` (its seeds); while ``more()`` is true, keep starting games
    beyond ``games`` (up to ``most``), so a load is running until the caller's faults are all done. Returns how many
    games were started."""
    started = 0
    running: set[asyncio.Task[None]] = set()
    limit = most if most is not None else games
    while started < limit and time.monotonic() < deadline:
        if started >= games and not more():
            break
        if len(running) >= concurrency:
            _, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            continue
        spec, index = of(specs, started)
        running.add(asyncio.create_task(play(url, spec, index, run_id, traffic, think_s, deadline, key=started)))
        started += 1
    if running:
        await asyncio.wait(running)
    return started


def of(specs: Sequence[SimSpec], key: int) -> tuple[SimSpec, int]:
    """The spec and game number of game ``key`` of a run (see :func:`play_all`)."""
    return specs[key % len(specs)], key // len(specs)
