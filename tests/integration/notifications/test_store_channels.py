"""The Channels port's contract, run against the in-memory twin and the REAL PostgreSQL: settings kept apart from
the unsubscribe hash, email turned off by a token's hash, where a player can be reached, at most ``limit`` webhooks
each counting its failures until it is turned off, one record per push device and only the newest kept, and the
server's keys made once."""

from __future__ import annotations

import asyncio

import pytest

from infra.channels.push import PushSubscription
from infra.notifications import Reach, Settings, WebhookFailures, WebhookTarget

from .store_world import World, new_id

pytestmark = pytest.mark.integration


def device(n: int) -> tuple[str, PushSubscription]:
    return f"device-{new_id()}", PushSubscription(f"https://push.example/{n}-{new_id()}", f"key{n}", f"auth{n}")


async def test_settings_are_kept_apart_from_the_unsubscribe_hash(world: World) -> None:
    store, bea, cid = world.store, await world.player(), await world.player()
    assert await store.settings([bea, cid]) == {}

    await store.keep_unsubscribe_hash(bea, "hash-" + bea)  # a row with the defaults
    assert await store.settings([bea, cid]) == {bea: Settings()}
    chosen = Settings(email_mode="digest", digest_hours=24, push=False, webhooks=True, kinds=("game_over",),
                      muted_games=("g1", "g2"))
    await store.save_settings(bea, chosen)
    await store.save_settings(cid, Settings(push=False))
    await store.digest_sent(bea)

    assert await store.settings([bea, cid, bea]) == {bea: chosen, cid: Settings(push=False)}
    assert await store.player_of_unsubscribe("hash-" + bea) == bea  # kept by the save
    assert await store.player_of_unsubscribe("no-such-hash") is None


async def test_a_tokens_hash_turns_email_off_again_and_again(world: World) -> None:
    store, bea = world.store, await world.player()
    await store.save_settings(bea, Settings(email_mode="each", push=False))
    await store.keep_unsubscribe_hash(bea, "hash-" + bea)
    await store.keep_unsubscribe_hash(bea, "hash-" + bea)  # the same again: nothing changes

    assert await store.unsubscribe("hash-" + bea) == bea
    assert await store.unsubscribe("hash-" + bea) == bea
    assert await store.unsubscribe("no-such-hash") is None
    assert await store.settings([bea]) == {bea: Settings(email_mode="off", push=False)}


async def test_where_a_player_can_be_reached(world: World) -> None:
    store, bea, cid = world.store, await world.player(), await world.player()
    hooks = sorted(new_id() for _ in range(3))
    for webhook_id in hooks:
        await store.add_webhook(webhook_id, bea, "https://hooks.example/x", "json", "whsec_x", 5)
    await store.webhook_failed(hooks[1], 1)  # turned off: not a way to reach her
    devices = [device(n) for n in range(2)]
    for endpoint_id, sub in devices:
        await store.keep_device(bea, endpoint_id, sub, 20)

    reach = await store.reach([bea, cid, "nobody"])

    assert reach == {bea: Reach(await world.email(bea), (hooks[0], hooks[2]), tuple(sorted(e for e, _ in devices))),
                     cid: Reach(await world.email(cid))}
    assert await store.email_of(bea) == await world.email(bea)
    assert await store.email_of("nobody") is None


async def test_a_player_s_language_is_the_one_they_chose(world: World) -> None:
    store = world.store
    assert await store.language_of(await world.player("de")) == "de"
    assert await store.language_of(await world.player()) is None
    assert await store.language_of("nobody") is None


async def test_webhooks_are_limited_and_removed_by_their_owner_only(world: World) -> None:
    store, bea, cid = world.store, await world.player(), await world.player()
    made = []
    for n in range(3):
        made.append(await store.add_webhook(f"{n}-{new_id()}", bea, f"https://hooks.example/{n}", "slack",
                                            "whsec_s", 3))
        await asyncio.sleep(0.005)
    assert await store.add_webhook(new_id(), bea, "https://hooks.example/4", "json", "whsec_s", 3) is None
    assert all(m is not None and m.failures == 0 and not m.disabled for m in made)

    listed = await store.webhooks(bea)
    assert listed == made  # oldest first
    first = listed[0].webhook_id
    assert await store.webhook(bea, first) == WebhookTarget("https://hooks.example/0", "slack", "whsec_s", False)
    assert await store.webhook(cid, first) is None
    assert not await store.remove_webhook(cid, first)
    assert await store.remove_webhook(bea, first)
    assert not await store.remove_webhook(bea, first)
    assert await store.webhooks(bea) == made[1:]


async def test_a_webhook_failing_in_a_row_is_turned_off(world: World) -> None:
    store, bea = world.store, await world.player()
    webhook_id = new_id()
    await store.add_webhook(webhook_id, bea, "https://hooks.example/h", "json", "whsec_x", 5)

    assert await store.webhook_failed(webhook_id, 3) == WebhookFailures("https://hooks.example/h", 1, False)
    await store.webhook_succeeded(webhook_id)  # a success resets the count
    counts = [await store.webhook_failed(webhook_id, 3) for _ in range(3)]

    assert [c.failures if c else None for c in counts] == [1, 2, 3]
    assert counts[-1] is not None and counts[-1].disabled
    assert await store.webhook_failed(webhook_id, 3) is None  # turned off: counted no more
    target = await store.webhook(bea, webhook_id)
    assert target is not None and target.disabled
    [listed] = await store.webhooks(bea)
    assert listed.disabled and listed.failures == 3
    assert await store.webhook_failed(new_id(), 3) is None


async def test_one_record_per_device_and_only_the_newest_kept(world: World) -> None:
    store, bea, cid = world.store, await world.player(), await world.player()
    devices = [device(n) for n in range(3)]
    for endpoint_id, sub in devices:
        await store.keep_device(bea, endpoint_id, sub, 2)
        await asyncio.sleep(0.005)

    assert await store.device(bea, devices[0][0]) is None  # the oldest was dropped
    assert await store.device(bea, devices[2][0]) == devices[2][1]
    renewed = PushSubscription(devices[2][1].endpoint, "new-key", "new-auth")
    await store.keep_device(bea, devices[2][0], renewed, 2)  # subscribing again replaces the record
    assert await store.device(bea, devices[2][0]) == renewed
    assert (await store.reach([bea]))[bea].push == tuple(sorted(e for e, _ in devices[1:]))

    assert await store.device(cid, devices[1][0]) is None
    assert not await store.forget_device(cid, devices[1][0])
    assert await store.forget_device(bea, devices[1][0])
    assert not await store.forget_device(bea, devices[1][0])
    await store.drop_device(devices[2][0])
    await store.drop_device(devices[2][0])
    assert (await store.reach([bea]))[bea].push == ()


async def test_the_servers_key_is_made_once(world: World) -> None:
    store, name = world.store, "test-key-" + new_id()
    made: list[str] = []

    def make() -> str:
        made.append(new_id())
        return made[-1]

    kept = await asyncio.gather(*(store.server_key(name, make) for _ in range(4)))

    assert len(set(kept)) == 1 and kept[0] in made
    assert await store.server_key(name, make) == kept[0]
