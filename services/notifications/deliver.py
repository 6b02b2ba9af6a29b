"""Delivering one delivery: claim its row, send it on its channel, record what became of it.

* **email** and **push** reach only a player who is away (:mod:`infra.presence`: no live page for the notice's
  seat or for the player's "My games"); otherwise the delivery is ``skipped`` with ``at the page``;
* a **digest** lists every game waiting for the player when it is sent, and is skipped if none does;
* a **webhook** is always sent; its failures are counted on the webhook (:mod:`.webhook_health`);
* a push subscription the push service says is gone (404/410) is deleted.

Each message is in the recipient's language (their account's choice, else the service's default): the notice's
phrase is rendered with its game's words (:mod:`.words`).

A transient failure puts the delivery back to ``pending`` with a back-off (:func:`.claim.later`), and
:func:`deliver` returns how long its job should wait before running again (the worker raises arq's ``Retry``
with it, so the delivery keeps one job, whose id is the delivery's). A permanent failure is ``failed`` at once.

What the outside world sees is at-least-once: the receiver may accept a message and the worker be killed before
its ``sent`` is written; the job's lease then expires and the delivery is sent again, with the same id (Message-ID,
``webhook-id``, push Topic and tag) for the receiver to drop (docs/PLAYERS.md, "Delivery guarantees").

Each attempt counts in ``magnate_notification_deliveries_total{channel, outcome}`` (sent, skipped, retried,
failed) and writes one log line with the notice's game and version (:func:`deliver`).
"""

from __future__ import annotations

from structlog.contextvars import bind_contextvars

from infra import metrics
from infra.channels.errors import DeliveryFailed
from infra.logs import get_logger
from infra.presence import player_key, seat_key

from . import preferences, webhook_health
from .claim import MAX_ATTEMPTS, Busy, Claimed, claim, finish, later
from .digest import digest_mail, waiting_games
from .outbox import DIGEST, EMAIL, PUSH, WEBHOOK
from .render import NoticeView, notice_mail, push_payload, push_topic, unsubscribe_url, webhook_message
from .service import Notifications
from .words import Words, words_for

log = get_logger("magnate.notify")

SENT = "sent"
SKIPPED = "skipped"
RETRIED = "retried"
FAILED = "failed"


def N_(detail: str) -> str:
    """A delivery log's detail in English, marked for the catalogs (the log's reader sees it in their language)."""
    return detail


AT_THE_PAGE = N_("at the page")


class Skip(Exception):
    """The delivery is not to be sent (the player is at the page, turned the channel off, ...)."""


async def deliver(n: Notifications, delivery_id: str) -> float | None:
    """Deliver ``delivery_id`` if it is due and nobody else holds it. Returns None when there is nothing more
    to do, or the seconds after which its job should look again (not due yet: a back-off)."""
    got = await claim(n.store, delivery_id)
    if isinstance(got, Busy):
        return None if got.wait_s is None else got.wait_s + 0.1
    if got.attempts > MAX_ATTEMPTS:  # attempts that never finished (a worker killed each time)
        reason = f"gave up after {got.attempts - 1} attempts"
        await finish(n.store, delivery_id, FAILED, reason)
        _counted(got, FAILED, reason)
        return None
    try:
        detail = await _send(n, got)
    except Skip as skip:
        await finish(n.store, delivery_id, SKIPPED, str(skip))
        _counted(got, SKIPPED, str(skip))
        return None
    except DeliveryFailed as failure:
        wait = await _failed(n, got, failure)
        _counted(got, FAILED if wait is None else RETRIED, failure.reason)
        return wait
    await finish(n.store, delivery_id, SENT, detail)
    _counted(got, SENT, detail)
    return None


def _counted(got: Claimed, outcome: str, detail: str) -> None:
    """One attempt's outcome, counted by channel and logged (with the notice's game, bound by :func:`_notice`)."""
    metrics.DELIVERIES.labels(got.channel, outcome).inc()
    if outcome == FAILED:
        log.warning("notification " + outcome, channel=got.channel, attempt=got.attempts, detail=detail)
    else:
        log.info("notification " + outcome, channel=got.channel, attempt=got.attempts, detail=detail)


async def _send(n: Notifications, got: Claimed) -> str:
    if got.channel == DIGEST:
        return await _digest(n, got)
    notice, words = await _notice(n, got)
    if got.channel == EMAIL:
        return await _email(n, got, notice, words)
    if got.channel == WEBHOOK:
        return await _webhook(n, got, notice)
    if got.channel == PUSH:
        return await _push(n, got, notice)
    raise Skip(f"unknown channel {got.channel!r}")


async def _notice(n: Notifications, got: Claimed) -> tuple[NoticeView, Words]:
    """The notice of ``got`` in its recipient's language, and the words it is told in."""
    about = None if got.notice_id is None else await n.store.notice(got.notice_id)
    if about is None:
        raise Skip(N_("the notice is gone"))
    game = n.games.get(about.game_type)
    title = (game.title or game.name) if game is not None else about.game_type
    bind_contextvars(game_id=about.game_id, version=about.version, seat=about.seat)
    words = words_for(n.catalogs, await n.store.language_of(got.player_id), about.game_type)
    return NoticeView(about.notice_id, about.game_id, about.seat, about.version, about.kind,
                      words.shown(about.phrase, about.text), about.created_at, title=title), words


async def _away(n: Notifications, got: Claimed, notice: NoticeView | None) -> None:
    keys = [player_key(got.player_id)]
    if notice is not None:
        keys.append(seat_key(notice.game_id, notice.seat))
    if await n.presence.present(*keys):
        raise Skip(AT_THE_PAGE)


async def _email(n: Notifications, got: Claimed, notice: NoticeView, words: Words) -> str:
    prefs = await preferences.load(n.store, got.player_id)
    if prefs.email_mode == "off":
        raise Skip(N_("email is off"))
    await _away(n, got, notice)
    leave = unsubscribe_url(n.public_url, await n.unsubscribe_token(got.player_id))
    await n.mail.send(notice_mail(got.delivery_id, got.target, notice, n.public_url, leave, words))
    return ""


async def _digest(n: Notifications, got: Claimed) -> str:
    prefs = await preferences.load(n.store, got.player_id)
    if prefs.email_mode != "digest":
        raise Skip(N_("the digest is off"))
    await _away(n, got, None)
    waiting = await waiting_games(n.store, got.player_id, n.games)
    if not waiting:
        raise Skip(N_("no game waits for you"))
    leave = unsubscribe_url(n.public_url, await n.unsubscribe_token(got.player_id))
    words = words_for(n.catalogs, await n.store.language_of(got.player_id))
    await n.mail.send(digest_mail(got.delivery_id, got.target, waiting, n.public_url, leave, words))
    await n.store.digest_sent(got.player_id)
    return f"{len(waiting)} game(s)"


async def _webhook(n: Notifications, got: Claimed, notice: NoticeView) -> str:
    hook = await n.store.webhook(got.player_id, got.target)
    if hook is None:
        raise Skip(N_("the webhook was removed"))
    if hook.disabled:
        raise Skip(N_("the webhook is turned off"))
    await n.webhooks.send(hook.url, hook.secret, hook.shape, got.delivery_id, webhook_message(notice, n.public_url))
    await webhook_health.succeeded(n.store, got.target)
    return ""


async def _push(n: Notifications, got: Claimed, notice: NoticeView) -> str:
    sub = await n.store.device(got.player_id, got.target)
    if sub is None:
        raise Skip(N_("the device's subscription was removed"))
    await _away(n, got, notice)
    sender = await n.push()
    await sender.send(sub, push_payload(got.delivery_id, notice, n.public_url), topic=push_topic(got.delivery_id))
    return ""


async def _failed(n: Notifications, got: Claimed, failure: DeliveryFailed) -> float | None:
    reason = failure.reason
    if got.channel == WEBHOOK:
        off, told = await webhook_health.failed(n.store, got, n.settings.webhook_failures_max)
        if told:
            await n.dispatch.enqueue(told)
        if off:
            await n.dispatch.announce([got.player_id])
            await finish(n.store, got.delivery_id, "failed", f"{reason}; the webhook is turned off")
            return None
    if failure.expired and got.channel == PUSH:
        await n.store.drop_device(got.target)
        await finish(n.store, got.delivery_id, "failed", f"{reason}; the subscription is gone and was removed")
        return None
    if failure.permanent:
        await finish(n.store, got.delivery_id, "failed", reason)
        return None
    return await later(n.store, got.delivery_id, got.attempts, reason, failure.retry_after_s)
