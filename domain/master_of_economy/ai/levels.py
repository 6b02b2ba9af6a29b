"""The computer's two strengths as switches over one set of rules of thumb (docs/AI.md, "Master of Economy").

``basic`` runs its corporation as a careful beginner would: a fixed build order, every factory supplied, its goods
exported on the leftmost free fields, a credit when short, shares bought when its cash allows. ``shrewd`` reads
more of the table: where the other bids leave foreign demand, what a point is worth, how many phases are left,
what a packet of shares will bring at the end, and when taking money out of its corporation pays.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Profile:
    """What a level takes into account (every switch off: the weakest play)."""

    level: str
    reads_demand: bool = False
    """Exports where the foreign demand will still be there (the other bids counted), not just leftmost."""
    counts_time: bool = False
    """Stops building and importing when the factory cannot pay back before the end; sells everything last."""
    values_shares: bool = False
    """Buys the packet that brings most at the end (price and a part of the corporation's cash), redeems and
    embezzles when its own holding makes it pay."""
    buys_locally: bool = False
    """Bids to buy an input where another corporation offers it cheaply on the board."""


BASIC = Profile(level="basic")
SHREWD = Profile(level="shrewd", reads_demand=True, counts_time=True, values_shares=True, buys_locally=True)

PROFILES = {p.level: p for p in (BASIC, SHREWD)}
