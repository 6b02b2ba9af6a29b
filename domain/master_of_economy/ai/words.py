"""Names for the computer's explanations: the catalog's names in lower case, lists in words."""

from __future__ import annotations

from ..holders import cat_of
from ..state import State


def listing(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def factory(state: State, key: str) -> str:
    return next(f.name.lower() for f in cat_of(state).factories if f.key == key)


def goods(state: State, row: int) -> str:
    return cat_of(state).commodities[row].name.lower()


def corp(state: State, key: str) -> str:
    return next((c.name for c in cat_of(state).corporations if c.key == key), key)


def counted(items: list[str]) -> list[str]:
    """``["quarry", "quarry", "mine"]`` -> ``["2 × quarry", "mine"]``, first appearance first."""
    out = []
    for item in dict.fromkeys(items):
        n = items.count(item)
        out.append(f"{n} × {item}" if n > 1 else item)
    return out
