"""Records for event store tests: decisions, seats, a created game, and the check of a stored hash chain."""

from __future__ import annotations

import uuid

from infra.chain import GENESIS, event_hash, public_commitment
from infra.eventstore import Decision, EventStore, GameSummary, NewEvent, SeatRecord
from infra.eventstore.base import StoredEvent

RUNNING = GameSummary("running", (0,), None)
SEED = b"\x01" * 32


def new_id() -> str:
    return f"test-{uuid.uuid4().hex}"


def decision(command_id: str, *payloads: bytes, actor: str = "seat:0") -> Decision:
    return Decision(
        command_id=command_id,
        actor=actor,
        command_type="test.command",
        command=b'{"type":"test.command","cid":"' + command_id.encode() + b'"}',
        events=tuple(NewEvent(f"test.event{i}", p, public_commitment(p)) for i, p in enumerate(payloads)),
    )


def seats() -> list[SeatRecord]:
    return [
        SeatRecord(0, "human", "Ada", {"company": "vector_properties"}, f"token-{uuid.uuid4().hex}"),
        SeatRecord(1, "human", "Bob", {"company": "urhme"}, f"token-{uuid.uuid4().hex}"),
        SeatRecord(2, "ai", "Cyd", {"company": "penforth_davey"}, None),
    ]


async def created(store: EventStore, summary: GameSummary = RUNNING) -> str:
    game_id = new_id()
    await store.create(game_id, "magnate", seats(), SEED, decision("start", b'{"n":1}', actor="system"), summary)
    return game_id


def assert_chain(game_id: str, events: list[StoredEvent]) -> None:
    """Versions 1..n without a gap, each prev_hash the previous hash, each hash recomputable."""
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    previous = GENESIS
    for e in events:
        assert e.prev_hash == previous
        assert e.hash == event_hash(e.prev_hash, game_id, e.version, e.type, e.actor, e.command_id, e.recorded_at,
                                    e.payload, e.commitment)
        previous = e.hash
