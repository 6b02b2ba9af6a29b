"""One-click unsubscribe from notification mail (RFC 8058). ``POST /unsubscribe?token=...`` with the form body
``List-Unsubscribe=One-Click`` is what a mail client sends from the ``List-Unsubscribe-Post`` header: it needs no
cookie and no CSRF token (the token in the link is the authority), and turns the player's email off. ``GET`` shows
a page with a button that posts the same, so a link scanner that fetches the link unsubscribes nobody."""

from __future__ import annotations

import html
from typing import Annotated

from litestar import MediaType, Response, get, post
from litestar.params import QueryParameter

from ..deps import NotificationsDep

Token = Annotated[str, QueryParameter(name="token", min_length=1, max_length=100, description="The mail's token.")]

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto">
<h1>{title}</h1>{body}</body></html>"""


def page(title: str, body: str, status: int = 200) -> Response[str]:
    return Response(PAGE.format(title=html.escape(title), body=body), status_code=status,
                    media_type=MediaType.HTML, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


UNKNOWN = "<p>This link is not (or no longer) valid. You can change what you are told in your settings.</p>"


@get("/unsubscribe", summary="A page offering to stop notification mail", include_in_schema=False)
async def unsubscribe_page(token: Token, notifications: NotificationsDep) -> Response[str]:
    if await notifications.unsubscribed_player(token) is None:
        return page("Unknown link", UNKNOWN, 404)
    form = (f'<form method="post" action="/unsubscribe?token={html.escape(token)}">'
            '<input type="hidden" name="List-Unsubscribe" value="One-Click">'
            "<p>Stop the notification mails of Magnate Server?</p>"
            '<button type="submit">Stop the mails</button></form>')
    return page("Stop notification mail", form)


@post("/unsubscribe", status_code=200, summary="One-click unsubscribe (RFC 8058)", include_in_schema=False,
      opt={"exclude_from_csrf": True})
async def unsubscribe_now(token: Token, notifications: NotificationsDep) -> Response[str]:
    """Turns email off for the token's player, whatever the body says (RFC 8058's body is
    ``List-Unsubscribe=One-Click``; a page's button sends the same)."""
    if await notifications.unsubscribe(token) is None:
        return page("Unknown link", UNKNOWN, 404)
    return page("Unsubscribed", "<p>You will get no more notification mail. Turn it back on in your settings any "
                                "time.</p>")
