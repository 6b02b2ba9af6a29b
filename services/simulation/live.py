"""Simulated games through the live service: the HTTP API, PostgreSQL and the arq workers.

Each game is driven by a bot client that behaves like a player's browser: it creates the game (with a
chosen seed, so the server must run in sandbox mode), follows it over Server-Sent Events, and when a seat
it plays is on turn it submits that seat's command over HTTP. The bot decides on the state it folds from
the events it received with the module of the game's type (the ``game_type`` the server answered the
creation with); the server decides again and is the authority. System work (dice, the market, the AI's
turns) is done by the workers. For a game that redacts events (hands, as in Decktet Magnate) the client keeps a
copy per viewer (:mod:`.folded`): the public stream's says whose turn it is, and a seat's own copy, read with that
seat's token just before it moves, is what its bot decides on (a seat's events hold exactly what the bot may use);
once the game is over every event is open, and the finished game is counted from the whole log.

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
from typing import Any, TypeVar

import msgspec

from .folded import FoldedGame, LiveError, LiveMetrics, StreamEvent
from .http import Connection, HttpError
from .local import outcome
from .spec import GameResult, SimSpec

__all__ = ["Created", "FoldedGame", "LiveError", "LiveMetrics", "Seats", "create", "drive", "read_applied",
           "read_page", "run", "run_live"]

STALL_S = 120.0
"""A game that receives nothing for this long while it waits for a system job counts as stalled."""
T = TypeVar("T")


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


class _Refusal(msgspec.Struct):
    code: str = ""


_refusal = msgspec.json.Decoder(_Refusal)
RESENDS = 20
"""How often one sealed choice is sent again after the game moved on under it (each time, someone else's choice
or the computer's came first: the game has moved, so this is never a busy loop)."""


def moved_on(status: int, body: bytes) -> bool:
    """The answer is ``409 conflict/version``: the game moved on before the command arrived."""
    if status != 409:
        return False
    try:
        return _refusal.decode(body).code == "conflict/version"
    except msgspec.DecodeError:
        return False


def together(game: FoldedGame) -> bool:
    """Several take part in the step the copy is at (seats, or seats and the computer's job): a step of
    simultaneous (sealed) choices, where another's choice changes nothing this seat may do."""
    due = game.module.pending(game.state)
    return len(due.seats) + (due.system is not None) > 1


async def _submit(conn: Connection, game: FoldedGame, seat: int, token: str, command: Any,
                  metrics: LiveMetrics) -> None:
    """Send ``seat``'s command. In a step of simultaneous choices another seat's choice, or the computer's job, may
    be appended first (``409 conflict/version``): then, as the play page does, the copy is brought up to date and,
    if the seat is still to choose, the same choice is sent again, judged on the game as it is now."""
    for _ in range(RESENDS + 1):
        simultaneous = together(game)
        body = msgspec.json.encode({"command_id": f"sim-{game.version}", "expected_version": game.version,
                                    "command": command})
        began = time.monotonic()
        response = await conn.request("POST", f"/api/games/{game.game_id}/commands", body,
                                      {"Authorization": f"Bearer {token}"})
        done = time.monotonic()
        if response.status == 200:
            metrics.commands.append((done, done - began))
            applied = read_applied(response.body)
            game.apply(applied.events, applied.version)
            return
        if not (simultaneous and moved_on(response.status, response.body)):
            break
        await _catch_up(conn, game, token)
        if seat not in game.module.pending(game.state).seats:
            return  # the step is over for this seat: nothing left to send
    raise LiveError(f"game {game.game_id}: command at version {game.version} refused: "
                    f"{response.status} {response.body.decode(errors='replace')[:300]}")


async def _catch_up(conn: Connection, game: FoldedGame, token: str | None = None) -> None:
    """Bring a viewer's copy to the head: the events after its version as that viewer (a seat's token, or the
    public) may see them."""
    headers = {"Authorization": f"Bearer {token}"} if token else None
    response = await conn.request("GET", f"/api/games/{game.game_id}/events?after={game.version}", None, headers)
    if response.status != 200:
        raise LiveError(f"game {game.game_id}: reading the log failed: {response.status}")
    page = read_page(response.body)
    game.apply(page.events, page.version)


class Seats:
    """Who decides for each seat the client plays: the game's own copy when its events are public, else a copy
    per seat that sees what that seat sees."""

    def __init__(self, game: FoldedGame, created: Created) -> None:
        self.game = game
        self.created = created
        self.copies: dict[int, FoldedGame] = {}

    async def ready(self, conn: Connection, seat: int) -> FoldedGame:
        if self.game.module.events_public:
            return self.game
        copy = self.copies.get(seat)
        if copy is None:
            copy = self.copies[seat] = FoldedGame(self.game.game_id, self.created.game_type,
                                                  registry=self.game.registry)
        await _catch_up(conn, copy, self.created.tokens[seat])
        return copy

    async def moved(self, conn: Connection, copy: FoldedGame) -> None:
        """After a seat's command on its own copy: the game's copy follows (without waiting for the stream)."""
        if copy is not self.game:
            await _catch_up(conn, self.game)

    async def whole(self, conn: Connection, metrics: LiveMetrics | None = None, key: int = 0) -> FoldedGame:
        """The finished game as counted: the game's copy, or (hidden events) the whole log, open to all now."""
        if self.game.module.events_public:
            return self.game
        whole = FoldedGame(self.game.game_id, self.created.game_type, registry=self.game.registry)
        await _catch_up(conn, whole)
        if metrics is not None:
            metrics.progress[key] = (whole.players, whole.jobs)
        return whole


async def drive(conn: Connection, spec: SimSpec, arm: int, index: int, metrics: LiveMetrics, key: int | None = None,
                existing: Created | None = None, think_s: float = 0.0) -> GameResult:
    """Play game ``index`` of ``spec`` through the API ``conn`` talks to, to its end, creating it first unless
    ``existing`` is that game (``key`` names it in ``metrics``); the bot waits before each command, as a person
    would, a time drawn uniformly between 0 and twice ``think_s`` (its own generator: it changes nothing in the
    game, and bots started together do not stay in step)."""
    created = existing if existing is not None else await create(conn, spec, index)
    if created.game_type != spec.game:
        raise LiveError(f"game {created.game_id} is a {created.game_type} game, not {spec.game}")
    key = index if key is None else key
    metrics.game_ids[key] = created.game_id
    game = FoldedGame(created.game_id, created.game_type, metrics, key, registry=spec.registry)
    seats = Seats(game, created)
    bots = spec.bots(index)
    pause = random.Random(index)
    while True:  # the stream is re-opened (from the version we have) if the server ends it
        messages = conn.events(f"/api/games/{game.game_id}/stream?after={game.version}", STALL_S)
        try:
            while True:
                due = game.module.pending(game.state)
                if due.finished:
                    metrics.finished += 1
                    whole = await seats.whole(conn, metrics, key)
                    return outcome(spec, arm, index, whole.state, whole.version, whole.players, whole.jobs)
                if due.seats:
                    seat = due.seats[0]
                    if think_s > 0:
                        await asyncio.sleep(pause.uniform(0, 2 * think_s))
                    mine = await seats.ready(conn, int(seat))
                    await _submit(conn, mine, seat, created.tokens[seat], bots(mine.state, seat), metrics)
                    await seats.moved(conn, mine)
                    continue
                data = await anext(messages, None)
                if data is None:
                    break
                page = read_page(data)
                game.apply(page.events, page.version)
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
