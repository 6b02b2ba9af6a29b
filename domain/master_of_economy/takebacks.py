"""Which of Master of Economy's moves a seat may take back (``table.undo_ask``, docs/ARCHITECTURE.md "Takebacks"):
only a factory built (a public purchase from the bank). Never a sealed choice (bids, AC tokens, ballots), a trade
on the markets, credit, dividends nor anything the rules resolve after a move."""

from __future__ import annotations

from typing import Any

from .events import FactoryBuilt

UNDO_SAFE = (FactoryBuilt,)


def undo_safe(event: Any) -> bool:
    return isinstance(event, UNDO_SAFE)
