"""The HTML pages (``pages/*.html``) as Jinja2 templates, rendered in the reader's language: every word through
``_()`` (the ``shell`` domain's catalog, :mod:`services.language.domains`), ``<html lang>`` set to the language
(the page's modules read their words in it, ``static/shell/i18n.js``), and the header's language switch offering
the languages this server speaks (``pages/_language.html``, sent by ``static/shell/language.js``).

One Jinja environment per set of catalogs and language, made on first use and kept.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel import Locale, UnknownLocaleError
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from services.language.catalogs import Catalogs
from services.language.choice import COOKIE

PAGES = Path(__file__).resolve().parent / "pages"


def own_name(code: str) -> str:
    """A language named in its own words ("Deutsch", "Русский"), from CLDR, for a language the switch's template
    does not name itself."""
    try:
        name = Locale.parse(code.replace("-", "_")).get_display_name(code.replace("-", "_")) or code
    except (ValueError, UnknownLocaleError):
        return code
    return name[:1].upper() + name[1:]


@cache
def environment(catalogs: Catalogs, language: str) -> Environment:
    """The pages' templates speaking ``language`` (gettext from ``catalogs``' ``shell`` domain, newstyle)."""
    made = Environment(loader=FileSystemLoader(PAGES), autoescape=select_autoescape(default=True),
                       undefined=StrictUndefined, extensions=["jinja2.ext.i18n"], auto_reload=False)
    made.install_gettext_translations(catalogs.translations("shell", language), newstyle=True)  # type: ignore[attr-defined]
    made.globals.update(lang=language, languages=catalogs.languages, own_name=own_name, cookie=COOKIE)
    return made


def render(catalogs: Catalogs, language: str, name: str) -> bytes:
    """The page ``name`` (``lobby.html`` …) in ``language``."""
    return environment(catalogs, language).get_template(name).render().encode()
