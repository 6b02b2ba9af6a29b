"""The public component tables of Magnate, as a client needs them to draw a game (names, effects, costs,
tracks, AI cards): what ``GET /api/catalog/magnate`` serves, so no client ever hard-codes a table. Immutable
per dataset (cached)."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from domain.kernel.catalogs import public_catalog as catalog_of

from .catalog import DEFAULT_DATASET, Catalog, Effect, Requirement, catalog


class EffectOut(msgspec.Struct, frozen=True):
    building_type: str
    delta: int
    """+1 bonus, -1 penalty on adjacent buildings of ``building_type``."""


class RequirementOut(msgspec.Struct, frozen=True):
    dice: int
    at_least: int


class CompanyOut(msgspec.Struct, frozen=True):
    key: str
    name: str


class BuildingOut(msgspec.Struct, frozen=True):
    key: str
    name: str
    tenant_type: str
    capacity: int
    cost: int
    bonus: int
    tenants: str = ""
    """The name of its tenant type (``Home``): a word of the catalog, for a reader (the rules' table)."""


class TenantKindOut(msgspec.Struct, frozen=True):
    key: str
    name: str
    letter: str
    """A short label that tells kinds apart without colour: ``H`` for homes, ``PC`` for a professional couple."""
    tenant_type: str
    population: int
    rent: int
    requirement: RequirementOut
    effects: tuple[EffectOut, ...]


class FeatureOut(msgspec.Struct, frozen=True):
    key: str
    name: str
    effects: tuple[EffectOut, ...]


class NeighbourhoodOut(msgspec.Struct, frozen=True):
    key: str
    name: str
    features: dict[str, str]
    """Plot letter -> feature key."""


class LandPriceOut(msgspec.Struct, frozen=True):
    position: int
    price: int
    zone: str


class ZoneOut(msgspec.Struct, frozen=True):
    key: str
    name: str
    risk_cards: int


class CrashTrackOut(msgspec.Struct, frozen=True):
    minimum: int
    maximum: int


class DifficultyOut(msgspec.Struct, frozen=True):
    key: str
    name: str
    sale_value_modifier: int


class AiCardOut(msgspec.Struct, frozen=True):
    id: str
    level: int
    kind: str
    threshold: int
    top: str
    bottom: str
    default: str
    ads: int


class RiskCardOut(msgspec.Struct, frozen=True):
    id: str
    top: int
    bottom: int


class SetupOut(msgspec.Struct, frozen=True):
    cash: int
    advertising: int
    advertising_price: int
    free_advertising: int
    bid_step: int
    min_seats: int
    max_seats: int
    tutorial_seats: int


class CatalogOut(msgspec.Struct, frozen=True):
    game: str
    dataset: str
    companies: tuple[CompanyOut, ...]
    ai_company: CompanyOut
    buildings: tuple[BuildingOut, ...]
    tenant_types: tuple[TenantKindOut, ...]
    tenant_subtypes: tuple[TenantKindOut, ...]
    features: tuple[FeatureOut, ...]
    neighbourhoods: tuple[NeighbourhoodOut, ...]
    land_price_track: tuple[LandPriceOut, ...]
    zones: tuple[ZoneOut, ...]
    crash_track: CrashTrackOut
    difficulties: tuple[DifficultyOut, ...]
    ai_cards: tuple[AiCardOut, ...]
    risk_cards: tuple[RiskCardOut, ...]
    setup: SetupOut


def initials(name: str) -> str:
    """``Professional couple`` -> ``PC``; ``Home`` -> ``H``."""
    return "".join(word[0] for word in name.replace("-", " ").split() if word[0].isalnum()).upper()


def letters(names: dict[str, str]) -> dict[str, str]:
    """Short labels by key: the initials of each name; names whose initials collide are all spelled out
    one more letter at a time until they differ."""
    out = {key: initials(name) or key[:1].upper() for key, name in names.items()}
    for width in range(2, max((len(n) for n in names.values()), default=0) + 1):
        clashes = [k for k, v in out.items() if list(out.values()).count(v) > 1]
        if not clashes:
            break
        for key in clashes:
            out[key] = names[key].replace(" ", "")[:width].upper()
    return out


def _effects(effects: Iterable[Effect]) -> tuple[EffectOut, ...]:
    return tuple(EffectOut(e.building_type, e.delta) for e in effects)


def _requirement(r: Requirement) -> RequirementOut:
    return RequirementOut(r.dice, r.at_least)


def _public_catalog(dataset: str) -> CatalogOut:
    cat: Catalog = catalog(dataset)
    files, setup = cat.files, cat.setup
    type_letters = letters({t.key: t.name for t in files.tenant_types})
    sub_letters = letters({s.key: s.name for s in files.tenant_subtypes})
    return CatalogOut(
        game="magnate",
        dataset=dataset,
        companies=tuple(CompanyOut(c.key, c.name) for c in setup.companies),
        ai_company=CompanyOut(setup.ai_company.key, setup.ai_company.name),
        buildings=tuple(BuildingOut(b.key, b.name, b.tenant_type, b.capacity, b.cost, b.bonus,
                                    cat.tenant_types[b.tenant_type].name)
                        for b in files.buildings),
        tenant_types=tuple(
            TenantKindOut(t.key, t.name, type_letters[t.key], t.key, t.population, t.rent,
                          _requirement(t.requirement), _effects(t.effects))
            for t in files.tenant_types
        ),
        tenant_subtypes=tuple(
            TenantKindOut(s.key, s.name, sub_letters[s.key], s.tenant_type, s.population, s.rent,
                          _requirement(s.requirement), _effects(s.effects))
            for s in files.tenant_subtypes
        ),
        features=tuple(FeatureOut(f.key, f.name, _effects(f.effects)) for f in files.features),
        neighbourhoods=tuple(NeighbourhoodOut(n.key, n.name, dict(n.features)) for n in files.neighbourhoods),
        land_price_track=tuple(LandPriceOut(s.position, s.price, s.zone) for s in files.land_price_track),
        zones=tuple(ZoneOut(z.key, z.name, z.risk_cards) for z in files.zones),
        crash_track=CrashTrackOut(cat.crash.minimum, cat.crash.maximum),
        difficulties=tuple(DifficultyOut(d.key, d.name, d.sale_value_modifier) for d in files.ai_difficulties),
        ai_cards=tuple(AiCardOut(c.id, c.level, c.kind, c.threshold, c.top, c.bottom, c.default, c.ads)
                       for c in files.ai_cards),
        risk_cards=tuple(RiskCardOut(c.id, c.top, c.bottom) for c in files.risk_cards),
        setup=SetupOut(setup.cash, setup.advertising, setup.advertising_price, setup.free_advertising,
                       setup.bid_step, setup.min_seats, setup.max_seats, len(setup.tutorial.seats)),
    )


public_catalog = catalog_of(_public_catalog, DEFAULT_DATASET)
"""The tables of a dataset (None: the current one), each built once; KeyError for an unknown dataset."""
