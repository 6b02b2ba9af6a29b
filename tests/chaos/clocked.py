"""Games whose clock runs out while Redis is away: each seat's timeout is a deferred job in Redis, lost with it, and
must still happen once Redis is back (the reconciler schedules every running clock again, from the games table).

Just before Redis is taken away for longer than :data:`CLOCK_S`, one such game of each registered game is created
through the API: the options of the run's games (a person's seat and the computer's), with :data:`CLOCK_S` a move
and a stand-in for the rest of the game when time runs out. Nobody plays the person's seat, so its clock runs out
during the outage; after it the stand-in (the worker) plays that seat to the end. The ledger then holds these games
to everything it holds the others to (finished, verified, nothing doubled), and the verdict to their timeouts."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import msgspec

from services.simulation.spec import SimSpec

from .players import GaveUp, PatientConnection, Traffic

CLOCK_S = 10
"""Seconds a move (the table's shortest time control)."""
POLL_S = 0.5


@dataclass
class Clocked:
    """The clocked games of a run: their ids by game type, and when they were created (``time.time()``)."""

    games: dict[str, str] = field(default_factory=dict)
    """game id -> game type."""
    created_at: float = 0.0
    failures: list[str] = field(default_factory=list)

    @property
    def due_at(self) -> float:
        """When their clocks ran out (the last one created, at the latest)."""
        return self.created_at + CLOCK_S


class _Created(msgspec.Struct):
    game_id: str


class _Status(msgspec.Struct):
    status: str


async def create(url: str, specs: Sequence[SimSpec], traffic: Traffic, clocked: Clocked, deadline: float) -> None:
    """One clocked game per spec (its options), created now; their ids in ``clocked`` (and ``traffic.timed``)."""
    table = {"clock": {"kind": "per_move", "seconds": CLOCK_S}, "on_timeout": "stand_in_game"}
    for spec in specs:
        conn = PatientConnection(url, traffic, deadline)
        try:
            body = msgspec.json.encode({"game": spec.game, "options": spec.options(), "table": table})
            response = await conn.request("POST", "/api/games", body)
        except GaveUp as exc:
            clocked.failures.append(f"{spec.game}: creating a clocked game: {exc}")
            continue
        finally:
            await conn.close()
        if response.status != 201:
            clocked.failures.append(f"{spec.game}: creating a clocked game: {response.status}")
            continue
        game_id = msgspec.json.decode(response.body, type=_Created).game_id
        clocked.games[game_id] = spec.game
        traffic.timed.append(game_id)
    clocked.created_at = time.time()


async def until_finished(url: str, clocked: Clocked, deadline: float) -> None:
    """Wait (until ``deadline``, ``time.monotonic()``) for the stand-ins to finish every clocked game."""
    for game_id, game in clocked.games.items():
        conn = PatientConnection(url, Traffic(), deadline)
        try:
            while time.monotonic() < deadline:
                response = await conn.request("GET", f"/api/games/{game_id}")
                if response.status == 200 and msgspec.json.decode(response.body, type=_Status).status == "finished":
                    break
                await asyncio.sleep(POLL_S)
        except GaveUp as exc:
            clocked.failures.append(f"{game} {game_id}: {exc}")
        finally:
            await conn.close()
