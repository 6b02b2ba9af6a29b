"""What must hold after every event of a started game of Master of Economy (the property tests)."""

from __future__ import annotations

from domain.master_of_economy.catalog import catalog
from domain.master_of_economy.holders import BANK, holder_corp, holder_seat, player_holders
from domain.master_of_economy.market import player_exports
from domain.master_of_economy.state import State, Step
from domain.master_of_economy.supply import cubes_left, markers_left


def assert_invariants(state: State, where: str) -> None:
    if not state.corps:
        return
    # money is conserved: what the bank paid out is in play (ME-G-2: the bank itself is unlimited)
    in_play = sum(p.cash for p in state.players) + sum(c.cash for c in state.corps)
    assert in_play + state.bank == 0, f"{where}: money not conserved ({in_play} in play, bank {state.bank})"
    # no negative cash anywhere (§14.1 never lets a payment go below zero)
    assert all(p.cash >= 0 for p in state.players), f"{where}: a player's cash below 0"
    assert all(c.cash >= 0 for c in state.corps), f"{where}: a corporation's cash below 0"
    _corporations(state, where)
    _supplies(state, where)


def _corporations(state: State, where: str) -> None:
    rules = catalog(state.dataset).rules
    cat = catalog(state.dataset)
    for i, corp in enumerate(state.corps):
        # shares are conserved: each packet in exactly one place, never with its own corporation
        assert len(corp.packets) == rules.shares.packets, where
        for h in corp.packets:
            seat, other = holder_seat(h), holder_corp(state, h)
            assert h == BANK or (seat is not None and 0 <= seat < len(state.players)) or other is not None, where
            assert other != i, f"{where}: {corp.key} holds its own shares"
        assert 0 <= corp.points <= rules.game.max_points, f"{where}: points {corp.points}"
        if corp.automated:
            assert corp.cash == 0 and not any(corp.goods) and not any(corp.factories) and corp.credits == 0, where
            continue
        assert all(0 <= g <= rules.warehouse.capacity for g in corp.goods), f"{where}: {corp.key} goods {corp.goods}"
        for t, f in enumerate(cat.factories):
            assert 0 <= corp.supplied[t] <= corp.factories[t] <= f.places, f"{where}: {corp.key} factories"
        assert 0 <= corp.credits <= rules.credits.max_held, where
        assert corp.manager is not None, where
        if state.step != Step.ENDED:
            assert player_holders(corp), f"{where}: no player holds {corp.key} (ME-H-6.6)"


def _supplies(state: State, where: str) -> None:
    cat = catalog(state.dataset)
    rules = cat.rules
    assert sum(c.credits for c in state.corps) <= rules.credits.tokens, where
    for t in range(len(cat.factories)):
        assert markers_left(state, t) >= 0, f"{where}: factory markers of type {t}"
    if state.variant.finite_commodity_supply:
        for c in range(len(cat.commodities)):
            assert cubes_left(state, c) >= 0, f"{where}: commodity {c} over its supply"
    assert all(p.receipts >= 0 for p in state.players), where
    assert sorted(state.order) == [i for i, c in enumerate(state.corps) if not c.automated] or not state.order, where
    for row in state.rows:
        for _, owner in player_exports(row):
            assert not state.corps[owner].automated, where
        if row.ac:
            assert row.exports[rules.trade.highlighted_field - 1] is None, f"{where}: a bid on the AC's field"
    for corp in range(len(state.corps)):
        bids = sum(r.imports.count(corp) + r.aside.count(corp) + r.exports.count(corp) for r in state.rows)
        assert bids <= rules.trade.max_bids, f"{where}: {bids} bids"
    if state.step == Step.ENDED:
        assert all(c.cash == 0 for c in state.corps), f"{where}: cash left in a corporation after liquidation"
        assert all(h == BANK or holder_seat(h) is not None for c in state.corps for h in c.packets), where
