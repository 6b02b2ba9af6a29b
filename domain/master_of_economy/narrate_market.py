"""The narrator's lines for the plant, the market and the money (investments to financial operations): one phrase
per sentence shape, names as the catalog's terms (:mod:`.wording`). Part of :mod:`.narrate`."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from domain.kernel.narration import PhraseLines
from domain.kernel.phrases import Arg, Phrase, say, say_n, seat

from . import events as ev
from . import wording as w
from .catalog import Catalog

DROPPED = {"full": say("{corporation}'s purchase of {goods} is dropped (full warehouse)."),
           "cash": say("{corporation}'s purchase of {goods} is dropped (no cash)."),
           "supply": say("{corporation}'s purchase of {goods} is dropped (none left in the supply).")}
SHORT = {"local": say("{corporation} is short of {amount} for a purchase."),
         "import": say("{corporation} is short of {amount} for a purchase abroad."),
         "interest": say("{corporation} is short of {amount} for interest.")}


class Names(Protocol):
    """What the tellers need of the narrator: the game's catalog and how it names corporations and holders."""

    cat: Catalog

    def corp(self, key: str) -> Arg: ...

    def holder(self, holder: str) -> Arg: ...


def _with(template: Phrase, **args: Arg) -> Phrase:
    """A phrase of a table (its key extracted where the table is written) with its arguments."""
    return Phrase(template.key, args)


def _reason(e: ev.AcMarkerPlaced | ev.AcExported | ev.AcScored) -> Arg:
    """The AC's reason: its phrase, or the English of a log written before reasons were phrases."""
    return e.reason if e.reason is not None else e.explanation


def _g(n: Names, key: str) -> Arg:
    return w.goods(n.cat, key)

def _f(n: Names, key: str) -> Arg:
    return w.factory(n.cat, key)

def _field(n: Names, commodity: str, number: int) -> Phrase:
    return w.field(n.cat, commodity, number)

def built(n: Names, e: ev.FactoryBuilt) -> PhraseLines:
    if e.materials:
        return [(1, say_n("{corporation} builds one {factory} for {amount} and {n} construction material.",
                          "{corporation} builds one {factory} for {amount} and {n} construction material.", "n",
                          corporation=n.corp(e.corporation), factory=_f(n, e.factory), amount=w.euros(e.cost),
                          n=e.materials))]
    return [(1, say("{corporation} builds one {factory} for {amount}.", corporation=n.corp(e.corporation),
                    factory=_f(n, e.factory), amount=w.euros(e.cost)))]

def sold(n: Names, e: ev.FactorySold) -> PhraseLines:
    args: dict[str, Arg] = {"corporation": n.corp(e.corporation), "factory": _f(n, e.factory),
                            "amount": w.euros(e.value)}
    if e.forced and e.by_preference:
        line = say("{corporation} must sell one {factory} for {amount} (by the manager's standing preference).")
    elif e.forced:
        line = say("{corporation} must sell one {factory} for {amount}.")
    elif e.by_preference:
        line = say("{corporation} sells one {factory} for {amount} (by the manager's standing preference).")
    else:
        line = say("{corporation} sells one {factory} for {amount}.")
    return [(1, _with(line, **args))]

def produced(n: Names, e: ev.GoodsProduced) -> PhraseLines:
    made = w.amounts(n.cat, e.goods)
    if any(e.lost):
        return [(1, say("{corporation} produces {goods} ({lost} lost).", corporation=n.corp(e.corporation),
                        goods=made, lost=w.amounts(n.cat, e.lost)))]
    return [(1, say("{corporation} produces {goods}.", corporation=n.corp(e.corporation), goods=made))]

def fined(n: Names, e: ev.SaleFined) -> PhraseLines:
    if e.fine:
        return [(2, say("{corporation} has no {goods} to sell (field {field}): fined {amount}.",
                        corporation=n.corp(e.corporation), goods=_g(n, e.commodity), field=e.field,
                        amount=w.euros(e.fine)))]
    return [(2, say("{corporation} has no {goods} to sell (field {field}): the fine is waived.",
                    corporation=n.corp(e.corporation), goods=_g(n, e.commodity), field=e.field))]

def exported(n: Names, e: ev.Exported) -> PhraseLines:
    return [(2, say_n("{corporation} exports one {goods} (field {field}) for {amount} and {n} point; demand "
                      "{demand}.",
                      "{corporation} exports one {goods} (field {field}) for {amount} and {n} points; demand "
                      "{demand}.", "n", corporation=n.corp(e.corporation), goods=_g(n, e.commodity), field=e.field,
                      amount=w.euros(e.price), n=e.points, demand=e.demand))]

def covered(n: Names, e: ev.ShortfallCovered) -> PhraseLines:
    if e.by_preference:
        return [(2, say("{seat} gives {corporation} {amount} (by the manager's standing preference).",
                        seat=seat(e.seat), corporation=n.corp(e.corporation), amount=w.euros(e.amount)))]
    return [(2, say("{seat} gives {corporation} {amount}.", seat=seat(e.seat), corporation=n.corp(e.corporation),
                    amount=w.euros(e.amount)))]

def bought(n: Names, e: ev.PacketBought) -> PhraseLines:
    args: dict[str, Arg] = {"buyer": n.holder(e.buyer), "corporation": n.corp(e.corporation), "packet": e.packet,
                            "amount": w.euros(e.cost)}
    if e.bonus_to is not None:
        return [(1, say("{buyer} buys {corporation}'s {packet}-share packet for {amount}; {receiver} receives a "
                        "{bonus} bonus.", receiver=n.holder(e.bonus_to), bonus=w.euros(e.bonus), **args))]
    return [(1, say("{buyer} buys {corporation}'s {packet}-share packet for {amount}.", **args))]

def exchanged(n: Names, e: ev.PacketExchanged) -> PhraseLines:
    args: dict[str, Arg] = {"holder": n.holder(e.holder), "corporation": n.corp(e.corporation), "give": e.give,
                            "take": e.take, "amount": w.euros(abs(e.amount))}
    if e.amount >= 0:
        return [(1, say("{holder} exchanges {corporation}'s {give}-share packet for the {take}-share packet and "
                        "pays {amount}.", **args))]
    return [(1, say("{holder} exchanges {corporation}'s {give}-share packet for the {take}-share packet and "
                    "receives {amount}.", **args))]


def token(n: Names, e: ev.TokenCommitted) -> PhraseLines:
    if e.token is not None:
        return [(1, say("{seat} commits an AC token ({token}).", seat=seat(e.seat), token=e.token))]
    return [(1, say("{seat} commits an AC token.", seat=seat(e.seat)))]


def market_tellers(n: Names) -> dict[type, Callable[[Any], PhraseLines]]:
    """The tellers of the plant, market and money events."""
    return {
        ev.FactoryBuilt: partial(built, n),
        ev.FactorySold: partial(sold, n),
        ev.FactoriesSupplied: lambda e: [(1, say_n("{corporation} supplies {n} {factory} with {goods}.",
                                                   "{corporation} supplies {n} × {factory} with {goods}.", "n",
                                                   corporation=n.corp(e.corporation), n=e.count,
                                                   factory=_f(n, e.factory),
                                                   goods=w.amounts(n.cat, e.inputs)))],
        ev.EnergySpoiled: lambda e: [(1, say("{corporation}'s {n} {goods} spoils.", corporation=n.corp(e.corporation),
                                             n=e.count, goods=_g(n, e.commodity)))],
        ev.GoodsProduced: partial(produced, n),
        ev.AcMarkerPlaced: lambda e: [(1, say("{corporation} (the AC) places its marker on {field}: {reason}.",
                                              corporation=n.corp(e.corporation), field=_field(n, e.commodity, e.field),
                                              reason=_reason(e)))],
        ev.TokenCommitted: partial(token, n),
        ev.BidPlaced: lambda e: [(1, say("{corporation} bids on {field}.", corporation=n.corp(e.corporation),
                                         field=_field(n, e.commodity, e.field)))],
        ev.ReceiptsDiscarded: lambda e: [(1, say("{seat} discards a receipts token for {corporation}'s seventh bid.",
                                                 seat=seat(e.seat), corporation=n.corp(e.corporation)))],
        ev.RowOpened: lambda e: [(1, say("The {goods} row is resolved (demand {demand}).", goods=_g(n, e.commodity),
                                         demand=e.demand))],
        ev.LocalDeal: lambda e: [(2, say("{buyer} buys one {goods} from {seller} (field {field}) for {amount}.",
                                         buyer=n.corp(e.buyer), goods=_g(n, e.commodity), seller=n.corp(e.seller),
                                         field=e.field,
                                         amount=w.euros(e.price)))],
        ev.SaleFined: partial(fined, n),
        ev.PurchaseDeferred: lambda e: [(2, say("{corporation}'s purchase waits to buy abroad.",
                                                corporation=n.corp(e.corporation)))],
        ev.PurchaseDropped: lambda e: [(2, _with(DROPPED[e.reason], corporation=n.corp(e.corporation),
                                                 goods=_g(n, e.commodity)))],
        ev.ExportsOpened: lambda e: [],
        ev.Exported: partial(exported, n),
        ev.ExportFailed: lambda e: [(2, say("{corporation}'s export on field {field} finds no demand.",
                                            corporation=n.corp(e.corporation), field=e.field))],
        ev.AcExported: lambda e: [(2, say("{corporation} (the AC): {reason}.", corporation=n.corp(e.corporation),
                                          reason=_reason(e)))],
        ev.ImportBought: lambda e: [(2, say("{corporation} buys one {goods} abroad for {amount}.",
                                            corporation=n.corp(e.corporation), goods=_g(n, e.commodity),
                                            amount=w.euros(e.price)))],
        ev.RowClosed: lambda e: [],
        ev.MarketClosed: lambda e: [(1, say("The market closes; demand returns to the start boxes."))],
        ev.AcScored: lambda e: [(1, say("The AC tokens are revealed ({tokens}): {corporation} (the AC): {reason}.",
                                        tokens=w.numbers(e.tokens), corporation=n.corp(e.corporation),
                                        reason=_reason(e)))],
        ev.ShortfallArose: lambda e: [(2, _with(SHORT[e.reason], corporation=n.corp(e.corporation),
                                                amount=w.euros(e.due)))],
        ev.ShortfallCovered: partial(covered, n),
        ev.InterestPaid: lambda e: [(1, say("{corporation} pays {amount} interest.", corporation=n.corp(e.corporation),
                                            amount=w.euros(e.amount)))],
        ev.InterestUnpaid: lambda e: [(1, say("{corporation} cannot pay a credit's interest.",
                                              corporation=n.corp(e.corporation)))],
        ev.CreditsRepaid: lambda e: [(1, say_n("{corporation} repays {n} credit for {amount}.",
                                               "{corporation} repays {n} credits for {amount}.", "n",
                                               corporation=n.corp(e.corporation), n=e.count,
                                               amount=w.euros(e.amount)))],
        ev.CreditTaken: lambda e: [(1, say("{corporation} takes a credit of {amount}.",
                                           corporation=n.corp(e.corporation),
                                           amount=w.euros(e.amount)))],
        ev.PacketBought: partial(bought, n),
        ev.PacketExchanged: partial(exchanged, n),
    }
