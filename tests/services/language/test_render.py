"""Phrases rendered in a language: the catalog's words, the language's plural rule, numbers and lists."""

from __future__ import annotations

import io
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import NullTranslations, Translations

from domain.kernel.phrases import Listing, plain, say, say_n, seat, term
from services.language.render import Renderer


def translations(language: str, messages: dict[Any, Any], context: dict[str, tuple[str, str]] | None = None
                 ) -> Translations:
    catalog = Catalog(locale=language, domain="test")
    for ident, string in messages.items():
        catalog.add(ident, string)
    for ctx, (ident, string) in (context or {}).items():
        catalog.add(ident, string, context=ctx)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain="test")


def named(number: int) -> str:
    return ("Ада", "Борис", "Вера")[number]


def test_russian_plurals_take_the_three_forms_of_the_rulebook() -> None:
    ru = translations("ru", {("{n} tenant", "{n} tenants"): ("{n} арендатор", "{n} арендатора", "{n} арендаторов")})
    speak = Renderer(ru, "ru", named)
    said = {n: speak.text(say_n("{n} tenant", "{n} tenants", "n", n=n)) for n in (1, 2, 5, 11, 21, 22, 1000)}
    assert said == {1: "1 арендатор", 2: "2 арендатора", 5: "5 арендаторов", 11: "11 арендаторов",
                     21: "21 арендатор", 22: "22 арендатора", 1000: "1\xa0000 арендаторов"}


def test_seats_are_named_by_the_caller_and_their_places_counted_as_javascript_counts() -> None:
    de = translations("de", {"{who} bids {amount}K on {plots}": "{who} bietet {amount}K für {plots}"})
    text, seats = Renderer(de, "de", named).render(
        say("{who} bids {amount}K on {plots}", who=seat(1), amount=1200, plots=Listing(("3E", seat(2), "4F"))))
    assert text == "Борис bietet 1.200K für 3E, Вера und 4F"
    assert [(s.seat, text[s.start:s.end]) for s in seats] == [(1, "Борис"), (2, "Вера")]


def test_terms_and_nested_phrases_are_translated_in_place() -> None:
    de = translations("de", {"{building} built on {plot}": "{building} auf {plot} gebaut", "done": "fertig"},
                      {"tenant": ("Home", "Wohnhaus")})
    speak = Renderer(de, "de", named)
    assert speak.text(say("{building} built on {plot}", building=term("Home", "tenant"), plot="3E")) == \
        "Wohnhaus auf 3E gebaut"
    assert speak.text(say("{building} built on {plot}", building=say("done"), plot="3E")) == "fertig auf 3E gebaut"


def test_a_translation_whose_placeholders_do_not_fit_is_not_trusted() -> None:
    broken = translations("de", {"{seat} passes": "{sitz} passt"})
    assert Renderer(broken, "de", named).text(say("{seat} passes", seat=seat(0))) == "Ада passes"


def test_english_needs_no_catalog_and_plain_reads_the_same() -> None:
    phrase = say_n("{n} die", "{n} dice", "n", n=3)
    assert Renderer(NullTranslations(), "en", named).text(phrase) == plain(phrase) == "3 dice"
