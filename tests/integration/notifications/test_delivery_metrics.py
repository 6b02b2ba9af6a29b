"""What the deliveries tell an operator: each attempt counted by channel and outcome
(``magnate_notification_deliveries_total``) and logged as one JSON line naming the notice's game and version."""

from __future__ import annotations

import io
import json
import logging

import pytest
from prometheus_client import REGISTRY

from bench.receivers import MailInbox, WebhookReceiver
from infra import logs
from infra.presence import Presence, seat_key
from services.gameplay.bootstrap import Runtime
from services.notifications.context import Notifications

from .conftest import claim as claim_seat
from .conftest import new_game, new_player, on_turn, play_until_turn_of
from .test_delivery import add_webhook, deliver_all

pytestmark = [pytest.mark.integration,
              pytest.mark.filterwarnings("ignore:Call to deprecated close:DeprecationWarning")]


def counted(channel: str, outcome: str) -> float:
    return REGISTRY.get_sample_value("magnate_notification_deliveries_total",
                                     {"channel": channel, "outcome": outcome}) or 0.0


async def test_each_delivery_is_counted_by_channel_and_outcome_and_logged_with_its_game(
        runtime: Runtime, notifications: Notifications, inbox: tuple[MailInbox, str],
        hooks: WebhookReceiver) -> None:
    bea = await new_player(runtime, "bea")
    await add_webhook(runtime, bea, hooks.url + "/hook")
    game_id = await new_game(runtime)
    seat = 1 if 1 not in await on_turn(runtime, game_id) else 0
    await claim_seat(runtime, game_id, seat, bea)
    await Presence(runtime.redis, 30).here(seat_key(game_id, seat), "tab-1")  # at the page: no mail
    await play_until_turn_of(runtime, game_id, seat)
    await notifications.projector.run_once()
    skipped, sent = counted("email", "skipped"), counted("webhook", "sent")

    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logs.formatter(logs.JSON))
    logger = logging.getLogger("magnate.notify")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        await deliver_all(runtime, notifications, bea)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)

    assert (counted("email", "skipped"), counted("webhook", "sent")) == (skipped + 1, sent + 1)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    told = {(line["event"], line["channel"]): line for line in lines}
    assert set(told) == {("notification skipped", "email"), ("notification sent", "webhook")}
    head = await runtime.gameplay.store.head(game_id)
    assert all(line["game_id"] == game_id and 0 < line["version"] <= head.version and line["seat"] == seat
               for line in lines)
