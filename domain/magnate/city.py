"""The city: plot geometry (§2), nearby population (§6.2), neighbour effects (§6.3) and plot value (§7.5).

Plots are named ``<position><letter>``: position 0 is the city centre, 1-6 the neighbourhoods
clockwise from the top; letters A-I run row by row over a tile's 3x3 grid.
"""

from __future__ import annotations

from functools import cache

from domain.kernel import InvalidValue
from domain.kernel.phrases import say

from .catalog import LETTERS, Catalog, Effect, catalog
from .state import MagnateState, PlotState

CENTRE = 0
POSITIONS = range(7)
ALL_PLOTS: tuple[str, ...] = tuple(f"{p}{letter}" for p in POSITIONS for letter in LETTERS)
_INDEX = {plot: i for i, plot in enumerate(ALL_PLOTS)}


def catalog_of(state: MagnateState) -> Catalog:
    """The component data the game was created with."""
    return catalog(state.dataset)


def plot_index(plot: str) -> int:
    """The index of a plot in ``MagnateState.plots``; an unknown name is an InvalidValue."""
    try:
        return _INDEX[plot]
    except KeyError:
        raise InvalidValue(phrase=say("there is no plot {plot}", plot=plot), plot=plot) from None


def position_of(plot: str) -> int:
    return plot_index(plot) // len(LETTERS)


def plot_at(state: MagnateState, plot: str) -> PlotState:
    return state.plots[plot_index(plot)]


def with_plot(state: MagnateState, plot: str, new: PlotState) -> tuple[PlotState, ...]:
    """The plots tuple with one plot replaced."""
    i = plot_index(plot)
    return (*state.plots[:i], new, *state.plots[i + 1 :])


@cache
def adjacent(plot: str) -> tuple[str, ...]:
    """Plots sharing an edge or corner with ``plot`` on the same tile (§2.2); never across tiles."""
    position, index = divmod(plot_index(plot), len(LETTERS))
    row, col = divmod(index, 3)
    return tuple(
        f"{position}{LETTERS[r * 3 + c]}"
        for r in range(max(0, row - 1), min(3, row + 2))
        for c in range(max(0, col - 1), min(3, col + 2))
        if (r, c) != (row, col)
    )


@cache
def nearby(position: int) -> tuple[int, ...]:
    """The tiles whose population counts for a building at ``position`` (§2.3): itself, the centre and
    its two ring neighbours; the centre touches every tile."""
    if position == CENTRE:
        return tuple(POSITIONS)
    ring = len(POSITIONS) - 1
    left = (position - 2) % ring + 1
    right = position % ring + 1
    return tuple(sorted({position, CENTRE, left, right}))


def population(state: MagnateState, tenant_type: str, position: int) -> int:
    """Population of ``tenant_type`` tokens in every building on the tiles nearby ``position`` (§6.2)."""
    cat = catalog_of(state)
    total = 0
    for tile in nearby(position):
        start = tile * len(LETTERS)
        for plot in state.plots[start : start + len(LETTERS)]:
            for kind in plot.tenants:
                info = cat.kinds[kind]
                if info.tenant_type == tenant_type:
                    total += info.population
    return total


def building_type(state: MagnateState, plot: str) -> str:
    """The tenant type of the building on ``plot`` (which must have one)."""
    building = plot_at(state, plot).building
    assert building is not None, f"{plot} has no building"
    return catalog_of(state).buildings[building].tenant_type


def dice_count(state: MagnateState, plot: str, tenant_type: str | None = None) -> int:
    """How many dice a building of ``tenant_type`` (default: the one on the plot) rolls (§6.2)."""
    kind = tenant_type or building_type(state, plot)
    sources = catalog_of(state).tenant_types[kind].dice_source
    position = position_of(plot)
    return min(population(state, source, position) for source in sources)


def sources(state: MagnateState, plot: str) -> frozenset[tuple[str, str]]:
    """Distinct neighbour sources of ``plot`` (§6.3): ("feature", key) and ("tenant", kind) pairs from
    adjacent plots. The plot's own tenants never count; duplicates count once."""
    found: set[tuple[str, str]] = set()
    for other in adjacent(plot):
        neighbour = plot_at(state, other)
        if neighbour.feature is not None:
            found.add(("feature", neighbour.feature))
        found.update(("tenant", kind) for kind in neighbour.tenants)
    return frozenset(found)


def effects_of(cat: Catalog, source: tuple[str, str]) -> tuple[Effect, ...]:
    what, key = source
    return cat.features[key].effects if what == "feature" else cat.kinds[key].effects


def modifier(state: MagnateState, plot: str, tenant_type: str) -> int:
    """Net neighbour modifier for a building of ``tenant_type`` on ``plot`` (bonuses minus penalties)."""
    cat = catalog_of(state)
    return sum(
        effect.delta
        for source in sources(state, plot)
        for effect in effects_of(cat, source)
        if effect.building_type == tenant_type
    )


def dice_modifier(state: MagnateState, plot: str) -> int:
    """What is added to every attraction die: neighbour modifier plus the building bonus (§6.1 step 5)."""
    cat = catalog_of(state)
    building = cat.buildings[_building_key(state, plot)]
    return modifier(state, plot, building.tenant_type) + building.bonus


def plot_value(state: MagnateState, plot: str, adjustment: int = 0) -> int:
    """The sale value of a plot (§7.5) plus ``adjustment`` (the AI's difficulty modifier), floored at 0.

    Land 1; with a building +1, + tenant population, + matching neighbour bonuses/penalties,
    + the building bonus. An unbuilt plot is worth exactly 1 (before the adjustment).
    """
    state_plot = plot_at(state, plot)
    value = 1
    if state_plot.building is not None:
        cat = catalog_of(state)
        value += 1 + sum(cat.kinds[k].population for k in state_plot.tenants) + dice_modifier(state, plot)
    return max(0, value + adjustment)


def _building_key(state: MagnateState, plot: str) -> str:
    building = plot_at(state, plot).building
    assert building is not None, f"{plot} has no building"
    return building


def owned_by(state: MagnateState, seat: int) -> tuple[str, ...]:
    """The plots a seat owns, in coordinate order."""
    return tuple(ALL_PLOTS[i] for i, p in enumerate(state.plots) if p.owner == seat)


def is_buildable(state: MagnateState, plot: str) -> bool:
    """An outer, non-feature plot (§2.4)."""
    return position_of(plot) != CENTRE and plot_at(state, plot).feature is None
