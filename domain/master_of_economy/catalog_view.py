"""The public tables of Master of Economy as a client needs them to draw a game (corporations, the market board,
factories, prices, limits): what ``GET /api/catalog/master_of_economy`` serves, so no client hard-codes a number.
Cached per dataset."""

from __future__ import annotations

import msgspec

from domain.kernel.catalogs import public_catalog as catalog_of

from .catalog import DEFAULT_DATASET, catalog
from .tables import AdditionalCorporation, BonusTier, PriceBand


class CorporationOut(msgspec.Struct, frozen=True):
    key: str
    name: str
    colour: str


class RowOut(msgspec.Struct, frozen=True):
    """A commodity and its market row: the printed fields, what each pays on export and on the local market."""

    key: str
    name: str
    colour: str
    import_price: int
    fields: tuple[str, ...]
    exports: tuple[int, ...]
    locals: tuple[int, ...]
    demand_start: int
    usable: int


class FactoryOut(msgspec.Struct, frozen=True):
    key: str
    name: str
    colour: str
    produces: str
    output: int
    inputs: dict[str, int]
    build_cash: int
    build_materials: int
    markers: int
    places: int


class CatalogOut(msgspec.Struct, frozen=True):
    game: str
    dataset: str
    corporations: tuple[CorporationOut, ...]
    commodities: tuple[RowOut, ...]
    factories: tuple[FactoryOut, ...]
    prices: tuple[PriceBand, ...]
    bonuses: tuple[BonusTier, ...]
    ac: AdditionalCorporation
    highlighted_field: int
    warehouse: int
    rules: dict[str, dict[str, object]]
    """Every other number of the rules, by section (setup, shares, trade, credits ...)."""


def _public_catalog(dataset: str) -> CatalogOut:
    cat = catalog(dataset)
    r = cat.rules
    sections = {"game": r.game, "start": r.start, "shares": r.shares, "player_trade": r.player_trade,
                "investments": r.investments, "shortfall": r.shortfall, "trade": r.trade, "credits": r.credits,
                "embezzlement": r.embezzlement, "dividends": r.dividends, "receipts": r.receipts,
                "commodities": r.commodities}
    rules = {name: {k: v for k, v in msgspec.structs.asdict(section).items() if k != "source"}
             for name, section in sections.items()}
    return CatalogOut(
        game="master_of_economy", dataset=dataset,
        corporations=tuple(CorporationOut(c.key, c.name, c.colour) for c in cat.corporations),
        commodities=tuple(RowOut(c.key, c.name, c.colour, c.import_price, c.fields, c.exports, c.locals,
                                 c.demand_start, c.usable) for c in cat.commodities),
        factories=tuple(FactoryOut(f.key, f.name, f.colour, f.produces, f.output, f.inputs, f.build_cash,
                                   f.build_materials, f.markers, f.places) for f in cat.factories),
        prices=r.price, bonuses=r.bonus, ac=r.ac, highlighted_field=r.trade.highlighted_field,
        warehouse=r.warehouse.capacity, rules=rules,
    )


public_catalog = catalog_of(_public_catalog, DEFAULT_DATASET)
"""The tables of a dataset (None: the current one), each built once; KeyError for an unknown dataset."""
