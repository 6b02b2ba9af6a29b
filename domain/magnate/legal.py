"""``legal_commands``: the one source of legality for the web page, the bots and the AI.

Each template's command is itself legal and is the suggested choice (the best advertising use, the
best tenant choice, the minimum bid); its params say which fields may vary and how.
"""

from __future__ import annotations

from domain.kernel import CommandTemplate, IntParam, Seat, SubsetParam

from . import pool
from .catalog import Catalog
from .city import ALL_PLOTS, adjacent, catalog_of, owned_by, plot_at, plot_index
from .commands import (
    Advertise,
    AttractTenants,
    Build,
    BuyLand,
    ChooseTenants,
    Consult,
    FinishAttracting,
    PassBid,
    PlaceBid,
    Sell,
    UseAdvertising,
)
from .pending import pending
from .rules import attraction as attraction_rules
from .rules.actions import purchase_price
from .rules.bidding import minimum_bid
from .rules.sets import best_fives, feasible_selections
from .state import Attraction, MagnateState, Phase, SeatKind


def legal_commands(state: MagnateState, seat: Seat) -> list[CommandTemplate]:
    """Everything ``seat`` may do now (empty when it is not this seat's turn)."""
    if seat not in pending(state).seats or state.seats[seat].kind != SeatKind.HUMAN:
        return []
    match state.phase:
        case Phase.BIDDING:
            return _bidding(state, seat)
        case Phase.ATTRACTING if state.attraction is None:
            return _attracting(state, seat)
        case Phase.ATTRACTING:
            assert state.attraction is not None
            return _attraction_step(state, state.attraction)
        case Phase.ACTIONS:
            return _actions(state, seat)
        case _:
            return []


def _bidding(state: MagnateState, seat: Seat) -> list[CommandTemplate]:
    out = [CommandTemplate(PassBid())]
    lowest = minimum_bid(state)
    step = catalog_of(state).setup.bid_step
    highest = state.seats[seat].cash // step * step
    if highest >= lowest:
        out.append(CommandTemplate(PlaceBid(amount=lowest), (IntParam("amount", lowest, highest, step),)))
    return out


def _attracting(state: MagnateState, seat: Seat) -> list[CommandTemplate]:
    ads = state.seats[seat].advertising
    params = (IntParam("advertising", 0, ads),) if ads else ()
    out = [CommandTemplate(AttractTenants(plot=plot), params) for plot in attraction_rules.attractable(state, seat)]
    out.append(CommandTemplate(FinishAttracting()))
    return out


def _attraction_step(state: MagnateState, attraction: Attraction) -> list[CommandTemplate]:
    if attraction.faces is not None and attraction.final is None:
        fives = best_fives(attraction.faces, attraction.advertising)
        param = SubsetParam("dice", len(attraction.faces), attraction.advertising)
        return [CommandTemplate(UseAdvertising(dice=fives), (param,))]
    if attraction.final is not None:
        best = attraction_rules.suggested_tenants(state)
        cat = catalog_of(state)
        here = plot_at(state, attraction.plot)
        assert here.building is not None
        available = pool.of_type(state, state.available, cat.buildings[here.building].tenant_type)
        options = feasible_selections(attraction.final, available, attraction_rules.room(state, attraction.plot),
                                      cat.kinds)
        return [CommandTemplate(ChooseTenants(tenants=s)) for s in [best, *(o for o in options if o != best)]]
    return []


def _actions(state: MagnateState, seat: Seat) -> list[CommandTemplate]:
    cat = catalog_of(state)
    cash = state.seats[seat].cash
    out = [CommandTemplate(Consult())]
    price = cat.setup.advertising_price
    out.append(CommandTemplate(Advertise(bought=0), (IntParam("bought", 0, cash // price),) if cash >= price else ()))
    mine = owned_by(state, seat)
    candidates = {p for p, here in zip(ALL_PLOTS, state.plots, strict=True) if here.for_sale}
    candidates.update(other for plot in mine for other in adjacent(plot))
    for plot in sorted(candidates, key=plot_index):
        cost = purchase_price(state, seat, plot)
        if cost is not None and cost <= cash:
            out.append(CommandTemplate(BuyLand(plot=plot)))
    out.extend(
        CommandTemplate(Build(plot=plot, building=b)) for plot in mine for b in _affordable(state, cat, plot, cash)
    )
    out.extend(CommandTemplate(Sell(plot=plot)) for plot in mine)
    return out


def _affordable(state: MagnateState, cat: Catalog, plot: str, cash: int) -> list[str]:
    current = plot_at(state, plot).building
    return [b.key for b in cat.files.buildings if b.cost <= cash and b.key != current]
