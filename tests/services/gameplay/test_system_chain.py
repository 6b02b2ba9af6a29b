"""A system job decides the system commands due after its own in the same append (services/gameplay/follow_on.py):
the log is the one a job per command writes, decision by decision, in fewer appends; the chain stops at a seat on
turn, after its limit and out of time, and a job that runs twice or late still changes nothing."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from domain.kernel import GameModule, tag_of
from domain.kernel.table import TableOptions
from domain.magnate import GAME as RULES
from domain.magnate import GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from infra.config import Settings
from infra.eventstore.memory import InMemoryEventStore
from infra.notify import RecordingNotifier
from infra.queue import RecordingJobQueue
from services.gameplay import Gameplay, follow_on
from services.gameplay.audit import export_lines, verify
from services.gameplay.registry import games_of

GAMES = dict(games_of(Settings()))
GAME = GAMES["magnate"]
"""Magnate as the service serves it: inside the table (clocks, stand-ins)."""
SEED = b"system-chain-seed"
COMPUTERS = GameOptions(seats=(SeatSpec(kind="ai"), SeatSpec(), SeatSpec()), difficulty="generalised_ai")
STAND_INS = TableOptions(stand_ins=(1, 2))
"""The AI and two stand-ins: the computer plays every seat."""
SOLO = GameOptions(seats=(SeatSpec(), SeatSpec(kind="ai")), difficulty="generalised_ai")


def service(chain: int, games: dict[str, GameModule[Any]] = GAMES) -> Gameplay:
    return Gameplay(InMemoryEventStore(), RecordingJobQueue(), RecordingNotifier(), games, snapshot_every=25,
                    clock=lambda: 1_800_000_000_000, system_chain=chain)


def jobs_of(gameplay: Gameplay) -> RecordingJobQueue:
    assert isinstance(gameplay.queue, RecordingJobQueue)
    return gameplay.queue


async def run_jobs(gameplay: Gameplay, game_id: str) -> int:
    """Run the game's queued jobs, the latest first, until none is due; returns how many appended."""
    ran = 0
    while True:
        loaded = await gameplay.load(game_id)
        due = gameplay.module(loaded.game_type).pending(loaded.state).system
        if due is None:
            return ran
        job = jobs_of(gameplay).jobs[-1]
        assert (job.version, job.kind) == (loaded.version, tag_of(due))  # the job the game waits for was queued
        assert await gameplay.run_system(job.game_id, job.version, job.kind)
        ran += 1


async def log_of(gameplay: Gameplay, game_id: str) -> list[tuple[object, ...]]:
    """The game's decisions and events as a log of another game with the same seed would hold them."""
    commands = [(c.command_id.replace(game_id, "<game>"), c.actor, c.type, c.payload, c.first_version, c.last_version)
                for c in await gameplay.store.commands(game_id)]
    events = [(e.version, e.type, e.actor, e.command_id.replace(game_id, "<game>"), e.payload, e.commitment)
              for e in await gameplay.store.read(game_id)]
    return [*commands, *events]


async def test_a_game_of_computers_writes_the_same_log_in_a_few_jobs() -> None:
    one_by_one, chained = service(0), service(16)
    first = (await one_by_one.create_game("magnate", COMPUTERS, seed=SEED, table=STAND_INS)).game_id
    second = (await chained.create_game("magnate", COMPUTERS, seed=SEED, table=STAND_INS)).game_id
    jobs_alone = await run_jobs(one_by_one, first)
    jobs_chained = await run_jobs(chained, second)

    assert (await one_by_one.store.head(first)).status == (await chained.store.head(second)).status == "finished"
    decisions = len(await chained.store.commands(second))
    assert jobs_alone > 50  # a job per AI turn, die roll and market
    assert jobs_chained * 16 >= decisions - 2 >= jobs_alone  # each job decided up to 17 system commands
    assert jobs_chained <= jobs_alone // 10
    # Decision by decision the same log: ids, actors, versions, events and their commitments.
    assert await log_of(one_by_one, first) == await log_of(chained, second)
    verdict = verify(await export_lines(chained, second), GAMES)
    assert verdict.ok, verdict.problems
    assert verdict.replayed == verdict.commands == decisions


async def test_a_job_decides_the_computers_turns_up_to_the_humans_and_no_further() -> None:
    gameplay = service(16, {"magnate": RULES})  # without the table: the bot reads the rules' own state
    game_id = (await gameplay.create_game("magnate", SOLO, seed=SEED)).game_id
    policy = RandomLegal(5)
    human_moves = answered = 0
    while human_moves < 30:
        await run_jobs(gameplay, game_id)
        loaded = await gameplay.load(game_id)
        due = RULES.pending(loaded.state)
        if due.finished:
            break
        assert due.seats == (0,)  # after the job, the human's turn (never an AI's left waiting)
        jobs_before = len(jobs_of(gameplay).jobs)
        applied = await gameplay.submit(game_id, 0, uuid.uuid4().hex, policy(loaded.state, due.seats[0]))
        human_moves += 1
        after = RULES.pending((await gameplay.load(game_id)).state)
        if after.system is not None:  # the human's move made the computers' turns due: one job for all of them
            assert len(jobs_of(gameplay).jobs) == jobs_before + 1
            job = jobs_of(gameplay).jobs[-1]
            assert job.version == applied.version
            assert await gameplay.run_system(job.game_id, job.version, job.kind)
            answered += 1
            now = await gameplay.load(game_id)
            assert RULES.pending(now.state).system is None or now.version - applied.version >= 17
    assert human_moves == 30
    assert answered >= 10  # the computer answered many of the moves, each time in one job


async def test_a_chain_stops_at_its_limit_and_queues_the_rest() -> None:
    gameplay = service(2)
    game_id = (await gameplay.create_game("magnate", COMPUTERS, seed=SEED, table=STAND_INS)).game_id
    job = jobs_of(gameplay).jobs[-1]
    assert await gameplay.run_system(job.game_id, job.version, job.kind)
    system = [c for c in await gameplay.store.commands(game_id) if c.command_id.startswith("system:")]
    assert len(system) == 3  # the job's own command and two more
    head = await gameplay.store.head(game_id)
    following = jobs_of(gameplay).jobs[-1]
    assert (following.version, following.kind) == (head.version, head.system_job)

    # The job again, or late: nothing changes.
    assert not await gameplay.run_system(job.game_id, job.version, job.kind)
    assert (await gameplay.store.head(game_id)).version == head.version
    assert await gameplay.run_system(following.game_id, following.version, following.kind)
    assert not await gameplay.run_system(following.game_id, following.version, following.kind)


async def test_a_job_out_of_time_leaves_the_rest_to_the_next_job_and_the_log_is_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    one_by_one, hurried = service(0), service(16)
    first = (await one_by_one.create_game("magnate", COMPUTERS, seed=SEED, table=STAND_INS)).game_id
    second = (await hurried.create_game("magnate", COMPUTERS, seed=SEED, table=STAND_INS)).game_id
    await run_jobs(one_by_one, first)
    monkeypatch.setattr(follow_on, "BUDGET_S", -1.0)  # a game whose AI thinks for longer than a job may go on
    assert await run_jobs(hurried, second) == len([c for c in await hurried.store.commands(second)
                                                   if c.command_id.startswith("system:")])  # one job per command
    assert await log_of(one_by_one, first) == await log_of(hurried, second)
