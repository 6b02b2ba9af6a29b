"""Mail through a real SMTP server (aiosmtpd on loopback): the message as received, the server's refusals as
permanent or transient failures, TLS from the start and STARTTLS with a login; and the development mailbox in
a real database, with its page and JSON."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage

import asyncpg
import httpx
import pytest
from litestar import Litestar
from litestar.di import Provide

from bench.receivers import http_serving
from infra.channels import DeliveryFailed, DevMailbox, Mail, SmtpSender, mail_sender
from infra.channels.mail import NoMail
from infra.config import Settings
from services.api.controllers.devmail import devmail_router
from tests.integration.channels.conftest import (
    PASSWORD,
    USER,
    Certificate,
    Inbox,
    Logins,
    SmtpServer,
    closed_port,
)

pytestmark = pytest.mark.integration

SENDER = "Magnate Server <magnate@games.example>"
MAIL = Mail(
    message_id="dlv-42.7",
    to="ada@example.com",
    subject="Your turn in Harbour City",
    text="It is your turn in Harbour City: https://games.example/play/g1\n",
    html='<p>It is your turn in <a href="https://games.example/play/g1">Harbour City</a></p>\n',
    unsubscribe_url="https://games.example/unsubscribe?token=u1",
)


def parsed(raw: bytes | str | None) -> EmailMessage:
    assert isinstance(raw, bytes)
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


async def test_a_mail_arrives_as_text_and_html_with_its_headers(smtp_server: SmtpServer) -> None:
    inbox = Inbox()
    port = await smtp_server(inbox)
    await SmtpSender(f"smtp://127.0.0.1:{port}", SENDER).send(MAIL)
    [envelope] = inbox.received
    assert envelope.mail_from == "magnate@games.example" and envelope.rcpt_tos == ["ada@example.com"]
    message = parsed(envelope.content)
    assert message["From"] == SENDER and message["To"] == "ada@example.com"
    assert message["Subject"] == "Your turn in Harbour City"
    assert message["Message-ID"] == "<dlv-42.7@games.example>"
    assert message["Date"] is not None and message["Auto-Submitted"] == "auto-generated"
    assert message["List-Unsubscribe"] == "<https://games.example/unsubscribe?token=u1>"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.get_content_type() == "multipart/alternative"
    text, html = message.iter_parts()
    assert text.get_content_type() == "text/plain" and text.get_content().replace("\r\n", "\n") == MAIL.text
    assert html.get_content_type() == "text/html" and html.get_content().replace("\r\n", "\n") == MAIL.html


async def test_a_retry_is_the_same_mail_and_a_sign_in_mail_has_no_unsubscribe(smtp_server: SmtpServer) -> None:
    inbox = Inbox()
    port = await smtp_server(inbox)
    sender = SmtpSender(f"smtp://127.0.0.1:{port}", SENDER)
    sign_in = Mail(message_id="sign-in/7 x", to="bob@example.org", subject="Sign in\r\nBcc: eve@example.com",
                   text="Sign in: https://games.example/signin#token=t", html="<p>Sign in</p>")
    await sender.send(sign_in)
    await sender.send(sign_in)
    first, second = (parsed(e.content) for e in inbox.received)
    assert first["Message-ID"] == second["Message-ID"]
    assert first["Message-ID"].startswith("<h.") and first["Message-ID"].endswith("@games.example>")
    assert first["List-Unsubscribe"] is None and first["List-Unsubscribe-Post"] is None
    assert first["Subject"] == "Sign in Bcc: eve@example.com" and first["Bcc"] is None  # no header injection
    assert [e.rcpt_tos for e in inbox.received] == [["bob@example.org"], ["bob@example.org"]]


@pytest.mark.parametrize(("inbox", "permanent"), [
    (Inbox(rcpt_reply="550 5.1.1 No such mailbox"), True),
    (Inbox(data_reply="554 5.7.1 Message rejected as spam"), True),
    (Inbox(rcpt_reply="450 4.2.1 Mailbox busy, try later"), False),
    (Inbox(data_reply="451 4.3.0 Local error"), False),
], ids=["rcpt-550", "data-554", "rcpt-450", "data-451"])
async def test_a_refusal_is_permanent_for_5xx_and_transient_for_4xx(smtp_server: SmtpServer, inbox: Inbox,
                                                                     permanent: bool) -> None:
    port = await smtp_server(inbox)
    with pytest.raises(DeliveryFailed) as failed:
        await SmtpSender(f"smtp://127.0.0.1:{port}", SENDER).send(MAIL)
    assert failed.value.permanent is permanent and not failed.value.expired
    assert failed.value.reason


async def test_a_server_that_is_not_there_is_a_transient_failure() -> None:
    with pytest.raises(DeliveryFailed) as failed:
        await SmtpSender(f"smtp://127.0.0.1:{closed_port()}", SENDER, timeout_s=5).send(MAIL)
    assert not failed.value.permanent and "unreachable" in failed.value.reason


async def test_tls_from_the_start_with_a_login(smtp_server: SmtpServer, certificate: Certificate) -> None:
    inbox, logins = Inbox(), Logins()
    # aiosmtpd counts only STARTTLS as TLS for AUTH; this connection is TLS throughout
    port = await smtp_server(inbox, ssl=certificate.server, authenticator=logins, auth_require_tls=False)
    url = f"smtps://{USER}:s3cret%3A%2F%40@127.0.0.1:{port}"
    assert PASSWORD == "s3cret:/@"
    await SmtpSender(url, SENDER, tls_context=certificate.client).send(MAIL)
    assert logins.attempts == [(USER, True)]
    assert len(inbox.received) == 1 and parsed(inbox.received[0].content)["Subject"] == MAIL.subject


async def test_starttls_required_with_a_login(smtp_server: SmtpServer, certificate: Certificate) -> None:
    inbox, logins = Inbox(), Logins()
    port = await smtp_server(inbox, tls_context=certificate.server, require_starttls=True,
                             authenticator=logins, auth_required=True)
    url = f"smtp://{USER}:s3cret%3A%2F%40@127.0.0.1:{port}?starttls=1"
    await SmtpSender(url, SENDER, tls_context=certificate.client).send(MAIL)
    assert len(inbox.received) == 1
    with pytest.raises(DeliveryFailed) as failed:  # our own credentials are wrong: kept for after the fix
        await SmtpSender(f"smtp://{USER}:wrong@127.0.0.1:{port}?starttls=1", SENDER,
                         tls_context=certificate.client).send(MAIL)
    assert not failed.value.permanent and "authentication" in failed.value.reason
    with pytest.raises(DeliveryFailed) as untrusted:  # the system's trust store does not know this certificate
        await SmtpSender(url, SENDER).send(MAIL)
    assert not untrusted.value.permanent
    assert len(inbox.received) == 1
    assert logins.attempts[0] == (USER, True) and {ok for _, ok in logins.attempts[1:]} == {False}


def test_smtp_urls_are_checked_when_the_sender_is_made() -> None:
    for url in ("http://mail.example.com", "smtp://", "smtps://mail.example.com?starttls=1"):
        with pytest.raises(ValueError, match="SMTP_URL"):
            SmtpSender(url, SENDER)


# --- the development mailbox -------------------------------------------------------------------------------------


async def test_the_mailbox_keeps_a_mail_once_per_message_id(channels_pool: asyncpg.Pool) -> None:
    box = DevMailbox(channels_pool, SENDER)
    await channels_pool.execute("TRUNCATE dev_mail")
    await box.send(MAIL)
    await box.send(MAIL)
    other = Mail(message_id="dlv-43", to="bob@example.org", subject="Outbid", text="You were outbid.",
                 html="<p>You were outbid.</p>")
    await box.send(other)
    assert await channels_pool.fetchval("SELECT count(*) FROM dev_mail") == 2
    newest, oldest = await box.recent()
    assert (newest.message_id, oldest.message_id) == ("dlv-43", "dlv-42.7")
    assert (oldest.recipient, oldest.subject, oldest.text_body, oldest.html_body) == (
        MAIL.to, MAIL.subject, MAIL.text, MAIL.html)
    assert oldest.headers["Message-ID"] == "<dlv-42.7@games.example>"
    assert oldest.headers["List-Unsubscribe"] == "<https://games.example/unsubscribe?token=u1>"
    assert oldest.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert oldest.headers["From"] == SENDER and "List-Unsubscribe" not in newest.headers
    assert [m.message_id for m in await box.recent(limit=1)] == ["dlv-43"]


async def test_the_mailbox_page_and_json(channels_pool: asyncpg.Pool) -> None:
    box = DevMailbox(channels_pool, SENDER)
    await channels_pool.execute("TRUNCATE dev_mail")
    await box.send(MAIL)
    await box.send(Mail(message_id="dlv-evil", to="eve@example.com", subject="<script>alert(1)</script>",
                        text='Sign in: https://games.example/signin#token=a&b "<b>bold</b>".', html="<p>x</p>"))
    app = Litestar(route_handlers=[devmail_router()],
                   dependencies={"devmail": Provide(lambda: box, sync_to_thread=False)})
    async with http_serving(app) as url, httpx.AsyncClient(base_url=url) as client:
        page = await client.get("/dev/mail")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert "default-src 'none'" in page.headers["content-security-policy"]
        html = page.text
        assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert '<a href="https://games.example/signin#token=a&amp;b">' in html
        assert "&quot;&lt;b&gt;bold&lt;/b&gt;&quot;." in html
        assert '<a href="https://games.example/play/g1">https://games.example/play/g1</a>' in html
        assert html.index("eve@example.com") < html.index("ada@example.com")  # newest first
        listing = await client.get("/api/dev/mail")
        assert listing.status_code == 200
        mails = listing.json()["mails"]
        assert [m["message_id"] for m in mails] == ["dlv-evil", "dlv-42.7"]
        assert mails[1]["headers"]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert set(mails[1]) == {"mail_id", "message_id", "recipient", "subject", "text_body", "html_body",
                                 "headers", "created_at"}


async def test_the_configured_sender(channels_pool: asyncpg.Pool) -> None:
    assert isinstance(mail_sender(Settings(dev_mailbox=True), channels_pool), DevMailbox)
    assert isinstance(mail_sender(Settings(), channels_pool), NoMail), "no mailbox unless asked for"
    assert isinstance(mail_sender(Settings(smtp_url="smtp://mail.example.com:2525"), channels_pool), SmtpSender)
