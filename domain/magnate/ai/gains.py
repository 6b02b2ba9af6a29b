"""What each action of a person's seat in Magnate is expected to gain by the crash, in $K (the advice's evaluation,
:mod:`.advice`; docs/AI.md, "Advice").

The crash marker falls about :data:`FALL` tenths of a position a round, so ``crash * 10 / FALL`` rounds remain
(counted in tenths, integers throughout). Over them:

* consulting gains the land price now, the yardstick: every other action is scored as its gain over the crash, and
  one scoring at most 0 is not worth an action;
* a building is worth its cost back in plot value and rent: the tenants it may fill in the rounds left (one a
  round, at most its capacity), each paying the average rent of its type for half the rounds left, and the plot's
  value (land 1, building 1, the tenants' population, the neighbours' modifier) at today's land price, for which
  it will be sold before the crash;
* a plot for sale is worth the best building it could carry a round later (one the cash left after buying it
  pays for), less its price; an adjacent plot (twice the price) never is;
* selling is what the end demands: a plot fetches today's price, but at the crash (§10) whatever is still owned
  goes at the crashed price, a fraction of it. Each action sells one plot, three actions a round, so once the seat
  owns as many plots as it has actions left (less :data:`SLACK`), it sells, the most valuable first; before that
  a sale only gives up the plot's rent.
"""

from __future__ import annotations

from ..city import catalog_of, modifier, owned_by, plot_at, plot_value
from ..commands import Build
from ..rules.actions import land_price, purchase_price
from ..state import MagnateState

FALL = 14
"""Tenths of a crash-track position the risk cards take a round, on average."""
SLACK = 4
"""Actions kept in hand beyond one per plot to sell: the crash may come a round early."""
MUST = 1_000_000
"""Added to a sale the end demands, which comes before any other action."""
PASSES = 3
"""Actions a seat takes a round (§7)."""


def rounds_left(state: MagnateState) -> int:
    """The rounds expected before the crash, in tenths."""
    return max(0, state.crash * 100 // FALL)


def actions_left(state: MagnateState) -> int:
    """The seat's actions expected before the crash (this one included)."""
    return PASSES * rounds_left(state) // 10 - state.action_pass


def must_sell(state: MagnateState, seat: int) -> bool:
    """The seat owns as many plots as it has actions left to sell them (less :data:`SLACK`)."""
    return len(owned_by(state, seat)) + SLACK >= actions_left(state)


def build_gain(state: MagnateState, plot: str, building: str, tenths: int | None = None) -> tuple[int, int]:
    """What building ``building`` on ``plot`` gains over its cost by the crash, in $K, and the tenants it is
    expected to fill (``tenths``: the rounds left, in tenths; by default :func:`rounds_left`)."""
    cat = catalog_of(state)
    kind = cat.buildings[building]
    tenths = rounds_left(state) if tenths is None else tenths
    tenants = [k for k in cat.kinds.values() if k.tenant_type == kind.tenant_type]
    population = sum(k.population for k in tenants) * 10 // max(1, len(tenants))
    rent = sum(k.rent for k in tenants) // max(1, len(tenants))
    fill = min(kind.capacity, max(10, tenths) // 10)
    value = (20 + fill * population + 10 * modifier(state, plot, kind.tenant_type)) * land_price(state) // 10
    return value + fill * rent * tenths // 20 - kind.cost, fill


def best_building(state: MagnateState, plot: str, tenths: int, cash: int) -> tuple[str, int] | None:
    """The building costing at most ``cash`` that ``plot`` would best carry, and its gain (:func:`build_gain`)."""
    gains = [(build_gain(state, plot, b.key, tenths)[0], b.key) for b in catalog_of(state).buildings.values()
             if b.cost <= cash]
    if not gains:
        return None
    gain, building = max(gains)
    return building, gain


def buy_gain(state: MagnateState, seat: int, plot: str) -> tuple[int, str]:
    """What buying ``plot`` gains by the crash (the best building on it a round later, less its price), and that
    building; an adjacent plot, or one bought with under two rounds left, loses its price."""
    price = purchase_price(state, seat, plot) or 0
    tenths = rounds_left(state) - 5
    if not plot_at(state, plot).for_sale or tenths < 20:
        return -price, ""
    best = best_building(state, plot, tenths, state.seats[seat].cash - price)
    if best is None:
        return -price, ""
    building, gain = best
    return gain - price, building


def sale_gain(state: MagnateState, seat: int, plot: str) -> int:
    """A sale's score: the amount it fetches, ahead of everything once the end demands it; before that, minus
    one for each place of value it gives up."""
    if must_sell(state, seat):
        return MUST + plot_value(state, plot) * land_price(state)
    return -1 - plot_value(state, plot)


def unbuilt(state: MagnateState, command: Build) -> bool:
    return plot_at(state, command.plot).building is None
