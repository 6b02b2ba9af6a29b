"""Keeping the catalogs: extract each domain's template from its sources, update every language's ``.po`` from
it, and check that nothing is missing (``make catalogs`` updates; ``make test`` checks).

``python -m services.language.maintain update [domain ...]`` rewrites every ``.pot`` and merges it into each
``.po`` (new messages come in empty, gone ones are dropped); ``check`` reports a stale template and, per language, every
message that is missing, empty, fuzzy or whose placeholders differ from the English.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from string import Formatter

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from infra.config import load
from services.gameplay.registry import registry_of

from .catalogs import ENGLISH, forms_of, read_template
from .domains import COMMENT_TAGS, ROOT, Domain, all_domains, keywords_for

WIDTH = 116
HEADER = """\
# {domain}: the words of Magnate Server in one language ({language}).
# Made by `make catalogs` from the sources (Babel); translate the empty msgstr lines, keep every {{placeholder}}.
#"""


def extract(domain: Domain) -> Catalog:
    """The domain's template, extracted from its sources now."""
    template = _catalog(domain.name, None)
    for source in domain.sources:
        if source.method == "ignore" or not source.root.exists():
            continue
        ignored = [(other.pattern, "ignore") for other in domain.sources
                   if other.method == "ignore" and other.root == source.root]
        found = extract_from_dir(
            str(source.root), [*ignored, (source.pattern, source.method)], {source.pattern: dict(source.options)},
            keywords=dict(keywords_for(source.method)), comment_tags=COMMENT_TAGS, strip_comment_tags=True,
        )
        for filename, line, message, comments, context in found:
            where = _relative(source.root / filename)
            template.add(message, None, [(where, line)], auto_comments=comments, context=context)
    return template


def _catalog(domain: str, language: str | None) -> Catalog:
    return Catalog(locale=language.replace("-", "_") if language else None, domain=domain, project="Magnate Server",
                   version="1", charset="utf-8", fuzzy=False, copyright_holder="Magnate Server",
                   msgid_bugs_address="https://github.com/magnate-server", language_team=language or "",
                   header_comment=HEADER.format(domain=domain, language=language or "template"))


def _relative(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=WIDTH, sort_output=False, ignore_obsolete=True, include_previous=False,
                 omit_header=False)


def _read(path: Path, language: str, domain: str) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=language.replace("-", "_"), domain=domain)


def update(domains: Iterable[Domain], languages: Iterable[str]) -> None:
    """Rewrites each domain's template and merges it into each language's catalog."""
    for domain in domains:
        template = extract(domain)
        _write(template, domain.template)
        for language in languages:
            if language == ENGLISH:
                continue
            path = domain.po(language)
            catalog = _read(path, language, domain.name) if path.exists() else _catalog(domain.name, language)
            catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
            _write(catalog, path)


def _fields(text: str) -> set[str]:
    try:
        return {field for _, field, _, _ in Formatter().parse(text) if field is not None}
    except ValueError:
        return {"(malformed)"}


def _key(message: Message) -> tuple[str, str | None]:
    return forms_of(message.id)[0], message.context


def problems(domains: Iterable[Domain], languages: Iterable[str]) -> Iterator[str]:
    """What is missing or wrong in the catalogs, one line each (nothing when they are complete)."""
    wanted = [language for language in languages if language != ENGLISH]
    for domain in domains:
        fresh = extract(domain)
        ids = {_key(message) for message in fresh if message.id}
        kept = {_key(message) for message in read_template(domain) if message.id}
        if ids != kept:
            yield f"{domain.template}: stale template ({len(ids - kept)} new, {len(kept - ids)} gone): make catalogs"
        for language in wanted:
            path = domain.po(language)
            if not ids:
                continue
            if not path.exists():
                yield f"{_relative(path)}: missing"
                continue
            catalog = _read(path, language, domain.name)
            for message in fresh:
                if not message.id:
                    continue
                yield from _check(path, catalog.get(message.id, context=message.context), message)


def _check(where: Path, found: Message | None, wanted: Message) -> Iterator[str]:
    ident = _key(wanted)[0]
    path = _relative(where)
    if found is None:
        yield f"{path}: missing {ident!r}"
        return
    if found.fuzzy:
        yield f"{path}: fuzzy {ident!r}"
    english = forms_of(wanted.id)
    forms = forms_of(found.string) or ("",)
    allowed: set[str] = set().union(*(_fields(form) for form in english))
    for form in forms:
        if not form:
            yield f"{path}: untranslated {ident!r}"
        elif not _fields(form) <= allowed or (len(english) == 1 and _fields(form) != allowed):
            yield f"{path}: placeholders of {ident!r} differ from the English ({sorted(_fields(form))})"


def domains_of_this_server() -> tuple[Domain, ...]:
    settings = load()
    served = registry_of(settings)
    return all_domains(served.games, served.bundles)


def main(argv: list[str]) -> int:
    settings = load()
    domains = domains_of_this_server()
    if argv[1:]:
        domains = tuple(domain for domain in domains if domain.name in argv[1:])
    if argv[:1] == ["update"]:
        update(domains, settings.languages)
        return 0
    if argv[:1] == ["check"]:
        found = list(problems(domains, settings.languages))
        for line in found:
            print(line)
        print(f"{len(found)} problems in the catalogs of {', '.join(d.name for d in domains)}")
        return 1 if found else 0
    print("usage: python -m services.language.maintain update|check [domain ...]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
