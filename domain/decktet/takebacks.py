"""Which of Decktet Magnate's moves a seat may take back (``table.undo_ask``, docs/ARCHITECTURE.md "Takebacks"):
public moves with the suit tokens only — a trade with the bank, tokens moved onto a deed (and the deed completed
by them), the roller's choice of suit from a deed. Never a card bought, sold or drawn (each shows a card that was
hidden in a hand or the deck), a private preference, nor the dice."""

from __future__ import annotations

from typing import Any

from .events import DeedCompleted, DeedDeveloped, IncomeChosen, Traded

UNDO_SAFE = (Traded, DeedDeveloped, DeedCompleted, IncomeChosen)


def undo_safe(event: Any) -> bool:
    return isinstance(event, UNDO_SAFE)
