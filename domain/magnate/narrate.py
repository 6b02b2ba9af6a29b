"""A readable, round-by-round account of a game of Magnate, from its events alone.

:class:`Narrator` reads one event at a time (so a live feed can use it as events arrive) and keeps only
what it needs to name things: the seats' companies, the building on each plot, the land price and the
crash marker. Names come from the game's catalogue (``GameStarted.dataset``); amounts are in $K, written as
everywhere else (:func:`domain.magnate.money.money`: ``1,200K``). :func:`narrate` is the whole-log
convenience; :func:`history` tells a stored log as structured lines (the version and type of the event each
line tells, its depth, its text and where in the text each seat is named) for the web page.

Events know a seat only by its company; the names the players chose live with the seats, outside the log.
Given them (``Narrator(names)``), the narrator names a seat as the page's headers do ("Ada (Vector
Properties)"); either way each line says where it names which seat (:class:`Named`), so a reader holding
the names (the page) can name every seat its own way.

Events carry only public facts, so the story is the same for every viewer.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from domain.kernel.narration import Named, Part, Told, spell

from .catalog import DEFAULT_DATASET, Catalog, catalog
from .events import (
    AdvertisingTaken,
    AiAdvertised,
    AiCardDrawn,
    AiCardResolved,
    AiDecided,
    AiDeckReshuffled,
    AiDieRolled,
    AiHoldingsChanged,
    AiLevelRaised,
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
from .money import money

INDENT = "  "

PHASE_TITLES = {
    "attracting": "Phase 2 — attract tenants and collect rent",
    "actions": "Phase 3 — actions",
    "market": "Phase 4 — property market",
}
RISK_REASONS = {
    "available_tenants": "few tenant types available",
    "land_price_zone": "land price zone",
    "advertising": "little advertising this round",
    "plots_sold": "plots sold this round",
}
LAND_PRICE_REASONS = {
    "advertising": "heavy advertising this round",
    "plots_sold": "plots sold this round",
}


_SEAT_OPEN, _SEAT_CLOSE = "\x02", "\x03"
"""Around a seat's number in the narrator's raw lines, where the seat is named (resolved before any line is
given out: the texts never contain them)."""
_SEAT = re.compile(f"{_SEAT_OPEN}(\\d+){_SEAT_CLOSE}")


def roman(level: int) -> str:
    return ("I", "II", "III", "IV", "V", "VI")[level - 1] if 1 <= level <= 6 else str(level)


def dice(faces: Iterable[int]) -> str:
    return " ".join(str(face) for face in faces)


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


class Narrator:
    """Turns events into lines of text, one event at a time, in log order."""

    def __init__(self, names: Mapping[int, str] | None = None) -> None:
        self.cat: Catalog = catalog(DEFAULT_DATASET)
        self.names: dict[int, str] = dict(names or {})
        """The names the players chose, by seat (a seat's name defaults to its company's key)."""
        self.companies: tuple[str, ...] = ()
        self.labels: tuple[str, ...] = ()
        """How each seat is named: its company, or "Ada (Vector Properties)" when its player chose a name."""
        self.buildings: dict[str, str] = {}
        self.owners: dict[str, int] = {}
        self.features: dict[str, str] = {}
        self.land_price = 0
        """Position on the land price track."""
        self.crash = 0
        self.depth = 1
        """Indentation of a seat's doings: 1 in the bid, 2 in phases 2-4."""
        self._handlers: dict[type[Any], Callable[[Any], list[str]]] = {
            GameStarted: self._game_started,
            RoundStarted: self._round_started,
            BidPlaced: lambda e: [f"{INDENT}{self.seat(e.seat)} bids {money(e.amount)}"],
            BidPassed: lambda e: [f"{INDENT}{self.seat(e.seat)} passes"],
            FirstPlayerDecided: self._first_player,
            PhaseStarted: self._phase_started,
            AttractionStarted: self._attraction_started,
            DiceRolled: lambda e: [f"{INDENT * 3}rolls {dice(e.faces)}"],
            DiceSettled: self._dice_settled,
            TenantsMovedIn: self._tenants_moved_in,
            RentCollected: self._rent_collected,
            LandBought: self._land_bought,
            BuildingBuilt: self._building_built,
            AdvertisingTaken: self._advertising_taken,
            Consulted: lambda e: [f"{INDENT * 2}{self.seat(e.seat)} consults and receives {money(e.amount)}"],
            PlotSold: self._plot_sold,
            RiskCardDrawn: self._risk_card,
            LandPriceMoved: self._land_price_moved,
            NewTenantsArrived: self._new_tenants,
            ForSaleMarkerDrawn: self._for_sale_marker,
            MarketCrashed: self._market_crashed,
            PlotLiquidated: self._plot_liquidated,
            GameEnded: self._game_ended,
            SeedRevealed: lambda e: [f"Seed revealed: {e.seed} (anyone can now re-derive every roll and draw)"],
            AiCardDrawn: lambda e: [
                f"{self.indent}{self.seat(e.seat)} draws AI card {e.card} (level {roman(e.level)})"
            ],
            AiDecided: lambda e: [f"{self.indent}{self.seat(e.seat)} decides: {e.reason}"],
            AiDieRolled: self._ai_die_rolled,
            AiLevelRaised: lambda e: [
                f"{self.indent}{self.seat(e.seat)} rises to level {roman(e.level)}: {e.reason}"
            ],
            AiDeckReshuffled: lambda e: [
                f"{self.indent}{self.seat(e.seat)} reshuffles its {len(e.cards)} discarded level {roman(e.level)} "
                "cards into a new deck"
            ],
            AiAdvertised: lambda e: [
                f"{self.indent}{self.seat(e.seat)}'s card {e.card} adds {e.tokens} to the round's advertising spent"
            ] if e.tokens else [],
            AiHoldingsChanged: lambda e: [],  # the AI board's bookkeeping: the buy, build or sale was told
            AiCardResolved: lambda e: [],  # the card goes to the discard pile
        }

    @property
    def indent(self) -> str:
        return INDENT * self.depth

    def tell(self, version: int, tag: str, event: MagnateEvent) -> list[Told]:
        """The lines of one event (this narrator has been told every event before it), as structured lines."""
        told: list[Told] = []
        for line in self.marked(event):
            stripped = line.lstrip(" ")
            if stripped:
                text, named = self.resolve(stripped)
                told.append(Told(version, tag, (len(line) - len(stripped)) // len(INDENT), text, named))
        return told

    def lines(self, event: MagnateEvent) -> list[str]:
        """The lines telling ``event`` (possibly none), updating what the narrator remembers."""
        return [self.resolve(line)[0] for line in self.marked(event)]

    def marked(self, event: MagnateEvent) -> list[str]:
        """:meth:`lines` with each seat still marked where it is named (see :meth:`resolve`)."""
        handler = self._handlers.get(type(event))
        if handler is None:
            return [f"{INDENT}({type(event).__name__})"]
        return handler(event)

    def resolve(self, line: str) -> tuple[str, tuple[Named, ...]]:
        """A marked line as text, and where in the text (counted in UTF-16 code units, as JavaScript counts a
        string) each seat is named."""
        parts: list[Part] = []
        end = 0
        for match in _SEAT.finditer(line):
            parts += (line[end:match.start()], (int(match.group(1)),))
            end = match.end()
        parts.append(line[end:])
        return spell(parts, self.label)

    # --- names ---------------------------------------------------------------------------------

    def seat(self, seat: int) -> str:
        """The seat, marked to be named when the line is given out."""
        return f"{_SEAT_OPEN}{seat}{_SEAT_CLOSE}"

    def label(self, seat: int) -> str:
        return self.labels[seat] if 0 <= seat < len(self.labels) else f"Seat {seat + 1}"

    def company(self, key: str, kind: str) -> str:
        """A company's name, marked when an AI plays it under a human company's name."""
        setup = self.cat.setup
        name = next((c.name for c in (*setup.companies, setup.ai_company) if c.key == key), key)
        return f"{name} (AI)" if kind == "ai" and key != setup.ai_company.key else name

    def building(self, key: str) -> str:
        held = self.cat.buildings.get(key)
        return held.names.en if held is not None else key

    def tenants(self, kinds: Iterable[str]) -> str:
        counts = Counter(kinds)
        return ", ".join(f"{n} {self.tenant_name(kind)}" for kind, n in counts.items())

    def tenant_name(self, kind: str) -> str:
        if kind in self.cat.tenant_types:
            return self.cat.tenant_types[kind].name
        if kind in self.cat.tenant_subtypes:
            return self.cat.tenant_subtypes[kind].names.en
        return kind

    def price(self) -> str:
        return money(self.cat.price(self.land_price))

    # --- events --------------------------------------------------------------------------------

    def _game_started(self, e: GameStarted) -> list[str]:
        self.cat = catalog(e.dataset)
        self.companies = tuple(self.company(s.company, s.kind) for s in e.seats)
        chosen = [self.names.get(i, "") for i in range(len(e.seats))]
        self.labels = tuple(
            f"{name} ({company})" if name and name not in (s.company, company) else company
            for s, company, name in zip(e.seats, self.companies, chosen, strict=True)
        )
        self.buildings = {c.plot: c.building for c in e.centre}
        self.owners = {}
        self.features = {
            f"{position}{letter}": feature
            for position, key in enumerate(e.neighbourhoods, start=1)
            for letter, feature in self.cat.neighbourhoods[key].features.items()
        }
        self.land_price, self.crash = e.land_price, e.crash
        side = "advanced" if e.advanced else "standard"
        tiles = ", ".join(
            f"{i} {self.cat.neighbourhoods[key].names.en}" for i, key in enumerate(e.neighbourhoods, start=1)
        )
        seats = ", ".join(
            f"{self.seat(seat)} ({money(cash)}, {ads} advertising)"
            for seat, (cash, ads) in enumerate(zip(e.cash, e.advertising, strict=True))
        )
        return [
            f"Magnate: The First City — {side} game for {len(e.seats)} seats (dataset {e.dataset})"
            + (", tutorial setup" if e.tutorial else ""),
            f"{INDENT}Seats, clockwise: {seats}",
            f"{INDENT}Neighbourhoods: {tiles}",
            f"{INDENT}Available tenants: {self.tenants(e.available) or 'none'}",
            f"{INDENT}For sale: {', '.join(e.for_sale)}",
            f"{INDENT}Land price {self.price()} (track position {e.land_price}); crash marker at {e.crash}",
        ]

    def _round_started(self, e: RoundStarted) -> list[str]:
        self.depth = 1
        return ["", f"Round {e.round} — {self.seat(e.opener)} opens the bid for first player"]

    def _first_player(self, e: FirstPlayerDecided) -> list[str]:
        paid = f"pays {money(e.paid)}" if e.paid else "pays nothing"
        return [f"{INDENT}{self.seat(e.seat)} is first player and {paid}"]

    def _phase_started(self, e: PhaseStarted) -> list[str]:
        self.depth = 2
        return [f"{INDENT}{PHASE_TITLES.get(e.phase, e.phase)}"]

    def _attraction_started(self, e: AttractionStarted) -> list[str]:
        building = self.building(self.buildings.get(e.plot, "?"))
        ads = f", committing {e.advertising} advertising" if e.advertising else ""
        dice_text = f"{e.dice} {'die' if e.dice == 1 else 'dice'}" if e.dice else "no dice (nobody lives nearby)"
        return [f"{INDENT * 2}{self.seat(e.seat)} attracts tenants to the {building} on {e.plot}{ads}: {dice_text}"]

    def _dice_settled(self, e: DiceSettled) -> list[str]:
        if not e.fives and not e.modifier:
            return []  # the final dice are the rolled ones
        parts = []
        if e.fives:
            which = listing([f"#{i + 1}" for i in e.fives])
            parts.append(f"advertising sets {'die' if len(e.fives) == 1 else 'dice'} {which} to 5")
        if e.modifier:
            parts.append(f"modifier {e.modifier:+d}")
        how = f" ({'; '.join(parts)})" if parts else ""
        return [f"{INDENT * 3}final dice {dice(e.final)}{how}"]

    def _tenants_moved_in(self, e: TenantsMovedIn) -> list[str]:
        if not e.tenants:
            return [f"{INDENT * 3}nobody moves in"]
        return [f"{INDENT * 3}moving in: {self.tenants(e.tenants)}"]

    def _rent_collected(self, e: RentCollected) -> list[str]:
        rent = f"collects {money(e.amount)} rent" if e.amount else "collects no rent"
        return [f"{INDENT * 2}{self.seat(e.seat)} {rent}"]

    def _land_bought(self, e: LandBought) -> list[str]:
        self.owners[e.plot] = e.seat
        how = " (next to its own plot, double price)" if e.adjacent else ""
        price = f"for {money(e.price)}" if e.price else "free"
        return [f"{INDENT * 2}{self.seat(e.seat)} buys {e.plot} {price}{how}"]

    def _building_built(self, e: BuildingBuilt) -> list[str]:
        old = self.buildings.get(e.plot)
        self.buildings[e.plot] = e.building
        new = self.building(e.building)
        new = f"{'an' if new[0] in 'AEIOU' else 'a'} {new}"
        what = f"replaces the {self.building(old)} on {e.plot} with {new}" if old else f"builds {new} on {e.plot}"
        back = f"; {self.tenants(e.returned)} back to the available tenants" if e.returned else ""
        cost = f"for {money(e.cost)}" if e.cost else "free"
        return [f"{INDENT * 2}{self.seat(e.seat)} {what} {cost}{back}"]

    def _advertising_taken(self, e: AdvertisingTaken) -> list[str]:
        bought = f" and buys {e.bought} for {money(e.cost)}" if e.bought else ""
        return [f"{INDENT * 2}{self.seat(e.seat)} takes {e.free} free advertising tokens{bought}"]

    def _plot_sold(self, e: PlotSold) -> list[str]:
        self.owners.pop(e.plot, None)
        return [f"{INDENT * 2}{self.seat(e.seat)} sells {e.plot} to the bank: value {e.value} × {self.price()}"
                f" = {money(e.amount)}"]

    def _risk_card(self, e: RiskCardDrawn) -> list[str]:
        before, self.crash = self.crash, e.crash
        reason = RISK_REASONS.get(e.reason, e.reason)
        return [f"{INDENT * 2}Risk card {e.card} ({reason}): crash marker {before} → {e.crash}"]

    def _land_price_moved(self, e: LandPriceMoved) -> list[str]:
        before, self.land_price = self.land_price, e.position
        verb = "rises" if e.position >= before else "falls"
        steps = abs(e.position - before)
        reason = LAND_PRICE_REASONS.get(e.reason, e.reason)
        return [
            f"{INDENT * 2}Land price {verb} {steps} position{'s' if steps != 1 else ''} to {self.price()} ({reason})"
        ]

    def _new_tenants(self, e: NewTenantsArrived) -> list[str]:
        arrived = self.tenants(e.tenants) or "no tenants"
        missing = f" ({self.tenants(e.missing)} missing from the supply)" if e.missing else ""
        return [f"{INDENT * 2}New tenant card {e.card} brings {arrived}{missing}"]

    def _for_sale_marker(self, e: ForSaleMarkerDrawn) -> list[str]:
        if e.placed:
            return [f"{INDENT * 2}{e.plot} goes up for sale"]
        if e.plot in self.features:
            feature = self.cat.features.get(self.features[e.plot])
            why = f"is a feature ({feature.name if feature else self.features[e.plot]})"
        elif e.plot in self.owners:
            why = f"is owned by {self.seat(self.owners[e.plot])}"
        elif e.plot in self.buildings:
            why = f"holds a {self.building(self.buildings[e.plot])}"
        else:
            why = "cannot take it"
        return [f"{INDENT * 2}'For sale' marker {e.plot} goes back to the box: the plot {why}"]

    def _market_crashed(self, e: MarketCrashed) -> list[str]:
        self.land_price = e.land_price
        return ["", f"CRASH: land price falls {e.depth} positions to {self.price()}; every owned plot is sold"]

    def _plot_liquidated(self, e: PlotLiquidated) -> list[str]:
        self.owners.pop(e.plot, None)
        return [f"{INDENT}{self.seat(e.seat)} sells {e.plot}: value {e.value} × {self.price()} = {money(e.amount)}"]

    def _ai_die_rolled(self, e: AiDieRolled) -> list[str]:
        return [
            f"{self.indent}{self.seat(e.seat)} rolls a tie-break die for the {e.purpose} among "
            f"{', '.join(e.candidates)}: {dice(e.faces)} → {e.chosen}"
        ]

    def _game_ended(self, e: GameEnded) -> list[str]:
        order = sorted(range(len(e.cash)), key=lambda s: (-e.cash[s], s))
        lines = ["", "Final standings"]
        for seat in order:
            rank = 1 + sum(other > e.cash[seat] for other in e.cash)
            won = "  (winner)" if seat in e.winners else ""
            lines.append(f"{INDENT}{rank}. {self.seat(seat)} {money(e.cash[seat])}{won}")
        return lines


def narrate(events: Iterable[MagnateEvent], names: Mapping[int, str] | None = None) -> Iterator[str]:
    """Every line of the story of a log, in order (seats named with the players' ``names``, if given)."""
    narrator = Narrator(names)
    for event in events:
        yield from narrator.lines(event)


def history(
    events: Iterable[tuple[int, str, MagnateEvent]], after: int = 0, names: Mapping[int, str] | None = None
) -> list[Told]:
    """The story of a log of ``(version, type tag, event)``, without blank separator lines, keeping only
    the lines of events after version ``after`` (the narrator still reads the whole log to name things)."""
    narrator = Narrator(names)
    return [t for version, tag, event in events for t in narrator.tell(version, tag, event) if t.version > after]
