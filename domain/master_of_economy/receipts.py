"""§10, the action sequence for the next stage (after phase 10 of stages 1-3): every player receives a receipts
token (ME-N-1); for each corporation in the current action order, the players place any number of their tokens on
it, managers first (ME-N-2); the last corporation gets one more (ME-N-3); the most receipts act first, ties keeping
their order (ME-N-4); the placed tokens leave the game (ME-N-5)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import InvalidValue
from domain.kernel.phrases import say

from .cursor import target_corp
from .events import OrderSet, ReceiptsGiven, ReceiptsPlaced
from .holders import cat_of, index, with_corp, with_player
from .recorder import Recorder
from .state import State


def place(state: State, seat: int, count: int) -> list[ReceiptsPlaced]:
    held = state.players[seat].receipts
    if not 0 <= count <= held:
        raise InvalidValue(phrase=say("place 0 to {most} tokens", most=held), field="count", most=held)
    return [ReceiptsPlaced(seat=seat, corporation=state.corps[target_corp(state)].key, count=count)]


def new_order(rec: Recorder) -> None:
    """ME-N-3/4: the last corporation's extra receipt, then the ranking."""
    state = rec.state
    last = state.corps[state.order[-1]]
    rec.emit(ReceiptsPlaced(seat=None, corporation=last.key, count=cat_of(state).rules.receipts.last_extra))
    state = rec.state
    ranked = sorted(state.order, key=lambda c: -state.corps[c].receipts)  # stable: ties keep their order
    rec.emit(OrderSet(order=tuple(state.corps[c].key for c in ranked), reason="receipts",
                      receipts=tuple(state.corps[c].receipts for c in ranked)))


def apply_receipts_given(state: State, event: ReceiptsGiven) -> State:
    return replace(state, players=tuple(replace(p, receipts=p.receipts + event.count) for p in state.players))


def apply_receipts_placed(state: State, event: ReceiptsPlaced) -> State:
    corp = index(state, event.corporation)
    state = with_corp(state, corp, receipts=state.corps[corp].receipts + event.count)
    if event.seat is None:
        return state
    state = with_player(state, event.seat, receipts=state.players[event.seat].receipts - event.count)
    return replace(state, done=True)


def apply_order_set(state: State, event: OrderSet) -> State:
    order = tuple(index(state, key) for key in event.order)
    return replace(state, order=order, corps=tuple(replace(c, receipts=0) for c in state.corps))
