"""One-click unsubscribe from notification mail (RFC 8058). ``POST /unsubscribe?token=...`` with the form body
``List-Unsubscribe=One-Click`` is what a mail client sends from the ``List-Unsubscribe-Post`` header: it needs no
cookie and no CSRF token (the token in the link is the authority), and turns the player's email off. ``GET`` shows
a page with a button that posts the same, so a link scanner that fetches the link unsubscribes nobody. Both pages
speak the reader's language."""

from __future__ import annotations

import html
from typing import Annotated

from babel.support import NullTranslations
from litestar import MediaType, Response, get, post
from litestar.params import QueryParameter

from ..deps import NotificationsDep
from ..language import SERVER, CatalogsDep, LanguageDep

Token = Annotated[str, QueryParameter(name="token", min_length=1, max_length=100, description="The mail's token.")]

PAGE = """<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto">
<h1>{title}</h1>{body}</body></html>"""


def page(language: str, title: str, body: str, status: int = 200) -> Response[str]:
    """A small page in ``language`` (``title`` is escaped here; ``body`` is HTML made of escaped words)."""
    headers = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "Content-Language": language,
               "Vary": "Cookie, Accept-Language"}
    return Response(PAGE.format(lang=html.escape(language), title=html.escape(title), body=body), status_code=status,
                    media_type=MediaType.HTML, headers=headers)


def unknown(words: NullTranslations, language: str) -> Response[str]:
    text = words.gettext("This link is not (or no longer) valid. You can change what you are told in your settings.")
    return page(language, words.gettext("Unknown link"), f"<p>{html.escape(text)}</p>", 404)


@get("/unsubscribe", summary="A page offering to stop notification mail", include_in_schema=False)
async def unsubscribe_page(token: Token, notifications: NotificationsDep, catalogs: CatalogsDep,
                           language: LanguageDep) -> Response[str]:
    """In the reader's language (the page's switch, else the browser's)."""
    words = catalogs.translations(SERVER, language)
    if await notifications.unsubscribed_player(token) is None:
        return unknown(words, language)
    question = words.gettext("Stop the notification mails of Magnate Server?")
    button = words.gettext("Stop the mails")
    form = (f'<form method="post" action="/unsubscribe?token={html.escape(token)}">'
            '<input type="hidden" name="List-Unsubscribe" value="One-Click">'
            f"<p>{html.escape(question)}</p>"
            f'<button type="submit">{html.escape(button)}</button></form>')
    return page(language, words.gettext("Stop notification mail"), form)


@post("/unsubscribe", status_code=200, summary="One-click unsubscribe (RFC 8058)", include_in_schema=False,
      opt={"exclude_from_csrf": True})
async def unsubscribe_now(token: Token, notifications: NotificationsDep, catalogs: CatalogsDep,
                          language: LanguageDep) -> Response[str]:
    """Turns email off for the token's player, whatever the body says (RFC 8058's body is
    ``List-Unsubscribe=One-Click``; a page's button sends the same)."""
    words = catalogs.translations(SERVER, language)
    if await notifications.unsubscribe(token) is None:
        return unknown(words, language)
    done = words.gettext("You will get no more notification mail. Turn it back on in your settings any time.")
    return page(language, words.gettext("Unsubscribed"), f"<p>{html.escape(done)}</p>")
