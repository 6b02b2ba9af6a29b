"""What each channel carries for a notice: the mail (subject naming the game, plain text and HTML, a direct
link to the game and the one-click unsubscribe link), the webhook's message and the push payload (small JSON:
``title``, ``body``, ``url``, ``tag``). A digest's mail is written by :mod:`.digest`. Every word is in the
recipient's language (:class:`.words.Words`); the game's title is a name, the same in every language."""

from __future__ import annotations

import base64
import hashlib
import html
from datetime import datetime

import msgspec

from domain.kernel.phrases import say
from infra.channels.mail import Mail
from infra.channels.webhooks import WebhookMessage

from .words import Words


class NoticeView(msgspec.Struct, frozen=True):
    """A notice as the channels need it."""

    notice_id: str
    game_id: str
    seat: int
    version: int
    kind: str
    text: str
    """In the recipient's language."""
    created_at: datetime
    title: str
    """The game's title ("Magnate: The First City")."""


def game_url(public_url: str, game_id: str) -> str:
    return f"{public_url}/play/{game_id}"


def unsubscribe_url(public_url: str, token: str) -> str:
    return f"{public_url}/unsubscribe?token={token}"


def settings_url(public_url: str) -> str:
    return f"{public_url}/settings"


def notice_mail(delivery_id: str, to: str, notice: NoticeView, public_url: str, unsubscribe: str,
                words: Words) -> Mail:
    link, settings = game_url(public_url, notice.game_id), settings_url(public_url)
    why = words.text(say("You get this mail because you play {game} on Magnate Server and asked to be told by "
                         "email.", game=notice.title))
    open_it = words.text(say("Open the game: {link}", link=link))
    open_game = words.text(say("Open {game}", game=notice.title))
    text = f"{notice.text}.\n\n{open_it}\n\n--\n{why}\n" + footer(words, settings, unsubscribe)
    body = (f'<p>{html.escape(notice.text)}.</p><p><a href="{html.escape(link)}">{html.escape(open_game)}</a></p>'
            f'<hr><p style="color:#666;font-size:small">{html.escape(why)} '
            + html_footer(words, settings, unsubscribe) + "</p>")
    return Mail(message_id=delivery_id, to=to, subject=notice.text, text=text, html=body,
                unsubscribe_url=unsubscribe)


def footer(words: Words, settings: str, unsubscribe: str) -> str:
    """The lines under every notification mail: where to change what one is told, and how to stop the mails."""
    change = words.text(say("Change what you are told: {link}", link=settings))
    stop = words.text(say("Stop these mails: {link}", link=unsubscribe))
    return f"{change}\n{stop}\n"


def html_footer(words: Words, settings: str, unsubscribe: str) -> str:
    change, stop = words.gettext("Change what you are told"), words.gettext("Stop these mails")
    return (f'<a href="{html.escape(settings)}">{html.escape(change)}</a> · '
            f'<a href="{html.escape(unsubscribe)}">{html.escape(stop)}</a>')


def webhook_message(notice: NoticeView, public_url: str) -> WebhookMessage:
    return WebhookMessage(kind=notice.kind, game_id=notice.game_id, game_title=notice.title, text=notice.text,
                          url=game_url(public_url, notice.game_id), version=notice.version,
                          created_at=notice.created_at.isoformat())


def push_payload(delivery_id: str, notice: NoticeView, public_url: str) -> bytes:
    """The payload the page's service worker shows; ``tag`` is the delivery id, so a repeat replaces the
    notification already shown instead of adding one."""
    return msgspec.json.encode({"title": notice.title, "body": notice.text,
                                "url": game_url(public_url, notice.game_id), "tag": delivery_id})


def push_topic(delivery_id: str) -> str:
    """RFC 8030's Topic (at most 32 base64url characters) for a delivery: a push service that still holds an
    undelivered message with the same topic replaces it, so a repeat is not shown twice."""
    return base64.urlsafe_b64encode(hashlib.sha256(delivery_id.encode()).digest()).decode()[:32]
