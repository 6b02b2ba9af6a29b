"""R1.7, R9.1a, §3.4 and §3.7: hidden information. A seat sees its own hand and others' hand sizes; nobody sees
the draw pile's contents; preferences stay with their owner; events are redacted alike; and changing what a viewer
may not know (``hide``) changes nothing it is shown."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.decktet import GAME
from domain.decktet.commands import Prefer, Sell
from domain.decktet.events import CardsDrawn, HandDealt, PreferenceSet, Taxed
from domain.decktet.secrets import hide, redact
from domain.decktet.state import Phase
from domain.decktet.view import view
from domain.kernel import AUDITOR, PUBLIC, Seat, ViewUnavailable

from .builders import act, arrange, column, fresh_turn, started, supply


def test_r1_7_a_seat_sees_its_own_hand_and_only_the_size_of_the_others_and_no_pile_order() -> None:
    _, state = started()
    mine = view(state, Seat(0))
    assert mine.seats[0].hand == state.seats[0].hand and mine.seats[1].hand is None
    assert mine.seats[1].hand_size == 3 and mine.piles == (len(state.piles[0]),)
    assert view(state, PUBLIC).seats[0].hand is None
    assert set(mine.unseen) == set(state.piles[0]) | set(state.seats[1].hand)  # §3.4's cards-in-deck aid


def test_r1_7_everything_else_is_public() -> None:
    state = arrange(fresh_turn(started()[1], 0), 1, columns={0: column(("9MS", supply(M=2)))}, supply_=supply(K=4))
    seen = view(state, Seat(0))
    assert seen.seats[1].supply == supply(K=4) and seen.seats[1].columns[0][0].tokens == supply(M=2)
    assert seen.seats[1].crowns == state.seats[1].crowns and seen.discard == state.discard


def test_r9_1a_preferences_are_private_in_the_view_and_in_the_log() -> None:
    state = arrange(fresh_turn(started()[1], 0), 0, columns={0: column(("7VY", supply()))})
    events, state = act(state, 0, Prefer(card="7VY", suit="V"))
    assert view(state, Seat(0)).seats[0].columns[0][0].preference == "V"
    assert view(state, Seat(1)).seats[0].columns[0][0].preference is None
    assert redact(events[0], Seat(0), False) == events[0]
    assert redact(events[0], Seat(1), False) is None and redact(events[0], PUBLIC, False) is None
    assert redact(events[0], Seat(1), True) == events[0]  # the whole log opens after the end


def test_s3_7_cards_dealt_and_drawn_show_only_their_count_to_others() -> None:
    dealt = HandDealt(seat=0, cards=("1M", "2SY", "3MV"), count=3)
    drawn = CardsDrawn(seat=1, cards=("9VY",), count=1)
    assert redact(dealt, Seat(0), False) == dealt
    assert redact(dealt, Seat(1), False) == replace(dealt, cards=())
    assert redact(drawn, PUBLIC, False) == replace(drawn, cards=())
    assert redact(drawn, Seat(1), False) == drawn
    taxed = Taxed(seat=0, suit="M", count=2)
    assert redact(taxed, PUBLIC, False) == taxed
    assert not GAME.events_public


def test_after_the_end_every_hand_is_shown_and_the_auditor_may_look() -> None:
    _, state = started()
    with pytest.raises(ViewUnavailable):
        view(state, AUDITOR)
    ended = replace(state, phase=Phase.ENDED)
    assert view(ended, Seat(0)).seats[1].hand == state.seats[1].hand
    assert view(state, AUDITOR, game_over=True).seats[1].hand == state.seats[1].hand


@pytest.mark.parametrize("options", [{}, {"mega": True, "stacked": True}, {"three": True}])
def test_hide_changes_only_what_the_viewer_may_not_know(options: dict[str, bool]) -> None:
    _, state = started(**options)
    state = arrange(state, 1, columns={0: column(("9VY" if not options else "9VY1", supply()))})
    for viewer in [PUBLIC, *(Seat(s) for s in range(len(state.seats)))]:
        shown = view(state, viewer)
        others_differ = False
        for seed in range(1, 6):
            hidden = hide(state, viewer, seed)
            assert view(hidden, viewer) == shown
            others_differ |= any(h.hand != s.hand for h, s in zip(hidden.seats, state.seats, strict=True))
            if isinstance(viewer, int):
                assert hidden.seats[viewer] == state.seats[viewer]
        assert others_differ


def test_v8_hide_keeps_each_personal_pile_within_its_own_copy() -> None:
    _, state = started(mega=True, stacked=True)
    hidden = hide(state, Seat(0), 3)
    assert all(c.endswith("2") for c in (*hidden.piles[1], *hidden.seats[1].hand))
    assert hidden.piles[0] == state.piles[0]


def test_the_seller_is_not_told_anything_new_about_the_others() -> None:
    state = fresh_turn(started()[1], 0)
    events, _ = act(state, 0, Sell(card=state.seats[0].hand[0]))
    assert all(redact(e, Seat(1), False) == e for e in events)
    assert not any(isinstance(e, PreferenceSet) for e in events)
