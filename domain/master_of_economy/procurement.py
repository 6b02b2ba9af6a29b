"""§5, Procurement (phases 2 and 7): in action order, each corporation supplies any of its non-quarry factories,
moving each one's full input set from the warehouse onto it (ME-P-1..3); when it is done, the energy left in its
warehouse spoils (ME-P-4).

§6, Production (phases 3 and 8) is automatic: the inputs on the factories go back to the supply, then in action
order each quarry and each supplied factory produces into the warehouse, up to its capacity and, with the
finite supply, while cubes last (ME-R-1..5).
"""

from __future__ import annotations

from domain.kernel import InvalidValue
from domain.kernel.phrases import say, term

from .errors import CannotAfford, NotAllowed
from .events import EnergySpoiled, FactoriesSupplied, GoodsProduced
from .holders import add_goods, cat_of, index, plus, with_corp
from .investments import factory_index
from .recorder import Recorder
from .state import State
from .supply import limited


def supply_room(state: State, corp: int, factory: int) -> int:
    """How many more factories of type ``factory`` ``corp`` can supply now (0 for a quarry)."""
    cat = cat_of(state)
    need = cat.inputs(factory)
    held = state.corps[corp]
    if not any(need):
        return 0
    unsupplied = held.factories[factory] - held.supplied[factory]
    by_goods = min(held.goods[c] // n for c, n in enumerate(need) if n)
    return max(0, min(unsupplied, by_goods))


def supply(state: State, corp: int, key: str, count: int) -> list[FactoriesSupplied]:
    factory = factory_index(state, key)
    cat = cat_of(state)
    if not any(cat.inputs(factory)):
        raise NotAllowed(phrase=say("a {factory} needs no supply (ME-P-3)",
                                    factory=term(cat.factories[factory].name)), factory=key)
    held = state.corps[corp]
    if count > held.factories[factory] - held.supplied[factory]:
        raise InvalidValue(phrase=say("more factories than the corporation has unsupplied"), factory=key, count=count)
    if count > supply_room(state, corp, factory):
        raise CannotAfford(phrase=say("the warehouse lacks the inputs (ME-P-1, ME-P-2)"), factory=key, count=count)
    inputs = tuple(n * count for n in cat.inputs(factory))
    return [FactoriesSupplied(corporation=held.key, factory=key, count=count, inputs=inputs)]


def has_choice(state: State, corp: int) -> bool:
    return any(supply_room(state, corp, t) > 0 for t in range(len(cat_of(state).factories)))


def spoil(rec: Recorder, corp: int) -> None:
    """ME-P-4: the corporation's procurement is over: its energy goes back to the supply."""
    cat = cat_of(rec.state)
    held = rec.state.corps[corp]
    left = held.goods[cat.perishable]
    if left:
        rec.emit(EnergySpoiled(corporation=held.key, commodity=cat.commodities[cat.perishable].key, count=left))


def produce(rec: Recorder) -> None:
    """ME-R-1..5 for every corporation, in action order."""
    state = rec.state
    cat = cat_of(state)
    capacity = cat.rules.warehouse.capacity
    width = len(cat.commodities)
    # ME-R-2 first: every input on a factory is back in the supply before any output is taken from it
    left = [sum(c.goods[i] for c in state.corps if c.goods) for i in range(width)]
    left = [cat.commodities[i].usable - left[i] for i in range(width)]
    for corp in state.order:
        held = state.corps[corp]
        made = [0] * width
        for factory, spec in enumerate(cat.factories):
            runs = held.factories[factory] if not any(cat.inputs(factory)) else held.supplied[factory]
            made[cat.produced(factory)] += runs * spec.output
        used = [0] * width
        for factory in range(len(cat.factories)):
            used = list(plus(tuple(used), tuple(n * held.supplied[factory] for n in cat.inputs(factory))))
        goods, lost = [0] * width, [0] * width
        for c in range(width):
            room = capacity - held.goods[c]
            if limited(state):
                room = min(room, max(0, left[c]))
            goods[c] = max(0, min(made[c], room))
            lost[c] = made[c] - goods[c]
            left[c] -= goods[c]
        if any(made) or any(used):
            rec.emit(GoodsProduced(corporation=held.key, used=tuple(used), goods=tuple(goods), lost=tuple(lost)))


def apply_factories_supplied(state: State, event: FactoriesSupplied) -> State:
    corp = index(state, event.corporation)
    held = state.corps[corp]
    factory = factory_index(state, event.factory)
    return with_corp(state, corp, goods=plus(held.goods, event.inputs, -1),
                     supplied=add_goods(held.supplied, factory, event.count))


def apply_energy_spoiled(state: State, event: EnergySpoiled) -> State:
    corp = index(state, event.corporation)
    commodity = cat_of(state).commodity_index(event.commodity)
    return with_corp(state, corp, goods=add_goods(state.corps[corp].goods, commodity, -event.count))


def apply_goods_produced(state: State, event: GoodsProduced) -> State:
    corp = index(state, event.corporation)
    held = state.corps[corp]
    return with_corp(state, corp, goods=plus(held.goods, event.goods), supplied=(0,) * len(held.supplied))


