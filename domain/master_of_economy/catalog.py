"""The numbers of Master of Economy, loaded once from ``data/<dataset>/*.toml`` and validated (spec §15).

Every number of the rules lives in the data files with its provenance (``MANUAL: <section>`` or
``RECONSTRUCTED: why``); rule modules read them only through :func:`catalog` and hold no number of their own.
Loading checks that every value is tagged, that keys are unique, that the market rows are well formed (prices
never fall to the right, the demand start is N + 1, the import price is above every export price, ME-T-5), that
each factory produces a known commodity from known inputs, that the price bands and bonus tiers start at 0 and
rise, and that the AC schedule names every commodity once.

Reading the package's own files is the only resource access: once per dataset (cached). A game records its
dataset in its first event, so correcting a [RECONSTRUCTED] value means adding ``data/v2``.
"""

from __future__ import annotations

from functools import cache

import msgspec

from domain.kernel.datafiles import DataError, DataFiles

from .tables import (
    ZERO_ONE,
    Commodity,
    Corporation,
    Factory,
    Rules,
    _Record,
)

DEFAULT_DATASET = "v1"
PROVENANCE_PREFIXES = ("MANUAL: ", "RECONSTRUCTED: ")


class _Corporations(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    corporation: tuple[Corporation, ...]


class _Commodities(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    commodity: tuple[Commodity, ...]


class _Factories(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    factory: tuple[Factory, ...]


class Catalog(msgspec.Struct, frozen=True, kw_only=True):
    """One dataset: corporations, commodities (market rows, in resolution order), factories and the rules."""

    dataset: str
    corporations: tuple[Corporation, ...]
    commodities: tuple[Commodity, ...]
    factories: tuple[Factory, ...]
    rules: Rules

    def corporation(self, key: str) -> Corporation:
        return next(c for c in self.corporations if c.key == key)

    def commodity_index(self, key: str) -> int:
        return [c.key for c in self.commodities].index(key)

    def factory_index(self, key: str) -> int:
        return [f.key for f in self.factories].index(key)

    def inputs(self, factory: int) -> tuple[int, ...]:
        """The inputs of one supplied factory of type ``factory``, per commodity."""
        need = self.factories[factory].inputs
        return tuple(need.get(c.key, 0) for c in self.commodities)

    def produced(self, factory: int) -> int:
        """The commodity a factory of type ``factory`` produces."""
        return self.commodity_index(self.factories[factory].produces)

    def price(self, points: int) -> int:
        """The share price at ``points`` (table 15.4, ME-G-10)."""
        return next(b.price for b in reversed(self.rules.price) if points >= b.points)

    def band_start(self, points: int) -> int:
        """The lowest number of points with the same price as ``points`` (ME-H-2's limit)."""
        return next(b.points for b in reversed(self.rules.price) if points >= b.points)

    def board_bonus(self, factories: int) -> int:
        """The manager's bonus for a corporation owning ``factories`` (table 15.5, ME-H-1)."""
        return next(t.bonus for t in reversed(self.rules.bonus) if factories >= t.factories)

    @property
    def building(self) -> int:
        """The commodity a factory is built with (ME-I-3)."""
        return self.commodity_index(self.rules.commodities.building)

    @property
    def perishable(self) -> int:
        """The commodity that spoils after procurement (ME-P-4)."""
        return self.commodity_index(self.rules.commodities.perishable)

    def ac_tokens(self, players: int) -> tuple[int, ...]:
        """Each player's AC tokens (ME-V-6)."""
        return self.rules.ac.tokens_two if players == 2 else self.rules.ac.tokens_three


FILES = DataFiles(__package__)


@cache
def catalog(dataset: str = DEFAULT_DATASET) -> Catalog:
    """The validated data of ``dataset`` (cached). Raises DataError when it is missing or inconsistent."""
    corporations = FILES.load(dataset, "corporations.toml", _Corporations).corporation
    commodities = FILES.load(dataset, "commodities.toml", _Commodities).commodity
    factories = FILES.load(dataset, "factories.toml", _Factories).factory
    rules = FILES.load(dataset, "rules.toml", Rules)
    cat = Catalog(dataset=dataset, corporations=corporations, commodities=commodities, factories=factories,
                  rules=rules)
    validate(cat)
    return cat


def records(cat: Catalog) -> list[_Record]:
    r = cat.rules
    return [*cat.corporations, *cat.commodities, *cat.factories, r.game, r.start, r.shares, r.player_trade,
            r.investments, r.shortfall, r.warehouse, r.trade, r.credits, r.embezzlement, r.dividends, r.receipts,
            *r.price, *r.bonus, r.ac, r.commodities]


def validate(cat: Catalog) -> None:
    """Raise DataError unless ``cat`` is consistent (see the module's docstring)."""
    for record in records(cat):
        _check_source(record)
    for name, listed in (("corporation", [c.key for c in cat.corporations]),
                         ("commodity", [c.key for c in cat.commodities]), ("factory", [f.key for f in cat.factories])):
        if len(set(listed)) != len(listed):
            raise DataError(f"duplicate {name} keys")
    r = cat.rules
    if len(cat.corporations) < r.game.max_players:
        raise DataError("one corporation per player at least")
    for c in cat.commodities:
        _check_row(c, r.trade.highlighted_field)
    _check_factories(cat)
    _check_tables(cat)


def _check_factories(cat: Catalog) -> None:
    keys = {c.key for c in cat.commodities}
    if [f.produces for f in cat.factories] != [c.key for c in cat.commodities]:
        raise DataError("factory i produces commodity i")
    for f in cat.factories:
        if not set(f.inputs) <= keys or any(n <= 0 for n in f.inputs.values()):
            raise DataError(f"{f.key}: inputs must be known commodities, in positive quantities")


def _check_tables(cat: Catalog) -> None:
    r = cat.rules
    keys = {c.key for c in cat.commodities}
    for bands, field in ((r.price, "points"), (r.bonus, "factories")):
        starts = [getattr(b, field) for b in bands]
        if not starts or starts[0] != 0 or starts != sorted(set(starts)):
            raise DataError(f"the {field} tiers start at 0 and rise")
    prices = [b.price for b in r.price]
    if prices != sorted(prices) or r.price[-1].points > r.game.max_points:
        raise DataError("share prices rise with points, within the track")
    if not {r.commodities.building, r.commodities.perishable} <= keys:
        raise DataError("the building and perishable commodities are known commodities")
    if sorted(r.ac.schedule) != sorted(keys):
        raise DataError("the AC schedule names every commodity once")
    packets = set(range(1, r.shares.packets + 1))
    if {*r.start.bank_packets, r.start.manager_packet} != packets or set(r.start.ac_bank_packets) != packets:
        raise DataError("every packet starts in one place")


def _check_row(c: Commodity, highlighted: int) -> None:
    for f in c.fields:
        if f != ZERO_ONE and not f.isdigit():
            raise DataError(f"{c.key}: a field is a whole number or 0/1, not {f!r}")
    if list(c.locals) != sorted(c.locals) or list(c.exports) != sorted(c.exports):
        raise DataError(f"{c.key}: prices never fall to the right (ME-T-2)")
    if c.demand_start != len(c.fields) + 1:
        raise DataError(f"{c.key}: demand starts at N + 1 (ME-T-4)")
    if len(c.fields) < highlighted:
        raise DataError(f"{c.key}: every row has the highlighted column")
    if max(c.locals) >= c.import_price:
        raise DataError(f"{c.key}: every field costs less than the import price (ME-T-5)")
    if c.usable > c.cubes:
        raise DataError(f"{c.key}: more usable cubes than cubes")


def _check_source(record: _Record) -> None:
    fields = set(record.__struct_fields__) - {"source"}
    tagged = set(record.source)
    if "*" not in tagged and not fields <= tagged:
        raise DataError(f"{record!r}: untagged values {sorted(fields - tagged)}")
    if not tagged <= fields | {"*"}:
        raise DataError(f"{record!r}: provenance for unknown fields {sorted(tagged - fields - {'*'})}")
    for tag in record.source.values():
        if not tag.startswith(PROVENANCE_PREFIXES) or len(tag.split(": ", 1)[1].strip()) < 3:
            raise DataError(f"{record!r}: provenance must be 'MANUAL: section' or 'RECONSTRUCTED: why', not {tag!r}")
