"""§2.7 final scoring (R7.1-R7.6), with V5 (original Aces), V6 (Acey deucey), V4.5 (three players) and the
tie-breakers of R7.5 (D4: by district values)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.decktet import GAME
from domain.decktet.scoring import controller, district_value, standings
from domain.decktet.state import DecktetState, Phase

from .builders import arrange, column, started, supply

DISTRICTS = ("PMYK", "PVLY", "0", "PMSL", "PSVK")


def table(**options: bool) -> DecktetState:
    state = started(**options)[1]
    return replace(state, districts=DISTRICTS if not options.get("three") else state.districts)


def test_r7_6_the_worked_example_the_ace_of_knots_with_the_market_and_the_castle_is_worth_3() -> None:
    state = arrange(table(), 0, columns={1: column("1K", "6LK", "7SK")})
    state = arrange(state, 1, columns={1: column("8VL", "7ML")})
    assert district_value(state, 0, 1) == 16 and district_value(state, 1, 1) == 15
    assert controller(state, 1) == 0


def test_r7_1_incomplete_deeds_and_their_tokens_count_for_nothing() -> None:
    state = arrange(table(), 0, columns={0: column("5YK", ("9LK", supply(L=5, K=3)))}, supply_=supply(M=2))
    assert district_value(state, 0, 0) == 5
    scores, _ = standings(state)
    assert next(s for s in scores if s.seat == 0).tokens == 2


def test_r7_2_v1_a_court_is_worth_10_and_counts_for_an_aces_suit() -> None:
    state = arrange(table(), 0, columns={2: column("TMVK", "1K")})
    assert district_value(state, 0, 2) == 10 + 2


def test_r7_2_d8_an_ace_counts_only_its_owners_column_not_the_district_card_or_the_opponent() -> None:
    state = arrange(table(), 0, columns={0: column("1M")})  # district a is the Watchman (Moons)
    state = arrange(state, 1, columns={0: column("5ML", "3MV")})
    assert district_value(state, 0, 0) == 1


def test_v6_acey_deucey_counts_the_district_card_and_the_opponents_column() -> None:
    state = arrange(table(deucey=True), 0, columns={0: column("1M"), 2: column("1S")})
    state = arrange(state, 1, columns={0: column("5ML", ("3MV", supply()))})
    assert district_value(state, 0, 0) == 1 + 1 + 1  # itself, the Watchman, The Forest (not the deed)
    assert district_value(state, 0, 2) == 1  # the Excuse has no suit


def test_v5_an_original_ace_is_worth_1_without_a_suit_bonus() -> None:
    state = arrange(table(original_aces=True), 0, columns={1: column("1K", "6LK", "7SK")})
    assert district_value(state, 0, 1) == 1 + 6 + 7


def test_r7_3_equal_values_including_0_0_give_nobody_control() -> None:
    state = arrange(table(), 0, columns={0: column("5ML")})
    state = arrange(state, 1, columns={0: column("5YK")})
    assert controller(state, 0) is None and controller(state, 1) is None


def test_r7_4_r7_5_most_districts_then_total_value_then_tokens_then_a_shared_win() -> None:
    state = arrange(table(), 0, columns={0: column("9LK"), 1: column("2VL")}, supply_=supply())
    state = arrange(state, 1, columns={2: column("3MV")}, supply_=supply())
    scores, control = standings(state)
    assert control[:3] == (0, 0, 1) and [s.seat for s in scores if s.rank == 1] == [0]
    # one district each, totals 9 and 9: the tokens decide
    tied = arrange(table(), 0, columns={0: column("9LK")}, supply_=supply(M=1))
    tied = arrange(tied, 1, columns={2: column("9MS")}, supply_=supply())
    scores, _ = standings(tied)
    assert [(s.seat, s.rank) for s in scores] == [(0, 1), (1, 2)]
    tied = arrange(tied, 1, supply_=supply(K=1))
    scores, _ = standings(tied)
    assert [(s.seat, s.rank) for s in scores] == [(0, 1), (1, 1)]


def test_d4_the_first_tie_breaker_uses_district_values_with_the_ace_bonus() -> None:
    state = arrange(table(), 0, columns={0: column("9LK"), 2: column("1K", "TSLK")}, supply_=supply())
    state = arrange(state, 1, columns={1: column("9VY"), 3: column("9MS", "3SK")}, supply_=supply())
    scores, control = standings(state)
    assert control == (0, 1, 0, 1, None)
    first = next(s for s in scores if s.seat == 0)
    assert first.total == 9 + 2 + 10 and first.rank == 1  # printed ranks would give 20 to 21


def test_v4_5_three_players_control_among_those_who_build_and_ties_share() -> None:
    state = table(three=True)
    a = 0  # builders (0, 2)
    state = arrange(state, 0, columns={a: column("9LK1")})
    state = arrange(state, 2, columns={a: column("9VY1")})
    assert controller(state, a) is None
    state = arrange(state, 2, columns={a: column("9VY1", "1Y1")})
    assert controller(state, a) == 2


def test_the_outcome_ranks_rank_1_first_with_the_districts_as_score() -> None:
    state = arrange(table(), 0, columns={0: column("9LK")})
    scores, _ = standings(state)
    ended = replace(state, phase=Phase.ENDED, scores=scores, turn=7)
    outcome = GAME.outcome(ended)
    assert outcome is not None and outcome.winners == (0,) and outcome.standings[0].score == 1
    assert outcome.rounds == 4
