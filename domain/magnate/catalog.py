"""The component data of Magnate: The First City, loaded once and validated.

Every number and name from the rulebook's tables (spec §13) lives in the TOML files under
``data/<dataset>/``; this module turns them into typed, frozen structs and checks that they are
consistent (unique keys, a monotone land price track, deck sizes matching the component counts,
every reference resolvable, every value tagged with its provenance). Rule modules read tables only
through :func:`catalog`; none of them contains a number from a table.

Reading the package's own data files is the only resource access in ``domain/``: it happens once
per dataset (cached), reads files that ship with the code, and never depends on the environment,
so it is as deterministic as importing a module.

A game records the dataset it was created with (``GameStarted.dataset``), so correcting a
[RECONSTRUCTED] value means adding a new dataset directory; running games and replays keep theirs.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any, TypeVar

import msgspec

from domain.kernel.datafiles import DataError, DataFiles, convert

DEFAULT_DATASET = "v1"
FILES = DataFiles(__package__)
PROVENANCE_PREFIXES = ("EN", "RU", "DE", "WEB", "RECONSTRUCTED", "RULES")
"""Accepted provenance tags: the spec's tags (§0.1) plus RULES for values the rules text states
(e.g. geometry constants restated in a data file)."""


class _Record(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    source: dict[str, str] = {}
    """Provenance per field name ("*" = every field of the record)."""


class Printed(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The name as the German and Russian rulebooks print it (the source of the catalogs' translations)."""

    de: str = ""
    ru: str = ""


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A neighbour effect: ``delta`` (+1 bonus / -1 penalty) on buildings of ``building_type``."""

    building_type: str
    delta: int


class Requirement(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A set is ``dice`` different dice each showing at least ``at_least`` (§6.4)."""

    dice: int
    at_least: int


class Building(_Record, frozen=True, kw_only=True):
    key: str
    tenant_type: str
    name: str
    printed: Printed = Printed()
    capacity: int
    cost: int
    bonus: int
    physical_count: int = 0


class TenantType(_Record, frozen=True, kw_only=True):
    key: str
    name: str
    population: int
    dice_source: tuple[str, ...]
    """Dice = min over these tenant types' nearby population (one entry = that population)."""
    requirement: Requirement
    rent: int
    effects: tuple[Effect, ...] = ()
    tokens: int


class TenantSubtype(_Record, frozen=True, kw_only=True):
    key: str
    tenant_type: str
    name: str
    printed: Printed = Printed()
    tokens: int
    population: int
    requirement: Requirement
    rent: int
    effects: tuple[Effect, ...] = ()


class Feature(_Record, frozen=True, kw_only=True):
    key: str
    name: str
    effects: tuple[Effect, ...]


class Neighbourhood(_Record, frozen=True, kw_only=True):
    key: str
    name: str
    printed: Printed = Printed()
    features: dict[str, str] = {}
    """Plot letter -> feature key; letters not listed are buildable."""


class CentrePlot(_Record, frozen=True, kw_only=True):
    letter: str
    building: str = ""
    """Building key, or empty for the city hall (no building for any rule)."""
    tenant_type: str = ""
    tenants: int = 0


class LandPriceSpace(_Record, frozen=True, kw_only=True):
    position: int
    price: int
    zone: str


class Zone(_Record, frozen=True, kw_only=True):
    key: str
    name: str
    risk_cards: int


class CrashTrack(_Record, frozen=True, kw_only=True):
    minimum: int
    maximum: int
    start: int
    tutorial_start: int


class TenantsMissingRisk(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Phase 4 step 1: risk cards when only 3, 2, or 1-or-0 tenant types are available."""

    three: int
    two: int
    one_or_none: int


class AdvertisingBands(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Phase 4 step 3: spent <= low_max is low (1 risk card); <= moderate_max moderate; above: high."""

    low_max: int
    moderate_max: int


class PlotsSoldSpace(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    land_price_increase: int
    risk_cards: int


class MarketBoard(_Record, frozen=True, kw_only=True):
    seats: int
    setup_for_sale: int
    start_tenants: dict[str, int]
    tenants_missing_risk: TenantsMissingRisk
    advertising: AdvertisingBands
    new_tenant_cards: int
    new_for_sale: int
    plots_sold: tuple[PlotsSoldSpace, ...]


class RiskCard(_Record, frozen=True, kw_only=True):
    id: str
    top: int
    """Crash marker movement (0..-3)."""
    bottom: int
    """Post-crash land price drop in positions (0..-2)."""


class NewTenantCard(_Record, frozen=True, kw_only=True):
    id: str
    base: dict[str, int]
    """Tenant type -> tokens added in the standard game."""
    subtypes: dict[str, int]
    """Tenant subtype -> tokens added in the advanced game."""


class ForSaleMarkers(_Record, frozen=True, kw_only=True):
    coordinates: tuple[str, ...]
    spares: int


class AiLevel(_Record, frozen=True, kw_only=True):
    level: int
    deck_size: int
    bid_percent: int
    """Solo bid = bid_percent/100 x land price, rounded up to the bid step (integer arithmetic)."""
    max_build_cost: int


class AiCard(_Record, frozen=True, kw_only=True):
    id: str
    level: int
    first_action: bool = False
    kind: str
    """"single", "land_price" or "crash"."""
    threshold: int = 0
    """Land price in $K (kind land_price) or crash track position (kind crash)."""
    top: str
    bottom: str = ""
    default: str
    ads: int


class AiDifficulty(_Record, frozen=True, kw_only=True):
    key: str
    name: str
    sale_value_modifier: int


class Company(_Record, frozen=True, kw_only=True):
    key: str
    name: str


class Components(_Record, frozen=True, kw_only=True):
    """Physical component counts the decks are checked against (§1)."""

    risk_cards: int
    new_tenant_cards: int
    ai_cards: int
    for_sale_markers: int


class Tutorial(_Record, frozen=True, kw_only=True):
    seats: tuple[str, ...]
    """Company keys in clockwise seat order."""
    first_player: str
    neighbourhoods: tuple[str, ...]
    """Neighbourhood keys for positions 1..6."""
    for_sale: tuple[str, ...]
    start_tenants: dict[str, int]
    crash_start: int


class Setup(_Record, frozen=True, kw_only=True):
    cash: int
    advertising: int
    ai_cash: int
    ai_advertising: int
    advertising_price: int
    free_advertising: int
    bid_step: int
    land_price_start: int
    min_seats: int
    max_seats: int
    neighbourhoods_in_play: int
    companies: tuple[Company, ...]
    ai_company: Company
    components: Components
    tutorial: Tutorial


class _Files(msgspec.Struct, frozen=True):
    """The raw shape of every data file, one field per file."""

    buildings: tuple[Building, ...]
    tenant_types: tuple[TenantType, ...]
    tenant_subtypes: tuple[TenantSubtype, ...]
    features: tuple[Feature, ...]
    neighbourhoods: tuple[Neighbourhood, ...]
    city_centre: tuple[CentrePlot, ...]
    land_price_track: tuple[LandPriceSpace, ...]
    zones: tuple[Zone, ...]
    crash_track: CrashTrack
    market_boards: tuple[MarketBoard, ...]
    risk_cards: tuple[RiskCard, ...]
    new_tenant_cards: tuple[NewTenantCard, ...]
    for_sale_markers: ForSaleMarkers
    ai_levels: tuple[AiLevel, ...]
    ai_cards: tuple[AiCard, ...]
    ai_difficulties: tuple[AiDifficulty, ...]
    setup: Setup


FILE_NAMES = tuple(_Files.__struct_fields__)

_ARRAY_KEYS: Mapping[str, str] = {
    "buildings": "building",
    "tenant_types": "tenant_type",
    "tenant_subtypes": "tenant_subtype",
    "features": "feature",
    "neighbourhoods": "neighbourhood",
    "city_centre": "plot",
    "land_price_track": "space",
    "zones": "zone",
    "market_boards": "board",
    "risk_cards": "card",
    "new_tenant_cards": "card",
    "ai_levels": "level",
    "ai_cards": "card",
    "ai_difficulties": "difficulty",
}
"""File name -> the array-of-tables key inside it; files not listed hold one table."""

LETTERS = "ABCDEFGHI"
OUTER_POSITIONS = range(1, 7)
AI_ACTIONS = ("buy", "build", "sell", "consult")
AI_CARD_KINDS = ("single", "land_price", "crash")


_R = TypeVar("_R", bound=msgspec.Struct)


class TenantKind(msgspec.Struct, frozen=True):
    """A tenant token as the rules see it: a type (standard game) or a subtype (advanced game)."""

    key: str
    tenant_type: str
    population: int
    requirement: Requirement
    rent: int
    effects: tuple[Effect, ...]
    tokens: int


class Catalog:
    """Every component table of one dataset, indexed for the rules. Immutable after construction."""

    def __init__(self, dataset: str, files: _Files) -> None:
        self.dataset = dataset
        self.files = files
        self.buildings = _index(files.buildings, "buildings")
        self.tenant_types = _index(files.tenant_types, "tenant_types")
        self.tenant_subtypes = _index(files.tenant_subtypes, "tenant_subtypes")
        self.features = _index(files.features, "features")
        self.neighbourhoods = _index(files.neighbourhoods, "neighbourhoods")
        self.centre = {p.letter: p for p in files.city_centre}
        self.zones = _index(files.zones, "zones")
        self.boards = {b.seats: b for b in files.market_boards}
        self.risk_cards = {c.id: c for c in files.risk_cards}
        self.new_tenant_cards = {c.id: c for c in files.new_tenant_cards}
        self.ai_levels = {lv.level: lv for lv in files.ai_levels}
        self.ai_cards = {c.id: c for c in files.ai_cards}
        self.ai_difficulties = _index(files.ai_difficulties, "ai_difficulties")
        self.crash = files.crash_track
        self.setup = files.setup
        self.for_sale = files.for_sale_markers
        self.type_order: tuple[str, ...] = tuple(t.key for t in files.tenant_types)
        self.kinds: dict[str, TenantKind] = {
            t.key: TenantKind(t.key, t.key, t.population, t.requirement, t.rent, t.effects, t.tokens)
            for t in files.tenant_types
        } | {
            s.key: TenantKind(s.key, s.tenant_type, s.population, s.requirement, s.rent, s.effects, s.tokens)
            for s in files.tenant_subtypes
        }
        self._prices = {s.position: s for s in files.land_price_track}
        self.land_price_min = min(self._prices)
        self.land_price_max = max(self._prices)
        _validate(self)

    def price(self, position: int) -> int:
        """The land price in $K at a track position (T6)."""
        return self._prices[position].price

    def zone(self, position: int) -> Zone:
        """The land price zone of a track position (T7)."""
        return self.zones[self._prices[position].zone]

    def board(self, seats: int) -> MarketBoard:
        """The property market board used with this many seats (T9/T10)."""
        return self.boards[seats]

    def kind_keys(self, advanced: bool) -> tuple[str, ...]:
        """The tenant kinds in play: subtypes in the advanced game, types otherwise (catalogue order)."""
        if advanced:
            return tuple(s.key for s in self.files.tenant_subtypes)
        return self.type_order

    def kinds_of_type(self, tenant_type: str, advanced: bool) -> tuple[str, ...]:
        """The tenant kinds of one type that can occupy a building of that type."""
        return tuple(k for k in self.kind_keys(advanced) if self.kinds[k].tenant_type == tenant_type)


def _index(rows: Iterable[_R], what: str) -> dict[str, _R]:
    out: dict[str, _R] = {}
    for row in rows:
        key = getattr(row, "key")  # noqa: B009 - keyed records share no base type
        if key in out:
            raise DataError(f"{what}: duplicate key {key!r}")
        out[key] = row
    return out


@cache
def catalog(dataset: str = DEFAULT_DATASET) -> Catalog:
    """The validated catalog of a dataset, read from the package's data files once per process. DataError for a
    name that is not a dataset's (only ``v<n>`` folders of the package's ``data`` are: no other path is read)."""
    raw: dict[str, Any] = {}
    for name in FILE_NAMES:
        document = FILES.read(dataset, f"{name}.toml")
        raw[name] = document[_ARRAY_KEYS[name]] if name in _ARRAY_KEYS else document
    return Catalog(dataset, convert(raw, _Files, f"dataset {dataset!r}"))


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise DataError(message)


def _records(files: _Files) -> Iterable[tuple[str, _Record]]:
    for name in FILE_NAMES:
        value = getattr(files, name)
        rows = value if isinstance(value, tuple) else (value,)
        for row in rows:
            yield name, row
    yield "setup.components", files.setup.components
    yield "setup.tutorial", files.setup.tutorial
    yield "setup.ai_company", files.setup.ai_company
    for company in files.setup.companies:
        yield "setup.companies", company


def _validate_provenance(files: _Files) -> None:
    for where, record in _records(files):
        _check(bool(record.source), f"{where}: record without provenance: {record!r}")
        fields = set(type(record).__struct_fields__) | {"*"}
        for field, tag in record.source.items():
            _check(field in fields, f"{where}: provenance for unknown field {field!r}")
            _check(tag.split(":")[0].strip() in PROVENANCE_PREFIXES, f"{where}: bad provenance tag {tag!r}")


def _validate_effects(cat: Catalog, where: str, effects: Iterable[Effect]) -> None:
    for effect in effects:
        _check(effect.building_type in cat.tenant_types, f"{where}: effect on unknown type {effect!r}")
        _check(effect.delta in (-1, 1), f"{where}: effect delta must be +1 or -1: {effect!r}")


def _validate_tenants(cat: Catalog) -> None:
    _check(not set(cat.tenant_types) & set(cat.tenant_subtypes), "tenant type and subtype keys overlap")
    for t in cat.tenant_types.values():
        _check(all(s in cat.tenant_types for s in t.dice_source), f"tenant type {t.key}: bad dice_source")
        _validate_effects(cat, f"tenant type {t.key}", t.effects)
        subtypes = [s for s in cat.tenant_subtypes.values() if s.tenant_type == t.key]
        _check(bool(subtypes), f"tenant type {t.key} has no subtypes")
        _check(sum(s.tokens for s in subtypes) == t.tokens, f"tenant type {t.key}: subtype tokens != {t.tokens}")
    for s in cat.tenant_subtypes.values():
        _check(s.tenant_type in cat.tenant_types, f"subtype {s.key}: unknown type {s.tenant_type}")
        _check(s.population == cat.tenant_types[s.tenant_type].population, f"subtype {s.key}: population")
        _validate_effects(cat, f"subtype {s.key}", s.effects)
    for kind in cat.kinds.values():
        _check(kind.requirement.dice > 0 and kind.requirement.at_least > 0, f"{kind.key}: bad requirement")


def _validate_city(cat: Catalog) -> None:
    for b in cat.buildings.values():
        _check(b.tenant_type in cat.tenant_types, f"building {b.key}: unknown tenant type")
        _check(b.capacity > 0 and b.cost > 0 and b.bonus >= 0, f"building {b.key}: bad numbers")
    for f in cat.features.values():
        _validate_effects(cat, f"feature {f.key}", f.effects)
    for n in cat.neighbourhoods.values():
        for letter, feature in n.features.items():
            _check(letter in LETTERS and feature in cat.features, f"neighbourhood {n.key}: bad plot {letter}")
    _check(len(cat.neighbourhoods) >= cat.setup.neighbourhoods_in_play, "too few neighbourhood tiles")
    _check(sorted(cat.centre) == list(LETTERS), "city centre must list plots A..I once each")
    for c in cat.centre.values():
        if c.building:
            held = cat.buildings.get(c.building)
            _check(held is not None and held.tenant_type == c.tenant_type, f"centre {c.letter}: bad building")
            _check(held is not None and 0 <= c.tenants <= held.capacity, f"centre {c.letter}: over capacity")


def _validate_tracks(cat: Catalog) -> None:
    positions = sorted(cat._prices)
    _check(positions == list(range(1, len(positions) + 1)), "land price positions must be 1..N")
    prices = [cat.price(p) for p in positions]
    _check(all(a <= b for a, b in itertools.pairwise(prices)), "land price track is not monotone")
    _check(all(s.zone in cat.zones for s in cat.files.land_price_track), "land price space in unknown zone")
    start = cat.setup.land_price_start
    _check(cat.land_price_min <= start <= cat.land_price_max, "land price start off the track")
    crash = cat.crash
    _check(crash.minimum <= min(crash.start, crash.tutorial_start), "crash start below the track")
    _check(max(crash.start, crash.tutorial_start) <= crash.maximum, "crash start above the track")


def _validate_boards(cat: Catalog) -> None:
    for seats in range(cat.setup.min_seats, cat.setup.max_seats + 1):
        _check(seats in cat.boards, f"no market board for {seats} seats")
    for b in cat.boards.values():
        _check(set(b.start_tenants) <= set(cat.tenant_types), f"board {b.seats}: unknown start tenants")
        _check(bool(b.plots_sold), f"board {b.seats}: empty plots-sold track")
        _check(b.advertising.low_max < b.advertising.moderate_max, f"board {b.seats}: advertising bands")


def _validate_decks(cat: Catalog) -> None:
    files, counts = cat.files, cat.setup.components
    _check(len(cat.risk_cards) == len(files.risk_cards) == counts.risk_cards, "risk deck size")
    _check(len(cat.new_tenant_cards) == len(files.new_tenant_cards) == counts.new_tenant_cards, "tenant deck")
    for card in files.new_tenant_cards:
        base = dict.fromkeys(cat.tenant_types, 0)
        for subtype, n in card.subtypes.items():
            _check(subtype in cat.tenant_subtypes, f"{card.id}: unknown subtype {subtype}")
            base[cat.tenant_subtypes[subtype].tenant_type] += n
        _check({k: v for k, v in base.items() if v} == card.base, f"{card.id}: base and subtype parts differ")
    markers = files.for_sale_markers
    _check(len(set(markers.coordinates)) == len(markers.coordinates), "duplicate 'for sale' coordinates")
    _check(len(markers.coordinates) + markers.spares == counts.for_sale_markers, "'for sale' marker count")
    for coordinate in markers.coordinates:
        _check(len(coordinate) == 2 and coordinate[0].isdigit() and int(coordinate[0]) in OUTER_POSITIONS
               and coordinate[1] in LETTERS, f"bad 'for sale' coordinate {coordinate}")


def _validate_ai(cat: Catalog) -> None:
    files = cat.files
    _check(len(cat.ai_cards) == len(files.ai_cards) == files.setup.components.ai_cards, "AI deck size")
    for level in cat.ai_levels.values():
        size = sum(1 for c in files.ai_cards if c.level == level.level)
        _check(size == level.deck_size, f"AI level {level.level}: {size} cards, expected {level.deck_size}")
        _check(level.bid_percent > 0 and level.max_build_cost > 0, f"AI level {level.level}: bad numbers")
    first = [c for c in files.ai_cards if c.first_action]
    _check(len(first) == 1 and first[0].level == min(cat.ai_levels), "exactly one first AI action card at level I")
    for c in files.ai_cards:
        _check(c.level in cat.ai_levels and c.kind in AI_CARD_KINDS, f"{c.id}: bad level or kind")
        _check(c.top in AI_ACTIONS and c.default in AI_ACTIONS, f"{c.id}: bad action")
        _check((c.kind == "single") == (c.bottom == ""), f"{c.id}: bottom action iff a threshold card")
        _check(c.kind == "single" or c.bottom in AI_ACTIONS, f"{c.id}: bad bottom action")
    _check(bool(cat.ai_difficulties), "no AI difficulties")


def _validate_setup(cat: Catalog) -> None:
    setup = cat.setup
    companies = {c.key for c in setup.companies}
    _check(len(companies) == len(setup.companies) >= setup.max_seats - 1, "companies")
    tut = setup.tutorial
    _check(set(tut.seats) <= companies and len(set(tut.seats)) == len(tut.seats), "tutorial seats")
    _check(len(tut.seats) in cat.boards and tut.first_player in tut.seats, "tutorial seat count / first player")
    _check(len(tut.neighbourhoods) == len(OUTER_POSITIONS), "tutorial needs six neighbourhoods")
    _check(all(n in cat.neighbourhoods for n in tut.neighbourhoods), "tutorial: unknown neighbourhood")
    for coordinate in tut.for_sale:
        _check(coordinate in cat.for_sale.coordinates, f"tutorial marker {coordinate} is not a coordinate")
        tile = cat.neighbourhoods[tut.neighbourhoods[int(coordinate[0]) - 1]]
        _check(coordinate[1] not in tile.features, f"tutorial marker {coordinate} is on a feature plot")
    _check(cat.crash.minimum <= tut.crash_start <= cat.crash.maximum, "tutorial crash start off the track")


def _validate_unique(cat: Catalog) -> None:
    files = cat.files
    indexes: tuple[tuple[str, Mapping[Any, Any], tuple[Any, ...]], ...] = (
        ("city_centre letters", cat.centre, files.city_centre),
        ("land price positions", cat._prices, files.land_price_track),
        ("market board seats", cat.boards, files.market_boards),
        ("risk card ids", cat.risk_cards, files.risk_cards),
        ("new tenant card ids", cat.new_tenant_cards, files.new_tenant_cards),
        ("AI levels", cat.ai_levels, files.ai_levels),
        ("AI card ids", cat.ai_cards, files.ai_cards),
    )
    for what, index, rows in indexes:
        _check(len(index) == len(rows), f"duplicate {what}")


def _validate(cat: Catalog) -> None:
    _validate_unique(cat)
    _validate_provenance(cat.files)
    _validate_tenants(cat)
    _validate_city(cat)
    _validate_tracks(cat)
    _validate_boards(cat)
    _validate_decks(cat)
    _validate_ai(cat)
    _validate_setup(cat)
