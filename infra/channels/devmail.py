"""The development mailbox: with no ``SMTP_URL`` and ``MAGNATE_DEV_MAILBOX`` on (``make run`` turns it on), mail is
kept in the ``dev_mail`` table instead of sent (:class:`DevMailbox`), and shown at ``/dev/mail`` (a small page) and
``/api/dev/mail`` (JSON) by the API (``services/api/controllers/devmail.py``), so a newcomer can sign in with nothing
installed.

Whoever reads it can sign in as anyone (the sign-in links are in it), so it exists only when asked for: without the
switch the routes do not exist (404) and :func:`~infra.channels.mail.mail_sender` never makes a mailbox.

:class:`InMemoryDevMailbox` is its twin (a runtime of twins), held to one contract suite
(tests/integration/channels/test_devmail_store.py)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from email.message import EmailMessage

import asyncpg
import msgspec

from infra.channels.mail import Mail, build_message

LIMIT_MAX = 500


class DevMail(msgspec.Struct, frozen=True):
    """One kept mail: its bodies and the headers the real message would have carried."""

    mail_id: int
    message_id: str
    recipient: str
    subject: str
    text_body: str
    html_body: str
    headers: dict[str, str]
    created_at: datetime


class DevMailList(msgspec.Struct, frozen=True):
    mails: list[DevMail]


def _headers(message: EmailMessage) -> dict[str, str]:
    return {name: str(value) for name, value in message.items()}


class DevMailbox:
    """A :class:`~infra.channels.mail.MailSender` that keeps each mail in the database, once per
    ``message_id`` (a retried delivery adds nothing)."""

    def __init__(self, pool: asyncpg.Pool, sender: str) -> None:
        self._pool = pool
        self._sender = sender

    async def send(self, mail: Mail) -> None:
        message = build_message(mail, self._sender)
        headers = _headers(message)
        await self._pool.execute(
            "INSERT INTO dev_mail (message_id, recipient, subject, text_body, html_body, headers)"
            " VALUES ($1, $2, $3, $4, $5, $6::jsonb) ON CONFLICT (message_id) DO NOTHING",
            mail.message_id, mail.to, str(message["Subject"]), mail.text, mail.html,
            msgspec.json.encode(headers).decode(),
        )

    async def recent(self, limit: int = 50) -> list[DevMail]:
        """The latest mails, newest first."""
        rows = await self._pool.fetch(
            "SELECT mail_id, message_id, recipient, subject, text_body, html_body, headers::text AS headers,"
            " created_at FROM dev_mail ORDER BY mail_id DESC LIMIT $1",
            max(1, min(limit, LIMIT_MAX)),
        )
        return [
            DevMail(mail_id=row["mail_id"], message_id=row["message_id"], recipient=row["recipient"],
                    subject=row["subject"], text_body=row["text_body"], html_body=row["html_body"],
                    headers=msgspec.json.decode(row["headers"], type=dict[str, str]), created_at=row["created_at"])
            for row in rows
        ]


class InMemoryDevMailbox(DevMailbox):
    """The development mailbox within one process: the same mails, ids and order as :class:`DevMailbox`, kept in a
    list (a :class:`DevMailbox`, so the API serves it as it serves the real one)."""

    def __init__(self, sender: str) -> None:  # no pool: nothing of the parent's storage is used
        self._sender = sender
        self._mails: list[DevMail] = []
        self._ids = itertools.count(1)

    async def send(self, mail: Mail) -> None:
        if any(kept.message_id == mail.message_id for kept in self._mails):
            return
        message = build_message(mail, self._sender)
        self._mails.append(DevMail(mail_id=next(self._ids), message_id=mail.message_id, recipient=mail.to,
                                   subject=str(message["Subject"]), text_body=mail.text, html_body=mail.html,
                                   headers=_headers(message), created_at=datetime.now(UTC)))

    async def recent(self, limit: int = 50) -> list[DevMail]:
        return self._mails[::-1][:max(1, min(limit, LIMIT_MAX))]
