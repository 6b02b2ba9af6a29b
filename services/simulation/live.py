"""Simulated games through the live service: the HTTP API, PostgreSQL and the arq workers.

Each game is driven by a bot client that behaves like a player's browser: it creates the game (with a
chosen seed, so the server must run in sandbox mode), follows it over Server-Sent Events, and when a seat
it plays is on turn it submits that seat's command over HTTP. The bot decides on the state it folds from
the events it received with the module of the game's type (the ``game_type`` the server answered the
creation with); the server decides again and is the authority. System work (dice, the market, the AI's
turns) is done by the workers. The public stream carries every event only for a game whose events are all
public (``events_public``, as in Magnate); a game that redacts events is simulated in-process only.

Only ``pending(state).seats[0]`` is ever played, as in the in-process driver, so a live game is the same
game as the in-process one with the same seeds: the results are identical, which the tests check.

The API and the workers a run without ``--url`` plays against are started by
:class:`services.supervisor.Services`.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import msgspec

from domain.games import GAMES
from domain.kernel import GameModule

from .http import Connection, HttpError
from .local import outcome
from .spec import GameResult, SimSpec

STALL_S = 120.0
"""A game that receives nothing for this long while it waits for a system job counts as stalled."""
T = TypeVar("T")


class LiveError(Exception):
    """A game could not be driven to its end (refused command, stalled stream, server error)."""


class StreamEvent(msgspec.Struct, frozen=True):
    """An event as the API hands it out (the fields a client folding the game needs)."""

    version: int
    actor: str
    command_id: str
    recorded_at: str
    payload: msgspec.Raw
    redacted: bool = False


class _SeatOut(msgspec.Struct, frozen=True):
    seat: int
    token: str | None


class _CreatedOut(msgspec.Struct, frozen=True):
    game_id: str
    game_type: str
    seats: tuple[_SeatOut, ...]


class Created(msgspec.Struct, frozen=True):
    """A game the bot client created: its id, its type (which game module folds its events) and the token of
    each human seat."""

    game_id: str
    game_type: str
    tokens: dict[int, str]


class Page(msgspec.Struct, frozen=True):
    """A message of the event stream."""

    version: int
    events: tuple[StreamEvent, ...]


class Applied(msgspec.Struct, frozen=True):
    """The answer to a command."""

    version: int
    duplicate: bool
    events: tuple[StreamEvent, ...]


_created = msgspec.json.Decoder(_CreatedOut)
read_page = msgspec.json.Decoder(Page).decode
read_applied = msgspec.json.Decoder(Applied).decode
_events: dict[str, msgspec.json.Decoder[Any]] = {}


def _event_decoder(game: GameModule[Any]) -> msgspec.json.Decoder[Any]:
    decoder = _events.get(game.name)
    if decoder is None:
        decoder = _events[game.name] = msgspec.json.Decoder(game.event_type)
    return decoder


@dataclass
class LiveMetrics:
    """What the bot clients observed; times are ``time.monotonic()`` seconds."""

    commands: list[tuple[float, float]] = field(default_factory=list)
    """(when the response arrived, round-trip latency) of every bot command."""
    jobs: list[tuple[float, float]] = field(default_factory=list)
    """(when the client saw it, latency) of every system job: from the recorded time of the append that made
    it due to the recorded time of its own append (both stamped by the server at the start of the append)."""
    errors: list[str] = field(default_factory=list)
    versions: dict[int, int] = field(default_factory=dict)
    """The latest version each game (by key) reached."""
    game_ids: dict[int, str] = field(default_factory=dict)
    progress: dict[int, tuple[int, int]] = field(default_factory=dict)
    """(bot commands, system jobs) each game (by key) has appended so far."""
    finished: int = 0


def _moment(recorded_at: str) -> float:
    return datetime.fromisoformat(recorded_at).timestamp()


class FoldedGame:
    """The client-side copy of one game: the state folded, by the module of its type, from the events received
    so far, and the bot commands and system jobs that appended them (counted as the in-process play counts them,
    for :func:`services.simulation.local.outcome`). With ``metrics``, each job's delay and the progress are
    recorded there under ``key``."""

    def __init__(self, game_id: str, game_type: str, metrics: LiveMetrics | None = None, key: int = 0) -> None:
        if game_type not in GAMES:
            raise LiveError(f"game {game_id}: the server made a {game_type!r} game, which is not registered here")
        self.game_id = game_id
        self.module = GAMES[game_type]
        self._decoder = _event_decoder(self.module)
        self.state: Any = self.module.initial_state()
        self.version = 0
        self.metrics = metrics
        self.key = key
        self.players = 0
        self.jobs = 0
        self._last_command = ""
        self._last_recorded = 0.0

    def apply(self, events: Sequence[StreamEvent]) -> None:
        for e in events:
            if e.version <= self.version:
                continue  # already folded (our own command's events come back on the stream too)
            if e.version != self.version + 1:
                raise LiveError(f"game {self.game_id}: a gap in the log after version {self.version}")
            if e.redacted:
                raise LiveError(f"game {self.game_id}: event {e.version} came redacted; the client cannot fold it")
            self.state = self.module.evolve(self.state, self._decoder.decode(e.payload))
            self.version = e.version
            if e.command_id != self._last_command:
                recorded = _moment(e.recorded_at)
                if e.command_id.startswith("system:"):
                    self.jobs += 1
                    if self.metrics is not None:
                        self.metrics.jobs.append((time.monotonic(), recorded - self._last_recorded))
                elif e.actor.startswith("seat:"):
                    self.players += 1
                self._last_command, self._last_recorded = e.command_id, recorded
        if self.metrics is not None:
            self.metrics.versions[self.key] = self.version
            self.metrics.progress[self.key] = (self.players, self.jobs)

    @property
    def finished(self) -> bool:
        return bool(self.module.pending(self.state).finished)


async def create(conn: Connection, spec: SimSpec, game: int) -> Created:
    """Create game ``game`` of ``spec`` with its seed."""
    body = msgspec.json.encode({"game": spec.game, "options": spec.options(), "seed": spec.game_seed(game).hex()})
    response = await conn.request("POST", "/api/games", body)
    if response.status != 201:
        text = response.body.decode(errors="replace")[:300]
        hint = " (is the server in sandbox mode, MAGNATE_SANDBOX=true?)" if "seed" in text else ""
        raise LiveError(f"creating a game failed: {response.status} {text}{hint}")
    created = _created.decode(response.body)
    return Created(created.game_id, created.game_type, {s.seat: s.token for s in created.seats if s.token})


async def _submit(conn: Connection, game: FoldedGame, token: str, command: Any) -> None:
    body = msgspec.json.encode({"command_id": f"sim-{game.version}", "expected_version": game.version,
                                "command": command})
    began = time.monotonic()
    response = await conn.request("POST", f"/api/games/{game.game_id}/commands", body,
                                  {"Authorization": f"Bearer {token}"})
    done = time.monotonic()
    if response.status != 200:
        raise LiveError(f"game {game.game_id}: command at version {game.version} refused: "
                        f"{response.status} {response.body.decode(errors='replace')[:300]}")
    if game.metrics is not None:
        game.metrics.commands.append((done, done - began))
    game.apply(read_applied(response.body).events)


async def drive(conn: Connection, spec: SimSpec, arm: int, index: int, metrics: LiveMetrics, key: int | None = None,
                existing: Created | None = None, think_s: float = 0.0) -> GameResult:
    """Play game ``index`` of ``spec`` through the API ``conn`` talks to, to its end, creating it first unless
    ``existing`` is that game (``key`` names it in ``metrics``); the bot waits before each command, as a person
    would, a time drawn uniformly between 0 and twice ``think_s`` (its own generator: it changes nothing in the
    game, and bots started together do not stay in step)."""
    if not spec.module.events_public:
        raise LiveError(f"{spec.game} redacts events on the public stream: simulate it in-process")
    created = existing if existing is not None else await create(conn, spec, index)
    if created.game_type != spec.game:
        raise LiveError(f"game {created.game_id} is a {created.game_type} game, not {spec.game}")
    key = index if key is None else key
    metrics.game_ids[key] = created.game_id
    game = FoldedGame(created.game_id, created.game_type, metrics, key)
    bots = spec.bots(index)
    pause = random.Random(index)
    while True:  # the stream is re-opened (from the version we have) if the server ends it
        messages = conn.events(f"/api/games/{game.game_id}/stream?after={game.version}", STALL_S)
        try:
            while True:
                due = game.module.pending(game.state)
                if due.finished:
                    metrics.finished += 1
                    return outcome(spec, arm, index, game.state, game.version, game.players, game.jobs)
                if due.seats:
                    seat = due.seats[0]
                    if think_s > 0:
                        await asyncio.sleep(pause.uniform(0, 2 * think_s))
                    await _submit(conn, game, created.tokens[seat], bots(game.state, seat))
                    continue
                data = await anext(messages, None)
                if data is None:
                    break
                game.apply(read_page(data).events)
        except TimeoutError as exc:
            raise LiveError(f"game {game.game_id}: nothing happened for {STALL_S:.0f} s at version "
                            f"{game.version}") from exc
        finally:
            await messages.aclose()


async def run_live(
    specs: Sequence[SimSpec], url: str, concurrency: int = 50, progress: Callable[[int], None] | None = None,
    metrics: LiveMetrics | None = None,
) -> list[GameResult]:
    """Every game of every spec through the service at ``url``, at most ``concurrency`` at once, each with its own
    client; results in (arm, game) order. Raises :class:`LiveError` (after the other games finish) if any game
    failed."""
    metrics = metrics if metrics is not None else LiveMetrics()
    for spec in specs:
        if not spec.module.events_public:
            raise LiveError(f"{spec.game} redacts events on the public stream: simulate it in-process")
    jobs = [(spec, arm, game) for arm, spec in enumerate(specs) for game in range(spec.games)]
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(key: int, spec: SimSpec, arm: int, game: int) -> GameResult | None:
        async with gate, Connection(url) as conn:
            try:
                result = await drive(conn, spec, arm, game, metrics, key=key)
            except (LiveError, HttpError) as exc:
                metrics.errors.append(f"arm {arm} game {game}: {exc}")
                return None
        if progress is not None:
            progress(1)
        return result

    results = await asyncio.gather(*(one(k, *job) for k, job in enumerate(jobs)))
    if metrics.errors:
        raise LiveError(f"{len(metrics.errors)} game(s) failed; first: {metrics.errors[0]}")
    return [r for r in results if r is not None]


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on uvloop when it is installed (the bot clients share the cores with the server)."""
    try:
        import uvloop  # noqa: PLC0415
    except ImportError:
        return asyncio.run(coroutine)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coroutine)
