"""A readable, round-by-round account of a game of Magnate, from its events alone.

:class:`Narrator` reads one event at a time (so a live feed can use it as events arrive) and keeps only
what it needs to name things: the building on each plot, the owners, the land price and the crash marker.
Every line is a :class:`~domain.kernel.phrases.Phrase` (a message key and its arguments, in no language): seats
as seat references (the services name them the way the reader's page does), the catalogue's names as terms,
amounts as the game's money phrase (:func:`domain.magnate.money.cash`: ``1,200K``), so each reader reads the
story in their own language. :func:`narrate` is the whole log in English (the CLI, logs, tests);
:func:`history` tells a stored log as structured lines for the web page.

Events carry only public facts, so the story is the same for every viewer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from domain.kernel.narration import Told
from domain.kernel.phrases import Listing, Phrase, SeatRef, Term, plain, say, say_n, seat, term

from .catalog import DEFAULT_DATASET, Catalog, catalog
from .events import (
    AdvertisingTaken,
    AttractionStarted,
    BidPassed,
    BidPlaced,
    BuildingBuilt,
    Consulted,
    DiceRolled,
    DiceSettled,
    FirstPlayerDecided,
    ForSaleMarkerDrawn,
    GameEnded,
    GameStarted,
    LandBought,
    LandPriceMoved,
    MagnateEvent,
    MarketCrashed,
    NewTenantsArrived,
    PhaseStarted,
    PlotLiquidated,
    PlotSold,
    RentCollected,
    RiskCardDrawn,
    RoundStarted,
    SeedRevealed,
    TenantsMovedIn,
)
from .money import cash
from .narrate_ai import AiTeller

Line = tuple[int, Phrase | None]
"""A line at a depth, or ``(0, None)`` for a blank line between parts of the story (given out only by
:func:`narrate`)."""

PHASE_TITLES = {
    "attracting": say("Phase 2 — attract tenants and collect rent"),
    "actions": say("Phase 3 — actions"),
    "market": say("Phase 4 — property market"),
}
def risk_card(reason: str, card: str, before: int, after: int) -> Phrase:
    """The risk card line for the market step ``reason``."""
    if reason == "available_tenants":
        return say("Risk card {card} (few tenant types available): crash marker {before} → {after}",
                   card=card, before=before, after=after)
    if reason == "land_price_zone":
        return say("Risk card {card} (land price zone): crash marker {before} → {after}",
                   card=card, before=before, after=after)
    if reason == "advertising":
        return say("Risk card {card} (little advertising this round): crash marker {before} → {after}",
                   card=card, before=before, after=after)
    if reason == "plots_sold":
        return say("Risk card {card} (plots sold this round): crash marker {before} → {after}",
                   card=card, before=before, after=after)
    return say("Risk card {card} ({reason}): crash marker {before} → {after}",
               card=card, reason=reason, before=before, after=after)


def land_price_moved(reason: str, steps: int, price: Phrase) -> Phrase:
    """The land price's rise for the market step ``reason`` (the price only rises before the crash)."""
    if reason == "advertising":
        return say_n("Land price rises {n} position to {price} (heavy advertising this round)",
                     "Land price rises {n} positions to {price} (heavy advertising this round)", "n",
                     n=steps, price=price)
    if reason == "plots_sold":
        return say_n("Land price rises {n} position to {price} (plots sold this round)",
                     "Land price rises {n} positions to {price} (plots sold this round)", "n", n=steps, price=price)
    return say_n("Land price rises {n} position to {price} ({reason})",
                 "Land price rises {n} positions to {price} ({reason})", "n", n=steps, price=price, reason=reason)


def faces(values: Iterable[int]) -> str:
    """Dice faces as written on the page: ``1 2 2 4``."""
    return " ".join(str(value) for value in values)


class Narrator(AiTeller):
    """Turns events into phrases, one event at a time, in log order."""

    def __init__(self, names: Mapping[int, str] | None = None) -> None:
        """``names`` (the players' chosen names) are the services' to use: a line names a seat by reference."""
        super().__init__()
        self.cat: Catalog = catalog(DEFAULT_DATASET)
        self.buildings: dict[str, str] = {}
        self.owners: dict[str, int] = {}
        self.features: dict[str, str] = {}
        self.land_price = 0
        """Position on the land price track."""
        self.crash = 0
        self._handlers: dict[type[Any], Callable[[Any], list[Line]]] = {
            GameStarted: self._game_started,
            RoundStarted: self._round_started,
            BidPlaced: lambda e: [(1, say("{seat} bids {amount}", seat=seat(e.seat), amount=cash(e.amount)))],
            BidPassed: lambda e: [(1, say("{seat} passes", seat=seat(e.seat)))],
            FirstPlayerDecided: self._first_player,
            PhaseStarted: self._phase_started,
            AttractionStarted: self._attraction_started,
            DiceRolled: lambda e: [(3, say("rolls {faces}", faces=faces(e.faces)))],
            DiceSettled: self._dice_settled,
            TenantsMovedIn: self._tenants_moved_in,
            RentCollected: self._rent_collected,
            LandBought: self._land_bought,
            BuildingBuilt: self._building_built,
            AdvertisingTaken: self._advertising_taken,
            Consulted: lambda e: [(2, say("{seat} consults and receives {amount}", seat=seat(e.seat),
                                          amount=cash(e.amount)))],
            PlotSold: self._plot_sold,
            RiskCardDrawn: self._risk_card,
            LandPriceMoved: self._land_price_moved,
            NewTenantsArrived: self._new_tenants,
            ForSaleMarkerDrawn: self._for_sale_marker,
            MarketCrashed: self._market_crashed,
            PlotLiquidated: self._plot_liquidated,
            GameEnded: self._game_ended,
            SeedRevealed: lambda e: [(0, say("Seed revealed: {seed} (anyone can now re-derive every roll and draw)",
                                             seed=e.seed))],
            **self.ai_handlers(),
        }

    def tell(self, version: int, tag: str, event: MagnateEvent) -> list[Told]:
        """The lines of one event (this narrator has been told every event before it), as phrases."""
        return [Told(version, tag, depth, "", (), phrase) for depth, phrase in self.told(event) if phrase is not None]

    def told(self, event: MagnateEvent) -> list[Line]:
        """The lines telling ``event`` (possibly none), updating what the narrator remembers."""
        handler = self._handlers.get(type(event))
        if handler is None:
            return [(1, say("({event})", event=type(event).__name__))]
        return handler(event)

    # --- names ---------------------------------------------------------------------------------

    def building(self, key: str | None) -> Term | str:
        held = self.cat.buildings.get(key or "")
        return term(held.name) if held is not None else key or "?"

    def tenant_name(self, kind: str) -> Term | str:
        if kind in self.cat.tenant_types:
            return term(self.cat.tenant_types[kind].name)
        if kind in self.cat.tenant_subtypes:
            return term(self.cat.tenant_subtypes[kind].name)
        return kind

    def tenants(self, kinds: Iterable[str]) -> Listing:
        """Tenants by kind: "Home ×2, Students ×1"."""
        counts = Counter(kinds)
        return Listing(tuple(say("{kind} ×{n}", kind=self.tenant_name(kind), n=n) for kind, n in counts.items()))

    def price(self) -> Phrase:
        return cash(self.cat.price(self.land_price))

    # --- events --------------------------------------------------------------------------------

    def _game_started(self, e: GameStarted) -> list[Line]:
        self.cat = catalog(e.dataset)
        self.buildings = {c.plot: c.building for c in e.centre}
        self.owners = {}
        self.features = {
            f"{position}{letter}": feature
            for position, key in enumerate(e.neighbourhoods, start=1)
            for letter, feature in self.cat.neighbourhoods[key].features.items()
        }
        self.land_price, self.crash = e.land_price, e.crash
        count = len(e.seats)
        if e.advanced:
            title = say_n("Magnate: The First City — advanced game for {n} seat (dataset {dataset})",
                          "Magnate: The First City — advanced game for {n} seats (dataset {dataset})", "n",
                          n=count, dataset=e.dataset)
        else:
            title = say_n("Magnate: The First City — standard game for {n} seat (dataset {dataset})",
                          "Magnate: The First City — standard game for {n} seats (dataset {dataset})", "n",
                          n=count, dataset=e.dataset)
        if e.tutorial:
            title = say("{game}, tutorial setup", game=title)
        seats = Listing(tuple(
            say_n("{seat} ({cash}, {n} advertising token)", "{seat} ({cash}, {n} advertising tokens)", "n",
                  seat=seat(number), cash=cash(money), n=ads)
            for number, (money, ads) in enumerate(zip(e.cash, e.advertising, strict=True))
        ))
        tiles = Listing(tuple(
            say("{position} {neighbourhood}", position=position, neighbourhood=term(self.cat.neighbourhoods[key].name))
            for position, key in enumerate(e.neighbourhoods, start=1)
        ))
        available = (say("Available tenants: {tenants}", tenants=self.tenants(e.available)) if e.available
                     else say("Available tenants: none"))
        return [
            (0, title),
            (1, say("Seats, clockwise: {seats}", seats=seats)),
            (1, say("Neighbourhoods: {tiles}", tiles=tiles)),
            (1, available),
            (1, say("For sale: {plots}", plots=Listing(tuple(e.for_sale)))),
            (1, say("Land price {price} (track position {position}); crash marker at {crash}",
                    price=self.price(), position=e.land_price, crash=e.crash)),
        ]

    def _round_started(self, e: RoundStarted) -> list[Line]:
        self.depth = 1
        return [(0, None), (0, say("Round {round} — {seat} opens the bid for first player", round=e.round,
                                   seat=seat(e.opener)))]

    def _first_player(self, e: FirstPlayerDecided) -> list[Line]:
        if e.paid:
            return [(1, say("{seat} is first player and pays {amount}", seat=seat(e.seat), amount=cash(e.paid)))]
        return [(1, say("{seat} is first player and pays nothing", seat=seat(e.seat)))]

    def _phase_started(self, e: PhaseStarted) -> list[Line]:
        self.depth = 2
        return [(1, PHASE_TITLES.get(e.phase, say("Phase {phase}", phase=e.phase)))]

    def _attraction_started(self, e: AttractionStarted) -> list[Line]:
        args: dict[str, Any] = {"seat": seat(e.seat), "building": self.building(self.buildings.get(e.plot)),
                                "plot": e.plot, "n": e.dice}
        if not e.dice:
            if e.advertising:
                line = say_n("{seat} attracts tenants to the {building} on {plot}, committing {tokens} advertising "
                             "token: no dice (nobody lives nearby)",
                             "{seat} attracts tenants to the {building} on {plot}, committing {tokens} advertising "
                             "tokens: no dice (nobody lives nearby)", "tokens", tokens=e.advertising, **args)
            else:
                line = say("{seat} attracts tenants to the {building} on {plot}: no dice (nobody lives nearby)",
                           seat=seat(e.seat), building=self.building(self.buildings.get(e.plot)), plot=e.plot)
        elif e.advertising:
            line = say_n("{seat} attracts tenants to the {building} on {plot}, committing {tokens} advertising: "
                         "{n} die",
                         "{seat} attracts tenants to the {building} on {plot}, committing {tokens} advertising: "
                         "{n} dice", "n", tokens=e.advertising, **args)
        else:
            line = say_n("{seat} attracts tenants to the {building} on {plot}: {n} die",
                         "{seat} attracts tenants to the {building} on {plot}: {n} dice", "n", **args)
        return [(2, line)]

    def _dice_settled(self, e: DiceSettled) -> list[Line]:
        if not e.fives and not e.modifier:
            return []  # the final dice are the rolled ones
        final = faces(e.final)
        which = Listing(tuple(f"#{i + 1}" for i in e.fives))
        modifier = f"{e.modifier:+d}"
        if e.fives and e.modifier:
            line = say_n("final dice {dice} (advertising sets die {which} to 5; modifier {modifier})",
                         "final dice {dice} (advertising sets dice {which} to 5; modifier {modifier})", "n",
                         dice=final, which=which, modifier=modifier, n=len(e.fives))
        elif e.fives:
            line = say_n("final dice {dice} (advertising sets die {which} to 5)",
                         "final dice {dice} (advertising sets dice {which} to 5)", "n",
                         dice=final, which=which, n=len(e.fives))
        else:
            line = say("final dice {dice} (modifier {modifier})", dice=final, modifier=modifier)
        return [(3, line)]

    def _tenants_moved_in(self, e: TenantsMovedIn) -> list[Line]:
        if not e.tenants:
            return [(3, say("nobody moves in"))]
        return [(3, say("moving in: {tenants}", tenants=self.tenants(e.tenants)))]

    def _rent_collected(self, e: RentCollected) -> list[Line]:
        if e.amount:
            return [(2, say("{seat} collects {amount} rent", seat=seat(e.seat), amount=cash(e.amount)))]
        return [(2, say("{seat} collects no rent", seat=seat(e.seat)))]

    def _land_bought(self, e: LandBought) -> list[Line]:
        self.owners[e.plot] = e.seat
        who = seat(e.seat)
        if not e.price:
            line = say("{seat} buys {plot} free", seat=who, plot=e.plot)
        elif e.adjacent:
            line = say("{seat} buys {plot} for {amount} (next to its own plot, double price)", seat=who,
                       plot=e.plot, amount=cash(e.price))
        else:
            line = say("{seat} buys {plot} for {amount}", seat=who, plot=e.plot, amount=cash(e.price))
        return [(2, line)]

    def _building_built(self, e: BuildingBuilt) -> list[Line]:
        old = self.buildings.get(e.plot)
        self.buildings[e.plot] = e.building
        args: dict[str, Any] = {"seat": seat(e.seat), "plot": e.plot, "building": self.building(e.building)}
        if old:
            args["old"] = self.building(old)
            if e.cost:
                line = say("{seat} replaces the {old} on {plot} with {building} for {amount}",
                           amount=cash(e.cost), **args)
            else:
                line = say("{seat} replaces the {old} on {plot} with {building} free", **args)
        elif e.cost:
            line = say("{seat} builds {building} on {plot} for {amount}", amount=cash(e.cost), **args)
        else:
            line = say("{seat} builds {building} on {plot} free", **args)
        if e.returned:
            line = say("{built}; {tenants} back to the available tenants", built=line,
                       tenants=self.tenants(e.returned))
        return [(2, line)]

    def _advertising_taken(self, e: AdvertisingTaken) -> list[Line]:
        if e.bought:
            return [(2, say_n("{seat} takes {free} free advertising tokens and buys {n} for {amount}",
                              "{seat} takes {free} free advertising tokens and buys {n} for {amount}", "n",
                              seat=seat(e.seat), free=e.free, n=e.bought, amount=cash(e.cost)))]
        return [(2, say_n("{seat} takes {n} free advertising token", "{seat} takes {n} free advertising tokens", "n",
                          seat=seat(e.seat), n=e.free))]

    def _plot_sold(self, e: PlotSold) -> list[Line]:
        self.owners.pop(e.plot, None)
        return [(2, say("{seat} sells {plot} to the bank: value {value} × {price} = {amount}", seat=seat(e.seat),
                        plot=e.plot, value=e.value, price=self.price(), amount=cash(e.amount)))]

    def _risk_card(self, e: RiskCardDrawn) -> list[Line]:
        before, self.crash = self.crash, e.crash
        return [(2, risk_card(e.reason, e.card, before, e.crash))]

    def _land_price_moved(self, e: LandPriceMoved) -> list[Line]:
        before, self.land_price = self.land_price, e.position
        return [(2, land_price_moved(e.reason, abs(e.position - before), self.price()))]

    def _new_tenants(self, e: NewTenantsArrived) -> list[Line]:
        if not e.tenants:
            line = say("New tenant card {card} brings no tenants", card=e.card)
        else:
            line = say("New tenant card {card} brings {tenants}", card=e.card, tenants=self.tenants(e.tenants))
        if e.missing:
            line = say("{arrival} ({tenants} missing from the supply)", arrival=line, tenants=self.tenants(e.missing))
        return [(2, line)]

    def _for_sale_marker(self, e: ForSaleMarkerDrawn) -> list[Line]:
        plot = e.plot
        if e.placed:
            return [(2, say("{plot} goes up for sale", plot=plot))]
        if plot in self.features:
            feature = self.cat.features.get(self.features[plot])
            name = term(feature.name) if feature else self.features[plot]
            line = say("'For sale' marker {plot} goes back to the box: the plot is a feature ({feature})", plot=plot,
                       feature=name)
        elif plot in self.owners:
            line = say("'For sale' marker {plot} goes back to the box: the plot is owned by {seat}", plot=plot,
                       seat=seat(self.owners[plot]))
        elif plot in self.buildings:
            line = say("'For sale' marker {plot} goes back to the box: the plot has a building ({building})", plot=plot,
                       building=self.building(self.buildings[plot]))
        else:
            line = say("'For sale' marker {plot} goes back to the box: the plot cannot take it", plot=plot)
        return [(2, line)]

    def _market_crashed(self, e: MarketCrashed) -> list[Line]:
        self.land_price = e.land_price
        return [(0, None), (0, say_n("CRASH: land price falls {n} position to {price}; every owned plot is sold",
                                     "CRASH: land price falls {n} positions to {price}; every owned plot is sold",
                                     "n", n=e.depth, price=self.price()))]

    def _plot_liquidated(self, e: PlotLiquidated) -> list[Line]:
        self.owners.pop(e.plot, None)
        return [(1, say("{seat} sells {plot}: value {value} × {price} = {amount}", seat=seat(e.seat), plot=e.plot,
                        value=e.value, price=self.price(), amount=cash(e.amount)))]

    def _game_ended(self, e: GameEnded) -> list[Line]:
        order = sorted(range(len(e.cash)), key=lambda s: (-e.cash[s], s))
        lines: list[Line] = [(0, None), (0, say("Final standings"))]
        for number in order:
            rank = 1 + sum(other > e.cash[number] for other in e.cash)
            amount = cash(e.cash[number])
            if number in e.winners:
                line = say("{rank}. {seat} {amount} (winner)", rank=rank, seat=seat(number), amount=amount)
            else:
                line = say("{rank}. {seat} {amount}", rank=rank, seat=seat(number), amount=amount)
            lines.append((1, line))
        return lines


def english(phrase: Phrase, label: Callable[[int], str]) -> str:
    """The phrase in English, each seat named ``label(seat)`` (the CLI, logs and tests; the services render)."""

    def named(value: Any) -> Any:
        if isinstance(value, SeatRef):
            return label(value.seat)
        if isinstance(value, Phrase):
            return Phrase(value.key, {k: named(v) for k, v in value.args.items()}, value.plural, value.count)
        if isinstance(value, Listing):
            return Listing(tuple(named(item) for item in value.items))
        return value

    return plain(named(phrase))


def narrate(events: Iterable[MagnateEvent], names: Mapping[int, str] | None = None) -> Iterator[str]:
    """Every line of the story of a log in English, in order, indented by depth (seats named with the players'
    ``names``, else "Player 2")."""
    chosen = dict(names or {})
    narrator = Narrator(chosen)
    for event in events:
        for depth, phrase in narrator.told(event):
            yield "" if phrase is None else "  " * depth + english(phrase, lambda s: chosen.get(s) or f"Player {s + 1}")


def history(events: Iterable[tuple[int, str, MagnateEvent]], after: int = 0) -> list[Told]:
    """The story of a log of ``(version, type tag, event)``, keeping only the lines of events after version
    ``after`` (the narrator still reads the whole log to name things)."""
    narrator = Narrator()
    return [t for version, tag, event in events for t in narrator.tell(version, tag, event) if t.version > after]
