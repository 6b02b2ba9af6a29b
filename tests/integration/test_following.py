"""A process whose event stream follows a game decides a player's command on the state it holds, without reading
the store first, and stays exactly as correct as when it reads: when another process has moved the game on
(its announcement not yet heard), the command is judged again on the state read from the store — applied once
if it is legal there, refused if it is not, a conflict if the client pinned the version it saw."""

from __future__ import annotations

from typing import Any

import asyncpg
import pytest

from domain.kernel import Chance, RuleViolation, Seat
from domain.magnate import GAME
from infra.errors import ConcurrencyConflict
from services.gameplay import Gameplay
from tests.integration.harness import CountingStore, assert_unbroken_chain, cid, command_rows, make, new_game

pytestmark = pytest.mark.integration


def first_legal(state: Any, seat: Seat) -> Any:
    return GAME.legal_commands(state, seat)[0].command


async def to_move(gameplay: Gameplay, game_id: str) -> tuple[Any, Seat]:
    loaded = await gameplay.load(game_id)
    due = GAME.pending(loaded.state)
    assert due.system is None and len(due.seats) == 1
    return loaded, due.seats[0]


async def test_a_followed_game_held_at_its_announced_version_costs_only_the_append(pg_pool: asyncpg.Pool) -> None:
    store = CountingStore(pg_pool)
    gameplay = make(pg_pool, store)
    game_id = await new_game(gameplay)
    gameplay.queries.follow(game_id)
    loaded, seat = await to_move(gameplay, game_id)
    await gameplay.queries.events_after(game_id, 0, announced=loaded.version)  # the stream heard the current version
    store.calls.clear()
    applied = await gameplay.submit(game_id, int(seat), cid(), first_legal(loaded.state, seat))
    assert store.calls == ["append (one statement)"]
    assert applied.version > loaded.version
    gameplay.queries.unfollow(game_id)  # no stream follows any more: back to reading first
    loaded, seat = await to_move(gameplay, game_id)
    store.calls.clear()
    await gameplay.submit(game_id, int(seat), cid(), first_legal(loaded.state, seat))
    assert store.calls == ["read", "append (one statement)"]
    assert_unbroken_chain(game_id, await store.read(game_id))


async def _followed_then_moved_elsewhere(pool: asyncpg.Pool) -> tuple[Gameplay, CountingStore, str, Any, Any]:
    """A following process holding the game at version v, and the game moved past v by another process whose
    announcement has not arrived. Returns (follower, its store, game id, the state it holds, the real state)."""
    store = CountingStore(pool)
    follower = make(pool, store)
    game_id = await new_game(follower)
    follower.queries.follow(game_id)
    held, seat = await to_move(follower, game_id)
    other = make(pool)
    await other.submit(game_id, int(seat), cid(), first_legal(held.state, seat))
    real = await other.load(game_id)
    assert real.version > held.version
    store.calls.clear()
    return follower, store, game_id, held, real


async def test_a_command_on_a_stale_held_state_is_judged_again_on_the_store_and_applied(
    pg_pool: asyncpg.Pool,
) -> None:
    follower, store, game_id, _held, real = await _followed_then_moved_elsewhere(pg_pool)
    (seat,) = GAME.pending(real.state).seats
    command = first_legal(real.state, seat)
    applied = await follower.submit(game_id, int(seat), cid(), command)
    assert applied.version > real.version and applied.events[0].version == real.version + 1
    assert "read" in store.calls  # it did read the store before the command was applied
    assert await command_rows(pg_pool, game_id, applied.events[0].command_id) == 1
    assert_unbroken_chain(game_id, await store.read(game_id))
    assert (await follower.load(game_id)).state == (await make(pg_pool).load(game_id)).state


async def test_on_a_stale_held_state_a_command_illegal_there_but_legal_now_is_applied(pg_pool: asyncpg.Pool) -> None:
    follower, store, game_id, held, real = await _followed_then_moved_elsewhere(pg_pool)
    (seat,) = GAME.pending(real.state).seats
    (held_seat,) = GAME.pending(held.state).seats
    assert seat != held_seat, "the other process's move should have passed the turn"
    with pytest.raises(RuleViolation):
        GAME.decide(held.state, seat, first_legal(real.state, seat), Chance(b"any", 1))
    applied = await follower.submit(game_id, int(seat), cid(), first_legal(real.state, seat))
    assert applied.events[0].version == real.version + 1
    assert_unbroken_chain(game_id, await store.read(game_id))


async def test_on_a_stale_held_state_a_command_illegal_now_is_refused_and_changes_nothing(
    pg_pool: asyncpg.Pool,
) -> None:
    follower, store, game_id, held, _real = await _followed_then_moved_elsewhere(pg_pool)
    (held_seat,) = GAME.pending(held.state).seats
    before = await store.read(game_id)
    with pytest.raises(RuleViolation):  # legal on the state it holds; no longer this seat's turn
        await follower.submit(game_id, int(held_seat), cid(), first_legal(held.state, held_seat))
    assert await store.read(game_id) == before


async def test_on_a_stale_held_state_a_pinned_version_is_checked_against_the_store(pg_pool: asyncpg.Pool) -> None:
    follower, _store, game_id, held, real = await _followed_then_moved_elsewhere(pg_pool)
    (seat,) = GAME.pending(real.state).seats
    with pytest.raises(ConcurrencyConflict):  # the client saw the old version
        await follower.submit(game_id, int(seat), cid(), first_legal(real.state, seat), expected_version=held.version)
    applied = await follower.submit(game_id, int(seat), cid(), first_legal(real.state, seat),
                                    expected_version=real.version)
    assert applied.events[0].version == real.version + 1
