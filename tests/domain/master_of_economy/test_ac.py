"""§12, the additional corporation of the 2-3 player variant (ME-V-1..12)."""

from __future__ import annotations

import pytest

from domain.kernel import SYSTEM
from domain.kernel.phrases import plain
from domain.master_of_economy.commands import BuyPacket, CommitToken, MoveAc, Pass, PlaceBid, ResolveMarket, ScoreAc
from domain.master_of_economy.errors import NoSuchThing, NotAllowed
from domain.master_of_economy.events import AcExported, AcMarkerPlaced, CorporationsFormed, Exported, PacketBought
from domain.master_of_economy.flow import begin_phase
from domain.master_of_economy.folding import evolve
from domain.master_of_economy.pending import pending
from domain.master_of_economy.recorder import Recorder
from domain.master_of_economy.state import Step

from .builders import CAT, act, at, bids, corp, game, goods, of, order, player, resolve, started

A, B, C = "blue", "yellow", "green"


def test_me_v_1_the_variant_is_an_option_for_2_or_3() -> None:
    """ME-V-1."""
    assert game(2, additional_corporation=True).variant.additional_corporation
    assert not game(2).variant.additional_corporation


def test_me_v_2_which_corporation() -> None:
    """ME-V-2: with 3 players the unpicked one; with 2 a seeded draw between the two unpicked."""
    events, _ = started(3, additional_corporation=True)
    assert of(events, CorporationsFormed)[0].ac == "red" and not of(events, CorporationsFormed)[0].drawn
    drawn = {of(started(2, seed=bytes([i]), additional_corporation=True)[0], CorporationsFormed)[0].ac
             for i in range(12)}
    assert drawn == {"green", "red"}


def test_me_v_3_all_ten_packets_in_the_bank_no_bonus_nobody_controls_it() -> None:
    """ME-V-3."""
    state = game(3, additional_corporation=True)
    ac = next(c for c in state.corps if c.automated)
    assert ac.packets == ("bank",) * 10 and ac.manager is None
    state = player(at(order(state, A, B, C), Step.PLAYER_TRADE, number=10), 2, cash=20)
    events, state = act(state, 2, BuyPacket(corporation="red", packet=10))
    assert of(events, PacketBought)[0].bonus_to is None
    assert next(c for c in state.corps if c.automated).manager is None


def test_me_v_4_and_v_5_it_lacks_everything_but_points() -> None:
    """ME-V-4: no board, cash, goods, factories, credits, manager or position; ME-V-5: 0 points at the start."""
    state = game(2, additional_corporation=True)
    ac = next(i for i, c in enumerate(state.corps) if c.automated)
    held = state.corps[ac]
    assert (held.cash, held.points, held.credits, sum(held.goods), sum(held.factories)) == (0, 0, 0, 0, 0)
    assert ac not in state.order


def test_me_v_6_and_v_7_tokens_committed_secretly_not_twice_running() -> None:
    """ME-V-6: 0-3 with 2 players (0-2 with 3); ME-V-7: one available token per trade phase, before any bid; the
    previous one is locked."""
    state = order(game(2, additional_corporation=True), A, B)
    state = player(at(state, Step.TOKENS, number=4), 0, locked=3)
    assert pending(state).seats == (0, 1)
    with pytest.raises(NoSuchThing):
        act(state, 0, CommitToken(token=3))
    _, state = act(state, 0, CommitToken(token=2))
    _, state = act(state, 1, CommitToken(token=3))
    assert state.step == Step.BIDS
    assert CAT.ac_tokens(2) == (0, 1, 2, 3) and CAT.ac_tokens(3) == (0, 1, 2)


def test_me_v_8_tokens_scored_after_the_rows() -> None:
    """ME-V-8: revealed after resolution; the AC gains their sum (up to 30)."""
    state = at(order(game(2, additional_corporation=True), A, B), Step.BIDS, number=4,
               sealed=((3,), (2,)))
    _, state = act(state, 0, PlaceBid(commodity="coal", field=0))
    for seat in (0, 1):
        _, state = act(state, seat, Pass())
    _, state = act(state, SYSTEM, ResolveMarket())
    assert state.step == Step.AC_SCORE and pending(state).system == ScoreAc()
    _, state = act(state, SYSTEM, ScoreAc())
    assert next(c for c in state.corps if c.automated).points == 5


def test_me_v_9_and_v_10_blocking_markers_by_schedule() -> None:
    """ME-V-9: before global trade phase k a marker on field 6 of row k; they stay; ME-V-10: no bid there."""
    state = order(game(2, additional_corporation=True), A, B)
    rec = Recorder(at(state, Step.PROCURE, number=3, stage=2), evolve)
    begin_phase(rec, 4)  # trade phase 3: iron ore
    assert rec.state.step == Step.AC_MOVE and pending(rec.state).system == MoveAc()
    events, state = act(rec.state, SYSTEM, MoveAc())
    placed = of(events, AcMarkerPlaced)[0]
    assert (placed.commodity, placed.field) == ("ore", 6) and placed.reason is not None
    assert plain(placed.reason).startswith("before trade phase 3 it blocks field 6 of Iron ore")
    assert state.rows[2].ac and state.step == Step.TOKENS
    state = at(state, Step.BIDS, number=4, stage=2)
    with pytest.raises(NotAllowed):
        act(state, 0, PlaceBid(commodity="ore", field=6))
    rec = Recorder(at(state, Step.PROCURE, number=8, stage=4), evolve)
    begin_phase(rec, 9)  # trade phase 8: no new marker
    assert rec.state.step == Step.TOKENS


def test_me_v_11_the_marker_takes_demand_in_step_b() -> None:
    """ME-V-11: resolved in its turn like an export when d >= 6 (no money, goods or points); never a seller."""
    state = order(game(2, additional_corporation=True), A, B)
    state = corp(corp(state, A, goods=goods(materials=3)), B, cash=20)
    state = evolve(state, AcMarkerPlaced(corporation="red", commodity="materials", field=6, explanation=""))
    state = bids(state, "materials", f5=A)
    events, _ = resolve(state)
    assert [type(e) for e in events if isinstance(e, Exported | AcExported)] == [Exported, AcExported]
    assert of(events, AcExported)[0].demand == 5


def test_me_v_12_the_cap_applies_in_the_variant() -> None:
    """ME-V-12 with ME-X-4 (also test 16.13): five player bids on fields 1-5 and no IMPORT: field 6 is the last."""
    state = order(game(3, additional_corporation=True), A, B, C)
    for key in (A, B, C):
        state = corp(state, key, goods=goods(steel=3))
    state = bids(state, "steel", f1=A, f2=B, f3=C, f4=A, f5=B, f6=C, f7=A)
    events, _ = resolve(state)
    assert [e.field for e in of(events, Exported)] == [1, 2, 3, 4, 5, 6]


def test_me_x_4_the_cap_needs_an_empty_import_column_and_the_basic_game_has_none() -> None:
    """ME-X-4: an IMPORT bid that Step A could not fill (here its buyer cannot pay) keeps the cap off."""
    state = order(game(3, additional_corporation=True), A, B, C)
    for key in (A, B, C):
        state = corp(state, key, goods=goods(ships=3), cash=0)
    state = bids(state, "ships", imports=(A,), f1=A, f2=B, f3=C, f4=A, f5=B, f6=C, f7=A)
    events, _ = resolve(state)
    assert [e.field for e in of(events, Exported)] == [1, 2, 3, 4, 5, 6, 7]
