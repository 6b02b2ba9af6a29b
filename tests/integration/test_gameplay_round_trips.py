"""The round trips a process saves stay safe: a job on a game whose state this process already has reads
nothing before its one-statement append; a worker whose cached state is stale (another process moved the
game on) appends nothing wrong; two workers that both believe the game is at the job's version run it once;
a player's command costs one read and one append, and the event stream of a version this process appended
reads nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest

from domain.kernel import tag_of
from domain.magnate import GAME
from domain.magnate.commands import GameOptions, SeatSpec
from infra.eventstore.postgres import PostgresEventStore
from tests.integration.harness import (
    CountingStore,
    assert_unbroken_chain,
    cid,
    command_rows,
    folded,
    jobs,
    make,
    new_game,
    seat_to_move,
)

pytestmark = pytest.mark.integration


async def _to_a_system_job(pool: asyncpg.Pool, store: CountingStore) -> tuple[Any, str]:
    """A game driven by ``make(pool, store)`` until a system job is due; returns the gameplay and game id."""
    gameplay = make(pool, store)
    game_id = await new_game(gameplay)
    for _ in range(200):
        loaded = await gameplay.load(game_id)
        due = GAME.pending(loaded.state)
        if due.system is not None:
            return gameplay, game_id
        await gameplay.submit(game_id, int(seat_to_move(loaded)), cid(), _first_legal(loaded.state, due.seats[0]))
    raise AssertionError("no system job became due")


def _first_legal(state: Any, seat: Any) -> Any:
    return GAME.legal_commands(state, seat)[0].command


async def test_a_job_on_a_cached_game_reads_nothing_before_its_single_statement(pg_pool: asyncpg.Pool) -> None:
    store = CountingStore(pg_pool)
    gameplay, game_id = await _to_a_system_job(pg_pool, store)
    job = jobs(gameplay)[-1]
    store.calls.clear()
    assert await gameplay.run_system(job.game_id, job.version, job.kind)
    assert store.calls == ["append (one statement)"]
    assert_unbroken_chain(game_id, await store.read(game_id))


async def test_a_stale_cached_state_appends_nothing_and_a_fresh_job_reads_the_tail(pg_pool: asyncpg.Pool) -> None:
    store = CountingStore(pg_pool)
    gameplay, game_id = await _to_a_system_job(pg_pool, store)
    job = jobs(gameplay)[-1]
    worker = make(pg_pool)  # another process that has seen the game at the job's version
    await worker.load(game_id)
    assert await gameplay.run_system(job.game_id, job.version, job.kind)  # the first process ran it
    events = await store.read(game_id)
    # the other worker still believes the game is at job.version: it decides, its append is refused
    assert not await worker.run_system(job.game_id, job.version, job.kind)
    assert await store.read(game_id) == events
    assert await command_rows(pg_pool, game_id, f"system:{job.version}:{job.kind}") == 1
    # a later job brings it up to date by reading the events it missed, then runs
    for _ in range(200):
        loaded = await gameplay.load(game_id)
        due = GAME.pending(loaded.state)
        if due.system is not None:
            break
        await gameplay.submit(game_id, int(seat_to_move(loaded)), cid(), _first_legal(loaded.state, due.seats[0]))
    later = jobs(gameplay)[-1]
    assert later.version > job.version and later.kind == tag_of(due.system)
    assert await worker.run_system(later.game_id, later.version, later.kind)
    assert_unbroken_chain(game_id, await store.read(game_id))


async def test_two_workers_with_current_caches_run_a_job_once(pg_pool: asyncpg.Pool) -> None:
    store = CountingStore(pg_pool)
    gameplay, game_id = await _to_a_system_job(pg_pool, store)
    job = jobs(gameplay)[-1]
    first, second = make(pg_pool), make(pg_pool)
    await first.load(game_id)
    await second.load(game_id)
    outcomes = await asyncio.gather(first.run_system(job.game_id, job.version, job.kind),
                                    second.run_system(job.game_id, job.version, job.kind))
    assert sorted(outcomes) == [False, True]
    assert await command_rows(pg_pool, game_id, f"system:{job.version}:{job.kind}") == 1
    assert_unbroken_chain(game_id, await store.read(game_id))
    # an old job, delivered late to a worker whose cache is ahead of it: nothing, and no I/O
    store.calls.clear()
    assert not await gameplay.run_system(job.game_id, job.version - 1, job.kind)
    assert store.calls == []


async def test_a_command_reads_the_missed_events_once_and_appends_once(pg_pool: asyncpg.Pool) -> None:
    store = CountingStore(pg_pool)
    gameplay, game_id = await _to_a_system_job(pg_pool, store)
    job = jobs(gameplay)[-1]
    assert await make(pg_pool).run_system(job.game_id, job.version, job.kind)  # another process moves it on
    loaded = await make(pg_pool).load(game_id)
    due = GAME.pending(loaded.state)
    assert due.system is None and due.seats
    store.calls.clear()
    applied = await gameplay.submit(game_id, int(due.seats[0]), cid(), _first_legal(loaded.state, due.seats[0]))
    assert store.calls == ["read", "append (one statement)"]
    assert applied.version > loaded.version and not applied.duplicate
    # the same command id again: refused by the append's key, answered with the first result
    store.calls.clear()
    again = await gameplay.submit(game_id, int(due.seats[0]), applied.events[0].command_id,
                                  _first_legal(loaded.state, due.seats[0]))
    assert again.duplicate and again.version == applied.version
    assert [e.hash for e in again.events] == [e.hash for e in applied.events]
    assert await command_rows(pg_pool, game_id, applied.events[0].command_id) == 1


async def test_the_events_of_an_own_append_are_served_from_memory(pg_pool: asyncpg.Pool) -> None:
    store = CountingStore(pg_pool)
    gameplay, game_id = await _to_a_system_job(pg_pool, store)
    job = jobs(gameplay)[-1]
    before = (await gameplay.load(game_id)).version
    assert await gameplay.run_system(job.game_id, job.version, job.kind)
    after = (await store.head(game_id)).version
    store.calls.clear()
    version, events = await gameplay.queries.events_after(game_id, before, announced=after)
    assert store.calls == []
    assert version == after and events == await PostgresEventStore(pg_pool).read(game_id, after=before)
    # an announcement of a version this process has not seen: one read, and the events are the store's
    elsewhere = make(pg_pool)
    loaded = await elsewhere.load(game_id)
    due = GAME.pending(loaded.state)
    if due.system is None:
        await elsewhere.submit(game_id, int(due.seats[0]), cid(), _first_legal(loaded.state, due.seats[0]))
    else:
        assert await elsewhere.run_system(game_id, loaded.version, tag_of(due.system))
    latest = (await store.head(game_id)).version
    store.calls.clear()
    version, events = await gameplay.queries.events_after(game_id, before, announced=latest)
    assert store.calls == ["read"]
    assert version == latest and events == await PostgresEventStore(pg_pool).read(game_id, after=before)


async def test_a_seat_token_is_looked_up_once(pg_pool: asyncpg.Pool) -> None:
    store = CountingStore(pg_pool)
    gameplay = make(pg_pool, store)
    created = await gameplay.create_game("magnate", *_two_humans())
    token = next(s.token for s in created.seats if s.token)
    assert await gameplay.queries.seat_for_token(created.game_id, token) == 0
    assert await gameplay.queries.seat_for_token(created.game_id, token) == 0
    assert await gameplay.queries.seat_for_token(created.game_id, token + "x") is None
    # a wrong token is asked each time
    assert await gameplay.queries.seat_for_token(created.game_id, token + "x") is None
    assert store.calls.count("seat_for_token") == 3


def _two_humans() -> tuple[GameOptions, list[str]]:
    return GameOptions(seats=(SeatSpec(), SeatSpec())), ["Ada", "Bo"]


async def test_a_game_this_process_does_not_hold_costs_two_reads(pg_pool: asyncpg.Pool) -> None:
    gameplay, game_id = await _to_a_system_job(pg_pool, CountingStore(pg_pool))
    job = jobs(gameplay)[-1]
    assert await gameplay.run_system(job.game_id, job.version, job.kind)
    store = CountingStore(pg_pool)
    cold = make(pg_pool, store)  # a process that has never seen the game (a restart)
    loaded = await cold.load(game_id)
    assert store.calls == ["head_with_snapshot", "read"]
    assert loaded.state == folded(await store.read(game_id))
