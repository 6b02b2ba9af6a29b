"""The pseudo-locale ``en-XA``: every English word accented and every message bracketed, placeholders kept.

A page in the pseudo-locale shows at a glance any text that did not come from the catalogs: it is the only plain
English left on the page (tests/browser/test_pseudo_locale.py walks every page looking for it).
"""

from __future__ import annotations

import re

PSEUDO = "en-XA"

_ACCENTS = str.maketrans(
    "abcdeghiklmnorstuwyzABCDEGHIKLMNORSTUWYZ",
    "àƀçđéĝĥìķĺɱñòŕšţùŵýžÀƁÇĐÉĜĤÌĶĹṀÑÒŔŠŢÙŴÝŽ",
)
_KEPT = re.compile(r"(\{[^{}]*\}|<[^<>]*>|&\w+;|%\(\w+\)s|%s)")
"""Placeholders, markup and entities stay as they are."""

OPEN, CLOSE = "⟦", "⟧"


def pseudo(text: str) -> str:
    """``text`` accented and bracketed: "Your turn" → "⟦Ýòùŕ ţùŕñ⟧" (placeholders and markup kept)."""
    if not text.strip():
        return text
    pieces = _KEPT.split(text)
    body = "".join(piece if index % 2 else piece.translate(_ACCENTS) for index, piece in enumerate(pieces))
    return f"{OPEN}{body}{CLOSE}"
