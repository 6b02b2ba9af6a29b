"""Phase 3, player actions (§7): three passes, one action per seat per pass, in turn order."""

from __future__ import annotations

from collections import Counter

from msgspec.structs import replace

from domain.kernel import InvalidValue, Seat
from domain.kernel.phrases import say, say_n, term

from .. import pool
from ..city import adjacent, catalog_of, is_buildable, plot_at, plot_index, plot_value, with_plot
from ..errors import BadReturnedTenants, InsufficientFunds, NotOwner, PlotUnavailable, SameBuilding
from ..events import AdvertisingTaken, BuildingBuilt, Consulted, LandBought, PhaseStarted, PlotSold
from ..money import cash
from ..recorder import Recorder
from ..state import MagnateState, Phase, update_seat
from .turns import require_turn

ACTION_PASSES = 3
"""§7: three passes of one action per seat."""
ADJACENT_PRICE_FACTOR = 2
"""§7.1 option B: an adjacent unmarked plot costs twice the land price."""


def land_price(state: MagnateState) -> int:
    return catalog_of(state).price(state.land_price)


def purchase_price(state: MagnateState, seat: int, plot: str) -> int | None:
    """What ``seat`` would pay for ``plot`` (§7.1), or None when it cannot be bought at all."""
    here = plot_at(state, plot)
    if not is_buildable(state, plot) or here.owner is not None or here.building is not None:
        return None
    if here.for_sale:
        return land_price(state)
    if any(plot_at(state, other).owner == seat for other in adjacent(plot)):
        return ADJACENT_PRICE_FACTOR * land_price(state)
    return None


def buy_land(state: MagnateState, seat: Seat, plot: str) -> list[LandBought]:
    require_turn(state, seat, Phase.ACTIONS)
    plot_index(plot)
    price = purchase_price(state, seat, plot)
    if price is None:
        raise PlotUnavailable(
            phrase=say("{plot} cannot be bought: only 'for sale' plots, or unmarked empty plots next to yours",
                       plot=plot),
            plot=plot,
        )
    _require_cash(state, seat, price)
    return [LandBought(seat=seat, plot=plot, price=price, adjacent=not plot_at(state, plot).for_sale)]


def build(
    state: MagnateState, seat: Seat, plot: str, building: str, returned: tuple[str, ...] | None
) -> list[BuildingBuilt]:
    """§7.2: build, or replace your building (no refund; tenants that no longer fit go back)."""
    require_turn(state, seat, Phase.ACTIONS)
    cat = catalog_of(state)
    if building not in cat.buildings:
        raise InvalidValue(phrase=say("unknown building {building}", building=building), building=building)
    here = plot_at(state, plot)
    if here.owner != seat:
        raise NotOwner(phrase=say("you do not own {plot}", plot=plot), plot=plot)
    if here.building == building:
        raise SameBuilding(phrase=say("{plot} already holds this building ({building})", plot=plot,
                                      building=term(catalog_of(state).buildings[building].name)), plot=plot)
    new = cat.buildings[building]
    _require_cash(state, seat, new.cost)
    other = [k for k in here.tenants if cat.kinds[k].tenant_type != new.tenant_type]
    same = [k for k in here.tenants if cat.kinds[k].tenant_type == new.tenant_type]
    excess = max(0, len(same) - new.capacity)
    if returned is None:
        by_rent = sorted(same, key=lambda k: (cat.kinds[k].rent, k))
        chosen = by_rent[:excess]
    else:
        chosen = list(returned)
        if len(chosen) != excess or Counter(chosen) - Counter(same):
            raise BadReturnedTenants(
                phrase=say_n("name exactly {n} of the building's own tenants ({type}) to return",
                             "name exactly {n} of the building's own tenants ({type}) to return", "n", n=excess,
                             type=term(catalog_of(state).tenant_types[new.tenant_type].name)),
                returned=list(returned),
            )
    gone = tuple(sorted(other + chosen))
    return [BuildingBuilt(seat=seat, plot=plot, building=building, cost=new.cost, returned=gone)]


def advertise(state: MagnateState, seat: Seat, bought: int) -> list[AdvertisingTaken]:
    """§7.3: the free tokens, plus any bought at the token price."""
    require_turn(state, seat, Phase.ACTIONS)
    setup = catalog_of(state).setup
    if bought < 0:
        raise InvalidValue(phrase=say("you cannot buy a negative number of tokens"), bought=bought)
    cost = bought * setup.advertising_price
    _require_cash(state, seat, cost)
    return [AdvertisingTaken(seat=seat, free=setup.free_advertising, bought=bought, cost=cost)]


def consult(state: MagnateState, seat: Seat) -> list[Consulted]:
    """§7.4: receive the land price."""
    require_turn(state, seat, Phase.ACTIONS)
    return [Consulted(seat=seat, amount=land_price(state))]


def sell(state: MagnateState, seat: Seat, plot: str) -> list[PlotSold]:
    """§7.5: the bank pays plot value x land price; building and tenants stay."""
    require_turn(state, seat, Phase.ACTIONS)
    if plot_at(state, plot).owner != seat:
        raise NotOwner(phrase=say("you do not own {plot}", plot=plot), plot=plot)
    value = plot_value(state, plot)
    return [PlotSold(seat=seat, plot=plot, value=value, amount=value * land_price(state))]


def settle(rec: Recorder) -> bool:
    """After the last action of the third pass the property market is due."""
    if rec.state.phase == Phase.ACTIONS and rec.state.action_pass >= ACTION_PASSES:
        rec.emit(PhaseStarted(phase=Phase.MARKET))
        return True
    return False


def _require_cash(state: MagnateState, seat: int, amount: int) -> None:
    if amount > state.seats[seat].cash:
        raise InsufficientFunds(phrase=say("this costs {amount}, more than your cash", amount=cash(amount)),
                                cost=amount)


def _next_action(state: MagnateState) -> MagnateState:
    turn = state.turn + 1
    if turn < len(state.seats):
        return replace(state, turn=turn)
    return replace(state, turn=0, action_pass=state.action_pass + 1)


def apply_land_bought(state: MagnateState, event: LandBought) -> MagnateState:
    here = plot_at(state, event.plot)
    state = replace(state, plots=with_plot(state, event.plot, replace(here, owner=event.seat, for_sale=False)))
    return _next_action(update_seat(state, event.seat, cash=-event.price))


def apply_building_built(state: MagnateState, event: BuildingBuilt) -> MagnateState:
    here = plot_at(state, event.plot)
    kept = list(here.tenants)
    for kind in event.returned:
        kept.remove(kind)
    state = replace(
        state,
        plots=with_plot(state, event.plot, replace(here, building=event.building, tenants=tuple(kept))),
        available=pool.add(state, state.available, event.returned),
    )
    return _next_action(update_seat(state, event.seat, cash=-event.cost))


def apply_advertising_taken(state: MagnateState, event: AdvertisingTaken) -> MagnateState:
    return _next_action(update_seat(state, event.seat, cash=-event.cost, advertising=event.free + event.bought))


def apply_consulted(state: MagnateState, event: Consulted) -> MagnateState:
    return _next_action(update_seat(state, event.seat, cash=event.amount))


def apply_plot_sold(state: MagnateState, event: PlotSold) -> MagnateState:
    here = plot_at(state, event.plot)
    state = replace(
        state,
        plots=with_plot(state, event.plot, replace(here, owner=None)),
        plots_sold=state.plots_sold + 1,
    )
    return _next_action(update_seat(state, event.seat, cash=event.amount))
