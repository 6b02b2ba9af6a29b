"""Which of Magnate's moves a seat may take back (``table.undo_ask``, docs/ARCHITECTURE.md "Takebacks"): public
moves that draw nothing and show nothing hidden — a bid for turn order, a pass, land bought, a building built (each
payment is public, §4.2). Not dice, cards, the market, advertising (its tokens are hidden until the crash) nor a
sale. A move whose decision made any other event (the auction ending, a phase beginning) cannot be taken back."""

from __future__ import annotations

from typing import Any

from .events import BidPassed, BidPlaced, BuildingBuilt, LandBought

UNDO_SAFE = (BidPlaced, BidPassed, LandBought, BuildingBuilt)


def undo_safe(event: Any) -> bool:
    return isinstance(event, UNDO_SAFE)
