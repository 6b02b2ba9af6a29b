"""Which language a reader gets: the signed-in player's choice, else this browser's switch (the ``magnate_lang``
cookie), else the browser's ``Accept-Language`` (parsed by Werkzeug, matching ``de-AT`` to ``de``), else the
service's default (the first of ``MAGNATE_LANGUAGES``)."""

from __future__ import annotations

from collections.abc import Sequence

from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

COOKIE = "magnate_lang"
"""The cookie the page's language switch sets (a preference, not a credential: read by the pages only)."""


def choose(
    languages: Sequence[str], *, account: str | None = None, cookie: str | None = None, accept: str | None = None
) -> str:
    """The language to speak to a reader, among ``languages`` (the first is the default)."""
    for chosen in (account, cookie):
        if chosen and chosen in languages:
            return chosen
    if accept:
        best = parse_accept_header(accept, LanguageAccept).best_match(languages)
        if best:
            return best
    return languages[0]
