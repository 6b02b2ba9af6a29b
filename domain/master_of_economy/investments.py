"""§4, Investments (phases 1 and 6): in action order, each corporation builds 0-3 factories (at most 2 of a type)
and sells 0-2, one action at a time in the order it chooses (ME-I-1), then passes."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel.phrases import Phrase, say, term

from .errors import CannotAfford, LimitReached, NoSuchThing, NotAllowed
from .events import FactoryBuilt, FactorySold
from .holders import add_cash, add_goods, cat_of, corp_holder, index, with_corp
from .state import State
from .supply import markers_left
from .wording import euros
from .wording import factory as factory_name


def factory_index(state: State, key: str) -> int:
    keys = [f.key for f in cat_of(state).factories]
    if key not in keys:
        raise NoSuchThing(phrase=say("unknown factory type {factory}", factory=key), factory=key)
    return keys.index(key)


def build_refusal(state: State, corp: int, factory: int) -> Phrase | None:
    """Why ``corp`` cannot build a factory of type ``factory`` now (ME-I-2..4), or None."""
    cat = cat_of(state)
    rules = cat.rules.investments
    spec = cat.factories[factory]
    held = state.corps[corp]
    builds = state.builds or (0,) * len(cat.factories)
    if sum(builds) >= rules.max_builds:
        return say("at most {n} builds a phase (ME-I-2)", n=rules.max_builds)
    if builds[factory] >= rules.max_builds_per_type:
        return say("at most {n} of a type a phase (ME-I-2)", n=rules.max_builds_per_type)
    if held.cash < spec.build_cash:
        return say("a {factory} costs {amount} (ME-I-3)", factory=term(spec.name), amount=euros(spec.build_cash))
    if held.goods[cat.building] < spec.build_materials:
        return say("a {factory} takes {n} construction material (ME-I-3)", factory=term(spec.name),
                   n=spec.build_materials)
    if held.factories[factory] >= spec.places:
        return say("no free {factory} place on the board (ME-I-4)", factory=term(spec.name))
    if markers_left(state, factory) <= 0:
        return say("no {factory} marker left in the supply (ME-I-4)", factory=term(spec.name))
    return None


def can_sell(state: State, corp: int, factory: int) -> bool:
    rules = cat_of(state).rules.investments
    return state.sales < rules.max_sales and state.corps[corp].factories[factory] > 0


def build(state: State, corp: int, key: str) -> list[FactoryBuilt]:
    factory = factory_index(state, key)
    refusal = build_refusal(state, corp, factory)
    if refusal is not None:
        error = CannotAfford if "costs" in refusal.key or "takes" in refusal.key else LimitReached
        raise error(phrase=refusal, factory=key)
    spec = cat_of(state).factories[factory]
    return [FactoryBuilt(corporation=state.corps[corp].key, factory=key, cost=spec.build_cash,
                         materials=spec.build_materials)]


def sell(state: State, corp: int, key: str) -> list[FactorySold]:
    factory = factory_index(state, key)
    rules = cat_of(state).rules.investments
    if state.sales >= rules.max_sales:
        raise LimitReached(phrase=say("at most {n} sales a phase (ME-I-5)", n=rules.max_sales))
    if state.corps[corp].factories[factory] <= 0:
        raise NotAllowed(phrase=say("the corporation owns no {factory}", factory=factory_name(cat_of(state),
                                    key)), factory=key)
    return [FactorySold(corporation=state.corps[corp].key, factory=key, value=rules.sale_value)]


def has_choice(state: State, corp: int) -> bool:
    types = range(len(cat_of(state).factories))
    return any(build_refusal(state, corp, t) is None or can_sell(state, corp, t) for t in types)


def apply_factory_built(state: State, event: FactoryBuilt) -> State:
    cat = cat_of(state)
    corp = index(state, event.corporation)
    factory = factory_index(state, event.factory)
    held = state.corps[corp]
    state = with_corp(state, corp, factories=add_goods(held.factories, factory, 1),
                      goods=add_goods(held.goods, cat.building, -event.materials))
    builds = list(state.builds or (0,) * len(cat.factories))
    builds[factory] += 1
    state = add_cash(state, corp_holder(event.corporation), -event.cost)
    return replace(state, builds=tuple(builds))

