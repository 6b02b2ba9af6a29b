"""Sign-in mail bombing (issue #24, item 8): links go out at most so many per mailbox (plus-tags stripped, case
folded) and per client, over the real app (on twins) and a real SMTP server (aiosmtpd) that counts what
actually arrives."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import msgspec
import pytest

from bench.receivers import MailInbox, smtp_serving
from infra.accounts import mailbox
from infra.accounts.link_limits import LINKS_PER_CLIENT, LINKS_PER_MAILBOX
from infra.config import Settings
from services.api import create_app
from services.gameplay.bootstrap import Runtime
from services.gameplay.twins import mail_of

from .table import asgi_client


@pytest.fixture
async def mailed(settings: Settings, runtime: Runtime) -> AsyncIterator[tuple[httpx.AsyncClient, MailInbox]]:
    """A production-like app (no sandbox: limits on) sending through a real SMTP server."""
    inbox = MailInbox()
    async with smtp_serving(inbox) as smtp_url:
        production = msgspec.structs.replace(settings, sandbox=False, dev_mailbox=False, smtp_url=smtp_url)
        runtime.accounts.mail = mail_of(production)  # SMTP: the settings' smtp_url
        async with asgi_client(create_app(production, runtime)) as client:
            yield client, inbox


def test_a_mailbox_is_its_address_without_plus_tag_and_case() -> None:
    assert mailbox("Victim+1@Example.ORG") == mailbox("victim+anything@example.org") == "victim@example.org"
    assert mailbox("plain@example.org") == "plain@example.org"
    assert mailbox("+only@example.org") == "+only@example.org"


async def test_plus_tags_do_not_multiply_the_links_one_mailbox_gets(
    mailed: tuple[httpx.AsyncClient, MailInbox]
) -> None:
    client, inbox = mailed
    answers = [(await client.post("/api/auth/link", json={"email": f"Victim+{n}@Example.org"})).status_code
               for n in range(3 * LINKS_PER_MAILBOX)]
    assert answers.count(202) == LINKS_PER_MAILBOX
    assert set(answers[LINKS_PER_MAILBOX:]) == {429}
    assert len(inbox.mails) == LINKS_PER_MAILBOX
    refused = await client.post("/api/auth/link", json={"email": "victim@example.org"})
    assert (refused.status_code, refused.json()["code"]) == (429, "rate/limited")
    assert int(refused.headers["Retry-After"]) > 0


async def test_one_client_cannot_mail_many_mailboxes(mailed: tuple[httpx.AsyncClient, MailInbox]) -> None:
    client, inbox = mailed
    answers = [(await client.post("/api/auth/link", json={"email": f"person{n}@example.org"})).status_code
               for n in range(LINKS_PER_CLIENT + 5)]
    assert answers.count(202) == LINKS_PER_CLIENT and answers[-1] == 429
    assert len(inbox.mails) == LINKS_PER_CLIENT
