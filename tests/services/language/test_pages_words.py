"""The JSON a page reads: the words of its modules, plural forms in the order Intl.PluralRules names them."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from services.language.catalogs import Catalogs, PageCatalog, plural_categories
from services.language.domains import Domain, Source
from services.language.maintain import problems, update
from services.language.pseudo import PSEUDO, pseudo


def test_each_language_names_its_plural_forms_as_cldr_does() -> None:
    assert plural_categories("en") == ("one", "other")
    assert plural_categories("ru") == ("one", "few", "many")
    assert plural_categories("de") == ("one", "other")


def test_the_pseudo_locale_transforms_words_and_keeps_placeholders_and_markup() -> None:
    made = pseudo("Your turn in {game}: <b>bid</b> &amp; pass")
    assert made.startswith("⟦") and made.endswith("⟧")
    assert "{game}" in made and "<b>" in made and "&amp;" in made
    assert "Your" not in made and "turn" not in made


@pytest.fixture
def domain(tmp_path: Path) -> Domain:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "page.js").write_text(
        'const a = t("Open games");\nconst b = tn("{n} seat", "{n} seats", n, { n });\n', encoding="utf-8")
    (tmp_path / "src" / "rules.py").write_text('X = say("{seat} passes", seat=seat(0))\n', encoding="utf-8")
    return Domain("toy", tmp_path / "locale", (Source(tmp_path / "src", "**.js", "javascript"),
                                                Source(tmp_path / "src", "**.py", "python")))


def test_a_new_message_is_missing_until_translated_and_the_page_gets_only_its_own(domain: Domain) -> None:
    update([domain], ("en", "ru"))
    assert sorted(problems([domain], ("en", "ru"))) == sorted([
        f"{domain.po('ru')}: untranslated '{{n}} seat'",
        f"{domain.po('ru')}: untranslated '{{n}} seat'",
        f"{domain.po('ru')}: untranslated '{{n}} seat'",
        f"{domain.po('ru')}: untranslated '{{seat}} passes'",
        f"{domain.po('ru')}: untranslated 'Open games'",
    ])
    po = domain.po("ru").read_text(encoding="utf-8")
    po = po.replace('msgid "Open games"\nmsgstr ""', 'msgid "Open games"\nmsgstr "Открытые игры"')
    po = po.replace('msgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""',
                    'msgstr[0] "{n} место"\nmsgstr[1] "{n} места"\nmsgstr[2] "{n} мест"')
    po = po.replace('msgid "{seat} passes"\nmsgstr ""', 'msgid "{seat} passes"\nmsgstr "{игрок} пасует"')
    domain.po("ru").write_text(po, encoding="utf-8")
    assert [line.split(": ", 1)[1] for line in problems([domain], ("en", "ru"))] == [
        "placeholders of '{seat} passes' differ from the English (['игрок'])"]
    page = msgspec.json.decode(Catalogs([domain], ("en", "ru")).page("toy", "ru"), type=PageCatalog)
    assert page.plural == ("one", "few", "many")
    assert page.messages == {"Open games": "Открытые игры", "{n} seat": ["{n} место", "{n} места", "{n} мест"]}


def test_a_source_changed_after_the_update_makes_the_template_stale(domain: Domain) -> None:
    update([domain], ("en",))
    assert list(problems([domain], ("en",))) == []
    (Path(domain.sources[0].root) / "more.js").write_text('t("Games to watch");\n', encoding="utf-8")
    assert [line.split(": ", 1)[1] for line in problems([domain], ("en",))] == [
        "stale template (1 new, 0 gone): make catalogs"]


def test_the_pseudo_locale_is_made_from_the_template(domain: Domain) -> None:
    update([domain], ("en",))
    page = msgspec.json.decode(Catalogs([domain], ("en", PSEUDO)).page("toy", PSEUDO), type=PageCatalog)
    assert page.messages["Open games"] == pseudo("Open games")
    assert page.messages["{n} seat"] == [pseudo("{n} seat"), pseudo("{n} seats")]
