"""The decisions that follow a command in its own append: the clocks' record when the turn changed hands, and, in a
system job, the system commands due one after another (an AI's turn, the dice after it, the market at the round's
end), each decided exactly as a job of its own would have decided it.

A job per system command costs an enqueue, a claim, a load, an append and an announcement around a decision that
takes the rules a fraction of a millisecond; an AI solo game is some fifty of them. Deciding the commands due next
in the same job and the same append keeps every decision its own (its id ``system:<version>:<kind>``, its chance
drawn from the seed at its own version, its clocks), so the log, its commitments and its replay are those of the
one-job-per-command service; only the number of round trips changes. The chain stops at the first seat on turn, at
the game's end, after ``most`` commands or :data:`BUDGET_S` of deciding (one job never holds its worker's event loop
for long, whatever a game's AI costs: its leases are renewed on that loop; the next job goes on), and at a system
command the rules refuse or that changes nothing (left to the next job, which says so as it always did). Where the
chain stops changes nothing in the log: each decision depends only on the state before it and its own version."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from domain.kernel import SYSTEM, Chance, GameModule, RuleViolation, tag_of
from infra.codec import GameCodec
from infra.eventstore import Decision
from infra.logs import get_logger

from .clocks import clock_id, clocks_due
from .command_ids import system_id
from .commitments import Sealer
from .decisions import decision_of

log = get_logger("magnate.gameplay")

BUDGET_S = 0.25
"""The longest a job goes on deciding the system commands after its own (a game whose AI thinks long stops early)."""


def tick_clocks(
    game: GameModule[Any], codec: GameCodec, sealer: Sealer, state: Any, decisions: list[Decision], now_ms: int,
) -> Any:
    """Record the clocks at ``now_ms`` (appending to ``decisions``) if the decision before changed who is on turn."""
    tick = clocks_due(game, state, now_ms)
    if tick is None:
        return state
    version = sealer.version
    ticked, state = game.step(state, SYSTEM, tick, Chance(sealer.seed, version + 1))
    decisions.append(decision_of(codec, sealer, clock_id(version), SYSTEM, tick, ticked))
    return state


def then_system(
    game: GameModule[Any], codec: GameCodec, sealer: Sealer, state: Any, decisions: list[Decision],
    now_ms: Callable[[], int], most: int,
) -> Any:
    """Decide up to ``most`` system commands due one after another from ``state`` (appending to ``decisions``, each
    followed by its clocks' record), for at most :data:`BUDGET_S`; returns the state after the last."""
    until = time.perf_counter() + BUDGET_S
    for _ in range(most):
        if time.perf_counter() > until:
            break
        due = game.pending(state)
        if due.finished or due.system is None:
            break
        at = sealer.version
        try:
            events, after = game.step(state, SYSTEM, due.system, Chance(sealer.seed, at + 1))
        except RuleViolation as refused:
            log.warning("a due system command was refused; its own job will meet it", command=tag_of(due.system),
                        code=refused.code)
            break
        if not events:
            break
        decisions.append(decision_of(codec, sealer, system_id(at, tag_of(due.system)), SYSTEM, due.system, events))
        state = tick_clocks(game, codec, sealer, after, decisions, now_ms())
    return state
