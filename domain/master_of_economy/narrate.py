"""The log of a game of Master of Economy told in sentences, one event at a time.

A narrator tells the events a viewer may see (:func:`~.secrets.redact`): another seat's sealed choice is told as
"has sealed a bid" or "has voted" until the reveal tells every choice at once. Seats are named with the players'
names when given ("Player 2" otherwise), corporations by their names, and each line says where it names which
seat (:class:`~domain.kernel.Named`), so a page can name them its own way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.kernel.narration import LineNarrator, Lines, Part

from . import events as ev
from .catalog import DEFAULT_DATASET, Catalog, catalog

PHASES = {1: "Investments", 2: "Procurement", 3: "Production", 4: "Trade", 5: "Financial operations",
          6: "Investments", 7: "Procurement", 8: "Production", 9: "Trade", 10: "Shareholders meeting",
          11: "The action sequence for the next stage"}
STEPS = {"auction": "Every player seals a bid for the start order.", "tokens": "Every player commits an AC token.",
         "vote": "The shareholders vote on the dividend.", "ballot": "The shareholders elect the manager.",
         "stand": "Candidates for manager declare themselves.", "player_trade": "The players trade shares."}


DROPPED = {"full": "full warehouse", "cash": "no cash", "supply": "none left in the supply"}
SHORT = {"local": "a purchase", "import": "a purchase abroad", "interest": "interest"}
BY_PREFERENCE = " (by the manager's standing preference)"


def listing(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def euros(n: int) -> str:
    return f"{n} €"


class Narrator(LineNarrator):
    """Turns events into lines of text, in log order."""

    def __init__(self, names: Mapping[int, str] | None = None) -> None:
        super().__init__(names)
        self.cat: Catalog = catalog(DEFAULT_DATASET)
        self.tellers = _tellers(self)

    def join(self, text: str, piece: str) -> str:
        piece = piece.replace("..", ".")  # a name ending in a full stop ("Red Socks Ltd.") ends a sentence
        return text + (piece[1:] if piece.startswith(".") and text.endswith(".") else piece)

    # -- names -------------------------------------------------------------------------------------------------

    def corp(self, key: str) -> str:
        return next((c.name for c in self.cat.corporations if c.key == key), key)

    def goods(self, key: str) -> str:
        return next((c.name.lower() for c in self.cat.commodities if c.key == key), key)

    def factory(self, key: str) -> str:
        return next((f.name.lower() for f in self.cat.factories if f.key == key), key)

    def holder(self, holder: str) -> Part:
        if holder.startswith("seat:"):
            return (int(holder[5:]),)
        return self.corp(holder[5:]) if holder.startswith("corp:") else "the bank"

    def amounts(self, counts: tuple[int, ...]) -> str:
        return listing([f"{n} {self.cat.commodities[i].name.lower()}" for i, n in enumerate(counts) if n])

    def field(self, commodity: str, field: int) -> str:
        return f"IMPORT of {self.goods(commodity)}" if field == 0 else f"{self.goods(commodity)} field {field}"

    # -- tellers that need more than a line ----------------------------------------------------------------------

    def started(self, e: ev.GameStarted) -> Lines:
        self.cat = catalog(e.dataset)
        v = e.variant
        on = [f"{v.players} players", f"start order by {v.start_order}"]
        on += ["the additional corporation"] * v.additional_corporation + ["2 vs. 2"] * bool(v.teams)
        on += ["hidden player cash"] * v.player_cash_hidden
        on += ["an unlimited commodity supply"] * (not v.finite_commodity_supply)
        return [(0, [f"Master of Economy begins: {listing(on)}."])]

    def formed(self, e: ev.CorporationsFormed) -> Lines:
        lines: Lines = [(1, [f"Taking part: {listing([self.corp(k) for k in e.corporations if k != e.ac])}."])]
        if e.ac is not None:
            how = " (drawn)" if e.drawn else ""
            lines.append((1, [f"{self.corp(e.ac)} is the additional corporation{how}."]))
        return lines

    def bids_revealed(self, e: ev.StartBidsRevealed) -> Lines:
        parts: list[Part] = ["The start bids are revealed: "]
        for i, bid in enumerate(e.bids):
            parts += [", " if i else "", (i,), f" {euros(bid)}"]
        return [(1, [*parts, "."])]

    def order(self, e: ev.OrderSet) -> Lines:
        how = {"random": "drawn at random", "auction": "by the bids", "receipts": "by the receipts"}[e.reason]
        names = [self.corp(k) + (f" ({r})" if e.receipts else "") for k, r in
                 zip(e.order, e.receipts or (0,) * len(e.order), strict=True)]
        return [(0, [f"The action sequence, {how}: {', '.join(names)}."])]

    def step(self, e: ev.StepBegan) -> Lines:
        text = STEPS.get(e.step) if e.turn == 0 and e.round == 1 else None
        return [(1, [text])] if text else []

    def counted(self, e: ev.DividendCounted) -> Lines:
        tally = "; ".join(f"{k} € a share: {v} yes" for k, v in e.yes)
        result = f"{e.passed} € a share passes" if e.passed is not None else "no dividend passes"
        chair = " on the manager's vote" if e.chair else ""
        return [(1, [f"{self.corp(e.corporation)}'s ballots are counted ({tally}): {result}{chair}."])]

    def ballots(self, e: ev.BallotsCounted) -> Lines:
        parts: list[Part] = [f"{self.corp(e.corporation)}'s election: "]
        for i, (seat, votes) in enumerate(e.votes):
            parts += [", " if i else "", (seat,), f" {votes}"]
        return [(1, [*parts, "; tied." if len(e.tied) > 1 else "."])]

    def preferences(self, e: ev.ShortfallPreferencesSet) -> Lines:
        ranked = ", ".join(self.factory(k) for k in e.sell_first)
        sale = f"then sell in this order: {ranked}" if ranked else "then sell in the factory table's order"
        return [(1, [(e.seat,), f" sets standing shortfall preferences: give up to {euros(e.cover_up_to)}, {sale}."])]

    def bought(self, e: ev.PacketBought) -> Lines:
        parts: list[Part] = [self.holder(e.buyer), f" buys {self.corp(e.corporation)}'s {e.packet}-share packet "
                                                   f"for {euros(e.cost)}"]
        if e.bonus_to is not None:
            parts += ["; ", self.holder(e.bonus_to), f" receives a {euros(e.bonus)} bonus"]
        return [(1, [*parts, "."])]

    def exchanged(self, e: ev.PacketExchanged) -> Lines:
        money = f"pays {euros(e.amount)}" if e.amount >= 0 else f"receives {euros(-e.amount)}"
        return [(1, [self.holder(e.holder), f" exchanges {self.corp(e.corporation)}'s {e.give}-share packet for "
                                            f"the {e.take}-share packet and {money}."])]

    def ended(self, e: ev.GameEnded) -> Lines:
        lines: Lines = [(0, ["The game ends."])]
        for r in e.results:
            bid = f" - {euros(r.bid)} bid" if r.bid else ""
            lines.append((1, [(r.seat,), f": {euros(r.cash)} cash + {euros(r.shares)} in shares{bid} = "
                                         f"{euros(r.result)}, rank {r.rank}."]))
        if e.teams:
            lines.append((1, [f"Team sums: {' and '.join(euros(t) for t in e.teams)}."]))
        winners = [r.seat for r in e.results if r.rank == 1]
        parts: list[Part] = []
        for i, seat in enumerate(winners):
            parts += ([" and "] if i else []) + [(seat,)]
        return [*lines, (0, [*parts, " win." if len(winners) > 1 else " wins."])]


def _tellers(n: Narrator) -> dict[type, Callable[[Any], Lines]]:
    c, g, f, h = n.corp, n.goods, n.factory, n.holder
    return {
        ev.GameStarted: n.started,
        ev.CorporationPicked: lambda e: [(1, [(e.seat,), f" {'is assigned' if e.drawn else 'picks'} "
                                                         f"{c(e.corporation)}."])],
        ev.CorporationsFormed: n.formed,
        ev.StartBidSealed: lambda e: [(1, [(e.seat,), " seals a bid" + (
            f" of {euros(e.amount)}." if e.amount is not None else ".")])],
        ev.StartBidsRevealed: n.bids_revealed,
        ev.OrderSet: n.order,
        ev.StageBegan: lambda e: [(0, [f"Stage {e.stage} begins."])],
        ev.PhaseBegan: lambda e: [(0, [f"Phase {e.number}: {PHASES[e.number]}."])] if e.number in PHASES else [],
        ev.StepBegan: n.step,
        ev.TurnPassed: lambda e: [(1, [c(e.corporation) if e.corporation else (e.seat,), " passes."])],
        ev.FactoryBuilt: lambda e: [(1, [f"{c(e.corporation)} builds a {f(e.factory)} for {euros(e.cost)}" + (
            f" and {e.materials} construction material." if e.materials else ".")])],
        ev.FactorySold: lambda e: [(1, [f"{c(e.corporation)} {'must sell' if e.forced else 'sells'} a "
                                        f"{f(e.factory)} for {euros(e.value)}"
                                        f"{BY_PREFERENCE if e.by_preference else ''}."])],
        ev.FactoriesSupplied: lambda e: [(1, [f"{c(e.corporation)} supplies {e.count} {f(e.factory)}"
                                              f"{'s' if e.count > 1 else ''} with {n.amounts(e.inputs)}."])],
        ev.EnergySpoiled: lambda e: [(1, [f"{c(e.corporation)}'s {e.count} {g(e.commodity)} spoils."])],
        ev.GoodsProduced: lambda e: [(1, [f"{c(e.corporation)} produces {n.amounts(e.goods)}" + (
            f" ({n.amounts(e.lost)} lost)." if any(e.lost) else ".")])],
        ev.AcMarkerPlaced: lambda e: [(1, [f"{c(e.corporation)} (the AC) places its marker on "
                                           f"{n.field(e.commodity, e.field)}: {e.explanation}."])],
        ev.TokenCommitted: lambda e: [(1, [(e.seat,), " commits an AC token" + (
            f" ({e.token})." if e.token is not None else ".")])],
        ev.BidPlaced: lambda e: [(1, [f"{c(e.corporation)} bids on {n.field(e.commodity, e.field)}."])],
        ev.ReceiptsDiscarded: lambda e: [(1, [(e.seat,), f" discards a receipts token for {c(e.corporation)}'s "
                                                         "seventh bid."])],
        ev.RowOpened: lambda e: [(1, [f"The {g(e.commodity)} row is resolved (demand {e.demand})."])],
        ev.LocalDeal: lambda e: [(2, [f"{c(e.buyer)} buys one {g(e.commodity)} from {c(e.seller)} (field {e.field}) "
                                      f"for {euros(e.price)}."])],
        ev.SaleFined: lambda e: [(2, [f"{c(e.corporation)} has no {g(e.commodity)} to sell (field {e.field}): " + (
            f"fined {euros(e.fine)}." if e.fine else "the fine is waived.")])],
        ev.PurchaseDeferred: lambda e: [(2, [f"{c(e.corporation)}'s purchase waits to buy abroad."])],
        ev.PurchaseDropped: lambda e: [(2, [f"{c(e.corporation)}'s purchase of {g(e.commodity)} is dropped "
                                            f"({DROPPED[e.reason]})."])],
        ev.ExportsOpened: lambda e: [],
        ev.Exported: lambda e: [(2, [f"{c(e.corporation)} exports one {g(e.commodity)} (field {e.field}) for "
                                     f"{euros(e.price)} and {e.points} point{'s' if e.points != 1 else ''}; "
                                     f"demand {e.demand}."])],
        ev.ExportFailed: lambda e: [(2, [f"{c(e.corporation)}'s export on field {e.field} finds no demand."])],
        ev.AcExported: lambda e: [(2, [f"{c(e.corporation)} (the AC): {e.explanation}."])],
        ev.ImportBought: lambda e: [(2, [f"{c(e.corporation)} buys one {g(e.commodity)} abroad for "
                                         f"{euros(e.price)}."])],
        ev.RowClosed: lambda e: [],
        ev.MarketClosed: lambda e: [(1, ["The market closes; demand returns to the start boxes."])],
        ev.AcScored: lambda e: [(1, [f"The AC tokens are revealed ({', '.join(map(str, e.tokens))}): "
                                     f"{c(e.corporation)} (the AC): {e.explanation}."])],
        ev.ShortfallArose: lambda e: [(2, [f"{c(e.corporation)} is short of {euros(e.due)} for "
                                           f"{SHORT[e.reason]}."])],
        ev.ShortfallCovered: lambda e: [(2, [(e.seat,), f" gives {c(e.corporation)} {euros(e.amount)}"
                                             f"{BY_PREFERENCE if e.by_preference else ''}."])],
        ev.ShortfallPreferencesSet: n.preferences,
        ev.ShortfallPreferencesCleared: lambda e: [(1, [(e.seat,), " withdraws their standing shortfall "
                                                                   "preferences (they will be asked)."])],
        ev.InterestPaid: lambda e: [(1, [f"{c(e.corporation)} pays {euros(e.amount)} interest."])],
        ev.InterestUnpaid: lambda e: [(1, [f"{c(e.corporation)} cannot pay a credit's interest."])],
        ev.CreditsRepaid: lambda e: [(1, [f"{c(e.corporation)} repays {e.count} credit{'s' if e.count > 1 else ''} "
                                          f"for {euros(e.amount)}."])],
        ev.CreditTaken: lambda e: [(1, [f"{c(e.corporation)} takes a credit of {euros(e.amount)}."])],
        ev.PacketBought: n.bought,
        ev.PacketSold: lambda e: [(1, [h(e.seller), f" sells {c(e.corporation)}'s {e.packet}-share packet for "
                                                    f"{euros(e.value)}."])],
        ev.PacketExchanged: n.exchanged,
        ev.BoardBonusPaid: lambda e: [(1, [(e.seat,), f" receives a {euros(e.amount)} board bonus from "
                                                      f"{c(e.corporation)}."])],
        ev.Embezzled: lambda e: [(1, [(e.seat,), f" embezzles {euros(e.amount)} from {c(e.corporation)}, which pays "
                                                 f"{euros(e.cost)} to the bank and loses {e.points} points."])],
        ev.DividendProposed: lambda e: [(1, [(e.seat,), f" proposes {euros(e.per_share)} a share for "
                                                        f"{c(e.corporation)}."])],
        ev.DividendVoteCast: lambda e: [(1, [(e.seat,), " has voted."])],
        ev.DividendCounted: n.counted,
        ev.DividendPaid: lambda e: [(1, [f"{c(e.corporation)} pays {euros(e.per_share)} a share, "
                                         f"{euros(sum(a for _, a in e.payments))} in all."])],
        ev.Redeemed: lambda e: [(1, [f"{c(e.corporation)} redeems {e.shares} shares of the {e.packet}-share packet "
                                     f"from ", h(e.holder), f" for {euros(e.amount)}."])],
        ev.CandidacyDeclared: lambda e: [(1, [(e.seat,), (" stands" if e.stands else " does not stand")
                                                         + f" for manager of {c(e.corporation)}."])],
        ev.ManagerVoteCast: lambda e: [(1, [(e.seat,), " has voted."])],
        ev.BallotsCounted: n.ballots,
        ev.ManagerElected: lambda e: [(1, [(e.seat,), f" will manage {c(e.corporation)} next stage."])],
        ev.ManagerChanged: lambda e: [(1, [(e.seat,), f" now manages {c(e.corporation)}."])],
        ev.ReceiptsGiven: lambda e: [(1, [f"Every player receives {e.count} receipts token."])],
        ev.ReceiptsPlaced: lambda e: [(1, [(e.seat,), f" places {e.count} receipts on {c(e.corporation)}."])]
        if e.seat is not None else [(1, [f"{c(e.corporation)}, last in the action sequence, gets {e.count} more."])],
        ev.HoldingsSold: lambda e: [(1, [f"{c(e.corporation)} sells its {c(e.of)} shares for {euros(e.value)}."])],
        ev.CreditsSettled: lambda e: [(1, [f"{c(e.corporation)} settles {e.credits} credits with "
                                           f"{euros(e.amount)}."])],
        ev.CashDistributed: lambda e: [(1, [f"{c(e.corporation)} pays out {euros(e.per_share)} a share, "
                                            f"{euros(e.per_packet)} a packet and {euros(e.remainder)} to its "
                                            "last manager."])],
        ev.GameEnded: n.ended,
        ev.AiDecided: lambda e: [(1, [(e.seat,), f" {e.explanation}"])],  # the seat's name carries its level
        ev.SeedRevealed: lambda e: [(0, [f"The game's seed is revealed: {e.seed}."])],
    }
