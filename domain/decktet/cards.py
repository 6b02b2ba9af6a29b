"""A card id as the rules see it: its suits (as indices in printed order), its rank, and what it is for.

Card ids are codes with a copy digit in two-deck games (§1.1, V2.1). Lookups are cached per dataset, since the
rules ask for a card's suits on every placement check and an AI search asks thousands of times per move.
"""

from __future__ import annotations

from functools import cache

import msgspec

from .catalog import ACE, CROWN, EXCUSE, NUMBER_RANKS, catalog


class CardInfo(msgspec.Struct, frozen=True):
    """A card by id: ``suits`` are suit indices in printed order; ``number`` is 2-9 for number cards, else 0."""

    id: str
    code: str
    name: str
    rank: str
    suits: tuple[int, ...]
    number: int

    @property
    def ace(self) -> bool:
        return self.rank == ACE

    @property
    def tall(self) -> bool:
        """A card played under the Court rules (a Court, or a Pawn with V7): neither an Ace nor a number card."""
        return self.rank not in NUMBER_RANKS and self.rank not in (ACE, EXCUSE, CROWN)


@cache
def _table(dataset: str) -> dict[str, CardInfo]:
    cat = catalog(dataset)
    codes = cat.suit_codes
    out: dict[str, CardInfo] = {}
    for card in cat.cards:
        suits = tuple(codes.index(s) for s in card.suits)
        number = int(card.rank) if card.rank in NUMBER_RANKS else 0
        for card_id in (card.code, f"{card.code}1", f"{card.code}2"):
            out[card_id] = CardInfo(card_id, card.code, card.name, card.rank, suits, number)
    return out


def info(dataset: str, card: str) -> CardInfo:
    """The card with id ``card``; raises KeyError for an unknown id."""
    return _table(dataset)[card]


def known(dataset: str, card: str) -> bool:
    return card in _table(dataset)


@cache
def suit_codes(dataset: str) -> tuple[str, ...]:
    return catalog(dataset).suit_codes


def suit_index(dataset: str, code: str) -> int:
    """The index of a suit code (``M`` is 0); raises ValueError for an unknown code."""
    return suit_codes(dataset).index(code.upper())
