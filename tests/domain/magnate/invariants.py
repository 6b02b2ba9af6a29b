"""What must hold after every event of a started Magnate game (used by the property and AI game tests)."""

from __future__ import annotations

from collections import Counter

from domain.magnate import MagnateState
from domain.magnate.catalog import catalog
from domain.magnate.city import ALL_PLOTS, is_buildable

MAX_ROUNDS = 30
"""The risk deck's tops sum (-22) exceeds the crash track's start (10), so every game crashes, in practice
within about ten rounds."""


def assert_invariants(state: MagnateState, where: str) -> None:
    """Everything that must hold after every event of a started game."""
    cat = catalog(state.dataset)
    for seat, s in enumerate(state.seats):
        assert s.cash >= 0, f"{where}: seat {seat} has negative cash {s.cash}"
        assert s.advertising >= 0, f"{where}: seat {seat} has negative advertising {s.advertising}"

    kinds = cat.kind_keys(state.advanced)
    assert len(state.supply) == len(state.available) == len(kinds), f"{where}: pools misaligned"
    housed = Counter(kind for plot in state.plots for kind in plot.tenants)
    assert set(housed) <= set(kinds), f"{where}: tenants of kinds not in play: {set(housed) - set(kinds)}"
    for kind, supply, available in zip(kinds, state.supply, state.available, strict=True):
        assert supply >= 0 and available >= 0, f"{where}: negative pool for {kind}: {supply}, {available}"
        total = supply + available + housed[kind]
        assert total == cat.kinds[kind].tokens, (
            f"{where}: {kind} tokens not conserved: supply {supply} + available {available} "
            f"+ housed {housed[kind]} = {total} != {cat.kinds[kind].tokens}"
        )

    assert len(state.plots) == len(ALL_PLOTS), f"{where}: {len(state.plots)} plots"
    for name, plot in zip(ALL_PLOTS, state.plots, strict=True):
        if plot.owner is not None:
            assert 0 <= plot.owner < len(state.seats), f"{where}: {name} owned by unknown seat {plot.owner}"
            assert is_buildable(state, name), f"{where}: {name} (centre or feature plot) has an owner"
        if plot.for_sale:
            assert is_buildable(state, name) and plot.owner is None, f"{where}: bad 'for sale' marker on {name}"
        if plot.building is None:
            assert not plot.tenants, f"{where}: tenants {plot.tenants} on {name} without a building"
            continue
        building = cat.buildings[plot.building]
        assert len(plot.tenants) <= building.capacity, f"{where}: {name} over capacity: {plot.tenants}"
        wrong = [k for k in plot.tenants if cat.kinds[k].tenant_type != building.tenant_type]
        assert not wrong, f"{where}: {name} ({building.key}) houses tenants of another type: {wrong}"

    assert cat.land_price_min <= state.land_price <= cat.land_price_max, f"{where}: land price {state.land_price}"
    assert cat.crash.minimum <= state.crash <= cat.crash.maximum, f"{where}: crash marker {state.crash}"
    assert state.round <= MAX_ROUNDS, f"{where}: still playing in round {state.round}"
