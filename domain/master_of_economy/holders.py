"""Who holds what: share packets' holders, shares held, outstanding shares, and the state updates every rule
uses to move money (always between two parties, one of which may be the bank, so money is conserved)."""

from __future__ import annotations

from msgspec.structs import replace

from .catalog import Catalog, catalog
from .state import Corp, State

BANK = "bank"


def seat_holder(seat: int) -> str:
    return f"seat:{seat}"


def corp_holder(key: str) -> str:
    return f"corp:{key}"


def holder_seat(holder: str) -> int | None:
    return int(holder[5:]) if holder.startswith("seat:") else None


def holder_corp(state: State, holder: str) -> int | None:
    if not holder.startswith("corp:"):
        return None
    return index(state, holder[5:])


def index(state: State, key: str) -> int:
    """The index in ``state.corps`` of the corporation ``key``."""
    for i, corp in enumerate(state.corps):
        if corp.key == key:
            return i
    raise KeyError(key)


def cat_of(state: State) -> Catalog:
    return catalog(state.dataset or state.variant.dataset)


def price(state: State, corp: int) -> int:
    """The current share price of ``corp`` (ME-G-10)."""
    return cat_of(state).price(state.corps[corp].points)


def held(corp: Corp, holder: str) -> tuple[int, ...]:
    """The denominations of ``corp``'s packets that ``holder`` holds."""
    return tuple(d for d, h in enumerate(corp.packets, start=1) if h == holder)


def shares(corp: Corp, holder: str) -> int:
    return sum(held(corp, holder))


def outstanding(corp: Corp) -> int:
    """Shares not in the bank (ME-H-3's S)."""
    return sum(d for d, h in enumerate(corp.packets, start=1) if h != BANK)


def holders(corp: Corp) -> tuple[str, ...]:
    """Every holder of ``corp``'s shares but the bank, in first-packet order."""
    return tuple(dict.fromkeys(h for h in corp.packets if h != BANK))


def player_holders(corp: Corp) -> tuple[int, ...]:
    return tuple(sorted({s for h in corp.packets if (s := holder_seat(h)) is not None}))


def managed(state: State, seat: int) -> tuple[int, ...]:
    """The corporations ``seat`` manages now, in action order."""
    return tuple(c for c in state.order if state.corps[c].manager == seat)


def controller(state: State, holder: str) -> int | None:
    """The seat that decides for ``holder``: a player, or the current manager of a holding corporation."""
    seat = holder_seat(holder)
    if seat is not None:
        return seat
    corp = holder_corp(state, holder)
    return state.corps[corp].manager if corp is not None else None


def with_corp(state: State, corp: int, **changes: object) -> State:
    corps = list(state.corps)
    corps[corp] = replace(corps[corp], **changes)
    return replace(state, corps=tuple(corps))


def with_player(state: State, seat: int, **changes: object) -> State:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def cash_of(state: State, holder: str) -> int:
    seat = holder_seat(holder)
    if seat is not None:
        return state.players[seat].cash
    corp = holder_corp(state, holder)
    if corp is not None:
        return state.corps[corp].cash
    raise KeyError(holder)


def add_cash(state: State, holder: str, amount: int) -> State:
    """``holder`` receives ``amount`` (negative: pays) and the bank the opposite: one leg of a transfer."""
    state = replace(state, bank=state.bank - amount)
    seat = holder_seat(holder)
    if seat is not None:
        return with_player(state, seat, cash=state.players[seat].cash + amount)
    corp = holder_corp(state, holder)
    if corp is not None:
        return with_corp(state, corp, cash=state.corps[corp].cash + amount)
    raise KeyError(holder)


def transfer(state: State, payer: str, payee: str, amount: int) -> State:
    """Move ``amount`` from ``payer`` to ``payee`` (either may be the bank)."""
    if payer != BANK:
        state = add_cash(state, payer, -amount)
    if payee != BANK:
        state = add_cash(state, payee, amount)
    return state


def move_packet(state: State, corp: int, packet: int, holder: str) -> State:
    packets = list(state.corps[corp].packets)
    packets[packet - 1] = holder
    return with_corp(state, corp, packets=tuple(packets))


def add_goods(values: tuple[int, ...], index_: int, amount: int) -> tuple[int, ...]:
    out = list(values)
    out[index_] += amount
    return tuple(out)


def plus(a: tuple[int, ...], b: tuple[int, ...], sign: int = 1) -> tuple[int, ...]:
    return tuple(x + sign * y for x, y in zip(a, b, strict=True))


