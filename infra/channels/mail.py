"""Mail: the message a delivery sends (:class:`Mail`), the MIME message it becomes (:func:`build_message`,
stdlib ``email``), and the sender that hands it to an SMTP server (:class:`SmtpSender`, aiosmtplib), or to the
development mailbox when no SMTP server is configured and it is asked for (:func:`mail_sender`)."""

from __future__ import annotations

import email.utils
import hashlib
import re
import ssl
from datetime import UTC, datetime
from email.message import EmailMessage
from typing import TYPE_CHECKING, Protocol
from urllib.parse import parse_qs, unquote, urlsplit

import aiosmtplib
import msgspec

from infra.channels.errors import DeliveryFailed

if TYPE_CHECKING:
    import asyncpg

    from infra.config import Settings

FALLBACK_DOMAIN = "magnate.invalid"
"""The domain of Message-IDs when the sender's address has none."""
TIMEOUT_S = 30.0

_DOT_ATOM = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*")
"""RFC 5322's dot-atom-text: what the left part of a Message-ID may be written as without quoting."""


class Mail(msgspec.Struct, frozen=True):
    """One mail to one person. ``message_id`` is the delivery's stable id: it becomes the Message-ID, so a mail
    sent again after a failure is recognisably the same mail. ``unsubscribe_url``: the one-click unsubscribe
    link (RFC 8058) of a notification; none for a sign-in link."""

    message_id: str
    to: str
    subject: str
    text: str
    html: str
    unsubscribe_url: str | None = None


def build_message(mail: Mail, sender: str) -> EmailMessage:
    """The MIME message: ``multipart/alternative`` of the text and the HTML, with Date, From, To, Subject,
    Message-ID, ``Auto-Submitted: auto-generated`` (RFC 3834: no vacation replies) and, when the mail has an
    unsubscribe link, ``List-Unsubscribe`` and ``List-Unsubscribe-Post`` (RFC 8058 one-click)."""
    message = EmailMessage()
    message["Subject"] = " ".join(mail.subject.split())  # a game's title could carry a line break
    message["From"] = sender
    message["To"] = mail.to
    message["Date"] = email.utils.format_datetime(datetime.now(UTC))
    message["Message-ID"] = message_id_header(mail.message_id, sender)
    message["Auto-Submitted"] = "auto-generated"
    if mail.unsubscribe_url is not None:
        message["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(mail.text)
    message.add_alternative(mail.html, subtype="html")
    return message


def message_id_header(message_id: str, sender: str) -> str:
    """``<message_id@domain>``, the domain being the sender's; an id that cannot be written as the left part
    of a Message-ID is replaced by its SHA-256 (still the same for every attempt of the delivery)."""
    domain = email.utils.parseaddr(sender)[1].rpartition("@")[2] or FALLBACK_DOMAIN
    if not _DOT_ATOM.fullmatch(domain):
        domain = FALLBACK_DOMAIN
    left = message_id if _DOT_ATOM.fullmatch(message_id) else "h." + hashlib.sha256(message_id.encode()).hexdigest()
    return f"<{left}@{domain}>"


class MailSender(Protocol):
    """Where the notifier's mail goes: an SMTP server, or the development mailbox."""

    async def send(self, mail: Mail) -> None:
        """Send one mail, or raise :class:`DeliveryFailed` (``permanent`` when the server refused it for good)."""
        ...


class SmtpSender:
    """Sends mail through one SMTP server, a new connection per mail (aiosmtplib). The URL is
    ``smtp://[user:pass@]host[:port]`` (port 25; STARTTLS when the server offers it), ``smtps://...`` (TLS from
    the start, port 465), with ``?starttls=1`` to require STARTTLS (port 587) or ``?starttls=0`` to never
    use it. User and password are percent-decoded. ``tls_context``: the certificates to trust (default: the
    system's)."""

    def __init__(self, url: str, sender: str, *, timeout_s: float = TIMEOUT_S,
                 tls_context: ssl.SSLContext | None = None) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps"):
            raise ValueError(f"SMTP_URL must be smtp://... or smtps://..., not {parts.scheme or url!r}")
        if not parts.hostname:
            raise ValueError("SMTP_URL names no host")
        query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        starttls = query.get("starttls")
        self._use_tls = parts.scheme == "smtps"
        self._start_tls: bool | None = None if starttls is None else starttls.lower() in ("1", "true", "yes")
        if self._use_tls and self._start_tls:
            raise ValueError("SMTP_URL: smtps:// is TLS from the start; starttls=1 is for smtp://")
        self._host = parts.hostname
        self._port = parts.port or (465 if self._use_tls else 587 if self._start_tls else 25)
        self._username = unquote(parts.username) if parts.username else None
        self._password = unquote(parts.password) if parts.password else None
        self._sender = sender
        self._timeout_s = timeout_s
        self._tls_context = tls_context

    async def send(self, mail: Mail) -> None:
        message = build_message(mail, self._sender)
        try:
            await aiosmtplib.send(
                message,
                hostname=self._host,
                port=self._port,
                username=self._username,
                password=self._password,
                use_tls=self._use_tls,
                start_tls=False if self._use_tls else self._start_tls,
                tls_context=self._tls_context,
                timeout=self._timeout_s,
            )
        except aiosmtplib.SMTPRecipientsRefused as exc:
            codes = [refused.code for refused in exc.recipients]
            detail = "; ".join(f"{r.code} {r.message}" for r in exc.recipients)
            raise DeliveryFailed(f"recipient refused: {detail}", permanent=all(c >= 500 for c in codes)) from exc
        except aiosmtplib.SMTPAuthenticationError as exc:
            # Our own credentials: every mail fails until the operator fixes SMTP_URL, so keep them for later.
            raise DeliveryFailed(f"SMTP authentication failed: {exc.code} {exc.message}", permanent=False) from exc
        except aiosmtplib.SMTPResponseException as exc:
            raise DeliveryFailed(f"SMTP {exc.code} {exc.message}", permanent=exc.code >= 500) from exc
        except (aiosmtplib.SMTPException, OSError) as exc:  # connection, timeout, TLS, an extension not offered
            raise DeliveryFailed(f"SMTP server unreachable: {type(exc).__name__}: {exc}", permanent=False) from exc


class NoMail:
    """The sender of a server with neither ``SMTP_URL`` nor the development mailbox: every mail fails for good
    (a notification by mail is ``failed`` at once; the API refuses sign-in links before it gets here)."""

    async def send(self, mail: Mail) -> None:
        raise DeliveryFailed("no SMTP_URL is set and the development mailbox is off: this server sends no mail",
                             permanent=True)


def sends_mail(settings: Settings) -> bool:
    """Whether mail goes anywhere: to an SMTP server, or to the development mailbox when it is asked for."""
    return bool(settings.smtp_url) or settings.dev_mailbox


def mail_sender(settings: Settings, pool: asyncpg.Pool) -> MailSender:
    """The configured sender: SMTP when ``SMTP_URL`` is set, else the development mailbox (``/dev/mail``) when
    ``MAGNATE_DEV_MAILBOX`` asks for it, else :class:`NoMail`."""
    if settings.smtp_url:
        return SmtpSender(settings.smtp_url, settings.mail_from)
    if not settings.dev_mailbox:
        return NoMail()
    # Imported here: the mailbox builds its messages with this module, which would otherwise import it back.
    from infra.channels.devmail import DevMailbox  # noqa: PLC0415

    return DevMailbox(pool, settings.mail_from)
