"""The projector turns a watched game's log into notices for its claimed seats and the deliveries they need,
exactly once however many projectors run, and only what each player wants."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from infra.config import Settings
from infra.presence import seat_key
from services.gameplay.bootstrap import Runtime
from services.notifications.context import Notifications
from services.notifications.projector import Projector
from services.notifications.reminders import turn_mailed

from .conftest import claim, new_game, new_player, on_turn, play_until_turn_of

pytestmark = [pytest.mark.integration,
              pytest.mark.filterwarnings("ignore:Call to deprecated close:DeprecationWarning")]


async def notices_of(runtime: Runtime, player_id: str) -> list[tuple[str, str, str]]:
    rows = await runtime.pool.fetch("SELECT notice_id, kind, text FROM notices WHERE player_id = $1"
                                    " ORDER BY version, notice_id", player_id)
    return [(r["notice_id"], r["kind"], r["text"]) for r in rows]


async def test_a_claimed_seat_is_told_its_turn_once_with_the_games_title(
        runtime: Runtime, notifications: Notifications) -> None:
    game_id = await new_game(runtime)
    bea = await new_player(runtime, "bea")
    seat = 1 if 1 not in await on_turn(runtime, game_id) else 0
    await claim(runtime, game_id, seat, bea)
    await play_until_turn_of(runtime, game_id, seat)

    await notifications.projector.run_once()
    await notifications.projector.run_once()

    told = await notices_of(runtime, bea)
    turns = [t for t in told if t[1] == "your_turn"]
    assert len(turns) == 1
    assert turns[0][2] == "Your turn in Magnate: The First City"
    head = await runtime.gameplay.store.head(game_id)
    assert turns[0][0] == f"{game_id}.{head.version}.{seat}.your_turn"
    deliveries = await runtime.pool.fetch("SELECT delivery_id, channel, status FROM deliveries WHERE player_id = $1",
                                          bea)
    assert {(d["delivery_id"], d["channel"], d["status"]) for d in deliveries} == {
        (f"{turns[0][0]}.email", "email", "pending")}


async def test_concurrent_projectors_write_what_one_projector_alone_writes(
        runtime: Runtime, notifications: Notifications, settings: Settings) -> None:
    players = [await new_player(runtime) for _ in range(6)]
    games = [await new_game(runtime) for _ in range(6)]
    claimed_at = [await claim(runtime, game_id, 0, player) for game_id, player in zip(games, players, strict=True)]
    for _ in range(3):
        for game_id in games:
            await play_until_turn_of(runtime, game_id, 0)
            await play_until_turn_of(runtime, game_id, 1)
    projectors = [Projector(notifications.store, runtime.gameplay.loader, notifications.dispatch, batch=4)
                  for _ in range(4)]

    for _ in range(4):
        await asyncio.gather(*(p.run_once() for p in projectors))
    together = {p: await notices_of(runtime, p) for p in players}
    assert all(together.values())
    count = "SELECT count(*) FROM deliveries WHERE player_id = ANY($1)"
    deliveries = await runtime.pool.fetchval(count, players)

    # from scratch, one projector alone, from the claims' versions again
    await runtime.pool.execute("DELETE FROM deliveries WHERE player_id = ANY($1)", players)
    await runtime.pool.execute("DELETE FROM notices WHERE player_id = ANY($1)", players)
    for game_id in games:
        await runtime.pool.execute("UPDATE seats SET player_id = NULL WHERE game_id = $1", game_id)
        await runtime.pool.execute("DELETE FROM notice_cursors WHERE game_id = $1", game_id)
    alone = Projector(notifications.store, runtime.gameplay.loader, notifications.dispatch)
    for game_id, player, version in zip(games, players, claimed_at, strict=True):
        await runtime.pool.execute("UPDATE seats SET player_id = $2 WHERE game_id = $1 AND seat = 0", game_id,
                                   player)
        await runtime.pool.execute("INSERT INTO notice_cursors VALUES ($1, $2)", game_id, version)
    await alone.run_once()

    assert {p: await notices_of(runtime, p) for p in players} == together
    assert await runtime.pool.fetchval(count, players) == deliveries


async def test_muted_games_and_unwanted_kinds_are_not_told(runtime: Runtime, notifications: Notifications) -> None:
    quiet, muted = await new_player(runtime), await new_player(runtime)
    first, second = await new_game(runtime), await new_game(runtime)
    await claim(runtime, first, 0, quiet)
    await claim(runtime, second, 0, muted)
    await runtime.pool.execute("INSERT INTO notification_settings (player_id, kinds) VALUES ($1, '{game_over}')",
                               quiet)
    await runtime.pool.execute("INSERT INTO notification_settings (player_id, muted_games) VALUES ($1, $2)",
                               muted, [second])
    for game_id in (first, second):
        await play_until_turn_of(runtime, game_id, 1)
        await play_until_turn_of(runtime, game_id, 0)

    await notifications.projector.run_once()

    assert await notices_of(runtime, quiet) == []
    assert await notices_of(runtime, muted) == []
    assert await runtime.pool.fetchval("SELECT version FROM notice_cursors WHERE game_id = $1", first) == \
        (await runtime.gameplay.store.head(first)).version


async def test_a_turn_at_the_page_is_written_read_and_a_reminder_finds_the_turns_mail(
        runtime: Runtime, notifications: Notifications) -> None:
    """Over PostgreSQL and Redis (issue #26, point 7): the seat's live page (its presence in Redis) makes its turn's
    notice read in the projection's own transaction; the player away from another game has it unread. The
    reminder's look-up of the turn's mail reads the real delivery log."""
    bea = await new_player(runtime, "bea")
    looking, away = await new_game(runtime), await new_game(runtime)
    seats = {}
    for game_id in (looking, away):
        seats[game_id] = 1 if 1 not in await on_turn(runtime, game_id) else 0
        await claim(runtime, game_id, seats[game_id], bea)
    await runtime.presence.here(seat_key(looking, seats[looking]), "page-1")
    try:
        for game_id in (looking, away):
            await play_until_turn_of(runtime, game_id, seats[game_id])
        before = datetime.now(UTC) - timedelta(minutes=1)
        await notifications.projector.run_once()
    finally:
        await runtime.presence.gone(seat_key(looking, seats[looking]), "page-1")

    rows = await runtime.pool.fetch("SELECT game_id, read_at IS NOT NULL AS read FROM notices WHERE player_id = $1"
                                    " AND kind = 'your_turn'", bea)
    assert {r["game_id"]: r["read"] for r in rows} == {looking: True, away: False}
    assert await notifications.unread(bea) == 1
    for game_id in (looking, away):  # each turn's mail is on its way (held back at delivery while at the page)
        assert await turn_mailed(notifications.store, bea, game_id, seats[game_id], before)
        assert not await turn_mailed(notifications.store, bea, game_id, seats[game_id],
                                     datetime.now(UTC) + timedelta(hours=1))  # a later turn: not mailed yet
