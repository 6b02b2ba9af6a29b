"""Each domain's words per language, loaded from its ``.po`` once per process, and the JSON the pages read.

English needs no catalog: its words are the message ids. The pseudo-locale's catalog is made from the domain's
template (:mod:`.pseudo`). A game's domain falls back to ``server`` (the kernel's phrases); anything missing
falls back to English.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from functools import cache, cached_property

import msgspec
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from services.gameplay.registry import registry

from .domains import Domain, all_domains
from .pseudo import PSEUDO, pseudo

ENGLISH = "en"


def forms_of(value: object) -> tuple[str, ...]:
    """A message's id or string as its forms (one, or several for a plural message)."""
    if isinstance(value, (tuple, list)):
        return tuple(str(item) for item in value)
    return (str(value),) if value else ()


def babel_locale(language: str) -> Locale:
    """The locale whose numbers, lists and plural rules ``language`` uses (the pseudo-locale writes English)."""
    return Locale.parse(ENGLISH if language == PSEUDO else language.replace("-", "_"))


def read_catalog(domain: Domain, language: str) -> Catalog | None:
    """The domain's catalog for ``language`` as written (None for English or a missing file)."""
    if language == ENGLISH:
        return None
    if language == PSEUDO:
        return pseudo_catalog(domain)
    path = domain.po(language)
    if not path.exists():
        return None
    with path.open("rb") as handle:
        return read_po(handle, locale=language.replace("-", "_"), domain=domain.name)


def read_template(domain: Domain) -> Catalog:
    """The domain's template (its ``.pot``; empty when it has none yet)."""
    if not domain.template.exists():
        return Catalog(domain=domain.name)
    with domain.template.open("rb") as handle:
        return read_po(handle, domain=domain.name)


def pseudo_catalog(domain: Domain) -> Catalog:
    """The template with every message bracketed and accented."""
    template = read_template(domain)
    made = Catalog(locale=ENGLISH, domain=domain.name)
    for message in template:
        if not message.id:
            continue
        forms = forms_of(message.id)
        made.add(message.id, tuple(pseudo(form) for form in forms) if len(forms) > 1 else pseudo(forms[0]),
                 context=message.context, locations=message.locations)
    return made


def _translations(catalog: Catalog | None, domain: str) -> NullTranslations:
    if catalog is None:
        return NullTranslations()
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=domain)


class PageCatalog(msgspec.Struct, frozen=True):
    """What a page's module reads (``GET /i18n/<domain>/<lang>.json``): the words by message id (``ctx\\x04id``
    with a context), a plural message's forms in the order of ``plural``, the CLDR categories
    (``Intl.PluralRules``) of its forms."""

    lang: str
    locale: str
    plural: tuple[str, ...]
    messages: dict[str, str | list[str]]


class Catalogs:
    """Every domain's words in every language the service speaks, loaded on first use."""

    def __init__(self, domains: Iterable[Domain], languages: Iterable[str]) -> None:
        self.domains: Mapping[str, Domain] = {domain.name: domain for domain in domains}
        self.languages = tuple(languages)
        self._loaded: dict[tuple[str, str], NullTranslations] = {}
        self._pages: dict[tuple[str, str], bytes] = {}

    @cached_property
    def default(self) -> str:
        return self.languages[0] if self.languages else ENGLISH

    def speaks(self, language: str) -> bool:
        return language in self.languages

    def translations(self, domain: str, language: str) -> NullTranslations:
        """``domain``'s words in ``language``, falling back to its fallback domain's, then to English."""
        key = (domain, language)
        found = self._loaded.get(key)
        if found is None:
            spec = self.domains[domain]
            found = _translations(read_catalog(spec, language), domain)
            if spec.fallback is not None:
                found.add_fallback(self.translations(spec.fallback, language))
            self._loaded[key] = found
        return found

    def page(self, domain: str, language: str) -> bytes:
        """The JSON of ``domain``'s words in ``language`` that its page modules use (messages found in ``.js``
        or ``.html`` files), compiled once."""
        key = (domain, language)
        if key not in self._pages:
            self._pages[key] = msgspec.json.encode(self._page(self.domains[domain], language))
        return self._pages[key]

    def _page(self, domain: Domain, language: str) -> PageCatalog:
        locale = babel_locale(language)
        translated = read_catalog(domain, language)
        order = plural_categories(language)
        messages: dict[str, str | list[str]] = {}
        for message in translated or ():
            if not message.id or not message.string or message.fuzzy or not _on_page(message.locations):
                continue
            key_id = forms_of(message.id)[0]
            key = f"{message.context}\x04{key_id}" if message.context else key_id
            strings = forms_of(message.string)
            if len(forms_of(message.id)) > 1:
                if all(strings):
                    messages[key] = list(strings)
            else:
                messages[key] = strings[0]
        return PageCatalog(language, str(locale).replace("_", "-"), order, messages)


def _on_page(locations: Iterable[tuple[str, int | None]]) -> bool:
    """A page shows it: a word of a module or a page, or a name from a game's data files."""
    return any(path.endswith((".js", ".html")) or "/data/" in path for path, _ in locations)


def plural_categories(language: str) -> tuple[str, ...]:
    """The CLDR category (``one``, ``few``, ``many``, ``other``) of each of the language's gettext plural forms,
    in the order of its ``Plural-Forms`` (English: ``one``, ``other``; Russian: ``one``, ``few``, ``many``)."""
    locale = babel_locale(language)
    probe = Catalog(locale=locale)
    forms = probe.num_plurals
    one, many = "probe:one", "probe:many"
    probe.add((one, many), tuple(str(index) for index in range(forms)))
    translations = _translations(probe, "probe")
    categories: list[str] = []
    for index in range(forms):
        numbers = (n for n in range(1000) if translations.ngettext(one, many, n) == str(index))
        categories.append(str(locale.plural_form(next(numbers, 0))))
    return tuple(categories)


@cache
def catalogs_for(games: str, languages: tuple[str, ...], pseudo_locale: bool) -> Catalogs:
    """The catalogs of a process serving the registry ``games`` (``MAGNATE_GAMES``) in ``languages`` (and the
    pseudo-locale when asked), built once per process."""
    served = registry(games)
    spoken = (*languages, PSEUDO) if pseudo_locale else languages
    return Catalogs(all_domains(served.games, served.bundles), spoken)
