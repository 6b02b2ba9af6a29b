"""§2, setup: the variant (recorded in the first event), the corporations (picked in seat order, or assigned by
a seeded draw, ME-S-1), the AC (ME-V-2), every corporation's board, packets and treasury (ME-S-3..6) and the first
action sequence: a seeded random permutation, or sealed bids revealed together (ME-S-9).

Seeded draws, in this order when they happen (an audit re-derives them the same way): the assignment (a shuffle
of the catalog's corporations, the first ones dealt in seat order), the AC among two unpicked corporations, the
random first order (a shuffle of the corporations in catalog order), the auction's tie-breaks (a shuffle of each
group of equal bids, highest group first).
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import Chance, InvalidValue
from domain.kernel.datafiles import DataError
from domain.kernel.phrases import say

from .bidding import empty_rows
from .catalog import catalog
from .commands import StartGame
from .errors import AlreadyChosen, NoSuchThing
from .events import CorporationPicked, CorporationsFormed, GameStarted, OrderSet, StartBidSealed, StartBidsRevealed
from .holders import BANK, cat_of, seat_holder, transfer, with_player
from .recorder import Recorder
from .state import Corp, Player, State
from .variant import resolve
from .wording import euros


def start(command: StartGame) -> GameStarted:
    options = command.options
    try:
        cat = catalog(options.dataset)
    except DataError as exc:
        raise InvalidValue(phrase=say("unknown dataset {dataset}",
                                      dataset=options.dataset), dataset=options.dataset) from exc
    return GameStarted(variant=resolve(options, cat), dataset=cat.dataset, seed_commitment=command.seed_commitment)


def assign(rec: Recorder, chance: Chance) -> None:
    """ME-S-1's seeded assignment."""
    keys = chance.shuffle([c.key for c in cat_of(rec.state).corporations])
    for seat in range(len(rec.state.players)):
        rec.emit(CorporationPicked(seat=seat, corporation=keys[seat], drawn=True))


def free_corporations(state: State) -> tuple[str, ...]:
    taken = {p.corporation for p in state.players}
    return tuple(c.key for c in cat_of(state).corporations if c.key not in taken)


def pick(state: State, seat: int, corporation: str) -> list[CorporationPicked]:
    if corporation not in free_corporations(state):
        raise NoSuchThing(phrase=say("{corporation} is not free", corporation=corporation), corporation=corporation,
                          free=list(free_corporations(state)))
    return [CorporationPicked(seat=seat, corporation=corporation)]


def form(rec: Recorder, chance: Chance) -> None:
    """ME-S-3..6 and ME-V-2/3: the boards, with the AC (drawn among two unpicked corporations with 2 players)."""
    state = rec.state
    cat = cat_of(state)
    free = free_corporations(state)
    ac: str | None = None
    drawn = False
    if state.variant.additional_corporation:
        drawn = len(free) > 1
        ac = chance.pick(free) if drawn else free[0]
    picked = {p.corporation for p in state.players}
    keys = tuple(c.key for c in cat.corporations if c.key in picked or c.key == ac)
    rec.emit(CorporationsFormed(corporations=keys, ac=ac, drawn=drawn))


def first_order(rec: Recorder, chance: Chance) -> None:
    """ME-S-9's random option."""
    keys = [c.key for c in rec.state.corps if not c.automated]
    rec.emit(OrderSet(order=tuple(chance.shuffle(keys)), reason="random"))


def seal_bid(state: State, seat: int, amount: int) -> list[StartBidSealed]:
    most = cat_of(state).rules.start.max_start_bid
    if state.sealed[seat] is not None:
        raise AlreadyChosen(phrase=say("your bid is already sealed"))
    if not 0 <= amount <= most:
        raise InvalidValue(phrase=say("a bid is 0 to {most}", most=euros(most)), field="amount", most=most)
    return [StartBidSealed(seat=seat, amount=amount)]


def reveal_bids(rec: Recorder, chance: Chance) -> None:
    """ME-S-9: highest bid first; equal bids in a seeded random order."""
    state = rec.state
    bids = tuple(b[0] if b else 0 for b in state.sealed)
    order: list[str] = []
    draws: list[int] = []
    for amount in sorted(set(bids), reverse=True):
        group = [s for s, b in enumerate(bids) if b == amount]
        if len(group) > 1:
            group = chance.shuffle(group)
            draws += group
        order += [p.corporation for s in group if (p := state.players[s]).corporation is not None]
    rec.emit(StartBidsRevealed(bids=bids, draws=tuple(draws)))
    rec.emit(OrderSet(order=tuple(order), reason="auction"))


def apply_game_started(state: State, event: GameStarted) -> State:
    return replace(state, variant=event.variant, dataset=event.dataset, seed_commitment=event.seed_commitment,
                   players=tuple(Player() for _ in range(event.variant.players)))


def apply_corporation_picked(state: State, event: CorporationPicked) -> State:
    return replace(with_player(state, event.seat, corporation=event.corporation), done=True)


def apply_corporations_formed(state: State, event: CorporationsFormed) -> State:
    cat = catalog(state.dataset)
    start = cat.rules.start
    width = len(cat.commodities)
    goods = tuple(start.corporation_materials if i == cat.building else 0 for i in range(width))
    manager_of = {p.corporation: seat for seat, p in enumerate(state.players)}
    corps = []
    for key in event.corporations:
        if key == event.ac:
            corps.append(Corp(key=key, automated=True, goods=(0,) * width, factories=(0,) * width,
                              supplied=(0,) * width, packets=(BANK,) * cat.rules.shares.packets))
            continue
        seat = manager_of[key]
        packets = tuple(seat_holder(seat) if d == start.manager_packet else BANK
                        for d in range(1, cat.rules.shares.packets + 1))
        corps.append(Corp(key=key, goods=goods, factories=(0,) * width, supplied=(0,) * width, packets=packets,
                          manager=seat))
    state = replace(state, corps=tuple(corps), players=tuple(
        replace(p, receipts=start.receipts) for p in state.players))
    state = replace(state, rows=empty_rows(state))
    for i, corp in enumerate(state.corps):
        if not corp.automated:
            state = transfer(state, BANK, f"corp:{corp.key}", start.corporation_cash)
            state = replace(state, order=(*state.order, i))
    for seat in range(len(state.players)):
        state = transfer(state, BANK, seat_holder(seat), start.player_cash)
    return state


def apply_start_bid_sealed(state: State, event: StartBidSealed) -> State:
    sealed = list(state.sealed)
    sealed[event.seat] = (event.amount,) if event.amount is not None else ()
    return replace(state, sealed=tuple(sealed))


def apply_start_bids_revealed(state: State, event: StartBidsRevealed) -> State:
    players = tuple(replace(p, start_bid=b) for p, b in zip(state.players, event.bids, strict=True))
    return replace(state, players=players, sealed=tuple(None for _ in state.players))

