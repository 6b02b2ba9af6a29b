"""§15, the data tables: every number in data/v1 with its provenance, loaded and validated by the catalog."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.master_of_economy.catalog import DataError, catalog, records, validate

CAT = catalog()


def _tag(record: object, field: str) -> str:
    source = record.source  # type: ignore[attr-defined]
    return str(source.get(field) or source["*"])


def test_every_value_is_tagged_manual_or_reconstructed_with_a_reason() -> None:
    for record in records(CAT):
        for field in set(record.__struct_fields__) - {"source"}:
            tag = _tag(record, field)
            assert tag.startswith(("MANUAL: ", "RECONSTRUCTED: ")), (record, field)


def test_the_reconstructed_values_of_section_18_are_tagged_so() -> None:
    """§18's open questions: the market board (Q1), the price bands (Q3), the factory places (Q4), the usable cubes
    (Q4), the inputs (Q5), the AC's packets (Q19), the 0-factory bonus (Q25), the colours (Q26)."""
    r = CAT.rules
    assert all(_tag(c, "fields").startswith("RECONSTRUCTED") and _tag(c, "usable").startswith("RECONSTRUCTED")
               for c in CAT.commodities)
    assert all(_tag(b, "price").startswith("RECONSTRUCTED") for b in r.price)
    assert all(_tag(f, "places").startswith("RECONSTRUCTED") for f in CAT.factories)
    assert all("RECONSTRUCTED" in _tag(f, "inputs") for f in CAT.factories[1:])
    assert _tag(r.start, "ac_bank_packets").startswith("RECONSTRUCTED")
    assert _tag(r.bonus[0], "bonus").startswith("RECONSTRUCTED") and r.bonus[0].bonus == 0
    assert _tag(r.game, "max_points").startswith("RECONSTRUCTED")
    assert all(_tag(c, "colour").startswith("RECONSTRUCTED") for c in CAT.corporations)


def test_section_15_values() -> None:
    """§15.1, 15.2, 15.5, 15.6, 15.8, 15.9, 15.10 as the spec prints them."""
    r = CAT.rules
    assert (r.start.corporation_cash, r.start.corporation_materials, r.start.player_cash, r.start.receipts) == (
        25, 3, 0, 1)
    assert [(f.build_cash, f.build_materials, f.output, f.markers) for f in CAT.factories] == [
        (3, 0, 1, 12), (3, 1, 2, 10), (3, 1, 2, 10), (3, 1, 2, 12), (3, 1, 2, 10), (3, 1, 1, 10)]
    assert [CAT.board_bonus(n) for n in (0, 1, 5, 6, 10, 11, 15, 16, 30)] == [0, 1, 1, 2, 2, 3, 3, 5, 5]
    c = r.credits
    assert (c.cash, c.max_held, c.per_phase, c.interest, c.repayment, c.reserve, c.settlement, c.tokens) == (
        5, 2, 1, 1, 5, 6, 6, 8)
    assert [(x.cubes, x.usable) for x in CAT.commodities] == [(24, 23), (20, 19), (16, 15), (24, 23), (16, 15),
                                                             (12, 11)]
    assert [x.import_price for x in CAT.commodities] == [3, 5, 5, 5, 7, 11]
    assert [len(x.fields) for x in CAT.commodities] == [6, 8, 8, 8, 10, 12]
    assert r.ac.schedule == ("materials", "coal", "ore", "energy", "steel", "ships")
    assert (r.investments.sale_value, r.shortfall.forced_sale_value, r.warehouse.capacity) == (3, 2, 10)


@pytest.mark.parametrize("broken", [
    lambda c: replace(c, commodities=(replace(c.commodities[0], demand_start=8), *c.commodities[1:])),
    lambda c: replace(c, commodities=(replace(c.commodities[0], import_price=2), *c.commodities[1:])),
    lambda c: replace(c, commodities=(replace(c.commodities[0], fields=("2", "1", "1", "1", "2", "2")),
                                      *c.commodities[1:])),
    lambda c: replace(c, corporations=(replace(c.corporations[0], source={"name": "MANUAL: x"}),
                                       *c.corporations[1:])),
    lambda c: replace(c, corporations=(replace(c.corporations[0], source={"*": "guess"}), *c.corporations[1:])),
    lambda c: replace(c, factories=(replace(c.factories[0], produces="coal"), *c.factories[1:])),
])
def test_inconsistent_data_is_refused(broken: object) -> None:
    with pytest.raises(DataError):
        validate(broken(CAT))  # type: ignore[operator]


def test_an_unknown_dataset_is_an_error() -> None:
    with pytest.raises(DataError):
        catalog("v999")
