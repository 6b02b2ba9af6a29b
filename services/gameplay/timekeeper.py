"""The service's table commands that are not a seat's move: a seat's timeout (run by its deadline job) and a
player's vacation (appended to every running game the player sits at). Both re-read the game and append with its
expected version, retrying when another command came between; both have ids of their own (a timeout per clock
run, a vacation and its early end per vacation and seat), so a job or request that runs twice appends once."""

from __future__ import annotations

from typing import Any

from domain.kernel.table import ComeBack, GoAway, TimeOut, facts_of
from infra.errors import ConcurrencyConflict
from infra.eventstore import DuplicateCommand

from .clocks import timeout_id
from .handler import Gameplay

TRIES = 5


async def time_out(gameplay: Gameplay, game_id: str, seat: int, deadline: int) -> int | None:
    """Apply the timeout of ``seat``'s clock running to ``deadline`` if it still runs and has run out. Returns None
    when there is nothing more to do (applied now or before, or the clock moved on: a move came first), or the ms to
    wait when the deadline is still ahead by the service's clock."""
    for _ in range(TRIES):
        loaded = await gameplay.load(game_id)
        game = gameplay.module(loaded.game_type)
        if game.pending(loaded.state).finished or facts_of(loaded.state).clock(seat).deadline != deadline:
            return None
        now = gameplay.now_ms()
        if now < deadline:
            return deadline - now
        try:
            await gameplay.apply_system(game_id, loaded, timeout_id(seat, deadline), TimeOut(seat=seat, at=now))
        except DuplicateCommand:
            return None
        except ConcurrencyConflict:
            continue
        return None
    raise ConcurrencyConflict(game_id, -1)


def vacation_id(vacation: str, seat: int) -> str:
    return f"vacation:{vacation}:{seat}"


async def go_away(gameplay: Gameplay, game_id: str, seat: int, vacation: str, until: int) -> bool:
    """Record ``seat``'s vacation until ``until`` in a running game (True if appended now; False if it was
    before, or the game has ended)."""
    return await _system(gameplay, game_id, vacation_id(vacation, seat),
                         lambda: GoAway(seat=seat, at=gameplay.now_ms(), until=until))


async def come_back(gameplay: Gameplay, game_id: str, seat: int, vacation: str, at: int) -> bool:
    """Record that ``seat``'s player ended the vacation early, at ``at`` (True if appended now; False if it was
    before, the game has ended, or the seat was not away in this game: it sat down after the vacation began)."""
    loaded = await gameplay.load(game_id)
    if facts_of(loaded.state).away_until(seat) <= at:
        return False
    return await _system(gameplay, game_id, f"back:{vacation}:{seat}", lambda: ComeBack(seat=seat, at=at))


async def _system(gameplay: Gameplay, game_id: str, command_id: str, make: Any) -> bool:
    for _ in range(TRIES):
        loaded = await gameplay.load(game_id)
        if gameplay.module(loaded.game_type).pending(loaded.state).finished:
            return False
        try:
            await gameplay.apply_system(game_id, loaded, command_id, make())
        except DuplicateCommand:
            return False
        except ConcurrencyConflict:
            continue
        return True
    raise ConcurrencyConflict(game_id, -1)
