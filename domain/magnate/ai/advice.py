"""The engine's advice to a person's seat in Magnate (issue #26): an evaluation of the seat's own options.

Magnate's own AI decides by drawing cards, so the advice weighs the seat's options itself. In the actions phase,
where the game is decided, each option (consulting, an advertising token, every plot for sale, every building on
an unbuilt plot of its own, every sale) is scored by what it is expected to gain by the crash, in $K
(:mod:`.gains`: rent and plot value against cost, and the sales the end demands), best first. Bids, attraction,
the dice and the tenants follow rules of thumb (:func:`candidates`): the minimum bid when it is cheap (at most half
the land price), else a pass; the buildings with most free places first, two advertising tokens each; the dice
and the tenants the rules suggest.

It decides on the seat's view only: the public board, and the seat's own cash and tokens (never another person's,
which it may not see). It draws nothing at random.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from domain.kernel import Command, CommandTemplate, Seat, tag_of
from domain.kernel.advice import NO_ADVICE, Advice, AdviceOption, Reason, ranked, render
from domain.kernel.phrases import Phrase, Term, say, say_n, term

from ..catalog import DEFAULT_DATASET, catalog
from ..city import owned_by, plot_at, plot_value
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
from ..legal import legal_commands
from ..money import cash, money
from ..rules.actions import land_price
from ..rules.attraction import room
from ..state import MagnateState, Phase
from .gains import actions_left, build_gain, buy_gain, sale_gain, unbuilt

TEMPLATES = {
    "magnate.consult": "Consult: take the land price, {price}; no other action gains more by the crash.",
    "magnate.advertise": "Take an advertising token: you have none for attracting tenants.",
    "magnate.buy": "Buy {plot} to build {building}: it would bring about {gain} more than it costs by the crash.",
    "magnate.buy_not": "Buying {plot} would not pay for itself before the crash.",
    "magnate.build": "Build {building} on {plot}: about {gain} over its cost by the crash, with {tenants} "
                     "tenant(s) paying rent.",
    "magnate.build_not": "Building {building} on {plot} would not pay for itself before the crash.",
    "magnate.sell": "Sell {plot} now for {amount}: {plots} plot(s) to sell and about {actions} action(s) left "
                    "before the crash, which sells what is left at the crashed price.",
    "magnate.sell_not": "Selling {plot} now would give up its rent: the crash is still about {actions} actions away.",
    "magnate.bid": "Bid {amount} for the turn order, cheap at this land price.",
    "magnate.pass_bid": "Pass the bid: going first is not worth more than the minimum bid here.",
    "magnate.attract": "Attract tenants to {plot} ({advertising} advertising): the most free places first.",
    "magnate.finish": "Stop attracting and collect your rent.",
    "magnate.dice": "Re-roll these dice with your advertising: the most fives it can bring.",
    "magnate.tenants": "Take these tenants: the most population the building can hold.",
    "magnate.only": "The one move there is.",
}


def candidates(state: MagnateState, seat: int, templates: list[CommandTemplate]) -> list[Command]:
    """The options worth searching, by rule of thumb (each a legal command of ``seat``)."""
    commands = [t.command for t in templates]
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
    out: list[Command] = [Consult()]
    if state.seats[seat].advertising == 0:
        out.append(Advertise(bought=0))
    return [*out, *(c for c in commands if isinstance(c, BuyLand) and plot_at(state, c.plot).for_sale),
            *(c for c in commands if isinstance(c, Build) and unbuilt(state, c)),
            *(c for c in commands if isinstance(c, Sell))]


def scored(state: MagnateState, seat: int, command: Command) -> AdviceOption:
    """An action with its gain by the crash (:mod:`.gains`) and the reason."""
    price = land_price(state)
    match command:
        case BuyLand(plot=plot):
            gain, building = buy_gain(state, seat, plot)
            return AdviceOption(command, Reason("magnate.buy" if gain > 0 else "magnate.buy_not", {
                "plot": plot, "building": building, "gain": gain}), gain)
        case Build(plot=plot, building=building):
            gain, tenants = build_gain(state, plot, building)
            return AdviceOption(command, Reason("magnate.build" if gain > 0 else "magnate.build_not", {
                "plot": plot, "building": building, "gain": gain, "tenants": tenants}), gain)
        case Sell(plot=plot):
            score = sale_gain(state, seat, plot)
            args: dict[str, str | int] = {"plot": plot, "amount": plot_value(state, plot) * price,
                                          "plots": len(owned_by(state, seat)), "actions": actions_left(state)}
            return AdviceOption(command, Reason("magnate.sell" if score > 0 else "magnate.sell_not", args), score)
        case Advertise():
            return AdviceOption(command, Reason("magnate.advertise"), 1 if state.seats[seat].advertising == 0 else -1)
    return AdviceOption(command, Reason("magnate.consult", {"price": price}), 0)


def _reason(command: Command) -> Reason:
    match command:
        case PlaceBid(amount=amount):
            return Reason("magnate.bid", {"amount": amount})
        case PassBid():
            return Reason("magnate.pass_bid")
        case AttractTenants(plot=plot, advertising=ads):
            return Reason("magnate.attract", {"plot": plot, "advertising": ads})
        case FinishAttracting():
            return Reason("magnate.finish")
        case UseAdvertising():
            return Reason("magnate.dice")
        case ChooseTenants():
            return Reason("magnate.tenants")
    return Reason("magnate.only", {"move": tag_of(command)})


def advise(state: MagnateState, seat: Seat) -> Advice:
    """``seat``'s options ranked by their mean final margin, best first (none unless the seat is to act)."""
    if state.phase == Phase.ENDED:
        return NO_ADVICE
    templates = legal_commands(state, seat)
    if not templates:
        return NO_ADVICE
    options = candidates(state, int(seat), templates)
    if state.phase != Phase.ACTIONS:
        # bids, attraction, dice and tenants: the rules of thumb's order (:func:`candidates`), best first
        return Advice(options=tuple(AdviceOption(command=c, why=worded(_reason(c)), score=len(options) - i)
                                    for i, c in enumerate(options)))
    return ranked([msgspec.structs.replace(o, why=worded(o.why)) for o in
                   (scored(state, int(seat), c) for c in options)])


MONEY_ARGS = ("price", "gain", "amount")
"""The arguments that are amounts in $K, written as everywhere else (:func:`..money.money`)."""


def advice_text(reason: Reason) -> str:
    """A Magnate reason in English: amounts written as money, a building by its name (the key stays in the
    reason's arguments, which carry no language)."""
    args: dict[str, str | int] = dict(reason.args)
    for name in MONEY_ARGS:
        amount = args.get(name)
        if isinstance(amount, int):
            args[name] = money(amount)
    building = args.get("building")
    if isinstance(building, str):
        held = catalog(DEFAULT_DATASET).buildings.get(building)
        args["building"] = held.name if held is not None else building
    return render(TEMPLATES, Reason(key=reason.key, args=args))


def worded(reason: Reason) -> Reason:
    """The reason with its phrase (:func:`phrase`), for the page to read it in its own language."""
    return msgspec.structs.replace(reason, phrase=phrase(reason))


def _building(key: object) -> Term | str:
    held = catalog(DEFAULT_DATASET).buildings.get(str(key))
    return term(held.name) if held is not None else str(key)


class _Args:
    """A reason's arguments, read as what they are."""

    def __init__(self, args: dict[str, str | int]) -> None:
        self.args = args
        self.plot = str(args.get("plot", ""))

    def cash(self, name: str) -> Phrase:
        return cash(self.count(name))

    def count(self, name: str) -> int:
        value = self.args.get(name, 0)
        return value if isinstance(value, int) else 0

    def building(self) -> Term | str:
        return _building(self.args.get("building"))


_PHRASES: dict[str, Callable[[_Args], Phrase]] = {
    "magnate.consult": lambda a: say(
        "Consult: take the land price, {price}; no other action gains more by the crash.", price=a.cash("price")),
    "magnate.advertise": lambda a: say("Take an advertising token: you have none for attracting tenants."),
    "magnate.buy": lambda a: say(
        "Buy {plot} to build {building}: it would bring about {gain} more than it costs by the crash.",
        plot=a.plot, building=a.building(), gain=a.cash("gain")),
    "magnate.buy_not": lambda a: say("Buying {plot} would not pay for itself before the crash.", plot=a.plot),
    "magnate.build": lambda a: say_n(
        "Build {building} on {plot}: about {gain} over its cost by the crash, with {n} tenant paying rent.",
        "Build {building} on {plot}: about {gain} over its cost by the crash, with {n} tenants paying rent.", "n",
        building=a.building(), plot=a.plot, gain=a.cash("gain"), n=a.count("tenants")),
    "magnate.build_not": lambda a: say(
        "Building {building} on {plot} would not pay for itself before the crash.", building=a.building(),
        plot=a.plot),
    "magnate.sell": lambda a: say_n(
        "Sell {plot} now for {amount}: plots to sell: {plots}; about {n} action left before the crash, which sells "
        "what is left at the crashed price.",
        "Sell {plot} now for {amount}: plots to sell: {plots}; about {n} actions left before the crash, which sells "
        "what is left at the crashed price.", "n",
        plot=a.plot, amount=a.cash("amount"), plots=a.count("plots"), n=a.count("actions")),
    "magnate.sell_not": lambda a: say_n(
        "Selling {plot} now would give up its rent: the crash is still about {n} action away.",
        "Selling {plot} now would give up its rent: the crash is still about {n} actions away.", "n",
        plot=a.plot, n=a.count("actions")),
    "magnate.bid": lambda a: say("Bid {amount} for the turn order, cheap at this land price.", amount=a.cash("amount")),
    "magnate.pass_bid": lambda a: say("Pass the bid: going first is not worth more than the minimum bid here."),
    "magnate.attract": lambda a: say_n(
        "Attract tenants to {plot} ({n} advertising token): the most free places first.",
        "Attract tenants to {plot} ({n} advertising tokens): the most free places first.", "n",
        plot=a.plot, n=a.count("advertising")),
    "magnate.finish": lambda a: say("Stop attracting and collect your rent."),
    "magnate.dice": lambda a: say("Re-roll these dice with your advertising: the most fives it can bring."),
    "magnate.tenants": lambda a: say("Take these tenants: the most population the building can hold."),
}


def phrase(reason: Reason) -> Phrase:
    """A Magnate reason in no language: amounts as the game's money, a building by its catalog name."""
    told = _PHRASES.get(reason.key)
    return told(_Args(reason.args)) if told is not None else say("The one move there is.")
