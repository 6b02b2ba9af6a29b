"""What the command side writes and counts: a decision encoded for the store, the read model of a state, and the
metrics and log line of an append or a refusal."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from domain.kernel import SYSTEM, Actor, GameModule, RuleViolation, tag_of
from infra import metrics
from infra.codec import GameCodec
from infra.eventstore import Decision, GameSummary, NewEvent, StoredEvent
from infra.logs import get_logger

from .clocks import earliest_deadline
from .commitments import Sealer

log = get_logger("magnate.gameplay")


def actor_text(actor: Actor) -> str:
    return "system" if actor == SYSTEM else f"seat:{actor}"


def appended(game_type: str, started: float, stored: Sequence[StoredEvent]) -> None:
    """Count an append that committed (``started``: its ``time.perf_counter()`` before)."""
    metrics.APPEND_SECONDS.labels(game_type).observe(time.perf_counter() - started)
    metrics.APPENDS.labels(game_type).inc()
    metrics.EVENTS_APPENDED.labels(game_type).inc(len(stored))


def refused(game_type: str, failure: RuleViolation) -> None:
    """Count and log a player's command the rules refused (judged on the game as stored)."""
    metrics.COMMANDS_REFUSED.labels(game_type, failure.code).inc()
    log.info("command refused", code=failure.code, reason=failure.message)


def summary_of(game: GameModule[Any], state: Any) -> GameSummary:
    """The read model of ``state``: what a lobby or a "your turn" list needs."""
    due = game.pending(state)
    return GameSummary(
        status="finished" if due.finished else "running",
        on_turn=tuple(int(s) for s in due.seats),
        system_job=tag_of(due.system) if due.system is not None else None,
        deadline=earliest_deadline(state, due.finished),
    )


def decision_of(
    codec: GameCodec, sealer: Sealer, command_id: str, actor: Actor, command: Any, events: list[Any]
) -> Decision:
    """One command and its events, encoded for the store; ``sealer`` commits them (the decisions of one append
    are made in version order with one sealer)."""
    payloads = [codec.encode(e) for e in events]
    return Decision(
        command_id=command_id,
        actor=actor_text(actor),
        command_type=tag_of(command),
        command=codec.encode(command),
        events=tuple(NewEvent(tag_of(e), p, sealer.commit(e, p)) for e, p in zip(events, payloads, strict=True)),
    )
