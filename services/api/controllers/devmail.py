"""The development mailbox's pages: ``GET /dev/mail`` (a small page) and ``GET /api/dev/mail`` (JSON), newest first.
Mounted only when mail is kept rather than sent (:func:`services.api.app.dev_mailbox_on`); the mailbox itself is the
adapter :class:`infra.channels.devmail.DevMailbox`."""

from __future__ import annotations

import html
import re
from typing import Any

from babel.support import NullTranslations
from litestar import MediaType, Request, Response, Router, get
from litestar.di import NamedDependency
from litestar.params import SkipValidation

from infra.channels.devmail import DevMail, DevMailbox, DevMailList

from ..language import server_words

DevMailboxDep = NamedDependency[SkipValidation[DevMailbox]]

PAGE_HEADERS = {
    "Content-Security-Policy": ("default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; "
                                "form-action 'none'; frame-ancestors 'none'"),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
"""The page runs no script and loads nothing; sign-in links are shown, so it is never cached."""

_URL = re.compile(r"https?://[^\s<>\"']+")
_TRAILING = ".,;:!?)]}"


def linkify(text: str) -> str:
    """Plain text as HTML, every character escaped, each http(s) URL in it a link."""
    out: list[str] = []
    last = 0
    for match in _URL.finditer(text):
        url = match.group().rstrip(_TRAILING)
        out.append(html.escape(text[last:match.start()]))
        out.append(f'<a href="{html.escape(url)}">{html.escape(url)}</a>')
        last = match.start() + len(url)
    out.append(html.escape(text[last:]))
    return "".join(out)


def render_page(mails: list[DevMail], words: NullTranslations | None = None, language: str = "en") -> str:
    """The mailbox page: newest first, each mail's subject, recipient, time and text body (links clickable), its
    own words in ``language`` (``words``: the server domain's translations)."""
    words = words or NullTranslations()
    to = html.escape(words.gettext("To {recipient}"))
    empty = html.escape(words.gettext("No mail yet."))
    items = "\n".join(
        f"<article><h2>{html.escape(mail.subject)}</h2>"
        f"<p class=meta>{to.replace('{recipient}', f'<b>{html.escape(mail.recipient)}</b>')} · "
        f"<time datetime=\"{html.escape(mail.created_at.isoformat())}\">"
        f"{html.escape(mail.created_at.strftime('%Y-%m-%d %H:%M:%S %Z'))}</time></p>"
        f"<pre>{linkify(mail.text_body)}</pre></article>"
        for mail in mails
    ) or f"<p>{empty}</p>"
    title = html.escape(words.gettext("Development mailbox"))
    why = html.escape(words.gettext("No {smtp} is set and the development mailbox is on ({flag}), so the server keeps "
                                    "its mail here instead of sending it. Newest first."))
    why = why.replace("{smtp}", "<code>SMTP_URL</code>").replace("{flag}", "<code>MAGNATE_DEV_MAILBOX</code>")
    return f"""<!doctype html>
<html lang="{html.escape(language)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Magnate Server</title>
<style>
body {{ font: 16px/1.4 system-ui, sans-serif; max-width: 50rem; margin: 2rem auto; padding: 0 1rem; }}
article {{ border: 1px solid #ccc; border-radius: .4rem; padding: .2rem 1rem; margin: 1rem 0; }}
h2 {{ font-size: 1.1rem; }} .meta {{ color: #555; }}
pre {{ white-space: pre-wrap; overflow-wrap: anywhere; font: inherit; }}
</style></head><body>
<h1>{title}</h1>
<p>{why}</p>
{items}
</body></html>
"""


@get("/dev/mail", include_in_schema=False)
async def devmail_page(request: Request[Any, Any, Any], devmail: DevMailboxDep) -> Response[str]:
    """The development mailbox as a page, in the reader's language (the page's switch, else the browser's)."""
    words, language = server_words(request)
    page = render_page(await devmail.recent(), words, language)
    return Response(page, media_type=MediaType.HTML, headers=PAGE_HEADERS)


@get("/api/dev/mail", include_in_schema=False)
async def devmail_list(devmail: DevMailboxDep) -> DevMailList:
    """The development mailbox as JSON, newest first."""
    return DevMailList(mails=await devmail.recent())


def devmail_router() -> Router:
    """``GET /dev/mail`` and ``GET /api/dev/mail``; the app provides the ``devmail`` dependency and mounts this
    router only when mail is kept rather than sent."""
    return Router(path="/", route_handlers=[devmail_page, devmail_list], tags=["dev"])
