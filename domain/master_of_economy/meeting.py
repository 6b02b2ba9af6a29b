"""§9, the shareholders meeting (phase 10), steps 1, 2 and 4: the board bonus (ME-H-1), embezzlement (ME-H-2) and
the redemption of own shares (ME-H-4). Dividends (step 3) are :mod:`.dividends`', the election (step 5)
:mod:`.elections`' and the players' share trading (step 6) :mod:`.shares`'."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import InvalidValue
from domain.kernel.phrases import say

from .errors import CannotAfford, NotAllowed
from .events import BoardBonusPaid, Embezzled, Redeemed
from .holders import BANK, cat_of, corp_holder, holder_seat, index, move_packet, price, seat_holder, transfer, with_corp
from .recorder import Recorder
from .state import State
from .wording import euros


def board_bonuses(rec: Recorder) -> None:
    """ME-H-1: in action order, the bank pays each manager the bonus for the corporation's factories."""
    cat = cat_of(rec.state)
    for corp in rec.state.order:
        held = rec.state.corps[corp]
        bonus = cat.board_bonus(sum(held.factories))
        if bonus and held.manager is not None:
            rec.emit(BoardBonusPaid(corporation=held.key, seat=held.manager, amount=bonus))


def most_embezzled(state: State, corp: int) -> int:
    """ME-H-2: the price must not fall and the corporation must afford 1 + price per euro."""
    cat = cat_of(state)
    held = state.corps[corp]
    per_point = cat.rules.embezzlement.points_per_euro
    by_points = (held.points - cat.band_start(held.points)) // per_point
    return max(0, min(by_points, held.cash // (1 + price(state, corp))))


def embezzle(state: State, corp: int, amount: int) -> list[Embezzled]:
    most = most_embezzled(state, corp)
    if not 1 <= amount <= most:
        raise InvalidValue(phrase=say("the manager may take 1 to {most}", most=euros(most)), field="amount", most=most)
    held = state.corps[corp]
    assert held.manager is not None
    points = amount * cat_of(state).rules.embezzlement.points_per_euro
    return [Embezzled(corporation=held.key, seat=held.manager, amount=amount, cost=amount * price(state, corp),
                      points=points)]


def redemptions(state: State, corp: int) -> list[tuple[int, int, int]]:
    """ME-H-4: (packet, shares, cost) of every redemption the corporation may make now."""
    held = state.corps[corp]
    unit = price(state, corp)
    bonus = cat_of(state).rules.shares.redemption_bonus * unit
    out = []
    for p, holder in enumerate(held.packets, start=1):
        if holder == BANK:
            continue
        for r in range(1, p + 1):
            if r < p and held.packets[p - r - 1] != BANK:
                continue  # a partial redemption needs the bank's packet p - r
            cost = r * unit + bonus
            if cost > held.cash or (r == p and _orphans(state, corp, p)):
                continue
            out.append((p, r, cost))
    return out


def _orphans(state: State, corp: int, packet: int) -> bool:
    """ME-H-4: a full redemption may not leave the corporation with no shares held by any player."""
    packets = state.corps[corp].packets
    return not any(holder_seat(h) is not None for d, h in enumerate(packets, start=1) if d != packet)


def redeem(state: State, corp: int, packet: int, shares: int) -> list[Redeemed]:
    held = state.corps[corp]
    if not 1 <= packet <= len(held.packets) or held.packets[packet - 1] == BANK:
        raise NotAllowed(phrase=say("nobody but the bank holds packet {packet}", packet=packet), packet=packet)
    if not 1 <= shares <= packet:
        raise InvalidValue(phrase=say("redeem 1 to {packet} shares of packet {packet}", packet=packet), field="shares")
    found = next((cost for p, r, cost in redemptions(state, corp) if (p, r) == (packet, shares)), None)
    if found is None:
        unit = price(state, corp)
        if shares * unit + unit > held.cash:
            raise CannotAfford(phrase=say("the redemption costs {amount}", amount=euros(shares * unit + unit)))
        raise NotAllowed(phrase=say("a partial redemption needs the bank's smaller packet, and some player must keep "
                                    "shares"))
    return [Redeemed(corporation=held.key, holder=held.packets[packet - 1], packet=packet, shares=shares,
                     amount=found, returned=packet - shares)]


def apply_board_bonus_paid(state: State, event: BoardBonusPaid) -> State:
    return transfer(state, BANK, seat_holder(event.seat), event.amount)


def apply_embezzled(state: State, event: Embezzled) -> State:
    corp = index(state, event.corporation)
    holder = corp_holder(event.corporation)
    state = transfer(transfer(state, holder, seat_holder(event.seat), event.amount), holder, BANK, event.cost)
    return replace(with_corp(state, corp, points=state.corps[corp].points - event.points), done=True)


def apply_redeemed(state: State, event: Redeemed) -> State:
    corp = index(state, event.corporation)
    state = transfer(state, corp_holder(event.corporation), event.holder, event.amount)
    state = move_packet(state, corp, event.packet, BANK)
    if event.returned:
        state = move_packet(state, corp, event.returned, event.holder)
    return replace(state, done=True)
