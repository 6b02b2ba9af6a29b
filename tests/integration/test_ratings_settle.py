"""Ratings settled by the worker's projector on the REAL PostgreSQL (issue #29): a rated three-player game between
signed-in players changes their ratings as openskill computes for the table's ranks, exactly once: a second round,
a restarted projector and a replayed settling change nothing, and a settling that failed is made good by the next
round (the projector keeps the game's cursor until the ratings are settled)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest
from openskill.models import PlackettLuce

from domain.games import GAMES
from domain.kernel.table import TableOptions
from domain.magnate import GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from infra.config import Settings
from services.gameplay.bootstrap import Runtime, build
from services.notifications.projector import Projector

pytestmark = pytest.mark.integration


@pytest.fixture
async def runtime(pg_dsn: str, redis_url: str, queue_name: str) -> AsyncIterator[Runtime]:
    runtime = await build(Settings(database_url=pg_dsn, redis_url=redis_url, queue_name=queue_name))
    try:
        yield runtime
    finally:
        await runtime.close()


async def player(runtime: Runtime, name: str) -> str:
    link = await runtime.players.issue_link(f"{name}-{uuid.uuid4().hex[:8]}@example.org", "/", 15, limited=False)
    signed, _ = await runtime.players.redeem(link.token)
    return signed.player_id


async def rated_game(runtime: Runtime, names: list[str]) -> tuple[str, list[str]]:
    """A rated Magnate game whose every seat a signed-in player claimed."""
    created = await runtime.gameplay.create_game("magnate", GameOptions(seats=tuple(SeatSpec() for _ in names)),
                                                 names, table=TableOptions(rated=True))
    await runtime.ratings.opened(created.game_id, "magnate", TableOptions(rated=True))
    ids = []
    for seat, name in zip(created.seats, names, strict=True):
        pid = await player(runtime, name)
        assert seat.token is not None
        await runtime.seating.claim(created.game_id, seat.seat, seat.token, pid, name)
        ids.append(pid)
    return created.game_id, ids


async def finish(runtime: Runtime, game_id: str) -> list[int]:
    """Play to the end with random legal moves (system jobs run inline, as a worker would); the seats' ranks."""
    gameplay, bot = runtime.gameplay, RandomLegal(11)
    for _ in range(4000):
        head = await gameplay.store.head(game_id)
        if head.status == "finished":
            loaded = await gameplay.load(game_id)
            outcome = GAMES["magnate"].outcome(loaded.state)
            assert outcome is not None
            return [s.rank for s in sorted(outcome.standings, key=lambda s: s.seat)]
        if head.system_job is not None:
            assert await gameplay.run_system(game_id, head.version, head.system_job)
            continue
        loaded = await gameplay.load(game_id)
        seat = GAMES["magnate"].pending(loaded.state).seats[0]
        await gameplay.submit(game_id, int(seat), uuid.uuid4().hex, bot(loaded.state, seat))
    raise AssertionError("the game did not finish")


async def test_a_rated_three_player_game_is_settled_once_as_openskill_computes(runtime: Runtime) -> None:
    game_id, ids = await rated_game(runtime, ["ada", "bob", "cyd"])
    ranks = await finish(runtime, game_id)
    projector = runtime.notifications.projector
    failing = True

    async def flaky(game: str) -> object:
        nonlocal failing
        if failing and game == game_id:
            failing = False
            raise RuntimeError("the ratings store went away")
        return await runtime.ratings.game_over(game)

    projector.on_over = flaky
    await projector.run_once([game_id])  # the settling failed: the game's cursor stays
    assert await runtime.ratings.store.result(game_id) == "open"
    await projector.run_once([game_id])  # the next round settles it
    assert await runtime.ratings.store.result(game_id) == "rated"

    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in ids], ranks=[float(r) for r in ranks])
    for pid, [want] in zip(ids, expected, strict=True):
        (mine,) = await runtime.ratings.of_player(pid)
        assert (mine.game_type, mine.games) == ("magnate", 1)
        assert (mine.mu, mine.sigma) == (want.mu, want.sigma)
        assert mine.shown == round(want.ordinal(alpha=20, target=1000))

    before = [await runtime.ratings.of_player(pid) for pid in ids]
    restarted = Projector(runtime.notifications.store, runtime.gameplay.loader, runtime.notifications.dispatch)
    restarted.on_over = runtime.ratings.game_over
    await restarted.catch_up()
    await restarted.run_once([game_id])
    assert await runtime.ratings.game_over(game_id) is None  # a replayed job: settled already
    assert [await runtime.ratings.of_player(pid) for pid in ids] == before
    board = await runtime.ratings.leaderboard("magnate", 100, 0)
    ours = [r for r in board if r.player_id in ids]
    assert sorted(r.shown for r in ours) == sorted(round(w.ordinal(alpha=20, target=1000)) for [w] in expected)
