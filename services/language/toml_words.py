"""A Babel extractor for the words in TOML files (a game's data names and its rules help).

Babel calls :func:`extract` for each file its method map sends here (``services/language/domains.py``); the
``keys`` option lists the keys whose string values (or lists of strings, at any depth) are words. Two-item lists
under a listed key (``columns = [["name", "Tenant"]]``) give their second item: the first is a field name.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from typing import IO, Any

Extracted = tuple[int, str | None, str, list[str]]

SKIPPED = frozenset({"source"})
"""Keys whose values are never words for players: a data file's provenance tags (``source = { name = "..." }``)."""


def extract(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: list[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    """Babel's extractor interface: ``(line, funcname, message, comments)`` for each word in the file."""
    text = fileobj.read().decode("utf-8")
    keys = {key.strip() for key in str(options.get("keys", "")).split(",") if key.strip()}
    lines = text.splitlines()
    for word in _words(tomllib.loads(text), keys, False):
        yield _line_of(lines, word), None, word, []


def _words(node: Any, keys: set[str], wanted: bool) -> Iterator[str]:
    if isinstance(node, str):
        if wanted and node.strip():
            yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            if key not in SKIPPED:
                yield from _words(value, keys, wanted or key in keys)
    elif isinstance(node, list):
        if wanted and len(node) == 2 and all(isinstance(item, str) for item in node) and _is_field(node[0]):
            yield node[1]
            return
        for item in node:
            yield from _words(item, keys, wanted)


def _is_field(text: str) -> bool:
    return text.replace("_", "").replace(".", "").isalnum() and text == text.lower()


def _line_of(lines: list[str], word: str) -> int:
    probe = word[:40]
    for number, line in enumerate(lines, start=1):
        if probe in line:
            return number
    return 0
