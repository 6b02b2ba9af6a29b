"""The general supply (spec §1, §15.9): commodity cubes and factory markers on no board. With
``finite_commodity_supply`` the usable cubes of each commodity are a hard limit (ME-R-5, ME-T-14); the factory
markers always are (ME-I-4)."""

from __future__ import annotations

from .holders import cat_of
from .state import State


def on_factories(state: State) -> tuple[int, ...]:
    """The inputs sitting on supplied factories, per commodity (out of the supply until production)."""
    cat = cat_of(state)
    total = [0] * len(cat.commodities)
    for corp in state.corps:
        for factory, count in enumerate(corp.supplied):
            for c, n in enumerate(cat.inputs(factory)):
                total[c] += n * count
    return tuple(total)


def cubes_left(state: State, commodity: int) -> int:
    """Usable cubes of ``commodity`` in the supply (may go below 0 only without the finite-supply option)."""
    cat = cat_of(state)
    in_use = sum(corp.goods[commodity] for corp in state.corps if corp.goods) + on_factories(state)[commodity]
    return cat.commodities[commodity].usable - in_use


def limited(state: State) -> bool:
    return state.variant.finite_commodity_supply


def markers_left(state: State, factory: int) -> int:
    cat = cat_of(state)
    return cat.factories[factory].markers - sum(corp.factories[factory] for corp in state.corps if corp.factories)
