"""The rules help in the reader's language: each text of a game's help file is looked up in the game's catalog
before its ``{path}`` numbers are filled (a translation that drops a number is not trusted), and an edition's
section (``[[editions]]``) is shown only to the readers of its language."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import msgspec
from babel.support import NullTranslations

from domain.games import GAMES
from services.api.help import HelpOut, HelpSpec, lookup, render

SPEC = msgspec.convert(tomllib.loads((Path(__file__).parent / "fixtures" / "help.toml").read_text()), HelpSpec)
DECKTET = GAMES["decktet"]
assert DECKTET.catalog is not None
HAND = str(lookup(msgspec.to_builtins(DECKTET.catalog(None)), "modes.base.hand"))

GERMAN = {
    "Build districts with {modes.base.hand} cards in hand.": "Baue Viertel mit {modes.base.hand} Karten auf der Hand.",
    "Your turn": "Dein Zug",
    "Play up to {modes.base.plays} cards, then draw {modes.base.draw}.": "Spiele Karten, dann ziehe.",  # lost numbers
    "Crowns pay each round.": "Kronen zahlen jede Runde.",
    "Play your cards.": "Spiele deine Karten.",
    "Play a card.": "Spiele eine Karte.",
    "The German rulebook": "Die deutsche Spielregel",
    "The German rulebook deals {modes.base.hand} cards; the service plays the English reading.":
        "Die deutsche Regel teilt {modes.base.hand} Karten aus; der Dienst spielt die englische Lesart.",
}


class Words(NullTranslations):
    def __init__(self, words: dict[str, str]) -> None:
        super().__init__()
        self.words = words

    def gettext(self, message: str) -> str:
        return self.words.get(message, message)


def headings(out: HelpOut) -> list[str]:
    return [section.heading for section in out.sections]


def test_each_text_is_read_in_the_readers_language_then_filled_with_the_catalogs_numbers() -> None:
    german = render(DECKTET, SPEC, Words(GERMAN).gettext, "de")
    assert german.summary == f"Baue Viertel mit {HAND} Karten auf der Hand."
    assert german.sections[0].items == ("Kronen zahlen jede Runde.",)
    assert german.phases == {"play": "Spiele deine Karten."}
    assert german.commands == {"decktet.play": "Spiele eine Karte."}
    assert german.title == "Decktet Magnate"  # the game's title stays as it is
    # a translation that lost the numbers is not trusted: the English, with the numbers, is shown instead
    assert german.sections[0].paragraphs[0].startswith("Play up to ")
    assert not re.search(r"\{[a-z0-9_.|]+\}", msgspec.json.encode(german).decode())


def test_an_editions_section_is_shown_to_the_readers_of_its_language_only() -> None:
    german = render(DECKTET, SPEC, Words(GERMAN).gettext, "de")
    assert headings(german) == ["Dein Zug", "Die deutsche Spielregel"]
    assert german.sections[-1].paragraphs == (
        f"Die deutsche Regel teilt {HAND} Karten aus; der Dienst spielt die englische Lesart.",)
    assert headings(render(DECKTET, SPEC, language="ru")) == ["Your turn", "The Russian rulebook"]
    assert headings(render(DECKTET, SPEC)) == ["Your turn"]  # English readers: the rulebook the service plays


def test_magnates_money_in_its_rules_is_written_as_each_edition_prints_it() -> None:
    from services.api.help import help_of
    from services.language.catalogs import catalogs_for
    from services.language.render import Renderer

    catalogs = catalogs_for("domain.games:GAMES", ("en", "ru", "de"), False)
    said = {}
    for language in ("en", "ru", "de"):
        words = catalogs.translations("magnate", language)
        found = help_of(GAMES["magnate"], words.gettext, language, Renderer(words, language, str).text)
        assert found is not None
        said[language] = found.sections[0].paragraphs[1]
    assert "2,000K" in said["en"]
    assert "2\xa0000 тыс. $" in said["ru"] and "2,000K" not in said["ru"]
    assert "2.000K $" in said["de"] and "2,000K" not in said["de"]
