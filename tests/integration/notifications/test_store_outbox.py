"""The Outbox port's contract, run against the in-memory twin and the REAL PostgreSQL: a delivery is written once
per id; a claim is exclusive, counts an attempt and holds a lease that runs out unless renewed; a finished delivery
stays finished; one put back is due later; the sweep finds what is due or abandoned, oldest first, within a limit;
the log lists a player's deliveries newest first."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from infra.notifications import Busy, Claimed, Delivery

from .store_world import World, new_id

pytestmark = pytest.mark.integration


def delivery(player_id: str, due_at: datetime | None = None, channel: str = "email") -> Delivery:
    return Delivery(new_id(), player_id, channel, "bea@example.test", None, due_at or datetime.now(UTC))


async def test_a_delivery_is_written_once(world: World) -> None:
    store, bea = world.store, await world.player()
    first, second = delivery(bea), delivery(bea)

    made = await store.write_deliveries([first, second])
    again = await store.write_deliveries([first, delivery(bea)])

    assert [d for d, _ in made] == [first.delivery_id, second.delivery_id]
    assert made[0][1] == first.due_at
    assert len(again) == 1 and again[0][0] != first.delivery_id
    assert await store.write_deliveries([]) == []
    entries = await store.entries(bea, 10)
    assert len(entries) == 3 and {e.status for e in entries} == {"pending"}
    assert all(e.attempts == 0 and e.sent_at is None and e.detail == "" for e in entries)


async def test_a_claim_is_exclusive_and_says_why_not(world: World) -> None:
    store, bea = world.store, await world.player()
    due, later = delivery(bea), delivery(bea, datetime.now(UTC) + timedelta(hours=1))
    await store.write_deliveries([due, later])

    claims = await asyncio.gather(*(store.claim(due.delivery_id, 30) for _ in range(8)))

    won = [c for c in claims if isinstance(c, Claimed)]
    assert len(won) == 1
    assert (won[0].delivery_id, won[0].player_id, won[0].channel, won[0].attempts) == (due.delivery_id, bea,
                                                                                       "email", 1)
    busy = await store.claim(due.delivery_id, 30)
    assert isinstance(busy, Busy) and busy.status == "sending"
    assert busy.wait_s is not None and 25 < busy.wait_s <= 30
    waiting = await store.claim(later.delivery_id, 30)
    assert isinstance(waiting, Busy) and waiting.status == "pending"
    assert waiting.wait_s is not None and 3500 < waiting.wait_s <= 3600
    assert await store.claim(new_id(), 30) == Busy("gone", None)


async def test_a_lease_runs_out_unless_renewed(world: World) -> None:
    store, bea = world.store, await world.player()
    d = delivery(bea)
    await store.write_deliveries([d])

    assert isinstance(await store.claim(d.delivery_id, 0.3), Claimed)
    assert await store.extend(d.delivery_id, 0.6)
    await asyncio.sleep(0.4)  # the first lease would have run out: the renewal holds
    assert isinstance(await store.claim(d.delivery_id, 0.3), Busy)
    await asyncio.sleep(0.3)  # the renewed lease runs out: its worker died

    again = await store.claim(d.delivery_id, 30)
    assert isinstance(again, Claimed) and again.attempts == 2
    assert not await store.extend(new_id(), 30)


async def test_a_finished_delivery_stays_finished(world: World) -> None:
    store, bea = world.store, await world.player()
    sent, skipped = delivery(bea), delivery(bea)
    await store.write_deliveries([sent, skipped])
    for d in (sent, skipped):
        await store.claim(d.delivery_id, 30)

    assert await store.finish(sent.delivery_id, "sent", "")
    assert await store.finish(skipped.delivery_id, "skipped", "x" * 600)
    assert not await store.finish(sent.delivery_id, "failed", "too late")  # not sending any more

    entries = {e.delivery_id: e for e in await store.entries(bea, 10)}
    assert entries[sent.delivery_id].status == "sent" and entries[sent.delivery_id].sent_at is not None
    assert entries[skipped.delivery_id].status == "skipped" and entries[skipped.delivery_id].sent_at is None
    assert entries[skipped.delivery_id].detail == "x" * 500
    assert await store.claim(sent.delivery_id, 30) == Busy("sent", None)
    assert not await store.finish(new_id(), "sent", "")


async def test_a_delivery_put_back_is_due_later(world: World) -> None:
    store, bea = world.store, await world.player()
    d = delivery(bea)
    await store.write_deliveries([d])
    await store.claim(d.delivery_id, 30)

    await store.put_back(d.delivery_id, 0.3, "attempt 1 failed: 503")

    busy = await store.claim(d.delivery_id, 30)
    assert isinstance(busy, Busy) and busy.status == "pending" and busy.wait_s is not None and busy.wait_s <= 0.3
    assert d.delivery_id not in [i for i, _ in await store.due(10_000)]
    [entry] = await store.entries(bea, 10)
    assert (entry.status, entry.attempts, entry.detail) == ("pending", 1, "attempt 1 failed: 503")
    await asyncio.sleep(0.35)
    again = await store.claim(d.delivery_id, 30)
    assert isinstance(again, Claimed) and again.attempts == 2


async def test_the_sweep_finds_the_due_and_the_abandoned_oldest_first(world: World) -> None:
    store, bea = world.store, await world.player()
    long_ago = datetime(1971, 1, 1, tzinfo=UTC) + timedelta(seconds=int(new_id()[:6], 16))  # before anyone's
    oldest, old, abandoned, leased, sent = (delivery(bea, long_ago + timedelta(seconds=s)) for s in range(5))
    future = delivery(bea, datetime.now(UTC) + timedelta(hours=1))
    await store.write_deliveries([oldest, old, abandoned, leased, sent, future])
    await store.claim(abandoned.delivery_id, 0.1)
    await store.claim(leased.delivery_id, 30)
    await store.claim(sent.delivery_id, 30)
    await store.finish(sent.delivery_id, "sent", "")
    await asyncio.sleep(0.2)  # the abandoned one's lease runs out

    mine = {oldest.delivery_id, old.delivery_id, abandoned.delivery_id, leased.delivery_id, sent.delivery_id,
            future.delivery_id}
    found = [(i, due) for i, due in await store.due(10_000) if i in mine]
    assert found == [(oldest.delivery_id, oldest.due_at), (old.delivery_id, old.due_at),
                     (abandoned.delivery_id, abandoned.due_at)]
    assert [i for i, _ in await store.due(2)] == [oldest.delivery_id, old.delivery_id]


async def test_the_log_lists_a_players_deliveries_newest_first(world: World) -> None:
    store, bea = world.store, await world.player()
    first, second, third = delivery(bea), delivery(bea), delivery(bea)
    await store.write_deliveries([first])
    await asyncio.sleep(0.01)
    await store.write_deliveries([second, third])  # one moment: by id

    listed = [e.delivery_id for e in await store.entries(bea, 10)]
    assert listed == [*sorted([second.delivery_id, third.delivery_id]), first.delivery_id]
    assert len(await store.entries(bea, 2)) == 2
    assert await store.entries(await world.player(), 10) == []
