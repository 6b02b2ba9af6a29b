"""The Outbox port's contract, run against the in-memory twin and the REAL PostgreSQL: a delivery is written once
per id; a claim counts an attempt, of racing claims each one once (a delivery has no lease of its own: its job's is
the one), and says why not when the delivery is not due or finished; a finished delivery stays finished; one put
back is due later; the sweep finds what is due or being sent, oldest first, within a limit; the log lists a
player's deliveries newest first."""

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


async def test_a_claim_counts_an_attempt_and_says_why_not(world: World) -> None:
    store, bea = world.store, await world.player()
    due, later = delivery(bea), delivery(bea, datetime.now(UTC) + timedelta(hours=1))
    await store.write_deliveries([due, later])

    first = await store.claim(due.delivery_id)

    assert isinstance(first, Claimed)
    assert (first.delivery_id, first.player_id, first.channel, first.attempts) == (due.delivery_id, bea, "email", 1)
    waiting = await store.claim(later.delivery_id)
    assert isinstance(waiting, Busy) and waiting.status == "pending"
    assert waiting.wait_s is not None and 3500 < waiting.wait_s <= 3600
    assert await store.claim(new_id()) == Busy("gone", None)


async def test_a_delivery_being_sent_is_claimed_again_by_the_next_run_of_its_job(world: World) -> None:
    store, bea = world.store, await world.player()
    d = delivery(bea)
    await store.write_deliveries([d])
    assert isinstance(await store.claim(d.delivery_id), Claimed)

    again = await store.claim(d.delivery_id)  # its worker died mid-send: the job runs again after the job's lease

    assert isinstance(again, Claimed) and again.attempts == 2
    racing = await asyncio.gather(*(store.claim(d.delivery_id) for _ in range(6)))  # each claim is one attempt
    assert sorted(c.attempts for c in racing if isinstance(c, Claimed)) == [3, 4, 5, 6, 7, 8]


async def test_a_finished_delivery_stays_finished(world: World) -> None:
    store, bea = world.store, await world.player()
    sent, skipped = delivery(bea), delivery(bea)
    await store.write_deliveries([sent, skipped])
    for d in (sent, skipped):
        await store.claim(d.delivery_id)

    assert await store.finish(sent.delivery_id, "sent", "")
    assert await store.finish(skipped.delivery_id, "skipped", "x" * 600)
    assert not await store.finish(sent.delivery_id, "failed", "too late")  # not sending any more

    entries = {e.delivery_id: e for e in await store.entries(bea, 10)}
    assert entries[sent.delivery_id].status == "sent" and entries[sent.delivery_id].sent_at is not None
    assert entries[skipped.delivery_id].status == "skipped" and entries[skipped.delivery_id].sent_at is None
    assert entries[skipped.delivery_id].detail == "x" * 500
    assert await store.claim(sent.delivery_id) == Busy("sent", None)
    assert not await store.finish(new_id(), "sent", "")


async def test_a_delivery_put_back_is_due_later(world: World) -> None:
    store, bea = world.store, await world.player()
    d = delivery(bea)
    await store.write_deliveries([d])
    await store.claim(d.delivery_id)

    await store.put_back(d.delivery_id, 0.3, "attempt 1 failed: 503")

    busy = await store.claim(d.delivery_id)
    assert isinstance(busy, Busy) and busy.status == "pending" and busy.wait_s is not None and busy.wait_s <= 0.3
    assert d.delivery_id not in [i for i, _ in await store.due(10_000)]
    [entry] = await store.entries(bea, 10)
    assert (entry.status, entry.attempts, entry.detail) == ("pending", 1, "attempt 1 failed: 503")
    await asyncio.sleep(0.35)
    again = await store.claim(d.delivery_id)
    assert isinstance(again, Claimed) and again.attempts == 2


async def test_the_sweep_finds_the_due_and_the_ones_being_sent_oldest_first(world: World) -> None:
    store, bea = world.store, await world.player()
    long_ago = datetime(1971, 1, 1, tzinfo=UTC) + timedelta(seconds=int(new_id()[:6], 16))  # before anyone's
    oldest, old, sending, sent = (delivery(bea, long_ago + timedelta(seconds=s)) for s in range(4))
    future = delivery(bea, datetime.now(UTC) + timedelta(hours=1))
    await store.write_deliveries([oldest, old, sending, sent, future])
    await store.claim(sending.delivery_id)  # its job may be gone (the queue refuses a second job while it is not)
    await store.claim(sent.delivery_id)
    await store.finish(sent.delivery_id, "sent", "")

    mine = {oldest.delivery_id, old.delivery_id, sending.delivery_id, sent.delivery_id, future.delivery_id}
    found = [(i, due) for i, due in await store.due(10_000) if i in mine]
    assert found == [(oldest.delivery_id, oldest.due_at), (old.delivery_id, old.due_at),
                     (sending.delivery_id, sending.due_at)]
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
