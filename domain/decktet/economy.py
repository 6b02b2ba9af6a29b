"""What a card costs, pays and is worth (spec §2.8, R4.2-R4.7, R7.2, V1, V5, V7), from the data's numbers.

Token amounts are tuples of six counts in printed suit order (Moons, Suns, Waves, Leaves, Wyrms, Knots).
"""

from __future__ import annotations

import itertools
from functools import cache

from .cards import CardInfo
from .catalog import Catalog, catalog
from .variant import Variant

Tokens = tuple[int, ...]
NO_TOKENS: Tokens = (0, 0, 0, 0, 0, 0)


def tokens(counts: dict[int, int]) -> Tokens:
    """Six counts from a sparse {suit index: count}."""
    return tuple(counts.get(i, 0) for i in range(6))


def add(a: Tokens, b: Tokens) -> Tokens:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def sub(a: Tokens, b: Tokens) -> Tokens:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def covers(supply: Tokens, cost: Tokens) -> bool:
    return all(s >= c for s, c in zip(supply, cost, strict=True))


class Economy:
    """The §2.8 table for one variant (Ace rule, Court rule) of one dataset."""

    __slots__ = ("ace", "cat", "court", "number")

    def __init__(self, cat: Catalog, variant: Variant) -> None:
        self.cat = cat
        self.ace = cat.rules.original_ace if variant.original_aces else cat.rules.ace
        self.number = cat.rules.number
        self.court = cat.rules.court

    def price(self, card: CardInfo) -> int:
        """R4.5 / R4.2a: the outright price, which is also a deed's completion cost."""
        if card.ace:
            return self.ace.price
        return card.number or self.court.price

    def deed_price(self, card: CardInfo) -> Tokens:
        """R4.6: one token of each suit on the card (lost; it does not count towards completion)."""
        per = self.ace.deed_per_suit if card.ace else self.number.deed_per_suit if card.number else \
            self.court.deed_per_suit
        return tokens({s: per for s in card.suits})

    def sale(self, card: CardInfo) -> Tokens:
        """R4.7: one token of each suit; an Ace gives 2 of its suit (1 with V5)."""
        if card.ace:
            return tokens({card.suits[0]: self.ace.sale})
        per = self.number.sale_per_suit if card.number else self.court.sale_per_suit
        return tokens({s: per for s in card.suits})

    def fixed_value(self, card: CardInfo) -> int:
        """R7.2: a number card's rank, a Court's 10, an original Ace's 1; 0 for a current Ace (its suit count)."""
        if card.ace:
            return self.ace.value
        return card.number or self.court.value

    def pays_income(self, card: CardInfo, income: int) -> bool:
        """R3.4: number cards on their rank, Aces on a 1; Courts (and Pawns under V7) never."""
        dice = self.cat.rules.dice
        if card.ace:
            return income == dice.ace_income
        return card.number == income and card.number > 0


@cache
def economy(variant: Variant) -> Economy:
    return Economy(catalog(variant.dataset), variant)


def is_payment(card: CardInfo, payment: Tokens, price: int) -> bool:
    """R4.5: exactly ``price`` tokens, every one in the card's suits, each of its suits at least once."""
    return (sum(payment) == price and all(payment[s] >= 1 for s in card.suits)
            and all(n == 0 for i, n in enumerate(payment) if i not in card.suits))


def payments(card: CardInfo, supply: Tokens, price: int) -> list[Tokens]:
    """Every payment of ``price`` for ``card`` that ``supply`` affords (R4.5), in a fixed order."""
    suits = card.suits
    if sum(supply[s] for s in suits) < price:
        return []
    out: list[Tokens] = []
    for head in itertools.product(*(range(1, min(supply[s], price) + 1) for s in suits[:-1])):
        last = price - sum(head)
        if 1 <= last <= supply[suits[-1]]:
            out.append(tokens(dict(zip(suits, (*head, last), strict=True))))
    return out


def development_room(card: CardInfo, on_deed: Tokens, price: int, suit: int) -> int:
    """R4.2b-c: how many tokens of ``suit`` may still go on a deed holding ``on_deed`` (0 if none): the total stays
    within the completion cost and leaves room for one token of each of the card's suits still missing."""
    if suit not in card.suits:
        return 0
    missing = sum(1 for s in card.suits if s != suit and on_deed[s] == 0)
    return max(0, price - sum(on_deed) - missing)


def complete(card: CardInfo, on_deed: Tokens, price: int) -> bool:
    """R4.2c: the tokens add up to the completion cost and include each of the card's suits."""
    return sum(on_deed) == price and all(on_deed[s] >= 1 for s in card.suits)
