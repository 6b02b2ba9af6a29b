"""Phase 2, attract tenants and collect rent (§6).

One building's attraction runs: ``AttractTenants`` (commit advertising) -> the system rolls the dice ->
``UseAdvertising`` (which dice become 5s; skipped when nothing was committed) -> tenants move in
(automatically in the standard game; by ``ChooseTenants`` in the advanced game). A seat attracts to
any of its buildings in the order it likes, then ``FinishAttracting`` collects its rent.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import Chance, InvalidValue, NothingPending, Seat, WrongPhase
from domain.kernel.phrases import Listing, say, say_n

from .. import pool
from ..city import catalog_of, dice_count, dice_modifier, owned_by, plot_at, with_plot
from ..errors import (
    AlreadyAttracted,
    InfeasibleTenants,
    NoBuilding,
    NotEnoughAdvertising,
    NotOwner,
    OverCapacity,
    TenantsUnavailable,
)
from ..events import AttractionStarted, DiceRolled, DiceSettled, PhaseStarted, RentCollected, TenantsMovedIn
from ..recorder import Recorder
from ..state import Attraction, MagnateState, Phase, SeatKind, update_seat
from .sets import best_selection, feasible, multiset_leq, standard_sets
from .turns import current_seat, require_turn

ADVERTISING_FACE = 5
"""§6.1 step 4: an advertising token sets one rolled die to 5."""


def room(state: MagnateState, plot: str) -> int:
    """Free places in the building on ``plot``."""
    here = plot_at(state, plot)
    assert here.building is not None
    return catalog_of(state).buildings[here.building].capacity - len(here.tenants)


def attractable(state: MagnateState, seat: int) -> tuple[str, ...]:
    """The seat's buildings it may still attract to this round (below capacity, not yet attracted)."""
    return tuple(
        plot
        for plot in owned_by(state, seat)
        if plot_at(state, plot).building is not None and plot not in state.attracted and room(state, plot) > 0
    )


def attract(state: MagnateState, seat: Seat, plot: str, advertising: int) -> list[AttractionStarted]:
    """§6.1 steps 1-2."""
    _require_no_attraction(state, seat)
    here = plot_at(state, plot)
    if here.owner != seat:
        raise NotOwner(phrase=say("you do not own {plot}", plot=plot), plot=plot)
    if here.building is None:
        raise NoBuilding(phrase=say("{plot} has no building to attract tenants to", plot=plot), plot=plot)
    if plot in state.attracted:
        raise AlreadyAttracted(phrase=say("you already attracted tenants to {plot} this round", plot=plot), plot=plot)
    if room(state, plot) <= 0:
        raise OverCapacity(phrase=say("the building on {plot} is full", plot=plot), plot=plot)
    if advertising < 0:
        raise InvalidValue(phrase=say("advertising cannot be negative"), advertising=advertising)
    if advertising > state.seats[seat].advertising:
        raise NotEnoughAdvertising(phrase=say("you do not hold that many advertising tokens"), advertising=advertising)
    return [AttractionStarted(seat=seat, plot=plot, advertising=advertising, dice=dice_count(state, plot))]


def roll(state: MagnateState, chance: Chance) -> list[DiceRolled]:
    """§6.1 step 3, run by the system with the game's chance source."""
    attraction = state.attraction
    if state.phase != Phase.ATTRACTING or attraction is None or attraction.faces is not None or not attraction.dice:
        raise NothingPending(phrase=say("no dice are waiting to be rolled"))
    seat = current_seat(state)
    assert seat is not None
    return [DiceRolled(seat=seat, plot=attraction.plot, faces=chance.roll(attraction.dice))]


def use_advertising(state: MagnateState, seat: Seat, dice: tuple[int, ...]) -> list[DiceSettled]:
    """§6.1 steps 4-5: chosen dice become 5s, then the modifier is added to every die."""
    attraction = _require_attraction(state, seat)
    if attraction.faces is None or attraction.final is not None:
        raise WrongPhase(phrase=say("there are no rolled dice waiting for advertising"))
    if len(set(dice)) != len(dice) or any(not 0 <= i < len(attraction.faces) for i in dice):
        raise InvalidValue(phrase=say("name distinct dice by their index in the roll"), dice=list(dice))
    if len(dice) > attraction.advertising:
        raise NotEnoughAdvertising(phrase=say_n("you committed {n} advertising token",
                                                "you committed {n} advertising tokens", "n",
                                                n=attraction.advertising), dice=list(dice))
    return [_settled(state, seat, attraction, dice)]


def choose_tenants(state: MagnateState, seat: Seat, tenants: tuple[str, ...]) -> list[TenantsMovedIn]:
    """§6.4 advanced game: any feasible selection of available subtypes of the building's type."""
    attraction = _require_attraction(state, seat)
    if not state.advanced or attraction.final is None:
        raise WrongPhase(phrase=say("no tenant choice is waiting"))
    cat = catalog_of(state)
    unknown = [kind for kind in tenants if kind not in pool.kinds_in_play(state)]
    if unknown:
        raise InvalidValue(phrase=say("unknown tenant kinds: {kinds}", kinds=Listing(tuple(unknown))),
                           tenants=list(tenants))
    here = plot_at(state, attraction.plot)
    assert here.building is not None
    of_type = pool.of_type(state, state.available, cat.buildings[here.building].tenant_type)
    if any(kind not in of_type for kind in tenants) or not multiset_leq(tenants, _expand(of_type)):
        raise TenantsUnavailable(phrase=say("choose available tenants of the building's type"), tenants=list(tenants))
    if len(tenants) > room(state, attraction.plot):
        raise OverCapacity(phrase=say("the building has no room for that many tenants"), tenants=list(tenants))
    if not feasible(attraction.final, [cat.kinds[k].requirement for k in tenants]):
        raise InfeasibleTenants(phrase=say("the dice cannot form those sets"), tenants=list(tenants))
    return [TenantsMovedIn(seat=seat, plot=attraction.plot, tenants=tuple(sorted(tenants)))]


def finish(state: MagnateState, seat: Seat) -> list[RentCollected]:
    """§6.5: end the seat's phase 2 turn and collect its rent."""
    _require_no_attraction(state, seat)
    return [RentCollected(seat=seat, amount=rent(state, seat))]


def rent(state: MagnateState, seat: int) -> int:
    """The rent of every tenant in the seat's buildings; the AI never collects rent (§11.2)."""
    if state.seats[seat].kind == SeatKind.AI:
        return 0
    kinds = catalog_of(state).kinds
    return sum(kinds[k].rent for plot in owned_by(state, seat) for k in plot_at(state, plot).tenants)


def suggested_tenants(state: MagnateState) -> tuple[str, ...]:
    """The best feasible tenant choice for the attraction in progress (the most tenants, then rent)."""
    attraction = state.attraction
    assert attraction is not None and attraction.final is not None
    here = plot_at(state, attraction.plot)
    assert here.building is not None
    cat = catalog_of(state)
    tenant_type = cat.buildings[here.building].tenant_type
    if not state.advanced:
        sets = standard_sets(attraction.final, cat.kinds[tenant_type].requirement)
        moving = min(sets, room(state, attraction.plot), pool.count(state, state.available, tenant_type))
        return (tenant_type,) * moving
    available = pool.of_type(state, state.available, tenant_type)
    return best_selection(attraction.final, available, room(state, attraction.plot), cat.kinds)


def settle(rec: Recorder) -> bool:
    """Automatic steps of phase 2. Returns whether anything happened."""
    state = rec.state
    if state.phase != Phase.ATTRACTING:
        return False
    attraction = state.attraction
    seat = current_seat(state)
    if attraction is not None:
        assert seat is not None
        return _settle_attraction(rec, seat, attraction)
    if seat is None:
        rec.emit(PhaseStarted(phase=Phase.ACTIONS))
        return True
    if state.seats[seat].kind == SeatKind.HUMAN and not attractable(state, seat):
        rec.emit(RentCollected(seat=seat, amount=rent(state, seat)))
        return True
    return False


def _settle_attraction(rec: Recorder, seat: Seat, attraction: Attraction) -> bool:
    state = rec.state
    if attraction.dice == 0:
        rec.emit(TenantsMovedIn(seat=seat, plot=attraction.plot, tenants=()))
    elif attraction.faces is None:
        return False
    elif attraction.final is None:
        if attraction.advertising:
            return False
        rec.emit(_settled(state, seat, attraction, ()))
    else:
        suggestion = suggested_tenants(state)
        if state.advanced and suggestion:
            return False
        rec.emit(TenantsMovedIn(seat=seat, plot=attraction.plot, tenants=suggestion))
    return True


def _settled(state: MagnateState, seat: Seat, attraction: Attraction, fives: tuple[int, ...]) -> DiceSettled:
    assert attraction.faces is not None
    m = dice_modifier(state, attraction.plot)
    final = tuple(
        (ADVERTISING_FACE if i in fives else face) + m for i, face in enumerate(attraction.faces)
    )
    return DiceSettled(seat=seat, plot=attraction.plot, fives=tuple(sorted(fives)), modifier=m, final=final)


def _require_attraction(state: MagnateState, seat: Seat) -> Attraction:
    require_turn(state, seat, Phase.ATTRACTING)
    if state.attraction is None:
        raise WrongPhase(phrase=say("no attraction is in progress; start one with AttractTenants"))
    return state.attraction


def _require_no_attraction(state: MagnateState, seat: Seat) -> None:
    require_turn(state, seat, Phase.ATTRACTING)
    if state.attraction is not None:
        raise WrongPhase(phrase=say("finish the attraction on {plot} first", plot=state.attraction.plot))


def _expand(counts: dict[str, int]) -> list[str]:
    return [k for k, n in counts.items() for _ in range(n)]


def apply_attraction_started(state: MagnateState, event: AttractionStarted) -> MagnateState:
    state = update_seat(state, event.seat, advertising=-event.advertising)
    return replace(
        state,
        attraction=Attraction(plot=event.plot, advertising=event.advertising, dice=event.dice),
        advertising_spent=state.advertising_spent + event.advertising,
    )


def apply_dice_rolled(state: MagnateState, event: DiceRolled) -> MagnateState:
    assert state.attraction is not None
    return replace(state, attraction=replace(state.attraction, faces=event.faces))


def apply_dice_settled(state: MagnateState, event: DiceSettled) -> MagnateState:
    assert state.attraction is not None
    return replace(state, attraction=replace(state.attraction, final=event.final))


def apply_tenants_moved_in(state: MagnateState, event: TenantsMovedIn) -> MagnateState:
    here = plot_at(state, event.plot)
    plots = with_plot(state, event.plot, replace(here, tenants=tuple(sorted(here.tenants + event.tenants))))
    return replace(
        state,
        plots=plots,
        available=pool.take(state, state.available, event.tenants),
        attracted=(*state.attracted, event.plot),
        attraction=None,
    )


def apply_rent_collected(state: MagnateState, event: RentCollected) -> MagnateState:
    return replace(update_seat(state, event.seat, cash=event.amount), turn=state.turn + 1)
