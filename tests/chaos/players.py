"""Bot clients that play through faults: the live simulation's clients, made patient.

Each game is played as ``magnate simulate --mode service`` plays it (:mod:`services.simulation.live`: the
same seeds, bots, folded client state and event stream), with what a real client must add when the
service has bad moments:

* every request is retried on a connection error, a 5xx and a 429, waiting what the ``Retry-After``
  header says (or backing off) — a retried command carries the same ``command_id``, so the service answers it
  with its first result instead of applying it twice;
* a game is created (as the simulation creates it) with an ``Idempotency-Key``, so a creation retried
  after a lost answer gets the same game (a server without idempotent creation ignores the header, and the
  ledger then finds the orphan);
* the event stream is re-opened (after the version already folded) whenever it breaks or ends.

What the clients see is recorded in :class:`Traffic`: every status code, whether each 503 said when to
come back, every command acknowledged (what the ledger must find in the store) and every game's failure.
Command ids are ``chaos-{version}``: a client's id may not contain a colon (the service's own ids do).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.magnate import GAME
from services.simulation.http import Connection, HttpError, Response, _chunks, _head, address, event_stream
from services.simulation.live import LiveError, LiveMetrics, _applied, _Game, _page, create
from services.simulation.local import outcome
from services.simulation.spec import GameResult, SimSpec

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
    results: dict[int, GameResult] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    metrics: LiveMetrics = field(default_factory=LiveMetrics)

    def saw(self, status: int, headers: dict[str, str], body: bytes, what: str) -> None:
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


def retry_after(headers: dict[str, str]) -> float | None:
    """Seconds from a ``Retry-After`` header (its delay-seconds form; an HTTP date counts as 1 s)."""
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return min(RETRY_AFTER_CAP_S, max(0.0, float(value)))
    except ValueError:
        return 1.0


class PatientConnection(Connection):
    """A :class:`Connection` that retries until ``deadline`` (``time.monotonic()``): on connection errors and
    on 5xx and 429 answers (honouring ``Retry-After``). It reads the response headers itself, which the plain
    connection does not return, to see ``Retry-After``. A game's creation (``POST /api/games``, whose body
    :func:`services.simulation.live.create` makes) carries ``creation_key`` as its ``Idempotency-Key``."""

    def __init__(self, host: str, port: int, traffic: Traffic, deadline: float,
                 creation_key: str | None = None) -> None:
        super().__init__(host, port, timeout_s=30.0)
        self.traffic = traffic
        self.deadline = deadline
        self.creation_key = creation_key

    async def _exchange(self, data: bytes) -> tuple[int, dict[str, str], bytes]:
        async with asyncio.timeout(self.timeout_s):
            reader, writer = await self._open()
            writer.write(data)
            status, headers = await _head(reader)
            if headers.get("transfer-encoding", "").lower() == "chunked":
                body = b"".join([chunk async for chunk in _chunks(reader)])
            else:
                body = await reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("connection", "").lower() == "close":
            await self.close()
        return status, headers, body

    async def request(self, method: str, path: str, body: bytes | None = None,
                      headers: dict[str, str] | None = None) -> Response:
        headers = dict(headers or {})
        if self.creation_key and (method, path) == ("POST", "/api/games"):
            headers["Idempotency-Key"] = self.creation_key
        data = self._request_bytes(method, path, body, headers)
        delay = BACKOFF_FIRST_S
        while True:
            try:
                status, response_headers, content = await self._exchange(data)
            except (OSError, TimeoutError, HttpError, asyncio.IncompleteReadError, asyncio.LimitOverrunError,
                    ValueError) as exc:
                await self.close()
                self.traffic.requests += 1
                self.traffic.transport_errors += 1
                wait, problem = delay, f"{method} {path}: {exc!r}"
            else:
                self.traffic.saw(status, response_headers, content, f"{method} {path}")
                if status < 500 and status != 429:
                    return Response(status, content)
                wait = retry_after(response_headers) or delay
                problem = f"{method} {path}: {status} {content[:200].decode(errors='replace')}"
            if time.monotonic() + wait > self.deadline:
                raise GaveUp(problem)
            self.traffic.retries += 1
            await asyncio.sleep(wait)
            delay = min(BACKOFF_CAP_S, delay * 2)


async def submit(conn: Connection, game: _Game, token: str, command: Any, traffic: Traffic) -> None:
    command_id = f"chaos-{game.version}"
    body = msgspec.json.encode({"command_id": command_id, "expected_version": game.version, "command": command})
    response = await conn.request("POST", f"/api/games/{game.game_id}/commands", body,
                                  {"Authorization": f"Bearer {token}"})
    if response.status != 200:
        raise GaveUp(f"game {game.game_id}: command {command_id} refused: {response.status} "
                     f"{response.body[:300].decode(errors='replace')}")
    applied = _applied.decode(response.body)
    versions = [e.version for e in applied.events]
    if versions:
        traffic.acknowledged.append(Acknowledged(game.game_id, command_id, versions[0], versions[-1],
                                                 applied.duplicate))
    traffic.duplicates_answered += applied.duplicate
    game.apply(applied.events)


STREAM_BREAKS = (OSError, TimeoutError, HttpError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError)


async def play(url: str, spec: SimSpec, index: int, run_id: str, traffic: Traffic, think_s: float,
               deadline: float) -> None:
    """Play game ``index`` to its end through the service at ``url``, or record why it could not by
    ``deadline`` (``time.monotonic()``) in ``traffic.failures``."""
    host, port = address(url)
    conn = PatientConnection(host, port, traffic, deadline, creation_key=f"chaos-{run_id}-{index:05d}")
    pause = random.Random(index)
    try:
        game_id, tokens = await create(conn, spec, index)
        traffic.creations[index] = game_id
        game = _Game(game_id, traffic.metrics, index)
        bots = spec.bots(index)
        delay = BACKOFF_FIRST_S
        while not GAME.pending(game.state).finished:
            if time.monotonic() > deadline:
                raise GaveUp(f"game {game_id} did not finish in time (version {game.version}, "
                             f"waiting for {_waiting_for(game)})")
            traffic.stream_opens += 1
            traffic.requests += 1
            messages = event_stream(host, port, f"/api/games/{game_id}/stream?after={game.version}", STREAM_SILENCE_S)
            opened_at = game.version
            try:
                while not (due := GAME.pending(game.state)).finished:
                    if due.seats:
                        if think_s > 0:
                            await asyncio.sleep(pause.uniform(0, 2 * think_s))
                        seat = due.seats[0]
                        await submit(conn, game, tokens[seat], bots(game.state, seat), traffic)
                        continue
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    data = await asyncio.wait_for(anext(messages, None), left)  # a stalled game ends by the deadline
                    if data is None:
                        break  # the server ended the stream: open it again from where we are
                    game.apply(_page.decode(data).events)
            except STREAM_BREAKS:
                traffic.stream_breaks += 1
            finally:
                await messages.aclose()
            # A stream that brought nothing is backed off from, so an outage is not a busy loop.
            delay = BACKOFF_FIRST_S if game.version > opened_at else min(BACKOFF_CAP_S, delay * 2)
            if not GAME.pending(game.state).finished:
                await asyncio.sleep(delay)
        traffic.results[index] = outcome(spec, 0, index, game.state, game.version, game.players, game.jobs)
    except (GaveUp, LiveError) as exc:
        traffic.failures.append(f"game {index}: {exc}")
    finally:
        await conn.close()


def _waiting_for(game: _Game) -> str:
    due = GAME.pending(game.state)
    if due.system is not None:
        return f"the system job {type(due.system).__name__}"
    return f"seats {list(due.seats)}"


async def play_all(url: str, spec: SimSpec, run_id: str, traffic: Traffic, *, games: int, concurrency: int,
                   think_s: float, deadline: float, more: Callable[[], bool] = lambda: False,
                   most: int | None = None) -> int:
    """Play ``games`` games (game ``i`` uses the seeds of game ``i`` of ``spec``), ``concurrency`` at a time;
    while ``more()`` is true, keep starting games beyond ``games`` (up to ``most``), so a load is running
    until the caller's faults are all done. Returns how many games were started."""
    started = 0
    running: set[asyncio.Task[None]] = set()
    limit = most if most is not None else games
    while started < limit and time.monotonic() < deadline:
        if started >= games and not more():
            break
        if len(running) >= concurrency:
            _, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            continue
        running.add(asyncio.create_task(play(url, spec, started, run_id, traffic, think_s, deadline)))
        started += 1
    if running:
        await asyncio.wait(running)
    return started
