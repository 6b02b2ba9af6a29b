"""The v1 component data (spec §13) loads, holds the values a player notices, and broken data is refused."""

from __future__ import annotations

import copy
import tomllib
from collections import Counter
from collections.abc import Callable
from importlib import resources
from typing import Any

import msgspec
import pytest

from domain.magnate import catalog

Raw = dict[str, Any]


def _load_raw_v1() -> Raw:
    """The v1 files as plain TOML data, shaped like catalog.catalog() shapes them before conversion."""
    folder = resources.files("domain.magnate").joinpath("data", "v1")
    raw: Raw = {}
    for name in catalog.FILE_NAMES:
        document = tomllib.loads(folder.joinpath(f"{name}.toml").read_text(encoding="utf-8"))
        raw[name] = document[catalog._ARRAY_KEYS[name]] if name in catalog._ARRAY_KEYS else document
    return raw


_RAW_V1 = _load_raw_v1()


def _build(raw: Raw) -> catalog.Catalog:
    return catalog.Catalog("broken", msgspec.convert(raw, catalog._Files))


def _assert_rejected(mutate: Callable[[Raw], object], match: str) -> None:
    """Apply ``mutate`` to a deep copy of the v1 data and expect the catalog to refuse it."""
    raw = copy.deepcopy(_RAW_V1)
    mutate(raw)
    with pytest.raises(catalog.DataError, match=match):
        _build(raw)


def _row(raw: Raw, name: str, field: str, value: object) -> dict[str, Any]:
    rows: list[dict[str, Any]] = raw[name]
    return next(r for r in rows if r[field] == value)


@pytest.fixture(scope="module")
def cat() -> catalog.Catalog:
    return catalog.catalog("v1")


# --- loading ---------------------------------------------------------------------------------------------


def test_the_v1_dataset_loads_and_validates(cat: catalog.Catalog) -> None:
    assert cat.dataset == "v1"
    assert len(cat.buildings) == 8
    assert len(cat.neighbourhoods) == 10


def test_the_catalog_is_read_once_per_dataset() -> None:
    assert catalog.catalog("v1") is catalog.catalog("v1")


def test_an_unknown_dataset_is_refused() -> None:
    with pytest.raises(catalog.DataError, match="unknown dataset"):
        catalog.catalog("no-such-dataset")


def test_the_unmodified_raw_data_builds_so_the_rejection_tests_mean_something() -> None:
    built = _build(copy.deepcopy(_RAW_V1))
    assert built.files == catalog.catalog("v1").files


def test_the_data_files_contain_no_floating_point_numbers() -> None:
    def walk(value: object, path: str) -> None:
        assert not isinstance(value, float), f"float at {path}"
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{path}.{key}")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, f"{path}[{i}]")

    walk(_RAW_V1, "v1")


# --- values a player would notice --------------------------------------------------------------------------


def test_the_land_price_starts_at_position_4_worth_300k_and_rises_to_500k_then_tops_out_at_2_8m(
    cat: catalog.Catalog,
) -> None:
    assert cat.setup.land_price_start == 4
    assert cat.price(3) == 300
    assert cat.price(4) == 300
    assert cat.price(5) == 500
    assert cat.price(28) == 2800
    assert (cat.land_price_min, cat.land_price_max) == (1, 28)


def test_the_land_price_zones_draw_0_1_2_3_5_risk_cards(cat: catalog.Catalog) -> None:
    draws = {pos: cat.zone(pos).risk_cards for pos in (1, 9, 10, 14, 15, 19, 20, 24, 25, 28)}
    assert draws == {1: 0, 9: 0, 10: 1, 14: 1, 15: 2, 19: 2, 20: 3, 24: 3, 25: 5, 28: 5}
    assert cat.zone(15).key == "amber"


def test_the_crash_track_starts_at_10_or_8_in_the_tutorial(cat: catalog.Catalog) -> None:
    assert (cat.crash.minimum, cat.crash.maximum, cat.crash.start, cat.crash.tutorial_start) == (0, 12, 10, 8)
    assert cat.setup.tutorial.crash_start == 8


def test_the_risk_deck_tops_are_0x8_minus1x4_minus2x3_minus3x4_and_the_bottoms_sum_to_minus23(
    cat: catalog.Catalog,
) -> None:
    cards = cat.files.risk_cards
    assert len(cards) == 19
    assert Counter(c.top for c in cards) == {0: 8, -1: 4, -2: 3, -3: 4}
    assert sum(c.bottom for c in cards) == -23


def test_the_new_tenant_deck_adds_21_home_21_retail_9_office_9_industry(cat: catalog.Catalog) -> None:
    base: Counter[str] = Counter()
    subtypes: Counter[str] = Counter()
    for card in cat.files.new_tenant_cards:
        base.update(card.base)
        subtypes.update(card.subtypes)
    assert len(cat.files.new_tenant_cards) == 36
    assert base == {"home": 21, "retail": 21, "office": 9, "industry": 9}
    for subtype in cat.tenant_subtypes.values():
        expected = 7 if subtype.tenant_type in ("home", "retail") else 3
        assert subtypes[subtype.key] == expected, subtype.key


def test_the_city_centre_holds_population_home_6_retail_4_office_6_industry_6(cat: catalog.Catalog) -> None:
    population: Counter[str] = Counter()
    for plot in cat.centre.values():
        if plot.building:
            population[plot.tenant_type] += plot.tenants * cat.tenant_types[plot.tenant_type].population
    assert population == {"home": 6, "retail": 4, "office": 6, "industry": 6}
    assert cat.centre["E"].building == ""


def test_buildings_cost_and_hold_what_the_player_aid_says(cat: catalog.Catalog) -> None:
    table = {key: (b.tenant_type, b.capacity, b.cost, b.bonus) for key, b in cat.buildings.items()}
    assert table == {
        "house": ("home", 1, 400, 0),
        "apartment": ("home", 5, 3000, 0),
        "retail_unit": ("retail", 2, 1200, 0),
        "shopping_mall": ("retail", 6, 4500, 1),
        "small_office": ("office", 1, 1900, 0),
        "superior_office": ("office", 3, 6000, 1),
        "industrial_unit": ("industry", 1, 1000, 0),
        "industrial_park": ("industry", 3, 4000, 0),
    }


def test_tenant_types_come_in_the_order_home_retail_office_industry(cat: catalog.Catalog) -> None:
    assert cat.type_order == ("home", "retail", "office", "industry")
    assert [cat.tenant_types[t].population for t in cat.type_order] == [1, 1, 3, 3]


def test_each_ai_level_has_its_own_number_of_cards(cat: catalog.Catalog) -> None:
    per_level = Counter(c.level for c in cat.files.ai_cards)
    assert per_level == {1: 9, 2: 6, 3: 6, 4: 8}
    assert {lv.level: lv.deck_size for lv in cat.ai_levels.values()} == dict(per_level)


def test_exactly_one_ai_card_is_the_first_action_and_it_buys_land(cat: catalog.Catalog) -> None:
    first = [c for c in cat.files.ai_cards if c.first_action]
    assert [(c.id, c.level, c.top) for c in first] == [("AI-I-01", 1, "buy")]


def test_the_level_iii_ai_bids_one_and_a_half_times_the_land_price(cat: catalog.Catalog) -> None:
    assert [cat.ai_levels[lv].bid_percent for lv in (1, 2, 3, 4)] == [100, 125, 150, 200]


def test_the_tutorial_uses_five_seats_with_vector_properties_first(cat: catalog.Catalog) -> None:
    tutorial = cat.setup.tutorial
    seats = ("vector_properties", "greyfield", "penforth_davey", "urhme", "humble_foundation")
    assert tutorial.seats == seats
    assert tutorial.first_player == "vector_properties"
    assert tutorial.neighbourhoods[0] == "halestown"
    assert len(tutorial.for_sale) == 12
    assert tutorial.start_tenants == cat.board(5).start_tenants


def test_there_are_54_for_sale_coordinates_and_2_spares(cat: catalog.Catalog) -> None:
    assert len(cat.for_sale.coordinates) == 54
    assert cat.for_sale.coordinates[0] == "1A"
    assert cat.for_sale.coordinates[-1] == "6I"
    assert cat.for_sale.spares == 2


# Spec §17.1: each table marked reconstructed, with a field that must carry a RECONSTRUCTED tag.
_RECONSTRUCTED = {
    "Q-REQ": [("tenant_types", "requirement"), ("tenant_subtypes", "requirement")],
    "Q-ZONES": [("zones", "risk_cards"), ("land_price_track", "zone")],
    "Q-BOARDS": [("market_boards", "advertising")],
    "Q-SOLD": [("market_boards", "plots_sold")],
    "Q-RISK": [("risk_cards", "bottom")],
    "Q-NT": [("new_tenant_cards", "subtypes")],
    "Q-FSM": [("for_sale_markers", "coordinates")],
    "Q-AIBOARD": [("ai_levels", "max_build_cost")],
    "Q-AICARDS": [("ai_cards", "ads")],
    "Q-TUTSEATS": [("setup.tutorial", "seats")],
}


@pytest.mark.parametrize("question", sorted(_RECONSTRUCTED))
def test_every_table_the_spec_calls_reconstructed_is_tagged_reconstructed(
    cat: catalog.Catalog, question: str
) -> None:
    for where, field in _RECONSTRUCTED[question]:
        tags = [
            record.source.get(field, record.source.get("*", ""))
            for name, record in catalog._records(cat.files)
            if name == where
        ]
        assert tags, f"{question}: no records in {where}"
        assert any(tag.startswith("RECONSTRUCTED") for tag in tags), f"{question}: {where}.{field}"


# --- broken data is refused ---------------------------------------------------------------------------------


def test_a_duplicate_building_key_is_refused() -> None:
    def mutate(raw: Raw) -> None:
        raw["buildings"][1]["key"] = raw["buildings"][0]["key"]

    _assert_rejected(mutate, "duplicate key 'house'")


def test_a_land_price_track_that_goes_down_is_refused() -> None:
    def mutate(raw: Raw) -> None:
        _row(raw, "land_price_track", "position", 10)["price"] = 50

    _assert_rejected(mutate, "not monotone")


def test_a_land_price_position_listed_twice_is_refused() -> None:
    def mutate(raw: Raw) -> None:
        raw["land_price_track"].append(copy.deepcopy(raw["land_price_track"][-1]))

    _assert_rejected(mutate, "duplicate land price positions")


def test_a_risk_deck_of_18_cards_is_refused() -> None:
    _assert_rejected(lambda raw: raw["risk_cards"].pop(), "risk deck size")


def test_an_unknown_provenance_tag_is_refused() -> None:
    def mutate(raw: Raw) -> None:
        raw["buildings"][0]["source"]["cost"] = "GUESSED: looks about right"

    _assert_rejected(mutate, "bad provenance tag")


def test_provenance_for_a_field_the_record_does_not_have_is_refused() -> None:
    def mutate(raw: Raw) -> None:
        raw["zones"][0]["source"]["colour"] = "RECONSTRUCTED"

    _assert_rejected(mutate, "unknown field 'colour'")


@pytest.mark.parametrize(
    "locate",
    [
        lambda raw: raw["zones"][0],
        lambda raw: raw["ai_cards"][5],
        lambda raw: raw["crash_track"],
        lambda raw: raw["setup"],
        lambda raw: raw["setup"]["components"],
        lambda raw: raw["setup"]["tutorial"],
        lambda raw: raw["setup"]["companies"][2],
        lambda raw: raw["setup"]["ai_company"],
    ],
    ids=["zone", "ai card", "crash track", "setup", "components", "tutorial", "company", "ai company"],
)
def test_a_record_without_provenance_is_refused(locate: Callable[[Raw], dict[str, Any]]) -> None:
    _assert_rejected(lambda raw: locate(raw).pop("source"), "without provenance")


def test_a_new_tenant_card_whose_base_and_subtype_parts_differ_is_refused() -> None:
    def mutate(raw: Raw) -> None:
        _row(raw, "new_tenant_cards", "id", "NT01")["base"] = {"home": 1, "retail": 1}

    _assert_rejected(mutate, "NT01: base and subtype parts differ")


def test_an_ai_level_whose_deck_size_does_not_match_its_cards_is_refused() -> None:
    def mutate(raw: Raw) -> None:
        _row(raw, "ai_levels", "level", 1)["deck_size"] = 8

    _assert_rejected(mutate, "AI level 1: 9 cards, expected 8")


def test_a_city_centre_plot_listed_twice_is_refused() -> None:
    def mutate(raw: Raw) -> None:
        raw["city_centre"].append(copy.deepcopy(_row(raw, "city_centre", "letter", "A")))

    _assert_rejected(mutate, "duplicate city_centre letters")


def test_a_malformed_for_sale_coordinate_is_refused_as_a_data_error() -> None:
    def mutate(raw: Raw) -> None:
        raw["for_sale_markers"]["coordinates"][0] = "XA"

    _assert_rejected(mutate, "bad 'for sale' coordinate XA")


@pytest.mark.parametrize("name", ["", ".", "..", "../magnate", "v1/../v1", "V1", "v1 "])
def test_only_dataset_folders_are_datasets(name: str) -> None:
    with pytest.raises(catalog.DataError):
        catalog.catalog(name)
