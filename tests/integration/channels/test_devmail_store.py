"""The development mailbox's contract, run against the REAL PostgreSQL (:class:`infra.channels.devmail.DevMailbox`)
and the in-memory twin (:class:`~infra.channels.devmail.InMemoryDevMailbox`): a mail is kept once per message id,
with the headers the real message would carry, and listed newest first within the limit. (The PostgreSQL
database is the module's, with other tests' mails: each test looks at its own.)"""

from __future__ import annotations

import uuid

import msgspec
import pytest

from infra.channels import Mail
from infra.channels.devmail import DevMailbox, InMemoryDevMailbox

from .test_mail import MAIL, SENDER

pytestmark = pytest.mark.integration


@pytest.fixture(params=["memory", "postgres"])
def box(request: pytest.FixtureRequest) -> DevMailbox:
    if request.param == "memory":
        return InMemoryDevMailbox(SENDER)
    return DevMailbox(request.getfixturevalue("channels_pool"), SENDER)  # the module's database: others' mails too


async def test_a_mail_is_kept_once_per_message_id_newest_first(box: DevMailbox) -> None:
    first = msgspec.structs.replace(MAIL, message_id=f"dlv-{uuid.uuid4().hex}.7")
    await box.send(first)
    await box.send(first)  # a retried delivery
    other = Mail(message_id=f"dlv-{uuid.uuid4().hex}", to="bob@example.org", subject="Outbid", text="You were outbid.",
                 html="<p>You were outbid.</p>")
    await box.send(other)
    newest, oldest = [m for m in await box.recent() if m.message_id in (first.message_id, other.message_id)]
    assert (newest.message_id, oldest.message_id) == (other.message_id, first.message_id)
    assert newest.mail_id > oldest.mail_id
    assert (oldest.recipient, oldest.subject, oldest.text_body, oldest.html_body) == (
        MAIL.to, MAIL.subject, MAIL.text, MAIL.html)
    assert oldest.headers["Message-ID"] == f"<{first.message_id}@games.example>"
    assert oldest.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert oldest.headers["From"] == SENDER and "List-Unsubscribe" not in newest.headers
    assert oldest.created_at.tzinfo is not None


async def test_the_list_is_bounded(box: DevMailbox) -> None:
    ids = [f"m{n}-{uuid.uuid4().hex}" for n in range(3)]
    for n, message_id in enumerate(ids):
        await box.send(Mail(message_id=message_id, to="ada@example.com", subject=f"#{n}", text="t", html="<p>t</p>"))
    assert [m.message_id for m in await box.recent(limit=2)] == [ids[2], ids[1]]
    assert [m.message_id for m in await box.recent(limit=0)] == [ids[2]]  # at least one
