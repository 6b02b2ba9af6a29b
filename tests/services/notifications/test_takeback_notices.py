"""The notices of a takeback (issue #29): the seats asked are told ``undo_asked``, the asking seat each answer
(``undo_answered``); the projector's fold of a run that takes moves back starts from the state before them."""

from __future__ import annotations

from datetime import UTC, datetime

from domain.games import GAMES
from domain.kernel import Seat
from domain.kernel.table import TableOptions, UndoAnswer, UndoAsk
from domain.magnate.commands import PlaceBid
from infra.notifications import Settings, Told
from services.notifications.derive import Logged, derive, notice_id, undone_before
from services.notifications.projector import store_notices
from tests.domain.kernel.undo_table import UndoTable

from .twins import Twins

GAME = GAMES["magnate"]


def test_the_seats_asked_and_the_asker_are_told_and_the_fold_goes_back() -> None:
    t = UndoTable(GAME, GAME.sim_options(("human", "human"), None, frozenset()), b"notices", TableOptions())
    a = GAME.pending(t.state).seats[0]
    b = Seat(1 - a)
    t.run(a, PlaceBid(amount=200))
    cursor, state = t.version, t.state
    t.run(a, UndoAsk())
    t.run(b, UndoAnswer(accept=False))
    t.run(a, UndoAsk())
    t.run(b, UndoAnswer(accept=True))
    events = [Logged(e.version, e.command_id, e.event) for e in t.log if e.version > cursor]
    before = {v: t.commands[[c[0] for c in t.commands].index(v)][3] for v in undone_before(events)}
    told, after = derive(GAME, "g", state, events, {0: "p0", 1: "p1"}, before)
    assert after == t.state
    kinds = [(n.seat, n.kind) for n in told]
    assert kinds.count((b, "undo_asked")) == 2 and kinds.count((a, "undo_answered")) == 2, kinds
    assert (a, "your_turn") in kinds, "the bidder is on turn again"
    texts = [n.text for n in told if n.kind == "undo_answered"]
    assert "refuses" in texts[0] and "accepts" in texts[1], texts


async def test_a_player_who_unticked_the_takeback_kinds_is_not_told_them() -> None:
    """The takeback notices are kinds a player chooses (settings ``kinds``): unticked, neither the page, nor mail,
    nor a webhook hears of them; the other kinds still come."""
    twins = Twins()
    bea, cy = twins.player("bea"), twins.player("cy")
    await twins.store.save_settings(bea, Settings(kinds=("your_turn", "game_over")))
    told = [Told(notice_id("g", 7, seat, kind), player, "g", seat, 7, kind, kind)
            for seat, player in ((0, bea), (1, cy)) for kind in ("undo_asked", "undo_answered", "your_turn")]
    deliveries = await store_notices(twins.store, "g", told, datetime.now(UTC))
    assert [n.kind for n in await twins.notifications.notices(bea)] == ["your_turn"]
    assert sorted(n.kind for n in await twins.notifications.notices(cy)) == ["undo_answered", "undo_asked",
                                                                             "your_turn"]
    queued = {d.rsplit(".", 1)[0] for d, _ in deliveries}  # a delivery's id: its notice's, then its channel
    assert queued == {notice_id("g", 7, seat, kind) for seat, kind in (
        (0, "your_turn"), (1, "undo_asked"), (1, "undo_answered"), (1, "your_turn"))}
