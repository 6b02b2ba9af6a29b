"""Delivering notices to people: mail and push only reach a player who is away, a digest lists every game
waiting, a failing webhook is turned off with a notice, a push subscription that is gone is dropped, and every
delivery's fate is recorded."""

from __future__ import annotations

import base64
import json
import os
import uuid

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from bench.receivers import MailInbox, WebhookReceiver
from infra.presence import Presence, seat_key
from services.gameplay.bootstrap import Runtime
from services.notifications.claim import Busy, claim
from services.notifications.context import Notifications
from services.notifications.deliver import deliver

from .conftest import claim as claim_seat
from .conftest import new_game, new_player, on_turn, play_until_turn_of

pytestmark = [pytest.mark.integration,
              pytest.mark.filterwarnings("ignore:Call to deprecated close:DeprecationWarning")]


async def waiting_for(runtime: Runtime, notifications: Notifications, player: str) -> tuple[str, int]:
    """A new game whose seat held by ``player`` has just come on turn, projected; returns (game, seat)."""
    game_id = await new_game(runtime)
    seat = 1 if 1 not in await on_turn(runtime, game_id) else 0
    await claim_seat(runtime, game_id, seat, player)
    await play_until_turn_of(runtime, game_id, seat)
    await notifications.projector.run_once()
    return game_id, seat


async def deliveries(runtime: Runtime, player: str) -> dict[str, tuple[str, str, str]]:
    rows = await runtime.pool.fetch("SELECT delivery_id, channel, status, detail FROM deliveries"
                                    " WHERE player_id = $1", player)
    return {r["delivery_id"]: (r["channel"], r["status"], r["detail"]) for r in rows}


async def deliver_all(runtime: Runtime, notifications: Notifications, player: str) -> None:
    """Deliver every delivery of the player that is due now (as the queued jobs would)."""
    await runtime.pool.execute("UPDATE deliveries SET due_at = now() WHERE player_id = $1 AND status = 'pending'",
                               player)
    for delivery_id in await deliveries(runtime, player):
        await deliver(notifications, delivery_id)


async def add_webhook(runtime: Runtime, player: str, url: str) -> str:
    webhook_id = uuid.uuid4().hex[:16]
    await runtime.pool.execute("INSERT INTO webhooks (webhook_id, player_id, url, shape, secret)"
                               " VALUES ($1, $2, $3, 'json', $4)", webhook_id, player, url,
                               "whsec_" + base64.b64encode(os.urandom(32)).decode())
    return webhook_id


async def test_an_away_player_gets_one_mail_naming_the_game_with_a_link_and_one_click_unsubscribe(
        runtime: Runtime, notifications: Notifications, inbox: tuple[MailInbox, str]) -> None:
    bea = await new_player(runtime, "bea")
    game_id, _ = await waiting_for(runtime, notifications, bea)

    await deliver_all(runtime, notifications, bea)
    await deliver_all(runtime, notifications, bea)  # a job that runs twice sends nothing more

    mails = inbox[0].mails
    assert len(mails) == 1
    mail = mails[0]
    assert mail["Subject"] == "Your turn in Magnate: The First City"
    assert f"http://magnate.test/play/{game_id}" in mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert mail["List-Unsubscribe"].startswith("<http://magnate.test/unsubscribe?token=")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert [v[:2] for v in (await deliveries(runtime, bea)).values()] == [("email", "sent")]


async def test_a_player_at_the_page_gets_no_mail_and_no_push_but_the_webhook_still(
        runtime: Runtime, notifications: Notifications, inbox: tuple[MailInbox, str],
        hooks: WebhookReceiver) -> None:
    bea = await new_player(runtime, "bea")
    await add_webhook(runtime, bea, hooks.url + "/hook")
    game_id = await new_game(runtime)
    seat = 1 if 1 not in await on_turn(runtime, game_id) else 0
    await claim_seat(runtime, game_id, seat, bea)
    await Presence(runtime.redis, 30).here(seat_key(game_id, seat), "tab-1")
    await play_until_turn_of(runtime, game_id, seat)
    await notifications.projector.run_once()

    await deliver_all(runtime, notifications, bea)

    assert inbox[0].mails == []
    outcome = sorted(v for v in (await deliveries(runtime, bea)).values())
    assert outcome == [("email", "skipped", "at the page"), ("webhook", "sent", "")]
    assert len(hooks.by_id) == 1
    headers, body = next(iter(hooks.seen.values()))
    assert headers["webhook-id"].endswith(".webhook." + (await runtime.pool.fetchval(
        "SELECT webhook_id FROM webhooks WHERE player_id = $1", bea)))
    assert json.loads(body)["data"]["text"] == "Your turn in Magnate: The First City"


async def test_a_digest_is_one_mail_per_period_listing_every_game_waiting(
        runtime: Runtime, notifications: Notifications, inbox: tuple[MailInbox, str]) -> None:
    bea = await new_player(runtime, "bea")
    await runtime.pool.execute("INSERT INTO notification_settings (player_id, email_mode, digest_hours)"
                               " VALUES ($1, 'digest', 24)", bea)
    first, _ = await waiting_for(runtime, notifications, bea)
    second, _ = await waiting_for(runtime, notifications, bea)

    planned = await deliveries(runtime, bea)
    assert [v[:2] for v in planned.values()] == [("digest", "pending")]
    assert isinstance(await claim(notifications.store, next(iter(planned))), Busy)  # due at the period's end, not now
    await deliver_all(runtime, notifications, bea)

    assert len(inbox[0].mails) == 1
    text = inbox[0].mails[0].get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert f"/play/{first}" in text and f"/play/{second}" in text
    assert inbox[0].mails[0]["Subject"] == "Your turn in 2 games: Magnate: The First City"


async def test_a_webhook_failing_repeatedly_is_turned_off_and_its_player_told(
        runtime: Runtime, notifications: Notifications, hooks: WebhookReceiver,
        inbox: tuple[MailInbox, str]) -> None:
    bea = await new_player(runtime, "bea")
    await runtime.pool.execute("INSERT INTO notification_settings (player_id, email_mode) VALUES ($1, 'each')", bea)
    webhook_id = await add_webhook(runtime, bea, hooks.url + "/status/500")
    await waiting_for(runtime, notifications, bea)
    hook_delivery = next(d for d, v in (await deliveries(runtime, bea)).items() if v[0] == "webhook")

    for _ in range(3):  # webhook_failures_max is 3 here
        await runtime.pool.execute("UPDATE deliveries SET due_at = now() WHERE delivery_id = $1", hook_delivery)
        await deliver(notifications, hook_delivery)

    row = await runtime.pool.fetchrow("SELECT failures, disabled_at FROM webhooks WHERE webhook_id = $1", webhook_id)
    assert row is not None and row["failures"] == 3 and row["disabled_at"] is not None
    state = (await deliveries(runtime, bea))[hook_delivery]
    assert state[1] == "failed" and "turned off" in state[2]
    told = await runtime.pool.fetch("SELECT kind, text FROM notices WHERE player_id = $1"
                                    " AND kind = 'channel_disabled'", bea)
    assert [t["text"] for t in told] == [
        "Your webhook to 127.0.0.1 failed 3 times in a row and was turned off; "
        "add it again in your notification settings once it works"]
    await deliver_all(runtime, notifications, bea)
    subjects = [m["Subject"] for m in inbox[0].mails]
    assert any(s.startswith("Your webhook to 127.0.0.1 failed 3 times") for s in subjects)


def subscription_keys() -> tuple[str, str]:
    key = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return (base64.urlsafe_b64encode(key).rstrip(b"=").decode(),
            base64.urlsafe_b64encode(os.urandom(16)).rstrip(b"=").decode())


async def test_a_push_subscription_the_push_service_says_is_gone_is_dropped(
        runtime: Runtime, notifications: Notifications, hooks: WebhookReceiver) -> None:
    bea = await new_player(runtime, "bea")
    await runtime.pool.execute("INSERT INTO notification_settings (player_id, email_mode) VALUES ($1, 'off')", bea)
    p256dh, auth = subscription_keys()
    await runtime.pool.execute("INSERT INTO push_subscriptions (endpoint_id, player_id, endpoint, p256dh, auth)"
                               " VALUES ('gone-device', $1, $2, $3, $4)", bea, hooks.url + "/status/410", p256dh,
                               auth)
    await waiting_for(runtime, notifications, bea)

    await deliver_all(runtime, notifications, bea)

    assert await runtime.pool.fetchval("SELECT count(*) FROM push_subscriptions WHERE player_id = $1", bea) == 0
    [(channel, status, detail)] = (await deliveries(runtime, bea)).values()
    assert (channel, status) == ("push", "failed") and "gone" in detail


async def test_a_delivery_whose_worker_died_mid_send_is_sent_by_the_next_run_of_its_job(
        runtime: Runtime, notifications: Notifications, inbox: tuple[MailInbox, str]) -> None:
    from services.notifications.claim import Claimed

    bea = await new_player(runtime, "bea")
    await waiting_for(runtime, notifications, bea)
    [delivery_id] = await deliveries(runtime, bea)
    first = await claim(notifications.store, delivery_id)
    assert isinstance(first, Claimed) and first.attempts == 1  # ... and then its worker was killed

    assert await deliver(notifications, delivery_id) is None  # the job's next run (after the job's lease)

    assert (await deliveries(runtime, bea))[delivery_id][1] == "sent"
    assert await runtime.pool.fetchval("SELECT attempts FROM deliveries WHERE delivery_id = $1", delivery_id) == 2
    assert len(inbox[0].mails) == 1
