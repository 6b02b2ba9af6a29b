"""§14.1, the shortfall procedure (ME-X-1..3): a corporation that must pay for a purchase bid or for interest and
has too little cash. Its manager may give it money (a gift, 0 allowed); if it is still short and owns a factory,
it must sell one for the forced-sale value (the manager picks the type when it owns more than one); if it is still
short, the payment does not happen.

:func:`pay` is called by the payment's rule each time it is reached (it is resumable): it starts the procedure,
reports that it waits for the manager, runs its automatic parts, and finally says whether the money is there.
The rule then records the payment (or its cancellation), whose event ends the procedure.

§17, "Interrupts": a manager may set standing preferences (:class:`~.state.Preferences`: give up to X, a ranked
list of factory types to sell). Where the procedure would wait for a manager who has them, the rules answer at once
(:func:`answer_by_preference`) through the same rules as the manager's own commands (:func:`cover`, :func:`sell`),
and the events say so (``by_preference``). :func:`standing_cover` and :func:`standing_sale` are those answers, and
without preferences the answers a seat's stand-in gives when its clock runs out (cover 0, then the first type the
corporation owns in table 15.2's order).
"""

from __future__ import annotations

import enum

from msgspec.structs import replace

from domain.kernel import InvalidValue, WrongPhase
from domain.kernel.phrases import say

from .errors import NoSuchThing
from .events import (
    FactorySold,
    ShortfallArose,
    ShortfallCovered,
    ShortfallPreferencesCleared,
    ShortfallPreferencesSet,
)
from .holders import BANK, add_cash, cat_of, corp_holder, index, seat_holder, transfer, with_corp, with_player
from .recorder import Recorder
from .state import Preferences, Shortfall, State, Step
from .wording import euros
from .wording import factory as factory_name


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
    if waiting(rec.state) and not answer_by_preference(rec):
        return Paid.WAIT
    sf = rec.state.shortfall
    assert sf is not None
    types = owned_types(rec.state, corp)
    if not sf.sold and rec.state.corps[corp].cash < due and types:
        rec.emit(forced_sale(rec.state, corp, types[0]))
    return Paid.OK if rec.state.corps[corp].cash >= due else Paid.SHORT


def forced_sale(state: State, corp: int, factory: int, by_preference: bool = False) -> FactorySold:
    cat = cat_of(state)
    return FactorySold(corporation=state.corps[corp].key, factory=cat.factories[factory].key,
                       value=cat.rules.shortfall.forced_sale_value, forced=True, by_preference=by_preference)


def cover(state: State, amount: int, by_preference: bool = False) -> list[ShortfallCovered]:
    """ME-X-1.1: the manager's gift, 0 to min(shortfall, their cash)."""
    if not awaits_cover(state):
        raise WrongPhase(phrase=say("no shortfall awaits its manager's gift"))
    sf = state.shortfall
    assert sf is not None
    short = sf.due - state.corps[sf.corporation].cash
    most = min(short, manager_cash(state, sf))
    if not 0 <= amount <= most:
        raise InvalidValue(phrase=say("the gift is 0 to {most}", most=euros(most)), field="amount", most=most)
    manager = state.corps[sf.corporation].manager
    assert manager is not None
    return [ShortfallCovered(corporation=state.corps[sf.corporation].key, seat=manager, amount=amount,
                             by_preference=by_preference)]


def most_cover(state: State) -> int:
    sf = state.shortfall
    assert sf is not None
    return max(0, min(sf.due - state.corps[sf.corporation].cash, manager_cash(state, sf)))


def sell(state: State, factory: str, by_preference: bool = False) -> list[FactorySold]:
    """ME-X-1.2: the factory the manager chose to sell."""
    if not awaits_sale(state):
        raise WrongPhase(phrase=say("no shortfall awaits a factory sale"))
    sf = state.shortfall
    assert sf is not None
    cat = cat_of(state)
    keys = [f.key for f in cat.factories]
    if factory not in keys or keys.index(factory) not in owned_types(state, sf.corporation):
        raise NoSuchThing(phrase=say("the corporation owns no {factory}", factory=factory_name(cat_of(state),
                                     factory)), factory=factory)
    return [forced_sale(state, sf.corporation, keys.index(factory), by_preference)]


# -- §17, standing preferences ---------------------------------------------------------------------------------


def preferences_of(state: State, corp: int) -> Preferences | None:
    """The standing preferences of ``corp``'s manager (None: it is asked)."""
    manager = state.corps[corp].manager
    return state.players[manager].preferences if manager is not None and manager < len(state.players) else None


def standing_cover(state: State, prefs: Preferences | None) -> int:
    """§17 with ME-X-1.1: the gift the preferences give: up to ``cover_up_to``, never more than the shortfall or
    the manager's cash; 0 without preferences (what a stand-in gives)."""
    return min(prefs.cover_up_to, most_cover(state)) if prefs is not None else 0


def standing_sale(state: State, prefs: Preferences | None) -> str:
    """§17 with ME-X-1.2: the first type of the ranked list the short corporation owns, else (for the types not
    listed, or without preferences) the first it owns in table 15.2's order."""
    sf = state.shortfall
    assert sf is not None
    keys = [f.key for f in cat_of(state).factories]
    owned = owned_types(state, sf.corporation)
    ranked = [keys.index(k) for k in (prefs.sell_first if prefs is not None else ()) if k in keys]
    return keys[next((t for t in ranked if t in owned), owned[0])]


def answer_by_preference(rec: Recorder) -> bool:
    """§17: the short corporation's manager has standing preferences: the rules give its answers now (the gift,
    then the sale if it is still short and owns several types), through the rules of its own commands. False
    when it has none (it is asked)."""
    sf = rec.state.shortfall
    assert sf is not None
    prefs = preferences_of(rec.state, sf.corporation)
    if prefs is None:
        return False
    if awaits_cover(rec.state):
        rec.emit(*cover(rec.state, standing_cover(rec.state, prefs), by_preference=True))
    if awaits_sale(rec.state):
        rec.emit(*sell(rec.state, standing_sale(rec.state, prefs), by_preference=True))
    return True


def set_preferences(state: State, seat: int, cover_up_to: int,
                    sell_first: tuple[str, ...]) -> list[ShortfallPreferencesSet]:
    """§17: a seat of a running game sets its standing preferences, whoever's turn it is.

    Raises:
        WrongPhase: before the game is set up.
        NoSuchThing: ``sell_first`` names a factory type the catalog does not have.
        InvalidValue: ``sell_first`` names a type twice.
    """
    _running(state, seat)
    keys = [f.key for f in cat_of(state).factories]
    unknown = [k for k in sell_first if k not in keys]
    if unknown:
        raise NoSuchThing(phrase=say("there is no factory type {factory}", factory=unknown[0]), factory=unknown[0])
    if len(set(sell_first)) != len(sell_first):
        raise InvalidValue(phrase=say("each factory type may be ranked once"), field="sell_first")
    return [ShortfallPreferencesSet(seat=seat, cover_up_to=cover_up_to, sell_first=sell_first)]


def clear_preferences(state: State, seat: int) -> list[ShortfallPreferencesCleared]:
    """§17: a seat withdraws its standing preferences (it is asked again).

    Raises:
        WrongPhase: before the game is set up.
        InvalidValue: the seat has none.
    """
    _running(state, seat)
    if state.players[seat].preferences is None:
        raise InvalidValue(phrase=say("you have no standing shortfall preferences"))
    return [ShortfallPreferencesCleared(seat=seat)]


def _running(state: State, seat: int) -> None:
    if state.step in (Step.SETUP, Step.ENDED) or not state.players:
        raise WrongPhase(phrase=say("the game is not running"), step=str(state.step))
    if not 0 <= seat < len(state.players):
        raise InvalidValue(phrase=say("there is no seat {number}", number=seat + 1), seat=seat)


def apply_preferences_set(state: State, event: ShortfallPreferencesSet) -> State:
    return with_player(state, event.seat, preferences=Preferences(cover_up_to=event.cover_up_to,
                                                                  sell_first=event.sell_first))


def apply_preferences_cleared(state: State, event: ShortfallPreferencesCleared) -> State:
    return with_player(state, event.seat, preferences=None)


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
