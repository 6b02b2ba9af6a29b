"""The public tables of Decktet Magnate as a client needs them to draw a game (suits, cards, prices and values,
table sizes): what ``GET /api/catalog/decktet`` serves, so no client hard-codes a card. Cached per dataset."""

from __future__ import annotations

import msgspec

from domain.kernel.catalogs import public_catalog as catalog_of

from .catalog import DEFAULT_DATASET, Mode, catalog


class SuitOut(msgspec.Struct, frozen=True):
    code: str
    name: str
    die: int


class CardOut(msgspec.Struct, frozen=True):
    code: str
    name: str
    rank: str
    suits: tuple[str, ...]


class PricesOut(msgspec.Struct, frozen=True):
    """§2.8: prices, sale values and district values (the Ace's current and original rules)."""

    ace_price: int
    ace_sale: int
    original_ace_price: int
    original_ace_sale: int
    original_ace_value: int
    court_price: int
    court_value: int
    trade_give: int
    trade_take: int


class CatalogOut(msgspec.Struct, frozen=True):
    game: str
    dataset: str
    suits: tuple[SuitOut, ...]
    cards: tuple[CardOut, ...]
    prices: PricesOut
    modes: tuple[Mode, ...]


def _public_catalog(dataset: str) -> CatalogOut:
    cat = catalog(dataset)
    r = cat.rules
    return CatalogOut(
        game="decktet",
        dataset=dataset,
        suits=tuple(SuitOut(s.code, s.name, s.die) for s in cat.suits),
        cards=tuple(CardOut(c.code, c.name, c.rank, c.suits) for c in cat.cards),
        prices=PricesOut(ace_price=r.ace.price, ace_sale=r.ace.sale, original_ace_price=r.original_ace.price,
                         original_ace_sale=r.original_ace.sale, original_ace_value=r.original_ace.value,
                         court_price=r.court.price, court_value=r.court.value, trade_give=r.trade.give,
                         trade_take=r.trade.take),
        modes=tuple(cat.modes.values()),
    )


public_catalog = catalog_of(_public_catalog, DEFAULT_DATASET)
"""The tables of a dataset (None: the current one), each built once; KeyError for an unknown dataset."""
