"""Two processes decide on the same version of a timed game: the second append finds the clock's id
(``clock:<version>``, derived from the version) already taken by the first one's decision. That is the stream having
moved, so the second command is judged again on the new state, never answered as a command id reused. In-memory
store and fakes (tests/integration/notifications/test_clocks.py races a move and a timeout on PostgreSQL)."""

from __future__ import annotations

import pytest

from domain.games import GAMES
from domain.kernel import RuleViolation
from domain.kernel.table import TableOptions, TimeControl
from domain.magnate import GameOptions, SeatSpec
from domain.magnate.commands import PassBid
from infra.eventstore.memory import InMemoryEventStore
from infra.notify import RecordingNotifier
from infra.queue import RecordingJobQueue
from services.gameplay import Gameplay

TIMED = TableOptions(clock=TimeControl(kind="per_move", seconds=3600))
TWO = GameOptions(seats=(SeatSpec(), SeatSpec()))
NOW = 1_800_000_000_000


def process(store: InMemoryEventStore) -> Gameplay:
    """A service of its own over the shared store: it hears nothing of the other's appends."""
    return Gameplay(store, RecordingJobQueue(), RecordingNotifier(), GAMES, clock=lambda: NOW)


async def test_a_decision_whose_clock_id_was_taken_is_judged_again() -> None:
    store = InMemoryEventStore()
    first, second = process(store), process(store)
    created = await second.create_game("magnate", TWO, seed=b"racing-service-ids", table=TIMED)
    game_id = created.game_id
    second.queries.follow(game_id)  # an event stream of its own follows the game: it decides from memory
    loaded = await second.load(game_id)
    (seat,) = second.module("magnate").pending(loaded.state).seats

    await first.submit(game_id, seat, "from-the-first", PassBid())  # the seat's pass, and its clock
    with pytest.raises(RuleViolation) as refused:  # the same pass, decided on the version before
        await second.submit(game_id, seat, "from-the-second", PassBid())

    assert refused.value.code == "rule/not_your_turn"
    assert [c.command_id for c in await store.commands(game_id)].count("from-the-second") == 0
