"""§7.2 and §12, before a trade phase's resolution: the players' sealed AC tokens (ME-V-7) and the corporations'
bids, placed in action order, each corporation's all at once (ME-T-6..10).

A corporation's submission may be sent bid by bid (:class:`~.commands.PlaceBid`, then ``Pass``) or whole
(:class:`~.commands.PlaceBids`); either way nobody else acts before it ends, and a placed bid never moves.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import InvalidValue, RuleViolation
from domain.kernel.phrases import Phrase, say

from .errors import AlreadyChosen, LimitReached, NoSuchThing, NotAllowed
from .events import BidPlaced, ReceiptsDiscarded, TokenCommitted
from .holders import cat_of, index, with_player
from .state import Row, State


def trade_phase(state: State) -> int:
    """The global number of the current trade phase, 1-8 (ME-G-6)."""
    first_half = 4
    return 2 * (state.stage - 1) + (1 if state.number == first_half else 2)


def tokens_available(state: State, seat: int) -> tuple[int, ...]:
    """ME-V-6/7: the seat's tokens but the one committed in the previous trade phase."""
    locked = state.players[seat].locked
    return tuple(t for t in cat_of(state).ac_tokens(len(state.players)) if t != locked)


def commit_token(state: State, seat: int, token: int) -> list[TokenCommitted]:
    if state.sealed[seat] is not None:
        raise AlreadyChosen(phrase=say("this trade phase's token is already committed"))
    if token not in tokens_available(state, seat):
        raise NoSuchThing(phrase=say("token {token} is not available (ME-V-7)", token=token), token=token,
                          available=list(tokens_available(state, seat)))
    return [TokenCommitted(seat=seat, token=token)]


def bids_of(state: State, corp: int) -> int:
    return sum(row.imports.count(corp) + row.exports.count(corp) for row in state.rows)


def bid_refusal(state: State, corp: int, commodity: int, field: int) -> Phrase | None:
    """Why ``corp`` cannot bid on ``field`` of row ``commodity`` now (ME-T-6, ME-T-9, ME-V-10), or None."""
    cat = cat_of(state)
    rules = cat.rules.trade
    row = state.rows[commodity]
    placed = bids_of(state, corp)
    manager = state.corps[corp].manager
    if placed >= rules.max_bids:
        return say("at most {n} bids (ME-T-6)", n=rules.max_bids)
    if placed >= rules.basic_bids and (manager is None or state.players[manager].receipts < 1):
        return say("a bid beyond {n} costs a receipts token (ME-T-6)", n=rules.basic_bids)
    if field == 0:
        return None
    if not 1 <= field <= len(row.exports):
        return say("the row has export fields 1 to {most}", most=len(row.exports))
    if row.ac and field == rules.highlighted_field:
        return say("the AC's marker blocks this field (ME-V-10)")
    if row.exports[field - 1] is not None:
        return say("each export field holds one bid (ME-T-9)")
    return None


def place_bid(state: State, corp: int, commodity: str, field: int) -> list[BidPlaced | ReceiptsDiscarded]:
    cat = cat_of(state)
    keys = [c.key for c in cat.commodities]
    if commodity not in keys:
        raise NoSuchThing(phrase=say("unknown commodity {commodity}", commodity=commodity), commodity=commodity)
    refusal = bid_refusal(state, corp, keys.index(commodity), field)
    if refusal is not None:
        error: type[RuleViolation] = LimitReached if "bids" in refusal.key or "receipts" in refusal.key \
            else NotAllowed
        if "fields 1 to" in refusal.key:
            error = InvalidValue
        raise error(phrase=refusal, commodity=commodity, field=field)
    held = state.corps[corp]
    out: list[BidPlaced | ReceiptsDiscarded] = []
    if bids_of(state, corp) >= cat.rules.trade.basic_bids:
        assert held.manager is not None
        out.append(ReceiptsDiscarded(seat=held.manager, corporation=held.key))
    out.append(BidPlaced(corporation=held.key, commodity=commodity, field=field))
    return out


def apply_token_committed(state: State, event: TokenCommitted) -> State:
    sealed = list(state.sealed)
    sealed[event.seat] = (event.token,) if event.token is not None else ()
    return replace(state, sealed=tuple(sealed))


def apply_bid_placed(state: State, event: BidPlaced) -> State:
    r = cat_of(state).commodity_index(event.commodity)
    corp = index(state, event.corporation)
    row = state.rows[r]
    if event.field == 0:
        row = replace(row, imports=(*row.imports, corp))
    else:
        exports = list(row.exports)
        exports[event.field - 1] = corp
        row = replace(row, exports=tuple(exports))
    rows = list(state.rows)
    rows[r] = row
    return replace(state, rows=tuple(rows))


def apply_receipts_discarded(state: State, event: ReceiptsDiscarded) -> State:
    return with_player(state, event.seat, receipts=state.players[event.seat].receipts - 1)


def empty_rows(state: State) -> tuple[Row, ...]:
    """The market board with no bids and demand at rest (the AC's markers stay, ME-T-16)."""
    cat = cat_of(state)
    old = state.rows or tuple(Row() for _ in cat.commodities)
    return tuple(Row(exports=(None,) * len(c.fields), ac=old[i].ac) for i, c in enumerate(cat.commodities))
