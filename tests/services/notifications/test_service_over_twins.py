"""The notifications service over its in-memory twins: what the integration tests prove on PostgreSQL and Redis,
here in milliseconds: a claimed seat is told its turn once, a player away gets one mail and one at the page none,
a webhook failing in a row is turned off and its player told, an abandoned delivery is swept up again, and the
settings, inbox and unsubscribe routes' service calls."""

from __future__ import annotations

from datetime import timedelta

import httpx

from infra.notifications import Settings
from infra.presence import seat_key
from services.notifications.deliver import deliver
from services.notifications.preferences import DEFAULT

from .twins import Twins


async def deliver_all(twins: Twins) -> None:
    """Run every queued delivery job once, as the worker would."""
    for delivery_id in list(twins.dispatch.queued):
        twins.dispatch.done(delivery_id)
        await deliver(twins.notifications, delivery_id)


async def test_a_claimed_seat_is_told_its_turn_once_and_mailed_once_while_away() -> None:
    twins = Twins()
    bea = twins.player()
    game_id, seat = await twins.waiting_for(bea)
    assert await twins.notifications.projector.run_once() == []  # projected already: nothing new

    [notice] = await twins.notifications.notices(bea)
    assert (notice.game_id, notice.seat, notice.kind, notice.text) == (game_id, seat, "your_turn",
                                                                       "Your turn in Magnate: The First City")
    assert list(twins.dispatch.queued) == [f"{notice.notice_id}.email"]
    assert (bea, "notice") in twins.dispatch.announced

    await deliver_all(twins)
    await deliver(twins.notifications, f"{notice.notice_id}.email")  # a job that runs twice sends nothing more

    [mail] = twins.mail.sent
    assert mail.subject == "Your turn in Magnate: The First City" and f"/play/{game_id}" in mail.text
    assert mail.unsubscribe_url is not None and mail.unsubscribe_url.startswith("http://magnate.test/unsubscribe?")
    [entry] = await twins.notifications.deliveries(bea)
    assert (entry.channel, entry.status, entry.attempts) == ("email", "sent", 1)


async def test_a_player_at_the_page_gets_no_mail_but_the_webhook_still() -> None:
    twins = Twins()
    bea = twins.player()
    made = await twins.notifications.add_webhook(bea, "http://127.0.0.1:9/hook", "json")
    game_id = await twins.game()
    seat = 1 if 1 not in (await twins.events.head(game_id)).on_turn else 0
    await twins.claim(game_id, seat, bea)
    twins.here.keys.add(seat_key(game_id, seat))
    await twins.play_until_turn_of(game_id, seat)
    await twins.notifications.projector.run_once()

    await deliver_all(twins)

    assert twins.mail.sent == []
    outcome = sorted((e.channel, e.status, e.detail) for e in await twins.notifications.deliveries(bea))
    assert outcome == [("email", "skipped", "at the page"), ("webhook", "sent", "")]
    [posted] = twins.posted
    assert posted.headers["webhook-id"].endswith(".webhook." + made.webhook.webhook_id)


async def test_a_webhook_failing_in_a_row_is_turned_off_and_its_player_told() -> None:
    twins = Twins(answer=lambda _: httpx.Response(500, stream=httpx.ByteStream(b"down")))
    bea = twins.player()
    await twins.notifications.add_webhook(bea, "http://127.0.0.1:9/hook", "json")
    await twins.waiting_for(bea)
    [hook_delivery] = [d for d in twins.dispatch.queued if ".webhook." in d]

    for _ in range(2):  # webhook_failures_max is 2 here
        await deliver(twins.notifications, hook_delivery)
        twins.skew += timedelta(seconds=10)  # past the back-off

    [hook] = await twins.notifications.webhooks_of(bea)
    assert hook.disabled and hook.failures == 2
    told = [n for n in await twins.notifications.notices(bea) if n.kind == "channel_disabled"]
    assert [n.text for n in told] == ["Your webhook to 127.0.0.1 failed 2 times in a row and was turned off; "
                                      "add it again in your notification settings once it works"]
    assert any(d.startswith("channel_disabled.") for d in twins.dispatch.queued)


async def test_an_abandoned_delivery_is_swept_up_again() -> None:
    twins = Twins()
    bea = twins.player()
    await twins.waiting_for(bea)
    [delivery_id] = twins.dispatch.queued
    await twins.store.claim(delivery_id)  # its job's run was sending it when its worker was killed ...
    assert await twins.notifications.sweep() == 0  # ... and the job is still queued (it runs again after its lease)
    twins.dispatch.done(delivery_id)  # ... or the job was lost with a Redis queue
    assert await twins.notifications.sweep() == 1
    assert await twins.notifications.sweep() == 0  # queued already
    await deliver_all(twins)
    [entry] = await twins.notifications.deliveries(bea)
    assert (entry.status, entry.attempts) == ("sent", 2)


async def test_settings_notices_and_one_click_unsubscribe() -> None:
    twins = Twins()
    service, bea = twins.notifications, twins.player()
    assert await service.preferences(bea) == DEFAULT
    await twins.waiting_for(bea)
    await twins.waiting_for(bea)

    listed = await service.notices(bea)
    assert len(listed) == 2 and await service.unread(bea) == 2
    assert await service.mark_read(bea, [listed[0].notice_id, "someone-elses"]) == 1
    token = await service.unsubscribe_token(bea)
    assert await service.unsubscribed_player(token) == bea
    assert await service.unsubscribe(token) == bea
    assert await service.unsubscribe("not-a-token") is None
    assert (await service.preferences(bea)).email_mode == "off"
    assert await twins.store.settings([bea]) == {bea: Settings(email_mode="off")}
    assert (await service.vapid_keys()).application_server_key == (await service.vapid_keys()).application_server_key
