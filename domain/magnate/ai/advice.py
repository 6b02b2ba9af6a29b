"""The engine's advice to a person's seat in Magnate (issue #26): an evaluation of the seat's own options.

Magnate's own AI decides by drawing cards, so the advice weighs the seat's sensible options in the phase at hand
(:func:`candidates`: a bid or a pass; each building to attract to, or stopping; the dice and the tenants the
rules suggest; in the actions phase consulting, advertising, the best plots to buy, the best buildings to build
and the most valuable plots to sell), each by what the seat may expect to hold at the crash after it
(:func:`worth`: its cash, and its plots at the expected crash price with the tenants their free places may still
attract: an integer in $K). The rules of thumb's own choice (the greedy bot's, :data:`RULE`) ranks first: measured
over 100 games the evaluation alone played worse than it (docs/AI.md, "Advice").

It decides on the seat's view only: another person's cash and advertising tokens, which the seat may not see,
are set to the seat's own first (:func:`seen`), and the rules of thumb draw from a digest of the seat's view,
never from the game's seed.
"""

from __future__ import annotations

import msgspec

from domain.kernel import Chance, Command, CommandTemplate, Seat, tag_of
from domain.kernel.advice import NO_ADVICE, Advice, AdviceOption, Reason, ranked, render, view_seed

from ..bots import Greedy
from ..city import catalog_of, modifier, owned_by, plot_at, plot_value
from ..commands import (
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
from ..decider import step
from ..legal import legal_commands
from ..rules.actions import land_price
from ..rules.attraction import room
from ..state import MagnateState, Phase, SeatKind
from ..view import view
from .actions import bonus_arrows

FILL = 2
"""Free places a building is expected to fill a round."""
EMPTY = 2
"""What an unbuilt plot of one's own is expected to add by the crash (built on and let), in plot value."""
KEEP = 2
RULE = 1_000_000
"""Added to the score of the rules of thumb's own choice (the greedy bot's, on the seat's view), which ranks first:
the evaluation alone (:func:`worth`) does not yet play better than it (docs/AI.md, "Advice")."""
"""Plots to buy, buildings to build and plots to sell the search considers, the best few of each by rule of thumb."""

_AHEAD = "you can expect {value}K at the crash."
TEMPLATES = {
    "magnate.consult": "Consult, taking the land price: " + _AHEAD,
    "magnate.advertise": "Take advertising ({bought} bought): " + _AHEAD,
    "magnate.buy": "Buy {plot}: " + _AHEAD,
    "magnate.build": "Build {building} on {plot}: " + _AHEAD,
    "magnate.sell": "Sell {plot} now, before the crash lowers its price: " + _AHEAD,
    "magnate.bid": "Bid {amount}K for the turn order, cheap at this land price.",
    "magnate.pass_bid": "Pass the bid: going first is not worth more than the minimum bid here.",
    "magnate.attract": "Attract tenants to {plot} ({advertising} advertising): the most free places first.",
    "magnate.finish": "Stop attracting: nothing left to fill.",
    "magnate.dice": "Re-roll these dice with your advertising: the most fives it can bring.",
    "magnate.tenants": "Take these tenants: the most population the building can hold.",
    "magnate.only": "The one move there is.",
}


def seen(state: MagnateState, seat: int) -> MagnateState:
    """``state`` as ``seat`` may know it: every other person's cash and advertising set to the seat's own."""
    own = state.seats[seat]
    seats = tuple(s if i == seat or s.kind != SeatKind.HUMAN
                  else msgspec.structs.replace(s, cash=own.cash, advertising=own.advertising)
                  for i, s in enumerate(state.seats))
    return msgspec.structs.replace(state, seats=seats)


def candidates(state: MagnateState, seat: int, templates: list[CommandTemplate]) -> list[Command]:
    """The options worth searching, by rule of thumb (each a legal command of ``seat``)."""
    commands = [t.command for t in templates]
    cash = state.seats[seat].cash
    if any(isinstance(c, PassBid) for c in commands):
        bids = [c for c in commands if isinstance(c, PlaceBid) and c.amount * 2 <= land_price(state)]
        return [*bids[:1], PassBid()]
    if any(isinstance(c, UseAdvertising) for c in commands):
        return commands[:1]
    if any(isinstance(c, ChooseTenants) for c in commands):
        return commands[:3]
    if any(isinstance(c, FinishAttracting) for c in commands):
        ads = min(2, state.seats[seat].advertising)
        plots = sorted((c.plot for c in commands if isinstance(c, AttractTenants)),
                       key=lambda p: (-room(state, p), p))
        return [*(AttractTenants(plot=p, advertising=ads) for p in plots), FinishAttracting()]
    cat = catalog_of(state)
    buys = sorted((c for c in commands if isinstance(c, BuyLand)),
                  key=lambda c: (-bonus_arrows(state, c.plot), -int(plot_at(state, c.plot).for_sale), c.plot))
    builds = sorted((c for c in commands if isinstance(c, Build) and plot_at(state, c.plot).building is None),
                    key=lambda c: (-modifier(state, c.plot, cat.buildings[c.building].tenant_type),
                                   -cat.buildings[c.building].capacity, cat.buildings[c.building].cost, c.plot))
    sells = sorted((c for c in commands if isinstance(c, Sell)),
                   key=lambda c: (-plot_value(state, c.plot), c.plot))
    out: list[Command] = [Consult()]
    if state.seats[seat].advertising == 0 and cash >= 0:
        out.append(Advertise(bought=0))
    return [*out, *buys[:KEEP], *builds[:KEEP], *sells[:KEEP]]


def end_price(state: MagnateState) -> int:
    """The land price a plot is expected to fetch at the crash: the track position less the depth the risk cards
    drawn so far give, one position more for those still to come (never below the track's bottom)."""
    cat = catalog_of(state)
    depth = -sum(cat.risk_cards[c].bottom for c in state.risk_discard) + 1
    return cat.price(max(cat.land_price_min, state.land_price - depth))


def rounds_left(state: MagnateState) -> int:
    """About how many rounds remain: the crash marker falls about two positions a round."""
    return max(0, state.crash // 2)


def worth(state: MagnateState, seat: int) -> int:
    """What ``seat`` is expected to hold at the crash, in $K: its cash, and each plot it owns at the expected
    crash price, counting the tenants its free places may still attract in the rounds left."""
    cat = catalog_of(state)
    price = end_price(state)
    rounds = rounds_left(state)
    total = state.seats[seat].cash
    for plot in owned_by(state, seat):
        here = plot_at(state, plot)
        value = plot_value(state, plot)
        if here.building is not None:
            kind = cat.buildings[here.building].tenant_type
            population = max((k.population for k in cat.kinds.values()), default=1) if kind else 1
            value += min(room(state, plot), FILL * rounds) * population
        elif rounds > 1:
            value += EMPTY
        total += value * price
    return total


def _reason(command: Command, value: int) -> Reason:
    base: dict[str, str | int] = {"value": value}
    match command:
        case Consult():
            return Reason("magnate.consult", base)
        case Advertise(bought=bought):
            return Reason("magnate.advertise", {**base, "bought": bought})
        case BuyLand(plot=plot):
            return Reason("magnate.buy", {**base, "plot": plot})
        case Build(plot=plot, building=building):
            return Reason("magnate.build", {**base, "plot": plot, "building": building})
        case Sell(plot=plot):
            return Reason("magnate.sell", {**base, "plot": plot})
        case PlaceBid(amount=amount):
            return Reason("magnate.bid", {**base, "amount": amount})
        case PassBid():
            return Reason("magnate.pass_bid", base)
        case AttractTenants(plot=plot, advertising=ads):
            return Reason("magnate.attract", {**base, "plot": plot, "advertising": ads})
        case FinishAttracting():
            return Reason("magnate.finish", base)
        case UseAdvertising():
            return Reason("magnate.dice", base)
        case ChooseTenants():
            return Reason("magnate.tenants", base)
    return Reason("magnate.only", {"move": tag_of(command)})


def advise(state: MagnateState, seat: Seat) -> Advice:
    """``seat``'s options ranked by their mean final margin, best first (none unless the seat is to act)."""
    if state.phase == Phase.ENDED:
        return NO_ADVICE
    templates = legal_commands(state, seat)
    if not templates:
        return NO_ADVICE
    options = candidates(state, int(seat), templates)
    if len(options) == 1:
        return Advice(options=(AdviceOption(command=options[0], why=_reason(options[0], 0), score=0),))
    known = seen(state, int(seat))
    rule = Greedy(view_seed(view(state, seat), "magnate-advice"))(known, seat)
    if rule not in options:
        options.insert(0, rule)
    scored = []
    for command in options:
        _, after = step(known, seat, command, Chance(b"magnate-advice", 0))  # type: ignore[arg-type]
        value = worth(after, int(seat)) + (RULE if command == rule else 0)
        scored.append(AdviceOption(command=command, why=_reason(command, value), score=value))
    return ranked(scored)


def advice_text(reason: Reason) -> str:
    """A Magnate reason in English."""
    return render(TEMPLATES, reason)
