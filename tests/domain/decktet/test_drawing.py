"""§2.6 drawing (R6.1), the one reshuffle (R6.2), the final exhaustion (R6.3), one more turn each (R6.4, D6), the
final-round warning (R6.5), and the draws of Mega (V2.5, V2.7), the Y (V4.4) and the stacked deck (V8)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.decktet.commands import EndTurn, Sell
from domain.decktet.events import CardsDrawn, DiscardsReshuffled, FinalRoundStarted, GameEnded, TurnEnded
from domain.decktet.state import DecktetState, Phase
from domain.decktet.view import view
from domain.kernel import Seat

from .builders import act, dice, fresh_turn, started


def played(state: DecktetState, seat: int) -> DecktetState:
    """``seat`` has made its card play (sold its first card) and may end its turn."""
    return act(fresh_turn(state, seat), seat, Sell(card=state.seats[seat].hand[0]))[1]


def with_piles(
    state: DecktetState, pile: tuple[str, ...], discard: tuple[str, ...] = (), **fields: object
) -> DecktetState:
    """``state`` with the draw pile and discards replaced (cards already elsewhere are simply ignored by the test)."""
    return replace(state, piles=(pile,), discard=discard, **fields)  # type: ignore[arg-type]


def test_r6_1_the_active_player_draws_one_card_at_the_end_of_the_action_phase() -> None:
    state = played(started()[1], 0)
    pile = state.piles[0]
    events, after = act(state, 0, EndTurn(), 0, *dice(5, 5))
    drawn = next(e for e in events if isinstance(e, CardsDrawn))
    assert drawn == CardsDrawn(seat=0, cards=(pile[0],), count=1, pile=0)
    assert len(after.seats[0].hand) == 3 and after.active == 1


def test_r6_2_when_the_pile_is_empty_the_whole_discard_pile_becomes_the_draw_pile_once() -> None:
    state = played(started()[1], 0)  # the sale put a card on the discard pile
    state = with_piles(state, (), (*state.discard, "9VY"))
    events, after = act(state, 0, EndTurn(), 0, *dice(5, 5))
    shuffled = next(e for e in events if isinstance(e, DiscardsReshuffled))
    assert shuffled.left == 0 and shuffled.cards == 2
    assert after.discard == () and len(after.piles[0]) == 1 and not after.exhausted


def test_r6_3_after_the_reshuffle_taking_the_last_card_is_the_final_exhaustion() -> None:
    state = with_piles(played(started()[1], 0), ("9VY",), reshuffles=0)
    events, after = act(state, 0, EndTurn(), 0, *dice(5, 5))
    assert FinalRoundStarted(turns=2) in events and after.exhausted and after.turns_left == 2


def test_r6_3_an_empty_discard_when_the_reshuffle_is_due_uses_it_and_exhausts_at_once() -> None:
    state = played(started()[1], 0)
    state = with_piles(state, ())
    events, after = act(state, 0, EndTurn(), *dice(5, 5))
    kinds = [type(e) for e in events]
    assert kinds.index(DiscardsReshuffled) < kinds.index(FinalRoundStarted)
    assert not any(isinstance(e, CardsDrawn) for e in events) and len(after.seats[0].hand) == 2


def test_r6_4_d6_one_more_turn_each_without_drawing_then_the_game_ends_with_two_cards_each() -> None:
    state = with_piles(played(started()[1], 0), ("9VY",), reshuffles=0)
    _, state = act(state, 0, EndTurn(), 0, *dice(5, 5))
    assert state.turns_left == 2 and state.active == 1
    events, state = act(played(state, 1), 1, EndTurn(), *dice(5, 5))
    assert not any(isinstance(e, CardsDrawn) for e in events) and TurnEnded(seat=1, turns_left=1) in events
    events, state = act(played(state, 0), 0, EndTurn())
    assert any(isinstance(e, GameEnded) for e in events) and state.phase == Phase.ENDED
    assert [len(s.hand) for s in state.seats] == [2, 2]


def test_r6_5_the_view_warns_that_the_final_round_has_begun_and_shows_the_reshuffles_left() -> None:
    state = with_piles(played(started()[1], 0), ("9VY",), reshuffles=0)
    before = view(state, Seat(0))
    assert not before.final_round and before.reshuffles == 0
    _, state = act(state, 0, EndTurn(), 0, *dice(5, 5))
    shown = view(state, Seat(1))
    assert shown.final_round and shown.turns_left == 2


def test_v2_5_mega_draws_two_and_a_pile_running_out_part_way_reshuffles_part_way() -> None:
    _, state = started(mega=True)
    state = fresh_turn(state, 0)
    hand = state.seats[0].hand
    _, state = act(state, 0, Sell(card=hand[0]))
    _, state = act(state, 0, Sell(card=hand[1]))
    state = with_piles(state, ("9VY1",), state.discard)
    events, after = act(state, 0, EndTurn(), 0, 0, *dice(5, 5))
    kinds = [type(e) for e in events]
    assert kinds[:3] == [CardsDrawn, DiscardsReshuffled, CardsDrawn]
    assert len(after.seats[0].hand) == 6


def test_v2_5_r6_4_a_draw_cut_short_by_the_final_exhaustion_leaves_one_card_fewer() -> None:
    _, state = started(mega=True)
    state = fresh_turn(state, 0)
    hand = state.seats[0].hand
    _, state = act(state, 0, Sell(card=hand[0]))
    _, state = act(state, 0, Sell(card=hand[1]))
    state = with_piles(state, ("9VY1",), reshuffles=0)
    events, after = act(state, 0, EndTurn(), 0, *dice(5, 5))
    assert FinalRoundStarted(turns=2) in events and len(after.seats[0].hand) == 5


def test_v4_4_the_y_reshuffles_twice_and_gives_three_more_turns() -> None:
    state = played(started(three=True)[1], 0)
    state = with_piles(state, (), state.discard)
    assert state.reshuffles == 2
    _, state = act(state, 0, EndTurn(), 0, *dice(5, 5))
    assert state.reshuffles == 1 and not state.exhausted
    state = with_piles(played(state, 1), ("9VY1",), reshuffles=0)
    events, state = act(state, 1, EndTurn(), 0, *dice(5, 5))
    assert FinalRoundStarted(turns=3) in events


def test_v8_stacked_personal_piles_until_the_reshuffle_merges_them_with_the_discards() -> None:
    _, state = started(mega=True, stacked=True)
    state = fresh_turn(state, 0)
    hand = state.seats[0].hand
    _, state = act(state, 0, Sell(card=hand[0]))
    _, state = act(state, 0, Sell(card=hand[1]))
    own, other = state.piles
    events, after = act(state, 0, EndTurn(), 0, 0, *dice(5, 5))
    drawn = next(e for e in events if isinstance(e, CardsDrawn))
    assert drawn.pile == 0 and set(drawn.cards) <= set(own)
    empty = replace(state, piles=((), other))
    events, after = act(empty, 0, EndTurn(), 0, 0, *dice(5, 5))
    assert isinstance(events[0], DiscardsReshuffled) and len(after.piles) == 1
    assert len(after.piles[0]) == len(other) + len(state.discard) - 2
