"""A :class:`~domain.kernel.phrases.Phrase` in the reader's language, and where the text names each seat.

The key is looked up in the domain's catalog (a plural key by its count, with the language's plural rule);
numbers are written the language's way (``1,200`` · ``1 200`` · ``1.200``, Babel's CLDR data), lists are joined
the language's way ("a, b and c" · "a, b и c" · "a, b und c"), terms are translated, seats are named by the
caller and nested phrases rendered in place. A translation whose placeholders do not match the arguments is not
trusted: the English text is used instead (the completeness check in ``make test`` keeps that from happening).
"""

from __future__ import annotations

from collections.abc import Callable
from string import Formatter

from babel.lists import format_list
from babel.numbers import format_decimal
from babel.support import NullTranslations

from domain.kernel.narration import Named, utf16_length
from domain.kernel.phrases import Arg, Listing, Phrase, SeatRef, Term

from .catalogs import babel_locale
from .pseudo import PSEUDO, pseudo

_FORMATTER = Formatter()


class Renderer:
    """Renders phrases with one language's words (``translations``) and number and list formats."""

    def __init__(self, translations: NullTranslations, language: str, name: Callable[[int], str]) -> None:
        self.translations = translations
        self.locale = babel_locale(language)
        self.pseudo = language == PSEUDO
        """The pseudo-locale: a list's connecting words are transformed too (they are the CLDR's, not a catalog's)."""
        self.name = name
        """How a seat is named (its player's name, or the game's "Player 2")."""

    def text(self, phrase: Phrase) -> str:
        return self.render(phrase)[0]

    def render(self, phrase: Phrase) -> tuple[str, tuple[Named, ...]]:
        """The phrase's text, and where in it each seat is named (UTF-16 code units, left to right)."""
        named: list[Named] = []
        text = self._phrase(phrase, named, 0)
        return text, tuple(named)

    def template(self, phrase: Phrase) -> str:
        """The phrase's key in this language (English when the translation's placeholders do not fit)."""
        if phrase.plural is not None and phrase.count is not None:
            count = phrase.args.get(phrase.count)
            n = count if isinstance(count, int) else 0
            english = phrase.key if n == 1 else phrase.plural
            found = self.translations.ngettext(phrase.key, phrase.plural, n)
        else:
            english = phrase.key
            found = self.translations.gettext(phrase.key)
        return found if _fields(found) <= set(phrase.args) else english

    def _phrase(self, phrase: Phrase, named: list[Named], offset: int) -> str:
        text = ""
        for literal, field, _spec, _conversion in _FORMATTER.parse(self.template(phrase)):
            # a name ending in a full stop ("Red Socks Ltd.") ends the sentence with that stop
            text += literal[1:] if literal.startswith(".") and text.endswith(".") else literal
            if field is None:
                continue
            value = phrase.args.get(field)
            text += "{" + field + "}" if value is None else self._arg(value, named, offset + utf16_length(text))
        return text

    def _arg(self, value: Arg, named: list[Named], offset: int) -> str:
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, int):
            return format_decimal(value, locale=self.locale)
        if isinstance(value, str):
            return value
        if isinstance(value, SeatRef):
            name = self.name(value.seat)
            named.append(Named(value.seat, offset, offset + utf16_length(name)))
            return name
        if isinstance(value, Term):
            if value.ctx is not None:
                return str(self.translations.pgettext(value.ctx, value.key))
            return self.translations.gettext(value.key)
        if isinstance(value, Phrase):
            return self._phrase(value, named, offset)
        return self._listing(value, named, offset)

    def _listing(self, listing: Listing, named: list[Named], offset: int) -> str:
        marks = [f"\x01{index}\x01" for index in range(len(listing.items))]
        if not marks:
            return ""
        joined = format_list(marks, locale=self.locale)
        text = ""
        for index, piece in enumerate(joined.split("\x01")):
            if index % 2 == 0:
                text += pseudo(piece) if self.pseudo and piece.strip(" ,") else piece
            else:
                text += self._arg(listing.items[int(piece)], named, offset + utf16_length(text))
        return text


def _fields(template: str) -> set[str]:
    try:
        return {field for _, field, _, _ in _FORMATTER.parse(template) if field is not None}
    except ValueError:
        return {"\x00malformed"}
