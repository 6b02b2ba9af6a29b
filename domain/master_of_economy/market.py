"""§7.3, the trade phase's resolution (ME-T-11..16): rows one at a time, top to bottom; in each, Step A (the local
market between corporations), Step B (exports, with the AC's marker and, in the variant, the highlighted-column
cap of ME-X-4), Step C (purchases abroad). One event per deal, fine, failed or dropped bid (spec §17).

:func:`tick` takes the next step of the resolution and is resumable: a purchase that meets a shortfall (ME-X-1)
waits for the manager, and the next tick tries the same bid again.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel.phrases import say

from .events import (
    AcExported,
    Exported,
    ExportFailed,
    ExportsOpened,
    ImportBought,
    LocalDeal,
    PurchaseDeferred,
    PurchaseDropped,
    RowClosed,
    RowOpened,
    SaleFined,
)
from .holders import add_goods, cat_of, corp_holder, index, transfer, with_corp
from .recorder import Recorder
from .shortfall import Paid, end, pay
from .state import Row, State
from .supply import cubes_left, limited

OPEN, LOCAL, ABROAD, CLOSED = 0, 1, 2, 3


def _key(state: State, corp: int) -> str:
    return state.corps[corp].key


def has_bids(row: Row) -> bool:
    return bool(row.imports or row.aside or any(e is not None for e in row.exports))


def player_exports(row: Row) -> list[tuple[int, int]]:
    """(field, corporation) of the row's player EXPORT bids, leftmost first."""
    return [(f, c) for f, c in enumerate(row.exports, start=1) if c is not None]


def tick(rec: Recorder) -> bool | None:
    """One step of the resolution: True when it waits for a manager, None when every row is done, else False."""
    state = rec.state
    rows = state.rows
    row = rows[state.row]
    if row.stage in (OPEN, CLOSED):
        start = state.row + (1 if row.stage == CLOSED else 0)
        nxt = next((i for i in range(start, len(rows)) if rows[i].stage == OPEN and has_bids(rows[i])), None)
        if nxt is None:
            return None
        commodity = cat_of(state).commodities[nxt]
        local = bool(rows[nxt].imports) and bool(player_exports(rows[nxt]))
        rec.emit(RowOpened(commodity=commodity.key, demand=commodity.demand_start, local=local))
        return False
    if row.stage == LOCAL:
        return _local(rec) if row.imports else _exports(rec)
    return _abroad(rec)


def _local(rec: Recorder) -> bool:
    """ME-T-12 for the buyer bid at the head of the queue."""
    state = rec.state
    cat = cat_of(state)
    commodity = cat.commodities[state.row]
    row = state.rows[state.row]
    buyer = row.imports[0]
    sellers = [(f, c) for f, c in player_exports(row) if c != buyer]
    if not sellers:
        rec.emit(PurchaseDeferred(corporation=_key(state, buyer), commodity=commodity.key))
        return False
    field, seller = sellers[0]
    if state.corps[seller].goods[state.row] <= 0:
        rec.emit(_fine(state, seller, field))
        return False
    if state.corps[buyer].goods[state.row] >= cat.rules.warehouse.capacity:
        rec.emit(PurchaseDropped(corporation=_key(state, buyer), commodity=commodity.key, reason="full"))
        return False
    price = commodity.locals[field - 1]
    paid = pay(rec, buyer, price, "local")
    if paid == Paid.WAIT:
        return True
    if paid == Paid.SHORT:
        rec.emit(PurchaseDropped(corporation=_key(state, buyer), commodity=commodity.key, reason="cash"))
    else:
        rec.emit(LocalDeal(commodity=commodity.key, buyer=_key(state, buyer), seller=_key(state, seller),
                           field=field, price=price))
    return False


def _fine(state: State, corp: int, field: int) -> SaleFined:
    """ME-T-15: waived when the corporation has no cash."""
    fine = cat_of(state).rules.trade.fine
    return SaleFined(corporation=_key(state, corp), commodity=cat_of(state).commodities[state.row].key, field=field,
                     fine=fine if state.corps[corp].cash >= fine else 0)


def cap(state: State, row: Row) -> int:
    """ME-X-4: the last field where an export can succeed when Step B starts: in the variant, with player bids on
    every field left of the highlighted one and no IMPORT bid (none placed, or every one filled in Step A)."""
    cat = cat_of(state)
    last = len(row.exports)
    highlighted = cat.rules.trade.highlighted_field
    if state.variant.additional_corporation and not row.imports and not row.aside and not row.unfilled and all(
            c is not None for c in row.exports[:highlighted - 1]):
        return min(last, highlighted)
    return last


def _exports(rec: Recorder) -> bool:
    """ME-T-13 and ME-V-11: the whole of Step B (it never waits)."""
    state = rec.state
    cat = cat_of(state)
    commodity = cat.commodities[state.row]
    row = state.rows[state.row]
    last = cap(state, row)
    rec.emit(ExportsOpened(commodity=commodity.key, last=last))
    highlighted = cat.rules.trade.highlighted_field
    ac = next((c.key for c in state.corps if c.automated), None)
    for field in range(1, len(row.exports) + 1):
        state = rec.state
        demand = state.rows[state.row].demand
        owner = row.exports[field - 1]
        if owner is None:
            if row.ac and ac is not None and field == highlighted and demand >= field and field <= last:
                why = say("its marker on field {field} takes one unit of demand, leaving {demand}", field=field,
                          demand=demand - 1)
                rec.emit(AcExported(corporation=ac, commodity=commodity.key, field=field, demand=demand - 1,
                                    reason=why))
            continue
        if demand < field or field > last:
            rec.emit(ExportFailed(corporation=_key(state, owner), commodity=commodity.key, field=field))
        elif state.corps[owner].goods[state.row] <= 0:
            rec.emit(_fine(state, owner, field))
        else:
            points = min(cat.rules.trade.export_points, cat.rules.game.max_points - state.corps[owner].points)
            rec.emit(Exported(corporation=_key(state, owner), commodity=commodity.key, field=field,
                              price=commodity.exports[field - 1], points=points, demand=demand - 1))
    return False


def _abroad(rec: Recorder) -> bool:
    """ME-T-14 for the purchase bid at the head of the set-aside bids; the row closes when none is left."""
    state = rec.state
    cat = cat_of(state)
    commodity = cat.commodities[state.row]
    row = state.rows[state.row]
    if not row.aside:
        rec.emit(RowClosed(commodity=commodity.key))
        return False
    buyer = row.aside[0]
    if state.corps[buyer].goods[state.row] >= cat.rules.warehouse.capacity:
        rec.emit(PurchaseDropped(corporation=_key(state, buyer), commodity=commodity.key, reason="full"))
        return False
    if limited(state) and cubes_left(state, state.row) <= 0:
        rec.emit(PurchaseDropped(corporation=_key(state, buyer), commodity=commodity.key, reason="supply"))
        return False
    paid = pay(rec, buyer, commodity.import_price, "import")
    if paid == Paid.WAIT:
        return True
    if paid == Paid.SHORT:
        rec.emit(PurchaseDropped(corporation=_key(state, buyer), commodity=commodity.key, reason="cash"))
    else:
        rec.emit(ImportBought(corporation=_key(state, buyer), commodity=commodity.key, price=commodity.import_price))
    return False


# -- evolve ----------------------------------------------------------------------------------------------------


def _row(state: State, commodity: str) -> int:
    return cat_of(state).commodity_index(commodity)


def _with_row(state: State, r: int, **changes: object) -> State:
    rows = list(state.rows)
    rows[r] = replace(rows[r], **changes)
    return replace(state, rows=tuple(rows))


def _without_export(state: State, r: int, field: int) -> State:
    exports = list(state.rows[r].exports)
    exports[field - 1] = None
    return _with_row(state, r, exports=tuple(exports))


def _goods(state: State, corp: int, r: int, amount: int) -> State:
    return with_corp(state, corp, goods=add_goods(state.corps[corp].goods, r, amount))


def apply_row_opened(state: State, event: RowOpened) -> State:
    r = _row(state, event.commodity)
    row = state.rows[r]
    state = replace(state, row=r)
    if event.local:
        return _with_row(state, r, demand=event.demand, stage=LOCAL)
    return _with_row(state, r, demand=event.demand, stage=LOCAL, imports=(), aside=(*row.aside, *row.imports))


def apply_purchase_deferred(state: State, event: PurchaseDeferred) -> State:
    r = _row(state, event.commodity)
    row = state.rows[r]
    return _with_row(state, r, imports=row.imports[1:], aside=(*row.aside, row.imports[0]))


def apply_purchase_dropped(state: State, event: PurchaseDropped) -> State:
    r = _row(state, event.commodity)
    row = state.rows[r]
    state = end(state)
    if row.stage == LOCAL and row.imports:
        return _with_row(state, r, imports=row.imports[1:], unfilled=True)
    return _with_row(state, r, aside=row.aside[1:])


def apply_local_deal(state: State, event: LocalDeal) -> State:
    r = _row(state, event.commodity)
    buyer, seller = index(state, event.buyer), index(state, event.seller)
    state = end(state)
    state = _goods(_goods(state, seller, r, -1), buyer, r, 1)
    state = transfer(state, corp_holder(event.buyer), corp_holder(event.seller), event.price)
    state = _without_export(state, r, event.field)
    return _with_row(state, r, imports=state.rows[r].imports[1:])


def apply_sale_fined(state: State, event: SaleFined) -> State:
    state = transfer(state, corp_holder(event.corporation), "bank", event.fine)
    return _without_export(state, _row(state, event.commodity), event.field)


def apply_exports_opened(state: State, event: ExportsOpened) -> State:
    return _with_row(state, _row(state, event.commodity), stage=ABROAD)


def apply_exported(state: State, event: Exported) -> State:
    r = _row(state, event.commodity)
    corp = index(state, event.corporation)
    state = _goods(state, corp, r, -1)
    state = with_corp(state, corp, points=state.corps[corp].points + event.points)
    state = transfer(state, "bank", corp_holder(event.corporation), event.price)
    state = _without_export(state, r, event.field)
    return _with_row(state, r, demand=event.demand)


def apply_export_failed(state: State, event: ExportFailed) -> State:
    return _without_export(state, _row(state, event.commodity), event.field)


def apply_ac_exported(state: State, event: AcExported) -> State:
    return _with_row(state, _row(state, event.commodity), demand=event.demand)


def apply_import_bought(state: State, event: ImportBought) -> State:
    r = _row(state, event.commodity)
    corp = index(state, event.corporation)
    state = end(state)
    state = transfer(state, corp_holder(event.corporation), "bank", event.price)
    state = _goods(state, corp, r, 1)
    return _with_row(state, r, aside=state.rows[r].aside[1:])


def apply_row_closed(state: State, event: RowClosed) -> State:
    return _with_row(state, _row(state, event.commodity), stage=CLOSED)
