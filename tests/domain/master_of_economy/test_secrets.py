"""Spec §17, hidden information: the sealed choices (the auction's bids, ME-S-9; the AC tokens, ME-V-7; the
meeting's ballots, §9) and, with ``player_cash_hidden``, players' cash (ME-S-10). A seat's sealed command is stored
at once as an event that only that seat sees whole (the others see that it has chosen); the view shows a seat its
own choice and the others only whether each has chosen; the reveal event shows every choice together; ``hide``
changes exactly what a viewer may not know."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.kernel import AUDITOR, PUBLIC, SYSTEM, Seat, ViewUnavailable
from domain.master_of_economy import GAME
from domain.master_of_economy.commands import (
    BidForOrder,
    CommitToken,
    CountBallots,
    CountVotes,
    Pass,
    ProposeDividend,
    RevealStartBids,
    Stand,
    VoteDividends,
    VoteManager,
)
from domain.master_of_economy.events import (
    BallotsCounted,
    DividendCounted,
    DividendVoteCast,
    ManagerVoteCast,
    StartBidSealed,
    StartBidsRevealed,
    TokenCommitted,
)
from domain.master_of_economy.folding import evolve, replay
from domain.master_of_economy.narrate import Narrator
from domain.master_of_economy.secrets import hide, redact
from domain.master_of_economy.state import Meeting, Step
from domain.master_of_economy.view import view

from .builders import act, at, corp, game, of, order, packets, player, started
from .story import text

A, B, C = "blue", "yellow", "green"


def assert_sealed(state: object, seat: int, others: list[int]) -> None:
    """``seat`` sees its own choice; the others and the public only that it has chosen; ``hide`` changes it for
    them without changing anything they are shown."""
    mine = view(state, Seat(seat))  # type: ignore[arg-type]
    assert mine.players[seat].chosen and mine.players[seat].choice == state.sealed[seat]  # type: ignore[attr-defined]
    for viewer in [PUBLIC, *(Seat(o) for o in others)]:
        shown = view(state, viewer)  # type: ignore[arg-type]
        assert shown.players[seat].chosen and shown.players[seat].choice is None
        differs = False
        for seed in range(1, 8):
            hidden = hide(state, viewer, seed)  # type: ignore[arg-type]
            assert view(hidden, viewer) == shown
            differs |= hidden.sealed[seat] != state.sealed[seat]  # type: ignore[attr-defined]
        assert differs, "hide must change what the viewer may not know"


def test_start_bids_are_sealed_until_revealed_together() -> None:
    """ME-S-9."""
    _, state = started(3, start_order="auction")
    events, state = act(state, 1, BidForOrder(amount=7))
    sealed = events[0]
    assert sealed == StartBidSealed(seat=1, amount=7)
    assert redact(sealed, Seat(1), False) == sealed
    assert redact(sealed, Seat(0), False) == StartBidSealed(seat=1, amount=None)
    assert redact(sealed, PUBLIC, False) == StartBidSealed(seat=1, amount=None)
    assert redact(sealed, Seat(0), True) == sealed  # the whole log opens after the end
    told = Narrator().tell(5, "x", redact(sealed, Seat(0), False))
    assert text(told[0]) == "Player 2 seals a bid."
    assert_sealed(state, 1, [0, 2])
    assert view(state, Seat(0)).players[0].chosen is False
    _, state = act(state, 0, BidForOrder(amount=3))
    _, state = act(state, 2, BidForOrder(amount=9))
    assert_sealed(state, 2, [0, 1])
    events, state = act(state, SYSTEM, RevealStartBids())
    revealed = of(events, StartBidsRevealed)[0]
    assert revealed.bids == (3, 7, 9) and redact(revealed, Seat(0), False) == revealed
    assert [p.start_bid for p in view(state, PUBLIC).players] == [3, 7, 9]


def test_ac_tokens_are_sealed_until_scored() -> None:
    """ME-V-7/8: committed before the bids, revealed only after the rows."""
    state = at(order(game(2, additional_corporation=True), A, B), Step.TOKENS, number=4)
    events, state = act(state, 0, CommitToken(token=3))
    assert redact(events[0], Seat(1), False) == TokenCommitted(seat=0, token=None)
    _, state = act(state, 1, CommitToken(token=1))
    assert state.step == Step.BIDS
    assert_sealed(state, 0, [1])  # still sealed while the bids are placed


def meeting_state() -> object:
    state = order(game(3), A, B, C)
    return packets(corp(state, A, cash=40), A, seat_0=(10,), seat_1=(7,), seat_2=(3,))


def test_dividend_ballots_are_sealed_until_counted() -> None:
    """§9, ME-H-3.3."""
    state = at(meeting_state(), Step.PROPOSE, number=10, target=0)
    _, state = act(state, 0, ProposeDividend(per_share=1))
    _, state = act(state, 1, Pass())
    _, state = act(state, 2, Pass())
    events, state = act(state, 1, VoteDividends(yes=(0,)))
    assert redact(events[0], Seat(0), False) == DividendVoteCast(seat=1, yes=None)
    assert_sealed(state, 1, [0, 2])
    _, state = act(state, 0, VoteDividends(yes=()))
    _, state = act(state, 2, VoteDividends(yes=(0,)))
    events, state = act(state, SYSTEM, CountVotes())
    assert of(events, DividendCounted)[0].ballots == ((), (0,), (0,))


def test_election_ballots_are_sealed_until_counted() -> None:
    """§9, ME-H-5.2."""
    state = at(meeting_state(), Step.STAND, number=10, target=0, meeting=Meeting(candidates=(0,)))
    _, state = act(state, 1, Stand())
    _, state = act(state, 2, Pass())
    events, state = act(state, 2, VoteManager(choices=(1,)))
    assert redact(events[0], PUBLIC, False) == ManagerVoteCast(seat=2, choices=None)
    assert_sealed(state, 2, [0, 1])
    _, state = act(state, 0, VoteManager(choices=(0,)))
    _, state = act(state, 1, VoteManager(choices=(1,)))
    events, _ = act(state, SYSTEM, CountBallots())
    assert of(events, BallotsCounted)[0].ballots == ((0,), (1,), (1,))


def test_hidden_cash_is_hidden_in_the_view_and_changed_by_hide() -> None:
    """ME-S-10."""
    state = player(game(3, player_cash_hidden=True), 1, cash=12)
    assert view(state, Seat(1)).players[1].cash == 12
    assert view(state, Seat(0)).players[1].cash is None and view(state, PUBLIC).players[1].cash is None
    hidden = hide(state, Seat(0), 3)
    assert hidden.players[1].cash != 12 and view(hidden, Seat(0)) == view(state, Seat(0))
    assert hide(state, Seat(0), 3).players[0] == state.players[0]
    assert view(game(3), Seat(0)).players[1].cash == 0  # open cash (the default)


def test_a_viewers_own_log_folds() -> None:
    """A seat's redacted copy of the log still folds (a blanked choice is held as "chosen, unknown")."""
    events, state = started(3, start_order="auction")
    new, state = act(state, 1, BidForOrder(amount=4))
    events += new
    mine = replay([redact(e, Seat(0), False) for e in events])
    assert mine.sealed[1] == () and mine.sealed[0] is None
    assert evolve(mine, StartBidsRevealed(bids=(0, 4, 0))).players[1].start_bid == 4


def test_after_the_end_everything_is_open_and_the_auditor_may_look() -> None:
    state = game(2, player_cash_hidden=True)
    with pytest.raises(ViewUnavailable):
        view(state, AUDITOR)
    ended = replace(state, step=Step.ENDED)
    assert view(ended, Seat(0)).players[1].cash == 0
    assert view(state, AUDITOR, game_over=True).players[1].cash == 0
    assert not GAME.events_public
