"""Share trading with the bank: the corporations' in the financial phase (ME-F-2) and the players' at the end of
the shareholders meeting (ME-H-6). The same three transactions, buy, sell and exchange, at denomination x price,
with a purchase bonus of the price to the bought corporation's current manager; only the limits, the payer and
the no-orphan rule differ."""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from domain.kernel import InvalidValue
from domain.kernel.phrases import say

from .commands import BuyPacket, ExchangePacket, SellPacket
from .cursor import manages_next
from .errors import CannotAfford, LimitReached, NoSuchThing, NotAllowed
from .events import PacketBought, PacketExchanged, PacketSold
from .holders import (
    BANK,
    cash_of,
    cat_of,
    corp_holder,
    holder_corp,
    holder_seat,
    index,
    move_packet,
    price,
    transfer,
)
from .state import State, Step
from .wording import euros

Transaction = BuyPacket | SellPacket | ExchangePacket
Event = PacketBought | PacketSold | PacketExchanged


def actor_holder(state: State, actor: int) -> str:
    return corp_holder(state.corps[actor].key) if state.step == Step.BANK_TRADE else f"seat:{actor}"


def limits(state: State, actor: int) -> tuple[int, int, int]:
    """(purchases, sales, transactions) the actor may make in this step."""
    cat = cat_of(state)
    if state.step == Step.BANK_TRADE:
        s = cat.rules.shares
        return s.corporation_buys, s.corporation_sales, s.corporation_buys + s.corporation_sales
    p = cat.rules.player_trade
    if manages_next(state, actor):
        return p.manager_buys, p.manager_sales, p.manager_transactions
    return p.free_buys, p.free_sales, p.free_transactions


def ledger(state: State, actor: int) -> tuple[int, int]:
    return state.trades[actor] if actor < len(state.trades) else (0, 0)


def room(state: State, actor: int) -> tuple[bool, bool]:
    """Whether the actor may still make a purchase, and a sale."""
    buys, sales = ledger(state, actor)
    max_buys, max_sales, most = limits(state, actor)
    left = buys + sales < most
    return left and buys < max_buys, left and sales < max_sales


def _bonus(state: State, buyer: str, corp: int) -> tuple[str | None, int]:
    """ME-F-2, ME-H-6.5, ME-V-3: the price to the current manager, unless the AC or a player buying their own."""
    held = state.corps[corp]
    if held.automated or held.manager is None or buyer == f"seat:{held.manager}":
        return None, 0
    return f"seat:{held.manager}", cat_of(state).rules.shares.purchase_bonus * price(state, corp)


def _orphans(state: State, holder: str, corp: int, packet: int) -> bool:
    """ME-H-6.6: a player's sale may not leave the corporation with no shares held by any player (not the AC)."""
    held = state.corps[corp]
    if held.automated or holder_seat(holder) is None:
        return False
    others = [d for d, h in enumerate(held.packets, start=1) if d != packet and holder_seat(h) is not None]
    return not others


def _target(state: State, key: str) -> int:
    try:
        return index(state, key)
    except KeyError:
        raise NoSuchThing(phrase=say("no corporation {corporation} takes part",
                                     corporation=key), corporation=key) from None


def transact(state: State, actor: int, command: Transaction) -> list[Event]:
    """The event of one transaction by ``actor`` (a corporation index or a seat), or a RuleViolation."""
    holder = actor_holder(state, actor)
    corp = _target(state, command.corporation)
    if holder_corp(state, holder) == corp:
        raise NotAllowed(phrase=say("a corporation may not hold its own shares (ME-F-2)"))
    can_buy, can_sell = room(state, actor)
    unit = price(state, corp)
    match command:
        case BuyPacket(packet=p):
            _packet(state, corp, p, BANK)
            if not can_buy:
                raise LimitReached(phrase=say("no purchase left in this step"))
            if cash_of(state, holder) < p * unit:
                raise CannotAfford(phrase=say("packet {packet} costs {amount}", packet=p, amount=euros(p * unit)))
            to, bonus = _bonus(state, holder, corp)
            return [PacketBought(buyer=holder, corporation=command.corporation, packet=p, cost=p * unit,
                                 bonus_to=to, bonus=bonus)]
        case SellPacket(packet=p):
            _packet(state, corp, p, holder)
            if not can_sell:
                raise LimitReached(phrase=say("no sale left in this step"))
            if _orphans(state, holder, corp, p):
                raise NotAllowed(phrase=say("some player must keep shares of every corporation (ME-H-6.6)"))
            return [PacketSold(seller=holder, corporation=command.corporation, packet=p, value=p * unit)]
        case ExchangePacket():
            return [_exchange(state, holder, corp, command, can_buy, can_sell)]
    raise AssertionError(command)


def _packet(state: State, corp: int, packet: int, owner: str) -> None:
    packets = state.corps[corp].packets
    if not 1 <= packet <= len(packets):
        raise InvalidValue(phrase=say("packets are 1 to {most}", most=len(packets)), packet=packet)
    if packets[packet - 1] != owner:
        raise NoSuchThing(phrase=say("packet {packet} is not in the bank", packet=packet) if owner == BANK
                          else say("packet {packet} is not yours", packet=packet), packet=packet)


def _exchange(state: State, holder: str, corp: int, command: ExchangePacket, can_buy: bool,
              can_sell: bool) -> PacketExchanged:
    g, t = command.give, command.take
    _packet(state, corp, g, holder)
    _packet(state, corp, t, BANK)
    if not (can_buy if t > g else can_sell):
        raise LimitReached(phrase=say("no purchase left in this step") if t > g else say("no sale left in this step"))
    amount = (t - g) * price(state, corp)
    if amount > cash_of(state, holder):
        raise CannotAfford(phrase=say("the exchange costs {amount}", amount=euros(amount)))
    to, bonus = _bonus(state, holder, corp) if t > g else (None, 0)
    return PacketExchanged(holder=holder, corporation=command.corporation, give=g, take=t, amount=amount,
                           bonus_to=to, bonus=bonus)


def options(state: State, actor: int, ignore_cash: bool = False) -> Iterator[Transaction]:
    """Every transaction the actor may make now (``ignore_cash``: as if money were no object)."""
    holder = actor_holder(state, actor)
    can_buy, can_sell = room(state, actor)
    cash = cash_of(state, holder)
    own = holder_corp(state, holder)
    for corp, held in enumerate(state.corps):
        if corp == own:
            continue
        unit = price(state, corp)
        bank = [d for d, h in enumerate(held.packets, start=1) if h == BANK]
        mine = [d for d, h in enumerate(held.packets, start=1) if h == holder]
        if can_buy:
            yield from (BuyPacket(corporation=held.key, packet=p) for p in bank if ignore_cash or p * unit <= cash)
        if can_sell:
            yield from (SellPacket(corporation=held.key, packet=p) for p in mine
                        if not _orphans(state, holder, corp, p))
        for g in mine:
            for t in bank:
                if (t > g and can_buy and (ignore_cash or (t - g) * unit <= cash)) or (t < g and can_sell):
                    yield ExchangePacket(corporation=held.key, give=g, take=t)


def has_choice(state: State, actor: int) -> bool:
    ignore = state.step == Step.PLAYER_TRADE and state.variant.player_cash_hidden
    return next(options(state, actor, ignore), None) is not None


def _count(state: State, holder: str, bought: bool) -> State:
    seat = holder_seat(holder)
    actor = seat if seat is not None else holder_corp(state, holder)
    assert actor is not None
    trades = list(state.trades) + [(0, 0)] * max(0, actor + 1 - len(state.trades))
    buys, sales = trades[actor]
    trades[actor] = (buys + 1, sales) if bought else (buys, sales + 1)
    return replace(state, trades=tuple(trades), done=True)


def _pay_bonus(state: State, to: str | None, bonus: int) -> State:
    return transfer(state, BANK, to, bonus) if to is not None and bonus else state


def apply_packet_bought(state: State, event: PacketBought) -> State:
    corp = index(state, event.corporation)
    state = transfer(state, event.buyer, BANK, event.cost)
    state = move_packet(state, corp, event.packet, event.buyer)
    return _count(_pay_bonus(state, event.bonus_to, event.bonus), event.buyer, True)


def apply_packet_sold(state: State, event: PacketSold) -> State:
    corp = index(state, event.corporation)
    state = transfer(state, BANK, event.seller, event.value)
    return _count(move_packet(state, corp, event.packet, BANK), event.seller, False)


def apply_packet_exchanged(state: State, event: PacketExchanged) -> State:
    corp = index(state, event.corporation)
    state = transfer(state, event.holder, BANK, event.amount)
    state = move_packet(move_packet(state, corp, event.give, BANK), corp, event.take, event.holder)
    state = _pay_bonus(state, event.bonus_to, event.bonus)
    return _count(state, event.holder, event.take > event.give)


