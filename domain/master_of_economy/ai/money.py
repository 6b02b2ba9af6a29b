"""The computer's money (§8, ME-H-6, ME-X-1): interest and repayment, credits, share trading, a shortfall.

``basic`` buys the largest packet it can afford of the corporation with most points, takes a credit when short and
repays when it has plenty. ``values_shares`` weighs each transaction by what it brings at the end: the shares at
the price the corporation's pace points to, plus the part of the corporation's cash they carry (ME-E-4), less the
price paid; a corporation buys only what should rise. ``counts_time`` borrows only while a credit can still pay."""

from __future__ import annotations

from domain.kernel import Chance, Seat
from domain.kernel.phrases import Phrase, say, say_n

from ..commands import (
    BuyPacket,
    CoverShortfall,
    ExchangePacket,
    Pass,
    PlayerCommand,
    RepayCredits,
    SellForShortfall,
    SellPacket,
    TakeCredit,
)
from ..holders import cat_of, index, price
from ..legal import legal_commands
from ..shares import actor_holder
from ..state import State
from ..wording import euros
from . import words
from .levels import Profile
from .outlook import end_share, productions_left, trades_left

Plan = tuple[tuple[PlayerCommand, ...], Phrase]
Trade = BuyPacket | SellPacket | ExchangePacket


def repay(state: State, seat: int, corp: int, profile: Profile) -> Plan:
    """ME-F-1: repay what the cash allows beyond a working reserve (all of it near the end: 5 € now or 6 € then)."""
    held = state.corps[corp]
    repayment = cat_of(state).rules.credits.repayment
    keep = 4 if profile.counts_time and trades_left(state) <= 2 else 12
    count = min(held.credits, max(0, held.cash - keep) // repayment)
    if count and any(isinstance(t.command, RepayCredits) for t in legal_commands(state, Seat(seat))):
        return (RepayCredits(count=count),), say_n("repays {n} credit: it has the cash.",
                                                   "repays {n} credits: it has the cash.", "n", n=count)
    return (Pass(),), say("keeps its credits: it needs the cash.")


def credit(state: State, seat: int, corp: int, profile: Profile) -> Plan:
    """ME-F-3: a credit when the cash runs low (while it can still pay for itself, with ``counts_time``)."""
    held = state.corps[corp]
    worth = productions_left(state) >= 3 if profile.counts_time else True
    if held.cash < 10 and worth and any(isinstance(t.command, TakeCredit) for t in legal_commands(state, Seat(seat))):
        return (TakeCredit(),), say("takes a credit: only {amount} in the treasury.", amount=euros(held.cash))
    return (Pass(),), say("takes no credit.")


def _delta(trade: Trade) -> int:
    match trade:
        case BuyPacket(packet=p):
            return p
        case SellPacket(packet=p):
            return -p
        case ExchangePacket(give=g, take=t):
            return t - g
    raise AssertionError(trade)


def gain(state: State, actor: int, trade: Trade, far: bool) -> int:
    """What ``trade`` should bring the actor (a corporation in ME-F-2, a seat in ME-H-6) by the end."""
    holder = actor_holder(state, actor)
    corp = state.corps[index(state, trade.corporation)]
    delta = _delta(trade)
    change = end_share(state, corp, holder, delta, far) - end_share(state, corp, holder, 0, far)
    return change - delta * price(state, index(state, trade.corporation))


def trade(state: State, seat: int, actor: int, profile: Profile, corporation: bool, chance: Chance) -> Plan:
    """ME-F-2 (``corporation``) or ME-H-6: the best transaction, or a pass."""
    trades = [t.command for t in legal_commands(state, Seat(seat)) if isinstance(t.command, BuyPacket | SellPacket
                                                                           | ExchangePacket)]
    if profile.values_shares:
        scored = [(gain(state, actor, t, True), -abs(_delta(t)), t) for t in trades]
        keep = 10 if corporation and productions_left(state) >= 2 else 0
        cash = state.corps[actor].cash if corporation else None
        scored = [s for s in scored if s[0] > (1 if corporation else 0)
                  and (cash is None or cash - max(_delta(s[2]), 0) * price(state, index(state, s[2].corporation))
                       >= keep)]
        if scored:
            top = max(s[0] for s in scored)
            value, _, best = chance.pick([s for s in scored if s[0] >= top - 1])
            return (best,), say("{trade}: it should bring about {amount} more by the end.",
                                trade=_words(state, best), amount=euros(value))
        if corporation:
            return (Pass(),), say("trades no shares: no packet would pay it back.")
        return (Pass(),), say("trades no shares: no packet would pay the player back.")
    if corporation:
        return (Pass(),), say("keeps its cash for its factories.")
    buys = [t for t in trades if isinstance(t, BuyPacket)]
    if not buys:
        return (Pass(),), say("trades no shares.")
    most = max(state.corps[index(state, b.corporation)].points for b in buys)
    best = max((b for b in buys if state.corps[index(state, b.corporation)].points == most), key=lambda b: b.packet)
    return (best,), say("{trade}: the corporation with most points.", trade=_words(state, best))


def _words(state: State, t: Trade) -> Phrase:
    name = words.corp(state, t.corporation)
    match t:
        case BuyPacket(packet=p):
            return say("buys {corporation}'s {packet}-packet", corporation=name, packet=p)
        case SellPacket(packet=p):
            return say("sells {corporation}'s {packet}-packet", corporation=name, packet=p)
        case ExchangePacket(give=g, take=k):
            return say("exchanges {corporation}'s {give}-packet for the {take}-packet", corporation=name, give=g,
                       take=k)
    raise AssertionError(t)


def shortfall(state: State, seat: int, profile: Profile) -> Plan:
    """ME-X-1: give the short corporation what it lacks from the manager's cash; else sell the least useful
    factory (one it cannot supply, else a quarry)."""
    templates = [t.command for t in legal_commands(state, Seat(seat))]
    first = templates[0]
    if isinstance(first, CoverShortfall):
        return (first,), say("gives its corporation {amount} of its own to cover a payment.",
                             amount=euros(first.amount))
    sales = [c for c in templates if isinstance(c, SellForShortfall)]
    cat = cat_of(state)
    short = state.shortfall
    assert short is not None
    goods = state.corps[short.corporation].goods

    def useless(c: SellForShortfall) -> tuple[int, int]:
        t = cat.factory_index(c.factory)
        need = cat.inputs(t)
        return (0 if any(n and goods[i] < n for i, n in enumerate(need)) else 1, cat.rules.investments.max_builds
                if any(need) else 0)

    pick = min(sales, key=useless)
    return (pick,), say("sells one {factory} to pay what its corporation owes.",
                        factory=words.factory(state, pick.factory))
