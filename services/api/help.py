"""Each game's "How to play", in our own words: ``help/en.toml`` inside the game's package (beside its ``data/``),
read and filled in with the numbers of the game's catalog, so no number is copied into prose where it might drift.

The file holds only words (the one source issue #27's gettext catalogs extract: every string value is a message):

* ``title``, ``summary`` and ``phase_field`` (the view's field that names where the game is: ``phase``, ``step``);
* ``[[sections]]``: ``heading``, ``paragraphs``, ``items`` (a list) and an optional ``table`` drawn from a list of
  the catalog (``rows`` names it, ``columns`` are ``[field, heading]`` pairs);
* ``[phases]``: a sentence per value of the phase field (what the phase is for);
* ``[commands]``: a sentence per player command tag (what the move does);
* ``[tutorial]``: ``active`` (the view facts that make a game a tutorial) and ``[[tutorial.steps]]``, each a
  ``when`` (facts of the view, and of the game's bundle, that must all hold) and a ``text`` (what to do and why);
* ``[[editions]]``: sections shown only to readers of one ``language`` (``heading``, ``paragraphs``): where that
  language's printed rulebook states a rule differently, which reading the service plays.

Every text is English, and is the message id of the game's catalog: the help is read in the reader's language
(:func:`help_of`), each text looked up in the catalog before its ``{path}`` placeholders are filled (the
translation keeps them); so is an edition's text (translated in its language's catalog only).

A text names a catalog number as ``{path}``: dotted keys into the catalog as the API serves it, where a list is
entered by an element's ``key`` or ``code`` (``{buildings.house.cost}``); ``{path|score}`` writes it as the game
writes scores (Magnate's money). An unknown path is a :class:`HelpError` when the file is read (a test reads every
game's), never during play.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Callable
from importlib import resources
from typing import Any

import msgspec
from babel.numbers import format_decimal

from domain.kernel import GameModule
from domain.kernel.phrases import Phrase
from services.language.catalogs import babel_locale

HELP_FILE = ("help", "en.toml")
"""Where a game's help is, inside its package."""
PLACEHOLDER = re.compile(r"\{([a-z0-9_.]+)(?:\|(score))?\}")

Fact = str | int | bool


class HelpError(Exception):
    """A game's help file is malformed or names a number its catalog does not have."""


class TableSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    rows: str
    columns: tuple[tuple[str, str], ...]


class SectionSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    heading: str
    paragraphs: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    table: TableSpec | None = None


class StepSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    when: dict[str, Fact]
    text: str


class TutorialSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    active: dict[str, Fact]
    steps: tuple[StepSpec, ...]


class EditionSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A section for the readers of one language only (what their edition's rulebook says otherwise)."""

    language: str
    heading: str
    paragraphs: tuple[str, ...] = ()


class HelpSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The shape of ``help/en.toml``."""

    title: str
    summary: str
    phase_field: str
    sections: tuple[SectionSpec, ...]
    phases: dict[str, str]
    commands: dict[str, str]
    tutorial: TutorialSpec | None = None
    editions: tuple[EditionSpec, ...] = ()


class HelpTable(msgspec.Struct, frozen=True):
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


class HelpSection(msgspec.Struct, frozen=True):
    heading: str
    paragraphs: tuple[str, ...]
    items: tuple[str, ...]
    table: HelpTable | None


class TutorialStep(msgspec.Struct, frozen=True):
    when: dict[str, Fact]
    """Facts that must all hold (fields of the seat's view, or what the game's bundle adds to them)."""
    text: str


class Tutorial(msgspec.Struct, frozen=True):
    active: dict[str, Fact]
    """The view facts of a game that is a tutorial."""
    steps: tuple[TutorialStep, ...]
    """In the order of the game: the page shows the first whose facts hold."""


class HelpOut(msgspec.Struct, frozen=True):
    """A game's "How to play", with its catalog's numbers filled in."""

    game: str
    title: str
    summary: str
    phase_field: str
    """The field of the game's view that names where the game is (the key of ``phases``)."""
    sections: tuple[HelpSection, ...]
    phases: dict[str, str]
    """What each phase is for, in a sentence, by the value of the view's ``phase_field``."""
    commands: dict[str, str]
    """What each kind of move does, in a sentence, by command tag."""
    tutorial: Tutorial | None


def package_of(game: GameModule[Any]) -> str:
    """The package that holds ``game`` (where its state type is defined): its help is there."""
    module = sys.modules[game.state_type.__module__]
    return module.__package__ or module.__name__.rpartition(".")[0]


def read_spec(package: str) -> HelpSpec | None:
    """The help file of ``package`` as written, or None when it has none."""
    try:
        text = resources.files(package).joinpath(*HELP_FILE).read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, ModuleNotFoundError):
        return None
    try:
        return msgspec.convert(tomllib.loads(text), HelpSpec)
    except (tomllib.TOMLDecodeError, msgspec.ValidationError) as exc:
        raise HelpError(f"{package}/{'/'.join(HELP_FILE)}: {exc}") from exc


def _entry(node: Any, name: str) -> Any:
    if isinstance(node, dict):
        return node[name]
    if isinstance(node, list | tuple):
        for item in node:
            if isinstance(item, dict) and name in (item.get("key"), item.get("code")):
                return item
        if name.isdigit():
            return node[int(name)]
    raise KeyError(name)


def lookup(catalog: Any, path: str) -> Any:
    """The catalog's value at a dotted ``path`` (a list entered by an element's key or code)."""
    node = catalog
    for name in path.split("."):
        try:
            node = _entry(node, name)
        except (KeyError, IndexError) as exc:
            raise HelpError(f"no {path!r} in the catalog") from exc
    return node


def cell(value: Any) -> str:
    """A catalog value as a table cell: lists and mappings in words, nothing as a dash."""
    if isinstance(value, dict):
        return ", ".join(f"{v} {k}" for k, v in value.items()) or "—"
    if isinstance(value, list | tuple):
        return ", ".join(cell(v) for v in value) or "—"
    if value is None:
        return "—"
    return str(value)


def _same(text: str) -> str:
    return text


class Filler:
    """Fills a game's texts, in the reader's language (``translate``), with its catalog's numbers."""

    def __init__(self, game: GameModule[Any], translate: Callable[[str], str] = _same,
                 speak: Callable[[Phrase], str] | None = None, language: str = "en") -> None:
        self.catalog = msgspec.to_builtins(game.catalog(None)) if game.catalog is not None else {}
        self.score_text = game.score_text
        self.score_phrase = game.score_phrase
        self.speak = speak
        self.locale = babel_locale(language)
        self.translate = translate
        self.names = _names(self.catalog)

    def score(self, value: int) -> str:
        """A score written the game's way in the reader's language (Magnate's money: ``1 200 тыс. $``)."""
        if self.score_phrase is not None and self.speak is not None:
            return self.speak(self.score_phrase(value))
        return format_decimal(value, locale=self.locale) if self.score_phrase is None else self.score_text(value)

    def number(self, value: Any) -> str:
        """A catalog value in words, a whole number grouped the reader's way (``1,200`` · ``1 200`` · ``1.200``)."""
        if isinstance(value, int) and not isinstance(value, bool):
            return format_decimal(value, locale=self.locale)
        return cell(value)

    def text(self, template: str) -> str:
        def one(match: re.Match[str]) -> str:
            value = lookup(self.catalog, match.group(1))
            if match.group(2) == "score":
                return self.score(int(value))
            return self.number(value)

        translated = self.translate(template)
        if set(PLACEHOLDER.findall(translated)) != set(PLACEHOLDER.findall(template)):
            translated = template  # a translation that lost or invented a number is not trusted
        return PLACEHOLDER.sub(one, translated)

    def table(self, spec: TableSpec) -> HelpTable:
        rows = lookup(self.catalog, spec.rows)
        if not isinstance(rows, list | tuple) or not all(isinstance(r, dict) for r in rows):
            raise HelpError(f"the catalog's {spec.rows!r} is not a list of rows")
        for field, _ in spec.columns:
            if any(field not in r for r in rows):
                raise HelpError(f"the catalog's {spec.rows!r} has no column {field!r}")
        return HelpTable(tuple(self.text(heading) for _, heading in spec.columns),
                         tuple(tuple(self.cell(r[field]) for field, _ in spec.columns) for r in rows))

    def cell(self, value: Any) -> str:
        """A table cell; a name from the game's data in the reader's language (its data files' names are in the
        game's catalog), a data key (``materials``) as the name of what it stands for (Construction materials),
        a mapping of keys to counts as "1 Coal, 2 Steel"."""
        if isinstance(value, dict):
            return ", ".join(f"{self.number(count)} {self.word(key)}" for key, count in value.items()) or "—"
        if isinstance(value, list | tuple):
            return ", ".join(self.cell(item) for item in value) or "—"
        return self.word(value) if isinstance(value, str) and value else self.number(value)

    def word(self, value: str) -> str:
        return self.translate(self.names.get(value, value))


def _names(catalog: Any) -> dict[str, str]:
    """The name of every keyed row of a catalog (``{"materials": "Construction materials"}``)."""
    names: dict[str, str] = {}
    if isinstance(catalog, dict):
        for rows in catalog.values():
            if isinstance(rows, list | tuple):
                for row in rows:
                    if isinstance(row, dict) and isinstance(row.get("key"), str) and isinstance(row.get("name"), str):
                        names.setdefault(row["key"], row["name"])
    return names


def render(game: GameModule[Any], spec: HelpSpec, translate: Callable[[str], str] = _same,
           language: str = "en", speak: Callable[[Phrase], str] | None = None) -> HelpOut:
    """``spec`` in ``language`` (each text through ``translate``) with the numbers of ``game``'s current
    catalog; the editions' sections of ``language`` after the others."""
    fill = Filler(game, translate, speak, language)
    sections = tuple(HelpSection(fill.text(s.heading), tuple(fill.text(p) for p in s.paragraphs),
                                 tuple(fill.text(i) for i in s.items),
                                 fill.table(s.table) if s.table is not None else None)
                     for s in spec.sections)
    sections += tuple(HelpSection(fill.text(e.heading), tuple(fill.text(p) for p in e.paragraphs), (), None)
                      for e in spec.editions if e.language == language)
    tutorial = None
    if spec.tutorial is not None:
        tutorial = Tutorial(dict(spec.tutorial.active),
                            tuple(TutorialStep(dict(s.when), fill.text(s.text)) for s in spec.tutorial.steps))
    return HelpOut(game.name, fill.text(spec.title), fill.text(spec.summary), spec.phase_field, sections,
                   {k: fill.text(v) for k, v in spec.phases.items()},
                   {k: fill.text(v) for k, v in spec.commands.items()}, tutorial)


_specs: dict[str, HelpSpec | None] = {}
_rendered: dict[tuple[str, str, str], HelpOut | None] = {}


def help_of(game: GameModule[Any], translate: Callable[[str], str] = _same, language: str = "en",
            speak: Callable[[Phrase], str] | None = None) -> HelpOut | None:
    """``game``'s help in ``language`` (its texts through ``translate``: the game's catalog in that language),
    filled in (once per game and language), or None when its package has no help file."""
    package = package_of(game)
    key = (game.name, package, language)
    if key not in _rendered:
        if package not in _specs:
            _specs[package] = read_spec(package)
        spec = _specs[package]
        _rendered[key] = render(game, spec, translate, language, speak) if spec is not None else None
    return _rendered[key]
