"""The gameplay service over the REAL PostgreSQL event store: whole games, restarts, the audit export,
idempotent and concurrent submits, system jobs and the reconciler.

Queue and notifier are recording fakes (what was enqueued / announced is part of what we assert);
storage is never faked. Several ``Gameplay`` instances over one pool stand for several API or worker
processes, each with its own in-process cache.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import msgspec
import pytest

from domain.kernel import RuleViolation, tag_of
from domain.magnate import GAME, Phase
from domain.magnate.bots import RandomLegal
from domain.magnate.commands import Consult, PassBid, PlaceBid, Sell
from infra.errors import CommandIdReused, ConcurrencyConflict
from infra.eventstore import StoredEvent
from infra.eventstore.postgres import PostgresEventStore
from infra.queue import Job
from services.gameplay import Applied, Gameplay, Loaded
from services.gameplay.audit import export_lines, verify

from .harness import (
    CODEC,
    GAMES,
    SNAPSHOT_EVERY,
    announced,
    assert_unbroken_chain,
    cid,
    command_rows,
    drive,
    folded,
    jobs,
    make,
    new_game,
    seat_to_move,
    timers,
)


async def test_a_three_seat_game_plays_to_the_end_and_reloads_identically(pg_pool: asyncpg.Pool) -> None:
    gameplay = make(pg_pool)
    game_id = await new_game(gameplay)
    played = await drive(gameplay, game_id, RandomLegal(7))

    head = await gameplay.store.head(game_id)
    assert (head.status, head.on_turn, head.system_job) == ("finished", (), None)
    final = await gameplay.load(game_id)
    standings = final.state.standings
    assert sorted(s.seat for s in standings) == [0, 1, 2]
    assert [s.rank for s in standings] == sorted(s.rank for s in standings)
    assert played["seat"] > 20 and played["system"] > 0
    assert announced(gameplay)[-1] == (game_id, head.version)

    # Another process, with an empty cache, loads the latest snapshot plus the tail: same game.
    snapshots = [r["version"] for r in await pg_pool.fetch(
        "SELECT version FROM snapshots WHERE game_id = $1 ORDER BY version", game_id)]
    assert len(snapshots) >= 2 and snapshots[-1] <= head.version
    assert [v // SNAPSHOT_EVERY for v in snapshots] == sorted({v // SNAPSHOT_EVERY for v in snapshots})
    reloaded = await make(pg_pool).load(game_id)
    assert reloaded.version == head.version
    assert reloaded.state.standings == standings
    assert reloaded.state == final.state

    # ... and both agree with folding the whole log from nothing; every snapshot is the state at its version.
    events = await gameplay.store.read(game_id)
    assert folded(events) == final.state
    for version in snapshots:
        snapshot = await gameplay.store.latest_snapshot(game_id, CODEC.state_schema, at_most=version)
        assert snapshot is not None and snapshot.version == version
        assert CODEC.decode_state(snapshot.state) == folded(events, until=version)


async def test_the_export_of_a_finished_game_verifies_and_any_altered_payload_is_caught(
    pg_pool: asyncpg.Pool,
) -> None:
    gameplay = make(pg_pool)
    game_id = await new_game(gameplay)
    played = await drive(gameplay, game_id, RandomLegal(11))

    lines = await export_lines(gameplay, game_id)
    verdict = verify(lines, GAMES)
    head = await gameplay.store.head(game_id)
    assert verdict.ok, verdict.problems
    # Every command replays from the revealed seed: setup, each seat command, each system job, the reveal.
    assert verdict.replayed == verdict.commands == played.total() + 2
    assert verdict.commands == len(await gameplay.store.commands(game_id))
    assert verdict.events == head.version

    events = {e.version: e for e in await gameplay.store.read(game_id)}
    tampered = 0
    for index, line in enumerate(lines):
        if not line.startswith(b'{"kind":"event"'):
            continue
        version = msgspec.json.decode(line)["version"]
        start = line.index(b'"payload":' + events[version].payload) + len(b'"payload":')
        payload = line[start:start + len(events[version].payload)]
        digit = next((i for i, byte in enumerate(payload) if chr(byte).isdigit()), None)
        if digit is None:
            continue
        old = payload[digit] - ord("0")
        new = str(old + 1 if old < 9 else 8).encode()
        altered = line[:start + digit] + new + line[start + digit + 1:]
        result = verify([*lines[:index], altered, *lines[index + 1:]], GAMES)
        assert not result.ok, f"an altered payload at version {version} went unnoticed"
        assert result.problems[0].startswith(f"event {version}:"), result.problems
        tampered += 1
    assert tampered > len(events) // 2


async def test_state_at_any_version_is_the_fold_of_the_first_events(pg_pool: asyncpg.Pool) -> None:
    gameplay = make(pg_pool)
    game_id = await new_game(gameplay)
    await drive(gameplay, game_id, RandomLegal(5), until=lambda loaded, _: loaded.version >= 3 * SNAPSHOT_EVERY + 5)
    events = await gameplay.store.read(game_id)
    head = events[-1].version

    auditor = make(pg_pool)  # a cold cache: snapshots at or before v, then the events up to v
    for version in [0, 1, SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 3, head - 1, head]:
        at = await auditor.queries.state_at(game_id, version)
        assert at.version == version
        assert at.state == folded(events, until=version), f"state_at({version}) differs from the log"
    # A warm cache at the head must not leak into an earlier version.
    at = await gameplay.queries.state_at(game_id, SNAPSHOT_EVERY + 1)
    assert at.state == folded(events, until=SNAPSHOT_EVERY + 1)
    assert (await gameplay.queries.state_at(game_id, head + 50)).version == head


# -- idempotency ----------------------------------------------------------------------------------------


async def test_a_command_submitted_twenty_times_at_once_is_applied_once(pg_pool: asyncpg.Pool) -> None:
    gameplay = make(pg_pool)
    game_id = await new_game(gameplay)
    await drive(gameplay, game_id, RandomLegal(3), until=lambda loaded, due: loaded.version >= 10 and bool(due.seats))
    before = await gameplay.load(game_id)
    seat = seat_to_move(before)
    command = RandomLegal(99)(before.state, seat)
    command_id = cid()

    processes = [make(pg_pool) for _ in range(20)]
    results = await asyncio.gather(*(p.submit(game_id, int(seat), command_id, command) for p in processes))

    assert sorted(r.duplicate for r in results) == [False] + [True] * 19
    assert {r.version for r in results} == {results[0].version}
    assert len({tuple(e.hash for e in r.events) for r in results}) == 1
    assert await command_rows(pg_pool, game_id, command_id) == 1
    events = await gameplay.store.read(game_id)
    assert len(events) == before.version + len(results[0].events) == results[0].version
    assert_unbroken_chain(game_id, events)

    # A retry much later (another process, cold cache) still gets the first result.
    again = await make(pg_pool).submit(game_id, int(seat), command_id, command)
    assert again.duplicate and [e.hash for e in again.events] == [e.hash for e in results[0].events]

    # The id is spent: another command, or the same command from another seat, is refused.
    other = PassBid() if not isinstance(command, PassBid) else Consult()
    with pytest.raises(CommandIdReused):
        await gameplay.submit(game_id, int(seat), command_id, other)
    with pytest.raises(CommandIdReused):
        await make(pg_pool).submit(game_id, (int(seat) + 1) % 3, command_id, command)
    assert len(await gameplay.store.read(game_id)) == len(events)


# -- concurrency ----------------------------------------------------------------------------------------


async def test_two_moves_pinned_to_the_same_version_one_wins_one_conflicts(pg_pool: asyncpg.Pool) -> None:
    gameplay = make(pg_pool)
    game_id = await new_game(gameplay)
    loaded = await gameplay.load(game_id)
    seat = seat_to_move(loaded)
    assert loaded.state.phase == Phase.BIDDING
    commands = list(dict.fromkeys(t.command for t in GAME.legal_commands(loaded.state, seat)))
    assert len(commands) >= 2
    first, second = cid(), cid()

    outcomes = await asyncio.gather(
        make(pg_pool).submit(game_id, int(seat), first, commands[0], expected_version=loaded.version),
        make(pg_pool).submit(game_id, int(seat), second, commands[1], expected_version=loaded.version),
        return_exceptions=True,
    )

    applied = [o for o in outcomes if isinstance(o, Applied)]
    conflicts = [o for o in outcomes if isinstance(o, ConcurrencyConflict)]
    assert (len(applied), len(conflicts)) == (1, 1), outcomes
    events = await gameplay.store.read(game_id)
    assert_unbroken_chain(game_id, events)
    assert events[-1].version == applied[0].version == loaded.version + len(applied[0].events)
    winner, loser = (first, second) if outcomes[0] is applied[0] else (second, first)
    assert {e.command_id for e in events[loaded.version:]} == {winner}
    assert await command_rows(pg_pool, game_id, loser) == 0


class InterleavingStore(PostgresEventStore):
    """The real PostgreSQL store, except that another writer goes first once: just before the next
    append (a race between deciding and appending) or just after the next read of events (a race
    between loading the game and deciding on it), made deterministic."""

    def __init__(self, pool: asyncpg.Pool, meanwhile: Callable[[], Awaitable[Any]], *, after_read: bool = False
                 ) -> None:
        super().__init__(pool)
        self._meanwhile: Callable[[], Awaitable[Any]] | None = meanwhile
        self._after_read = after_read
        self.appends = 0

    async def _let_the_other_go_first(self) -> None:
        meanwhile, self._meanwhile = self._meanwhile, None
        if meanwhile is not None:
            await meanwhile()

    async def append(self, *args: Any, **kwargs: Any) -> list[StoredEvent]:
        self.appends += 1
        if not self._after_read:
            await self._let_the_other_go_first()
        return await super().append(*args, **kwargs)

    async def read(self, *args: Any, **kwargs: Any) -> list[StoredEvent]:
        found = await super().read(*args, **kwargs)
        if self._after_read:
            await self._let_the_other_go_first()
        return found


async def test_a_retry_overtaken_by_its_own_first_attempt_gets_the_first_result(pg_pool: asyncpg.Pool) -> None:
    """The client's first attempt lands after the retry loaded the game but before it appended: the retry
    decides on the state before the first attempt, its append is refused (the command id is taken and the
    game moved), and it answers with the first attempt's result, never an error from the state the first
    attempt produced (not your turn any more) and never a second application."""
    game_id, _ = await game_in_actions(pg_pool)
    first = make(pg_pool)

    for pinned in (False, True):
        loaded = await first.load(game_id)
        seat, command_id = int(seat_to_move(loaded)), cid()

        async def first_attempt(seat: int = seat, command_id: str = command_id) -> None:
            await first.submit(game_id, seat, command_id, Consult())

        store = InterleavingStore(pg_pool, first_attempt, after_read=True)
        retry = await make(pg_pool, store).submit(game_id, seat, command_id, Consult(),
                                                  expected_version=loaded.version if pinned else None)
        assert retry.duplicate
        assert store.appends == 1
        original = await first.submit(game_id, seat, command_id, Consult())
        assert retry.version == original.version > loaded.version
        assert [e.hash for e in retry.events] == [e.hash for e in original.events]
        assert await command_rows(pg_pool, game_id, command_id) == 1
    assert_unbroken_chain(game_id, await first.store.read(game_id))


async def game_in_actions(pool: asyncpg.Pool) -> tuple[str, Loaded]:
    """A game at the start of the first pass of phase 3, where every seat may Consult."""
    gameplay = make(pool)
    game_id = await new_game(gameplay)
    await drive(gameplay, game_id, RandomLegal(1),
                until=lambda loaded, due: loaded.state.phase == Phase.ACTIONS and bool(due.seats))
    loaded = await gameplay.load(game_id)
    assert (loaded.state.action_pass, loaded.state.turn) == (0, 0)
    return game_id, loaded


async def test_an_unpinned_move_that_lost_a_race_is_decided_again_and_can_succeed(pg_pool: asyncpg.Pool) -> None:
    game_id, loaded = await game_in_actions(pg_pool)
    seat = seat_to_move(loaded)
    other = make(pg_pool)

    async def a_whole_lap() -> None:  # everyone consults once: the seat is on turn again, one pass later
        for _ in range(3):
            await other.submit(game_id, int(seat_to_move(await other.load(game_id))), cid(), Consult())

    store = InterleavingStore(pg_pool, a_whole_lap)
    late = make(pg_pool, store)
    applied = await late.submit(game_id, int(seat), "late", Consult())

    assert store.appends == 2  # the first append conflicted; the retry on the new state went through
    events = await late.store.read(game_id)
    assert_unbroken_chain(game_id, events)
    assert [e.command_id for e in events[loaded.version:]][-len(applied.events):] == ["late"] * len(applied.events)
    assert applied.version == len(events) > loaded.version + 3
    assert (await late.load(game_id)).state.action_pass == 1


async def test_an_unpinned_move_that_lost_a_race_is_rejected_when_no_longer_legal(pg_pool: asyncpg.Pool) -> None:
    game_id, loaded = await game_in_actions(pg_pool)
    seat = seat_to_move(loaded)
    other = make(pg_pool)

    async def the_same_seat_moves() -> None:
        await other.submit(game_id, int(seat), cid(), Consult())

    store = InterleavingStore(pg_pool, the_same_seat_moves)
    with pytest.raises(RuleViolation):
        await make(pg_pool, store).submit(game_id, int(seat), "late", Consult())
    assert store.appends == 1  # decided again on the new state, where it is not this seat's turn

    events = await other.store.read(game_id)
    assert_unbroken_chain(game_id, events)
    assert "late" not in {e.command_id for e in events}
    assert await command_rows(pg_pool, game_id, "late") == 0


async def test_a_pinned_move_that_lost_a_race_is_not_retried(pg_pool: asyncpg.Pool) -> None:
    game_id, loaded = await game_in_actions(pg_pool)
    seat = seat_to_move(loaded)
    other = make(pg_pool)

    async def a_whole_lap() -> None:
        for _ in range(3):
            await other.submit(game_id, int(seat_to_move(await other.load(game_id))), cid(), Consult())

    store = InterleavingStore(pg_pool, a_whole_lap)
    with pytest.raises(ConcurrencyConflict):
        await make(pg_pool, store).submit(game_id, int(seat), "late", Consult(), expected_version=loaded.version)
    assert store.appends == 1
    assert await command_rows(pg_pool, game_id, "late") == 0


async def test_a_rejected_command_changes_nothing(pg_pool: asyncpg.Pool) -> None:
    gameplay = make(pg_pool)
    game_id = await new_game(gameplay)
    loaded = await gameplay.load(game_id)
    seat = int(seat_to_move(loaded))
    events, head = await gameplay.store.read(game_id), await gameplay.store.head(game_id)
    queued, published = list(jobs(gameplay)), list(announced(gameplay))

    attempts: list[tuple[int, Any]] = [
        ((seat + 1) % 3, PassBid()),  # not this seat's turn
        (seat, Sell(plot="1A")),  # the wrong phase
        (seat, PlaceBid(amount=10**9)),  # more than the seat has
    ]
    for who, command in attempts:
        command_id = cid()
        with pytest.raises(RuleViolation):
            await gameplay.submit(game_id, who, command_id, command)
        assert await gameplay.store.find_command(game_id, command_id) is None

    assert await gameplay.store.read(game_id) == events
    assert await gameplay.store.head(game_id) == head
    assert (jobs(gameplay), announced(gameplay)) == (queued, published)


# -- system jobs and the reconciler ---------------------------------------------------------------------


async def game_waiting_for_the_system(gameplay: Gameplay) -> tuple[str, Job]:
    game_id = await new_game(gameplay)
    await drive(gameplay, game_id, RandomLegal(2), until=lambda _, due: due.system is not None)
    loaded = await gameplay.load(game_id)
    due = GAME.pending(loaded.state).system
    assert due is not None
    job = jobs(gameplay)[-1]
    assert job == Job(game_id, loaded.version, tag_of(due))
    assert job.job_id == f"{game_id}:{loaded.version}:{tag_of(due)}"
    return game_id, job


async def test_stale_and_repeated_system_jobs_do_nothing(pg_pool: asyncpg.Pool) -> None:
    gameplay = make(pg_pool)
    game_id, job = await game_waiting_for_the_system(gameplay)
    events = await gameplay.store.read(game_id)
    other_kind = "magnate.roll_dice" if job.kind != "magnate.roll_dice" else "magnate.process_market"

    assert not await gameplay.run_system(game_id, job.version - 1, job.kind)  # an old job
    assert not await gameplay.run_system(game_id, job.version, other_kind)  # not what is due
    assert not await gameplay.run_system(game_id, job.version + 1, job.kind)  # from the future
    assert await gameplay.store.read(game_id) == events

    # Delivered twice at once to two workers: it runs once.
    outcomes = await asyncio.gather(make(pg_pool).run_system(game_id, job.version, job.kind),
                                    make(pg_pool).run_system(game_id, job.version, job.kind))
    assert sorted(outcomes) == [False, True]
    # ... and once more, late: nothing.
    assert not await gameplay.run_system(game_id, job.version, job.kind)

    after = await gameplay.store.read(game_id)
    assert after[:len(events)] == events
    assert {e.command_id for e in after[len(events):]} == {f"system:{job.version}:{job.kind}"}
    assert await command_rows(pg_pool, game_id, f"system:{job.version}:{job.kind}") == 1
    assert_unbroken_chain(game_id, after)


async def test_reconcile_requeues_exactly_the_due_jobs(pg_pool: asyncpg.Pool) -> None:
    gameplay = make(pg_pool)
    due_game, due_job = await game_waiting_for_the_system(gameplay)
    waiting_game = await new_game(gameplay)
    finished_game = await new_game(gameplay)
    await drive(gameplay, finished_game, RandomLegal(4))

    restarted = make(pg_pool)  # a worker starting with an empty queue
    count = await restarted.reconcile()

    rows = await pg_pool.fetch("SELECT game_id, version, system_job FROM games"
                               " WHERE status = 'running' AND system_job IS NOT NULL")
    expected = {Job(r["game_id"], r["version"], r["system_job"]) for r in rows}
    assert set(jobs(restarted)) == expected
    assert len(jobs(restarted)) == len(expected)
    assert count == len(expected) + len(timers(restarted))  # plus the clocks of other tests' timed games
    mine = {j.game_id: j for j in jobs(restarted)}
    assert mine[due_game] == due_job
    assert waiting_game not in mine and finished_game not in mine

    # The requeued job runs like the original one; running it again, or reconciling again, does nothing.
    assert await restarted.run_system(due_job.game_id, due_job.version, due_job.kind)
    assert not await gameplay.run_system(due_job.game_id, due_job.version, due_job.kind)
    still_due = {h.game_id: h.version for h in await restarted.store.due_jobs()}
    assert still_due.get(due_game, due_job.version + 1) > due_job.version
