"""§2.1 setup (R1.1-R1.6) and the setups of §2.10's variants, with the validity rules between the options."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.decktet.events import DiceRolled, GameStarted, HandDealt, TurnStarted
from domain.decktet.variant import GameOptions, resolve
from domain.kernel import InvalidValue

from .builders import started


def test_r1_1_r1_2_two_players_and_five_districts_with_the_excuse_in_the_middle() -> None:
    _, state = started()
    assert len(state.seats) == 2
    assert len(state.districts) == 5 and state.districts[2] == "0"
    assert sorted(state.districts[:2] + state.districts[3:]) == ["PMSL", "PMYK", "PSVK", "PVLY"]
    assert all(b == (0, 1) for b in state.builders)


def test_r1_2_the_pawn_order_is_shuffled_and_recorded() -> None:
    orders = {started(f"s{i}".encode())[1].districts for i in range(20)}
    assert len(orders) > 1
    started_event = started(b"s1")[0][0]
    assert isinstance(started_event, GameStarted) and started_event.districts == started(b"s1")[1].districts


def test_r1_3_three_crowns_each_and_one_token_per_crown() -> None:
    _, state = started()
    assert sorted(c for s in state.seats for c in s.crowns) == ["NK", "NL", "NM", "NS", "NV", "NY"]
    events, _ = started()
    game = events[0]
    assert isinstance(game, GameStarted)
    for crowns, supply in zip(game.crowns, game.supplies, strict=True):
        assert len(crowns) == 3 and sum(supply) == 3
        assert all(supply["MSVLYK".index(c[1])] == 1 for c in crowns)


def test_r1_5_hands_of_three_from_the_shuffled_property_deck_and_an_empty_discard() -> None:
    events, state = started(courts=False)
    dealt = [e for e in events if isinstance(e, HandDealt)]
    assert [(e.seat, e.count) for e in dealt] == [(0, 3), (1, 3)]
    assert len(state.piles[0]) == 30 - 6 and state.discard == ()


def test_r1_6_d10_the_first_player_is_random_and_recorded_and_the_first_roll_follows_r3() -> None:
    firsts = Counter(started(f"f{i}".encode())[1].first for i in range(40))
    assert set(firsts) == {0, 1}
    events, state = started()
    assert isinstance(events[0], GameStarted) and events[0].first == state.first == state.active
    turn = next(e for e in events if isinstance(e, TurnStarted))
    assert turn.seat == state.first and any(isinstance(e, DiceRolled) for e in events)


def test_v1_d2_courts_are_on_by_default_and_can_be_left_out() -> None:
    assert resolve(GameOptions()).courts
    assert len(started()[1].piles[0]) == 34 - 6
    assert len(started(courts=False)[1].piles[0]) == 30 - 6


def test_v2_2_v2_3_v2_4_v2_5_v2_7_mega_nine_districts_six_crowns_each_six_card_hands_one_reshuffle() -> None:
    _, state = started(mega=True)
    assert state.reshuffles == 1
    assert len(state.districts) == 9 and state.districts[4] == "01"
    assert all(d.startswith("P") for i, d in enumerate(state.districts) if i != 4)
    assert all(len(s.crowns) == 6 and sum(s.supply) == 6 and len(s.hand) == 6 for s in state.seats)
    assert len(state.piles[0]) == 68 - 12
    assert all(c[-1] in "12" for c in state.piles[0])


def test_d3_taxtax_defaults_on_with_mega_and_can_be_switched_off() -> None:
    assert resolve(GameOptions(mega=True)).taxtax
    assert not resolve(GameOptions()).taxtax
    assert not resolve(GameOptions(mega=True, taxtax=False)).taxtax
    assert resolve(GameOptions(taxtax=True)).taxtax


def test_v4_three_players_in_a_y_with_two_decktets_four_crowns_each_and_two_reshuffles() -> None:
    _, state = started(three=True)
    assert len(state.seats) == 3 and len(state.districts) == 7 and state.districts[2] == "01"
    assert state.builders == ((0, 2), (0, 2), (0, 1, 2), (0, 1), (0, 1), (1, 2), (1, 2))
    assert all(sum(1 for b in state.builders if s in b) == 5 for s in range(3))  # five districts each (V4.2)
    assert all(len(s.crowns) == 4 and len(s.hand) == 3 for s in state.seats)
    assert state.reshuffles == 2


def test_v7_courts_for_pawns_the_courts_are_the_districts_and_the_pawns_properties() -> None:
    _, state = started(courtpawns=True)
    assert sorted(d for d in state.districts if d != "0") == ["TMLY", "TMVK", "TSLK", "TSVY"]
    cards = [*state.piles[0], *(c for s in state.seats for c in s.hand)]
    assert {c for c in cards if c[0] in "PT"} == {"PMYK", "PVLY", "PMSL", "PSVK"}
    _, without_courts = started(courtpawns=True, courts=False)
    assert not any(c[0] in "PT" for c in without_courts.piles[0])


def test_v8_stacked_each_player_has_a_personal_deck_copy_1_for_the_first_seat() -> None:
    _, state = started(mega=True, stacked=True)
    assert len(state.piles) == 2
    assert all(c.endswith("1") for c in (*state.piles[0], *state.seats[0].hand))
    assert all(c.endswith("2") for c in (*state.piles[1], *state.seats[1].hand))


@pytest.mark.parametrize("options", [{"stacked": True}, {"stacked": True, "mega": True, "three": True}])
def test_s2_10_stacked_needs_mega_and_two_players(options: dict[str, bool]) -> None:
    with pytest.raises(InvalidValue):
        started(**options)


def test_s2_10_v9_trading_posts_is_not_an_option() -> None:
    import msgspec

    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"tradingPosts": True}, GameOptions)


def test_s2_10_the_options_are_recorded_in_the_first_event_with_their_abstract_play_names() -> None:
    import msgspec

    events, _ = started(mega=True, original_aces=True)
    game = events[0]
    assert isinstance(game, GameStarted)
    recorded = msgspec.to_builtins(game.variant)
    assert recorded["originalAces"] is True and recorded["taxtax"] is True and recorded["courts"] is True
    assert msgspec.convert({"originalAces": True, "courtpawns": True}, GameOptions).original_aces
