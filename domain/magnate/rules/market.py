"""Phase 4, the property market (§8); phase 5, preparing the next round (§9); and the crash (§10).

All of it runs as one system command (``ProcessMarket``) with the game's chance source, because it
draws risk cards, new tenant cards and 'for sale' markers. Decks are kept as the set of cards not yet
drawn; each draw picks uniformly among them (the same distribution as drawing the top card of a
shuffled deck, with no future card order existing anywhere to leak).
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import Chance, NothingPending
from domain.kernel.phrases import say

from .. import pool
from ..city import ALL_PLOTS, catalog_of, is_buildable, plot_at, plot_index, plot_value, with_plot
from ..events import (
    ForSaleMarkerDrawn,
    GameEnded,
    LandPriceMoved,
    MarketCrashed,
    NewTenantsArrived,
    PlotLiquidated,
    RiskCardDrawn,
    RoundStarted,
)
from ..recorder import Recorder
from ..state import MagnateState, Phase, SeatKind, Standing, update_seat

CRASH_POSITION = 0
"""§9 step 1: the market crashes when the crash marker is at 0."""
TENANT_TYPES_WITHOUT_RISK = 4
"""§8 step 1: with tokens of every one of the four types available no card is drawn."""


def process(rec: Recorder, chance: Chance) -> None:
    """Phases 4 and 5 in order, or the crash."""
    if rec.state.phase != Phase.MARKET:
        raise NothingPending(phrase=say("the property market is not due"))
    _available_tenants_step(rec, chance)
    _zone_step(rec, chance)
    _advertising_step(rec, chance)
    _plots_sold_step(rec, chance)
    if rec.state.crash <= CRASH_POSITION:
        crash(rec)
        return
    _new_tenants(rec, chance)
    _new_plots(rec, chance)
    state = rec.state
    rec.emit(RoundStarted(round=state.round + 1, opener=(state.first_player + 1) % len(state.seats)))


def draw_risk(rec: Recorder, chance: Chance, reason: str, count: int) -> None:
    """Draw ``count`` risk cards (§8): never in round 1; none when the deck is empty (no reshuffle)."""
    cat = catalog_of(rec.state)
    for _ in range(count):
        state = rec.state
        if state.round == 1 or not state.risk_deck:
            return
        card = chance.pick(state.risk_deck)
        crash = max(cat.crash.minimum, state.crash + cat.risk_cards[card].top)
        rec.emit(RiskCardDrawn(card=card, reason=reason, crash=crash))


def move_land_price(rec: Recorder, reason: str, positions: int) -> None:
    """Raise the land price; surplus above the top of the track is lost (§8)."""
    cat = catalog_of(rec.state)
    position = min(cat.land_price_max, rec.state.land_price + positions)
    if position != rec.state.land_price:
        rec.emit(LandPriceMoved(reason=reason, position=position))


def _available_tenants_step(rec: Recorder, chance: Chance) -> None:
    state = rec.state
    cat = catalog_of(state)
    types = sum(1 for t in cat.type_order if any(pool.of_type(state, state.available, t).values()))
    if types >= TENANT_TYPES_WITHOUT_RISK:
        return
    risk = cat.board(len(state.seats)).tenants_missing_risk
    count = {3: risk.three, 2: risk.two}.get(types, risk.one_or_none)
    draw_risk(rec, chance, "available_tenants", count)


def _zone_step(rec: Recorder, chance: Chance) -> None:
    draw_risk(rec, chance, "land_price_zone", catalog_of(rec.state).zone(rec.state.land_price).risk_cards)


def _advertising_step(rec: Recorder, chance: Chance) -> None:
    bands = catalog_of(rec.state).board(len(rec.state.seats)).advertising
    spent = rec.state.advertising_spent
    if spent <= bands.low_max:
        draw_risk(rec, chance, "advertising", 1)
    elif spent > bands.moderate_max:
        move_land_price(rec, "advertising", 1)


def _plots_sold_step(rec: Recorder, chance: Chance) -> None:
    track = catalog_of(rec.state).board(len(rec.state.seats)).plots_sold
    space = track[min(rec.state.plots_sold, len(track) - 1)]
    move_land_price(rec, "plots_sold", space.land_price_increase)
    draw_risk(rec, chance, "plots_sold", space.risk_cards)


def _new_tenants(rec: Recorder, chance: Chance) -> None:
    """§9 step 2: missing tokens are skipped, never substituted; the deck is not reshuffled."""
    cat = catalog_of(rec.state)
    for _ in range(cat.board(len(rec.state.seats)).new_tenant_cards):
        state = rec.state
        if not state.tenant_deck:
            return
        card_id = chance.pick(state.tenant_deck)
        card = cat.new_tenant_cards[card_id]
        wanted = card.subtypes if state.advanced else card.base
        supply = pool.as_dict(state, state.supply)
        added: list[str] = []
        missing: list[str] = []
        for kind in pool.kinds_in_play(state):
            for _ in range(wanted.get(kind, 0)):
                if supply[kind] > 0:
                    supply[kind] -= 1
                    added.append(kind)
                else:
                    missing.append(kind)
        rec.emit(NewTenantsArrived(card=card_id, tenants=tuple(added), missing=tuple(missing)))


def _new_plots(rec: Recorder, chance: Chance) -> None:
    """§9 step 3: markers for owned, feature or built plots go back to the box; no redraw."""
    for _ in range(catalog_of(rec.state).board(len(rec.state.seats)).new_for_sale):
        state = rec.state
        if not state.marker_supply:
            return
        plot = chance.pick(state.marker_supply)
        here = plot_at(state, plot)
        placed = is_buildable(state, plot) and here.owner is None and here.building is None
        rec.emit(ForSaleMarkerDrawn(plot=plot, placed=placed))


def crash(rec: Recorder) -> None:
    """§10: the land price falls by the sum of every drawn card's bottom value; every owned plot is
    sold at the new price (the AI's with its difficulty modifier); the most cash wins, ties share."""
    state = rec.state
    cat = catalog_of(state)
    depth = -sum(cat.risk_cards[c].bottom for c in state.risk_discard)
    position = max(cat.land_price_min, state.land_price - depth)
    rec.emit(MarketCrashed(depth=depth, land_price=position))
    price = cat.price(position)
    for plot in ALL_PLOTS:
        owner = rec.state.plots[plot_index(plot)].owner
        if owner is None:
            continue
        value = plot_value(rec.state, plot, sale_adjustment(rec.state, owner))
        rec.emit(PlotLiquidated(seat=owner, plot=plot, value=value, amount=value * price))
    cash = tuple(s.cash for s in rec.state.seats)
    best = max(cash)
    rec.emit(GameEnded(cash=cash, winners=tuple(i for i, c in enumerate(cash) if c == best)))


def sale_adjustment(state: MagnateState, seat: int) -> int:
    """The AI's difficulty modifier on its sale values (T16); 0 for human seats."""
    if state.seats[seat].kind != SeatKind.AI or state.difficulty is None:
        return 0
    return catalog_of(state).ai_difficulties[state.difficulty].sale_value_modifier


def apply_risk_card_drawn(state: MagnateState, event: RiskCardDrawn) -> MagnateState:
    return replace(
        state,
        crash=event.crash,
        risk_deck=tuple(c for c in state.risk_deck if c != event.card),
        risk_discard=(*state.risk_discard, event.card),
    )


def apply_land_price_moved(state: MagnateState, event: LandPriceMoved) -> MagnateState:
    return replace(state, land_price=event.position)


def apply_new_tenants_arrived(state: MagnateState, event: NewTenantsArrived) -> MagnateState:
    return replace(
        state,
        supply=pool.take(state, state.supply, event.tenants),
        available=pool.add(state, state.available, event.tenants),
        tenant_deck=tuple(c for c in state.tenant_deck if c != event.card),
        tenant_discard=(*state.tenant_discard, event.card),
    )


def apply_for_sale_marker_drawn(state: MagnateState, event: ForSaleMarkerDrawn) -> MagnateState:
    supply = tuple(c for c in state.marker_supply if c != event.plot)
    if not event.placed:
        return replace(state, marker_supply=supply)
    here = plot_at(state, event.plot)
    return replace(state, marker_supply=supply, plots=with_plot(state, event.plot, replace(here, for_sale=True)))


def apply_market_crashed(state: MagnateState, event: MarketCrashed) -> MagnateState:
    return replace(state, land_price=event.land_price)


def apply_plot_liquidated(state: MagnateState, event: PlotLiquidated) -> MagnateState:
    here = plot_at(state, event.plot)
    state = replace(state, plots=with_plot(state, event.plot, replace(here, owner=None)))
    return update_seat(state, event.seat, cash=event.amount)


def apply_game_ended(state: MagnateState, event: GameEnded) -> MagnateState:
    standings = tuple(
        sorted(
            (Standing(seat=i, company=state.seats[i].company, cash=c, rank=1 + sum(o > c for o in event.cash))
             for i, c in enumerate(event.cash)),
            key=lambda s: (s.rank, s.seat),
        )
    )
    return replace(state, phase=Phase.ENDED, standings=standings)
