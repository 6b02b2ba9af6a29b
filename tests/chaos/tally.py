"""The run's figures per registered game (the report's "Per game" table and the terminal summary), and what the
clocked games (:mod:`.clocked`) must show: each clock that ran out while Redis was away timed out once Redis was
back, within what a job caught by the outage is allowed (:func:`.verdict.allowed_until`)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .clocked import CLOCK_S
from .exercise import Exercise
from .faults import Happened
from .players import of
from .verdict import allowed_until

_GAME_ID = re.compile(r"\b[0-9a-f]{32}\b")


@dataclass(frozen=True)
class Tally:
    game: str
    played: int
    """Games the bot clients played (started)."""
    stored: int
    """Games in the store, the clocked ones included."""
    finished: int
    verified: int
    same: int
    """Results identical to the in-process play of their seeds."""
    lost: int
    duplicated: int
    clocked: int
    timed_out_after: int
    """Clocked games whose clock ran out during the outage and timed out once Redis was back."""


def _count_by_type(items: list[str], types: dict[str, str]) -> Counter[str]:
    found: Counter[str] = Counter()
    for item in items:
        match = _GAME_ID.search(item)
        found[types.get(match.group(0), "?") if match else "?"] += 1
    return found


def outage(ex: Exercise) -> Happened | None:
    """The Redis restart the clocked games ran out in."""
    return next((f for f in ex.timeline if f.kind == "redis_restart"), None)


def late_timeouts(ex: Exercise) -> list[str]:
    """Every clocked game whose clock did not run out in the outage or did not time out in time after it."""
    clocked, ledger = ex.clocked, ex.ledger
    found = list(clocked.failures)
    if ex.size.redis_down_s <= CLOCK_S:
        return found
    if len(clocked.games) != len(ex.specs):
        found.append(f"{len(clocked.games)} clocked games created, {len(ex.specs)} wanted")
    away = outage(ex)
    if away is None:
        return [*found, "no Redis restart happened"]
    if clocked.due_at >= away.ended:
        found.append(f"the clocks ran out {clocked.due_at - away.ended:.1f} s after Redis was back, not in the outage")
    limit = allowed_until(away)
    for game_id, game in clocked.games.items():
        moments = ledger.timeouts.get(game_id, [])
        if not moments:
            found.append(f"{game} {game_id}: its clock ran out in the outage and it never timed out")
        elif moments[0] > limit:
            found.append(f"{game} {game_id}: timed out {moments[0] - away.ended:.1f} s after Redis was back, limit "
                         f"{limit - away.ended:.1f} s")
    return found


def timed_out_after(ex: Exercise, game_id: str) -> bool:
    away = outage(ex)
    moments = ex.ledger.timeouts.get(game_id, [])
    return away is not None and bool(moments) and ex.clocked.due_at < away.ended <= moments[0]


def tallies(ex: Exercise) -> list[Tally]:
    ledger = ex.ledger
    played = Counter(of(ex.specs, key)[0].game for key in range(ex.started_games))
    stored = Counter(ledger.types.values())
    unfinished = _count_by_type(ledger.unfinished, ledger.types)
    verified = Counter(ledger.types[g] for g in ledger.verified_ids)
    same = Counter(ledger.types[g] for g in ledger.same_ids)
    lost = _count_by_type(ledger.lost, ledger.types)
    duplicated = _count_by_type(ledger.duplicated, ledger.types)
    clocked = Counter(ex.clocked.games.values())
    fired = Counter(game for game_id, game in ex.clocked.games.items() if timed_out_after(ex, game_id))
    return [Tally(spec.game, played[spec.game], stored[spec.game], stored[spec.game] - unfinished[spec.game],
                  verified[spec.game], same[spec.game], lost[spec.game], duplicated[spec.game], clocked[spec.game],
                  fired[spec.game])
            for spec in ex.specs]
