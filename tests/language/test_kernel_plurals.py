"""The kernel's plural phrases through its real catalogs: Russian takes the rulebook's three forms (1 день, 2 дня,
5 дней, 11 дней, 21 день, 22 дня), German two; the page's JSON orders the forms by the same categories the page's
Intl.PluralRules gives, so a page picks the form the server would."""

from __future__ import annotations

import msgspec
import pytest
from babel import Locale

from domain.games import GAMES
from domain.kernel.table import TimeControl
from domain.kernel.table.narrate import control_phrase, duration
from services.language.catalogs import Catalogs, forms_of, read_catalog
from services.language.domains import all_domains
from services.language.render import Renderer

CATALOGS = Catalogs(all_domains(GAMES, {}), ("en", "ru", "de"))
COUNTS = (1, 2, 5, 11, 21, 22)


def speak(language: str) -> Renderer:
    return Renderer(CATALOGS.translations("kernel", language), language, lambda seat: f"#{seat}")


def test_russian_days_hours_and_minutes_take_three_forms_by_the_count() -> None:
    ru = speak("ru")
    assert [ru.text(duration(n * 86_400)) for n in COUNTS] == [
        "1 день", "2 дня", "5 дней", "11 дней", "21 день", "22 дня"]
    assert [ru.text(duration(n * 3_600)) for n in COUNTS] == [
        "1 час", "2 часа", "5 часов", "11 часов", "21 час", "22 часа"]
    assert [ru.text(duration(n * 60)) for n in COUNTS] == [
        "1 минута", "2 минуты", "5 минут", "11 минут", "21 минута", "22 минуты"]
    assert ru.text(duration(1_000 * 86_400)) == "1\xa0000 дней"  # grouped the Russian way


def test_german_takes_two_forms_and_a_whole_clock_reads_in_one_sentence() -> None:
    de = speak("de")
    assert [de.text(duration(n)) for n in (1, 2, 21)] == ["1 Sekunde", "2 Sekunden", "21 Sekunden"]
    bank = control_phrase(TimeControl("bank", 3 * 86_400, increment=3_600, cap=5 * 86_400))
    assert de.text(bank) == "Zeitkonto 3 Tage, plus 1 Stunde pro Zug, höchstens 5 Tage"
    assert speak("ru").text(bank) == "запас 3 дня, плюс 1 час за ход, не больше 5 дней"
    assert speak("en").text(bank) == "a bank of 3 days, plus 1 hour per move, at most 5 days"


@pytest.mark.parametrize("language", ["ru", "de"])
def test_the_pages_plural_categories_pick_the_form_the_server_renders(language: str) -> None:
    page = msgspec.json.decode(CATALOGS.page("kernel", language))
    locale = Locale.parse(language)
    catalog = read_catalog(CATALOGS.domains["kernel"], language)
    assert catalog is not None
    message = catalog.get("{count} day")
    assert message is not None
    forms = forms_of(message.string)
    assert len(forms) == len(page["plural"]) == {"ru": 3, "de": 2}[language]
    for count in COUNTS:
        category = locale.plural_form(count)  # what Intl.PluralRules says in the page
        by_page = forms[page["plural"].index(category)].replace("{count}", str(count))
        assert by_page == speak(language).text(duration(count * 86_400))
