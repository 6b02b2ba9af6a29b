"""The gettext domains: which sources feed each catalog and where its ``.po`` files live.

A domain's files are ``<dir>/locale/<domain>.pot`` (the template, extracted from the sources) and
``<dir>/locale/<lang>/LC_MESSAGES/<domain>.po`` (one per language but English, whose words are the message ids).

- ``server``: what the services say (mails, notices, pushes, webhooks, error texts).
- ``kernel``: the phrases every game shares (the table's story: seats claimed, options; "Player 2"; the seed's
  reveal), from ``domain/kernel``; it falls back to ``server``.
- ``shell``: the page shell (``services/api/web/static/shell``) and the HTML pages.
- one per game, named as the registry names the game: its package (narration, AI reasons, advice, errors), its
  data files' names, its rules help and its page bundle. A game's domain falls back to ``kernel``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from domain.kernel import GameModule

SERVICES = Path(__file__).resolve().parent.parent
ROOT = SERVICES.parent
WEB = SERVICES / "api" / "web"

PYTHON_KEYWORDS: Mapping[str, Any] = {
    "say": None,
    "say_n": (1, 2),
    "term": {1: None, 2: (1, (2, "c"))},  # term(key) or term(key, ctx): Babel picks the spec by argument count
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "N_": None,
}
"""How Python code marks words: ``say``/``say_n``/``term`` (:mod:`domain.kernel.phrases`), gettext's own names
for services that translate at once, and ``N_`` for a word kept for later."""

JS_KEYWORDS: Mapping[str, Any] = {"t": None, "tn": (1, 2), "tc": ((1, "c"), 2)}
"""How the page's modules mark words (``shell/i18n.js``): ``t(msg, args)``, ``tn(one, many, n, args)``,
``tc(ctx, msg, args)``."""

JINJA_KEYWORDS: Mapping[str, Any] = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}

TOML = "services.language.toml_words:extract"
JINJA = "jinja2.ext:babel_extract"

COMMENT_TAGS = ("i18n:",)
"""A comment starting ``i18n:`` just before a marked word is given to translators."""


@dataclass(frozen=True, slots=True)
class Source:
    """Files under ``root`` matching ``pattern`` (Babel's glob: ``**`` spans folders), read by ``method``."""

    root: Path
    pattern: str
    method: str
    options: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Domain:
    name: str
    locale: Path
    """The ``locale`` folder: the template and one ``<lang>/LC_MESSAGES/<name>.po`` per language."""
    sources: tuple[Source, ...]
    fallback: str | None = None
    """The domain whose words this one falls back to."""

    @property
    def template(self) -> Path:
        return self.locale / f"{self.name}.pot"

    def po(self, language: str) -> Path:
        return self.locale / language / "LC_MESSAGES" / f"{self.name}.po"


SERVER = Domain(
    "server",
    SERVICES / "language" / "locale",
    (
        Source(SERVICES, "**/static/**", "ignore"),
        Source(SERVICES, "**.py", "python"),
        Source(ROOT / "infra", "**.py", "python"),
    ),
)

KERNEL = Domain(
    "kernel",
    ROOT / "domain" / "kernel" / "locale",
    (Source(ROOT / "domain" / "kernel", "**.py", "python"),),
    fallback="server",
)

SHELL = Domain(
    "shell",
    WEB / "locale",
    (
        Source(WEB / "static" / "shell", "**.js", "javascript"),
        Source(WEB / "pages", "**.html", JINJA),
    ),
)


def package_dir(game: GameModule[Any]) -> Path:
    """The folder of the package that holds ``game`` (where its state type is defined)."""
    module = game.state_type.__module__
    package = module.rpartition(".")[0] or module
    return Path(str(resources.files(package)))


HELP_KEYS = "title,summary,heading,paragraphs,items,text,phases,commands,columns,note"
"""The keys of a help file whose strings are words (``services/api/help.py`` reads the file)."""


def game_domain(name: str, game: GameModule[Any], bundle: Path) -> Domain:
    """The domain of the game registered as ``name``: its package's code, data names and help, and its bundle."""
    package = package_dir(game)
    return Domain(
        name,
        package / "locale",
        (
            Source(package, "**.py", "python"),
            Source(package / "data", "**.toml", TOML, {"keys": "name,short,title,label,text"}),
            Source(package / "help", "**.toml", TOML, {"keys": HELP_KEYS}),
            Source(bundle, "**.js", "javascript"),
        ),
        fallback="kernel",
    )


def all_domains(games: Mapping[str, GameModule[Any]], bundles: Mapping[str, Path]) -> tuple[Domain, ...]:
    """The server's, the shell's and each game's domain (``bundles``: the games' bundles not in the default place)."""
    made = [SERVER, KERNEL, SHELL]
    for name, game in games.items():
        made.append(game_domain(name, game, bundles.get(name, WEB / "static" / "games" / name)))
    return tuple(made)


def keywords_for(method: str) -> Mapping[str, Any]:
    if method == "javascript":
        return JS_KEYWORDS
    if method == JINJA:
        return JINJA_KEYWORDS
    return PYTHON_KEYWORDS
