"""The narrator's lines in a language, as the services render them (seats named as the page names them)."""

from __future__ import annotations

from collections.abc import Mapping

from babel.support import NullTranslations

from domain.kernel.narration import Named, Told
from services.language.render import Renderer


def english(line: Told, names: Mapping[int, str] | None = None) -> tuple[str, tuple[Named, ...]]:
    """A told line in English: its text and where it names each seat ("Player 2" for a seat not in ``names``)."""
    assert line.phrase is not None and line.text == ""
    given = dict(names or {})
    return Renderer(NullTranslations(), "en", lambda s: given.get(s, f"Player {s + 1}")).render(line.phrase)


def text(line: Told, names: Mapping[int, str] | None = None) -> str:
    return english(line, names)[0]
