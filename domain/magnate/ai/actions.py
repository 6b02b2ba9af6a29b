"""§11.5-§11.6: the AI's phase 3 turn: draw a card, choose its action (with the default and Consult
fallbacks), carry it out for free, discard the card, and record why."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import Chance
from domain.kernel.phrases import Arg, Phrase, say, say_n, term

from .. import pool
from ..catalog import AiCard, Catalog
from ..city import ALL_PLOTS, catalog_of, effects_of, modifier, plot_at, plot_value, sources
from ..events import (
    AiCardResolved,
    AiDecided,
    AiDieRolled,
    AiHoldingsChanged,
    AiLevelRaised,
    BuildingBuilt,
    Consulted,
    LandBought,
    PlotSold,
)
from ..money import cash
from ..recorder import Recorder
from ..rules.actions import land_price
from ..rules.market import sale_adjustment
from ..state import AiState, MagnateState
from .deck import ai_of, draw
from .explain import ACTION_NAMES, ACTION_TERMS, money
from .tiebreak import pick


def act(rec: Recorder, chance: Chance) -> None:
    """One AI action turn."""
    card_id = draw(rec, chance)
    state = rec.state
    card = catalog_of(state).ai_cards[card_id]
    chosen, why, said = choose(state, card)
    action = chosen
    if not possible(state, action):
        action = card.default
        why += f"; {ACTION_NAMES[chosen]} is impossible → default {ACTION_NAMES[action]}"
        if not possible(state, action):
            action = "consult"
            why += " is impossible too → Consult"
            said = say("{decision}; {chosen} is impossible → default {default} is impossible too → {consult}",
                       decision=said, chosen=ACTION_TERMS[chosen], default=ACTION_TERMS[card.default],
                       consult=ACTION_TERMS["consult"])
        else:
            said = say("{decision}; {chosen} is impossible → default {default}", decision=said,
                       chosen=ACTION_TERMS[chosen], default=ACTION_TERMS[action])
    ai = ai_of(state)
    rec.emit(AiDecided(seat=ai.seat, card=card_id, action=action, reason=why, why=said))
    _PERFORM[action](rec, chance)
    rec.emit(AiCardResolved(seat=ai.seat, card=card_id))
    if action == "sell":
        _level_up_after_sale(rec)


def choose(state: MagnateState, card: AiCard) -> tuple[str, str, Phrase]:
    """§11.5 step 2: the card's action and the reason, in English (e.g. "land price 1.1M ≥ 1M → Sell") and as a
    phrase."""
    if card.kind == "single":
        return card.top, f"{card.id}: {ACTION_NAMES[card.top]}", say("{card}: {action}", card=card.id,
                                                                     action=ACTION_TERMS[card.top])
    if card.kind == "land_price":
        price = land_price(state)
        test = f"{card.id}: land price {money(price)}"
        args: dict[str, Arg] = {"card": card.id, "price": cash(price), "threshold": cash(card.threshold)}
        if price >= card.threshold:
            return card.top, f"{test} ≥ {money(card.threshold)} → {ACTION_NAMES[card.top]}", say(
                "{card}: land price {price} ≥ {threshold} → {action}", action=ACTION_TERMS[card.top], **args)
        return card.bottom, f"{test} < {money(card.threshold)} → {ACTION_NAMES[card.bottom]}", say(
            "{card}: land price {price} < {threshold} → {action}", action=ACTION_TERMS[card.bottom], **args)
    if state.crash >= card.threshold:
        return card.top, f"{card.id}: crash marker {state.crash} ≥ {card.threshold} → {ACTION_NAMES[card.top]}", say(
            "{card}: crash marker {crash} ≥ {threshold} → {action}", card=card.id, crash=state.crash,
            threshold=card.threshold, action=ACTION_TERMS[card.top])
    return card.bottom, f"{card.id}: crash marker {state.crash} < {card.threshold} → {ACTION_NAMES[card.bottom]}", say(
        "{card}: crash marker {crash} < {threshold} → {action}", card=card.id, crash=state.crash,
        threshold=card.threshold, action=ACTION_TERMS[card.bottom])


def possible(state: MagnateState, action: str) -> bool:
    """§11.6: buying needs a 'for sale' plot, building an unbuilt plot, selling a built one."""
    ai = ai_of(state)
    if action == "buy":
        return any(p.for_sale for p in state.plots)
    if action == "build":
        return any(slot is not None for slot in ai.bottom_row)
    if action == "sell":
        return bool(ai.top_row)
    return True


def bonus_arrows(state: MagnateState, plot: str) -> int:
    """§11.6 buy step 1: distinct (source, building type) bonus pairs next to the plot; penalties ignored."""
    cat = catalog_of(state)
    return sum(1 for source in sources(state, plot) for effect in effects_of(cat, source) if effect.delta > 0)


def _buy(rec: Recorder, chance: Chance) -> None:
    state = rec.state
    ai = ai_of(state)
    scores = {plot: bonus_arrows(state, plot) for plot in ALL_PLOTS if plot_at(state, plot).for_sale}
    best = max(scores.values())
    tied = [plot for plot in ALL_PLOTS if scores.get(plot) == best]
    plot = _tie_break(rec, chance, ai, "plot to buy", tied)
    slots = list(ai.bottom_row)
    if None in slots:
        slots[slots.index(None)] = plot
    else:
        slots.append(plot)
    rec.emit(
        AiDecided(seat=ai.seat, card=None, action="buy", reason=f"{plot}: {best} bonus arrow(s), the most"
                  + (f" of {len(tied)} tied plots" if len(tied) > 1 else ""), why=_bought(plot, best, len(tied))),
        LandBought(seat=ai.seat, plot=plot, price=0, adjacent=False),
        AiHoldingsChanged(seat=ai.seat, bottom_row=tuple(slots), top_row=ai.top_row),
    )


def _build(rec: Recorder, chance: Chance) -> None:
    state = rec.state
    ai = ai_of(state)
    cat = catalog_of(state)
    slot = next(i for i, p in enumerate(ai.bottom_row) if p is not None)
    plot = ai.bottom_row[slot]
    assert plot is not None
    net = {t: modifier(state, plot, t) for t in cat.type_order}
    best = [t for t in cat.type_order if net[t] == max(net.values())]
    bonus = f"{max(net.values()):+d}"
    reason = f"{plot}: best net bonus {bonus}"
    most = 0
    if len(best) > 1:
        population = {t: sum(n * cat.kinds[k].population
                             for k, n in pool.of_type(state, state.available, t).items()) for t in best}
        best = [t for t in best if population[t] == max(population.values())]
        most = max(population.values())
        reason += f", most available population {most}"
    tenant_type = _tie_break(rec, chance, ai, "building type", best)
    building = _most_expensive(cat, tenant_type, cat.ai_levels[ai.level].max_build_cost)
    bottom = tuple(None if i == slot else p for i, p in enumerate(ai.bottom_row))
    names: dict[str, Arg] = {"plot": plot, "bonus": bonus, "type": term(cat.tenant_types[tenant_type].name),
             "building": term(cat.buildings[building].name)}
    why = (say("{plot}: best net bonus {bonus}, most available population {population} → {type}: {building}",
               population=most, **names) if most else
           say("{plot}: best net bonus {bonus} → {type}: {building}", **names))
    rec.emit(
        AiDecided(seat=ai.seat, card=None, action="build", reason=f"{reason} → {tenant_type}: {building}", why=why),
        BuildingBuilt(seat=ai.seat, plot=plot, building=building, cost=0, returned=()),
        AiHoldingsChanged(seat=ai.seat, bottom_row=bottom, top_row=(*ai.top_row, plot)),
    )


def _most_expensive(cat: Catalog, tenant_type: str, max_cost: int) -> str:
    fitting = [b for b in cat.files.buildings if b.tenant_type == tenant_type and b.cost <= max_cost]
    return max(fitting, key=lambda b: b.cost).key


def _sell(rec: Recorder, chance: Chance) -> None:
    state = rec.state
    ai = ai_of(state)
    plot = ai.top_row[0]
    adjustment = sale_adjustment(state, ai.seat)
    value = plot_value(state, plot, adjustment)
    amount = value * land_price(state)
    rec.emit(
        AiDecided(seat=ai.seat, card=None, action="sell",
                  reason=f"{plot}: value {plot_value(state, plot)}{adjustment:+d} (difficulty) = {value}"
                         f" × {money(land_price(state))} = {money(amount)}",
                  why=say("{plot}: value {value}{adjustment} (difficulty) = {total} × {price} = {amount}", plot=plot,
                          value=plot_value(state, plot), adjustment=format(adjustment, "+d"), total=value,
                          price=cash(land_price(state)), amount=cash(amount))),
        PlotSold(seat=ai.seat, plot=plot, value=value, amount=amount),
        AiHoldingsChanged(seat=ai.seat, bottom_row=ai.bottom_row, top_row=ai.top_row[1:]),
    )


def _bought(plot: str, arrows: int, tied: int) -> Phrase:
    if tied > 1:
        return say_n("{plot}: {n} bonus arrow, the most of {tied} tied plots",
                     "{plot}: {n} bonus arrows, the most of {tied} tied plots", "n", plot=plot, n=arrows, tied=tied)
    return say_n("{plot}: {n} bonus arrow, the most", "{plot}: {n} bonus arrows, the most", "n", plot=plot, n=arrows)


def _consult(rec: Recorder, chance: Chance) -> None:
    ai = ai_of(rec.state)
    rec.emit(Consulted(seat=ai.seat, amount=land_price(rec.state)))


_PERFORM = {"buy": _buy, "build": _build, "sell": _sell, "consult": _consult}


def _level_up_after_sale(rec: Recorder) -> None:
    """§11.6 sell step 4: after each sale the AI moves up a level (up to the top)."""
    ai = ai_of(rec.state)
    if ai.level < max(catalog_of(rec.state).ai_levels):
        rec.emit(AiLevelRaised(seat=ai.seat, level=ai.level + 1, reason="it sold a plot"))


def _tie_break(rec: Recorder, chance: Chance, ai: AiState, purpose: str, candidates: list[str]) -> str:
    if len(candidates) == 1:
        return candidates[0]
    chosen, faces = pick(chance, candidates)
    rec.emit(AiDieRolled(seat=ai.seat, purpose=purpose, candidates=tuple(candidates), faces=faces, chosen=chosen))
    return chosen


def apply_holdings_changed(state: MagnateState, event: AiHoldingsChanged) -> MagnateState:
    return replace(state, ai=replace(ai_of(state), bottom_row=event.bottom_row, top_row=event.top_row))
