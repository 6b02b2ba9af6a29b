"""§14.1, the shortfall procedure (ME-X-1..3): a corporation that must pay for a purchase bid or for interest and
has too little cash. Its manager may give it money (a gift, 0 allowed); if it is still short and owns a factory,
it must sell one for the forced-sale value (the manager picks the type when it owns more than one); if it is still
short, the payment does not happen.

:func:`pay` is called by the payment's rule each time it is reached (it is resumable): it starts the procedure,
reports that it waits for the manager, runs its automatic parts, and finally says whether the money is there.
The rule then records the payment (or its cancellation), whose event ends the procedure.
"""

from __future__ import annotations

import enum

from msgspec.structs import replace

from domain.kernel import InvalidValue, WrongPhase

from .errors import NoSuchThing
from .events import FactorySold, ShortfallArose, ShortfallCovered
from .holders import BANK, add_cash, cat_of, corp_holder, index, seat_holder, transfer, with_corp
from .recorder import Recorder
from .state import Shortfall, State


class Paid(enum.Enum):
    OK = "ok"
    WAIT = "wait"
    SHORT = "short"


def manager_cash(state: State, sf: Shortfall) -> int:
    manager = state.corps[sf.corporation].manager
    return state.players[manager].cash if manager is not None else 0


def owned_types(state: State, corp: int) -> tuple[int, ...]:
    return tuple(t for t, n in enumerate(state.corps[corp].factories) if n > 0)


def awaits_cover(state: State) -> bool:
    """The manager owes the gift decision: always asked while players' cash is hidden (asking only a manager with
    money would tell the table they have some), otherwise only a manager who has cash."""
    sf = state.shortfall
    if sf is None or sf.covered or sf.sold:
        return False
    return state.variant.player_cash_hidden or manager_cash(state, sf) > 0


def awaits_sale(state: State) -> bool:
    """The manager must pick which factory to sell (it owns more than one type and is still short)."""
    sf = state.shortfall
    if sf is None or sf.sold or awaits_cover(state):
        return False
    return state.corps[sf.corporation].cash < sf.due and len(owned_types(state, sf.corporation)) > 1


def waiting(state: State) -> bool:
    return awaits_cover(state) or awaits_sale(state)


def pay(rec: Recorder, corp: int, due: int, reason: str) -> Paid:
    """Whether ``corp`` can pay ``due`` now, after the shortfall procedure (or WAIT for its manager)."""
    state = rec.state
    if state.shortfall is None:
        if state.corps[corp].cash >= due:
            return Paid.OK
        rec.emit(ShortfallArose(corporation=state.corps[corp].key, due=due, reason=reason))
    if waiting(rec.state):
        return Paid.WAIT
    sf = rec.state.shortfall
    assert sf is not None
    types = owned_types(rec.state, corp)
    if not sf.sold and rec.state.corps[corp].cash < due and types:
        rec.emit(forced_sale(rec.state, corp, types[0]))
    return Paid.OK if rec.state.corps[corp].cash >= due else Paid.SHORT


def forced_sale(state: State, corp: int, factory: int) -> FactorySold:
    cat = cat_of(state)
    return FactorySold(corporation=state.corps[corp].key, factory=cat.factories[factory].key,
                       value=cat.rules.shortfall.forced_sale_value, forced=True)


def cover(state: State, amount: int) -> list[ShortfallCovered]:
    """ME-X-1.1: the manager's gift, 0 to min(shortfall, their cash)."""
    if not awaits_cover(state):
        raise WrongPhase("no shortfall awaits its manager's gift")
    sf = state.shortfall
    assert sf is not None
    short = sf.due - state.corps[sf.corporation].cash
    most = min(short, manager_cash(state, sf))
    if not 0 <= amount <= most:
        raise InvalidValue(f"the gift is 0 to {most}", field="amount", most=most)
    manager = state.corps[sf.corporation].manager
    assert manager is not None
    return [ShortfallCovered(corporation=state.corps[sf.corporation].key, seat=manager, amount=amount)]


def most_cover(state: State) -> int:
    sf = state.shortfall
    assert sf is not None
    return max(0, min(sf.due - state.corps[sf.corporation].cash, manager_cash(state, sf)))


def sell(state: State, factory: str) -> list[FactorySold]:
    """ME-X-1.2: the factory the manager chose to sell."""
    if not awaits_sale(state):
        raise WrongPhase("no shortfall awaits a factory sale")
    sf = state.shortfall
    assert sf is not None
    cat = cat_of(state)
    keys = [f.key for f in cat.factories]
    if factory not in keys or keys.index(factory) not in owned_types(state, sf.corporation):
        raise NoSuchThing(f"the corporation owns no {factory}", factory=factory)
    return [forced_sale(state, sf.corporation, keys.index(factory))]


def apply_shortfall_arose(state: State, event: ShortfallArose) -> State:
    return replace(state, shortfall=Shortfall(corporation=index(state, event.corporation), due=event.due,
                                              reason=event.reason))


def apply_shortfall_covered(state: State, event: ShortfallCovered) -> State:
    state = transfer(state, seat_holder(event.seat), corp_holder(event.corporation), event.amount)
    assert state.shortfall is not None
    return replace(state, shortfall=replace(state.shortfall, covered=True))


def apply_factory_sold(state: State, event: FactorySold) -> State:
    corp = index(state, event.corporation)
    factory = [f.key for f in cat_of(state).factories].index(event.factory)
    factories = list(state.corps[corp].factories)
    factories[factory] -= 1
    state = with_corp(state, corp, factories=tuple(factories))
    state = add_cash(state, corp_holder(event.corporation), event.value)
    if event.forced and state.shortfall is not None:
        state = replace(state, shortfall=replace(state.shortfall, sold=True, covered=True))
    elif not event.forced:
        state = replace(state, sales=state.sales + 1)
    return state


def end(state: State) -> State:
    """The payment (or its cancellation) ends the procedure."""
    return replace(state, shortfall=None) if state.shortfall is not None else state


__all__ = ["BANK", "Paid", "pay"]
