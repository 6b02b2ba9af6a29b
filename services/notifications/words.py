"""A notice's words in its reader's language: notices are kept as phrases (:mod:`domain.kernel.phrases`, as JSON),
and rendered when shown (the page's list, in the request's language) and when delivered (mail, push, webhook, in
the recipient's account language, else the service's default).

A game's notice is rendered with the game's catalog (its domain, which falls back to the kernel's and the
server's words); anything else with the server's. Times are written with Babel's CLDR data in the reader's
language: a phrase's integer arguments named in :data:`MOMENTS` are instants (milliseconds since the epoch, UTC).
"""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec
from babel.dates import format_skeleton, format_time
from babel.support import NullTranslations

from domain.kernel.phrases import Arg, Phrase
from services.language.catalogs import ENGLISH, Catalogs
from services.language.render import Renderer

SERVER = "server"

MOMENTS = {
    "clock": "HH:mm:ss",
    "time": "HH:mm",
    "date": "dMMM",
}
"""Instants a phrase may carry (milliseconds since the epoch), by argument name: how each is written (a Babel time
pattern, or a date skeleton the language orders: "24 Nov" · "24 нояб." · "24. Nov.")."""


def encoded(phrase: Phrase) -> str:
    return msgspec.json.encode(phrase).decode()


def decoded(stored: str | None) -> Phrase | None:
    """A stored phrase (None: a notice kept before phrases, or one that no longer decodes: its English text)."""
    if not stored:
        return None
    try:
        return msgspec.json.decode(stored, type=Phrase)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


class Words:
    """One reader's words: a domain's translations in ``language``."""

    def __init__(self, translations: NullTranslations, language: str) -> None:
        self.translations = translations
        self.language = language
        self._renderer = Renderer(translations, language, self._seat)
        self.locale = self._renderer.locale

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def text(self, phrase: Phrase) -> str:
        """The phrase in this language (instants written the language's way)."""
        return self._renderer.text(self._moments(phrase))

    def shown(self, phrase: str | None, english: str) -> str:
        """A stored notice's words: its phrase rendered, or (a notice from before phrases) its English text."""
        found = decoded(phrase)
        return english if found is None else self.text(found)

    def _seat(self, seat: int) -> str:
        return self.translations.gettext("Player {number}").replace("{number}", str(seat + 1))

    def _moments(self, phrase: Phrase) -> Phrase:
        args: dict[str, Arg] = {}
        for name, value in phrase.args.items():
            if isinstance(value, Phrase):
                args[name] = self._moments(value)
            elif name in MOMENTS and isinstance(value, int) and not isinstance(value, bool):
                args[name] = self._moment(MOMENTS[name], value)
            else:
                args[name] = value
        return msgspec.structs.replace(phrase, args=args)

    def _moment(self, form: str, millis: int) -> str:
        when = datetime.fromtimestamp(millis / 1000, UTC)
        if "H" in form:
            return format_time(when, form, tzinfo=UTC, locale=self.locale)
        return format_skeleton(form, when, tzinfo=UTC, locale=self.locale)


ENGLISH_WORDS = Words(NullTranslations(), ENGLISH)


def english(phrase: Phrase) -> str:
    """The phrase in English (the text a notice also keeps, for logs and for readers from before phrases)."""
    return ENGLISH_WORDS.text(phrase)


def words_for(catalogs: Catalogs, language: str | None, game_type: str = "") -> Words:
    """The words of ``game_type``'s notices (the server's for none, or a game this process does not serve) in
    ``language`` (the service's default for None or one it does not speak)."""
    spoken = language if language is not None and catalogs.speaks(language) else catalogs.default
    domain = game_type if game_type in catalogs.domains and game_type != SERVER else SERVER
    return Words(catalogs.translations(domain, spoken), spoken)
