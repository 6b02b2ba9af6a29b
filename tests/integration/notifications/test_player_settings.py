"""What a player changes about their notifications, on the real database: settings within what may be chosen,
the notice list and its unread count, at most five safe webhooks, one push record per device, the delivery log,
and one-click unsubscribe from a mail's token."""

from __future__ import annotations

import pytest

from infra.channels.errors import UnsafeAddress
from infra.channels.push import PushSubscription
from services.gameplay.bootstrap import Runtime
from services.notifications import account, devices, hooks, inbox, log, unsubscribe
from services.notifications.account import InvalidSetting
from services.notifications.context import Notifications
from services.notifications.preferences import DEFAULT

from .conftest import new_player
from .test_delivery import deliver_all, subscription_keys, waiting_for

pytestmark = [pytest.mark.integration,
              pytest.mark.filterwarnings("ignore:Call to deprecated close:DeprecationWarning")]


async def test_settings_default_until_changed_and_refuse_what_cannot_be_chosen(runtime: Runtime) -> None:
    bea = await new_player(runtime)
    assert await account.read(runtime.notifications.store, bea) == DEFAULT

    chosen = account.checked("digest", 24, False, True, ["your_turn", "game_over"], ["g2", "g1", "g1"])
    await account.change(runtime.notifications.store, bea, chosen)

    assert await account.read(runtime.notifications.store, bea) == chosen
    assert chosen.muted_games == ("g1", "g2")
    for bad, field in ((("weekly", 12, True, True, [], []), "email_mode"), (("each", 5, True, True, [], []),
                       "digest_hours"), (("each", 12, True, True, ["gossip"], []), "kinds")):
        with pytest.raises(InvalidSetting) as refused:
            account.checked(*bad)  # type: ignore[arg-type]
        assert refused.value.field == field


async def test_the_notice_list_counts_unread_and_marks_read(runtime: Runtime, notifications: Notifications) -> None:
    bea = await new_player(runtime)
    await waiting_for(runtime, notifications, bea)
    await waiting_for(runtime, notifications, bea)

    listed = await inbox.listed(runtime.notifications.store, bea)
    assert len(listed) == 2 and await inbox.unread(runtime.notifications.store, bea) == 2
    assert await inbox.mark_read(runtime.notifications.store, bea, [listed[0].notice_id, "someone-elses"]) == 1
    assert await inbox.mark_read(runtime.notifications.store, bea, []) == 0
    assert all(n.read for n in await inbox.listed(runtime.notifications.store, bea))


async def test_webhooks_are_checked_limited_to_five_and_removed_by_their_owner_only(runtime: Runtime) -> None:
    bea, cid = await new_player(runtime), await new_player(runtime)
    for bad in ("ftp://example.com/hook", "http://127.0.0.1/hook", "http://10.0.0.8/hook", "http://[::1]/x"):
        with pytest.raises(UnsafeAddress):
            await hooks.add(runtime.notifications.store, bea, bad, "json", allow_private=False)
    made = [await hooks.add(runtime.notifications.store, bea, f"http://127.0.0.1:9/{i}", "slack", allow_private=True)
            for i in range(hooks.WEBHOOKS_MAX)]
    assert all(m.secret.startswith("whsec_") for m in made)
    with pytest.raises(hooks.TooManyWebhooks):
        await hooks.add(runtime.notifications.store, bea, "http://127.0.0.1:9/6", "json", allow_private=True)

    assert not await hooks.remove(runtime.notifications.store, cid, made[0].webhook.webhook_id)
    assert await hooks.remove(runtime.notifications.store, bea, made[0].webhook.webhook_id)
    assert len(await hooks.listed(runtime.notifications.store, bea)) == hooks.WEBHOOKS_MAX - 1


async def test_a_device_subscribing_again_replaces_its_record(runtime: Runtime) -> None:
    bea = await new_player(runtime)
    p256dh, auth = subscription_keys()
    # a public address as written: a name must resolve, to public addresses only, and tests have no resolver
    endpoint = "https://8.8.8.8/send/abc"
    store = runtime.notifications.store
    first = await devices.subscribe(store, bea, PushSubscription(endpoint, p256dh, auth), allow_private=False)
    p256dh, auth = subscription_keys()
    again = await devices.subscribe(store, bea, PushSubscription(endpoint, p256dh, auth), allow_private=False)

    assert first == again
    assert await runtime.pool.fetchval("SELECT count(*) FROM push_subscriptions WHERE player_id = $1", bea) == 1
    with pytest.raises(ValueError):
        await devices.subscribe(runtime.notifications.store, bea, PushSubscription(endpoint, "bm90LWEta2V5", auth),
                                allow_private=False)
    assert await devices.unsubscribe(runtime.notifications.store, bea, endpoint)
    assert not await devices.unsubscribe(runtime.notifications.store, bea, endpoint)


async def test_the_delivery_log_and_the_mails_unsubscribe_token(runtime: Runtime, notifications: Notifications) -> None:
    bea = await new_player(runtime)
    await waiting_for(runtime, notifications, bea)
    await deliver_all(runtime, notifications, bea)

    [entry] = await log.entries(runtime.notifications.store, bea)
    assert (entry.channel, entry.status, entry.attempts) == ("email", "sent", 1)
    assert entry.sent_at is not None and entry.delivery_id.endswith(".your_turn.email")

    token = await notifications.unsubscribe_token(bea)
    assert await unsubscribe.unsubscribe(runtime.notifications.store, "not-a-token") is None
    assert await unsubscribe.unsubscribe(runtime.notifications.store, token) == bea
    assert await unsubscribe.unsubscribe(runtime.notifications.store, token) == bea  # a second click changes nothing
    assert (await account.read(runtime.notifications.store, bea)).email_mode == "off"
    stored = await runtime.pool.fetchval("SELECT unsubscribe_hash FROM notification_settings WHERE player_id = $1",
                                         bea)
    assert stored != token and stored == unsubscribe.token_hash(token)
