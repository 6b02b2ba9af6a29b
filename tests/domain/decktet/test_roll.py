"""§2.3 rolling for resources (R3.1-R3.6), V3 double taxation and the income rules of §2.11 (R9.1, R9.3)."""

from __future__ import annotations

from collections import Counter

from msgspec.structs import replace

from domain.decktet.events import ChoicesDue, DiceRolled, IncomePaid, Taxed
from domain.kernel import Chance

from .builders import arrange, column, dice, rolled, started, supply


def base(**options: bool):  # type: ignore[no-untyped-def]
    _, state = started(**options)
    state = arrange(state, 0, crowns=("NM", "NS", "NV"), supply_=supply(M=4, S=1, V=0))
    return arrange(state, 1, crowns=("NL", "NY", "NK"), supply_=supply(L=2, Y=1, K=5))


def paid(events: list[object]) -> dict[int, tuple[int, ...]]:
    return {e.seat: e.tokens for e in events if isinstance(e, IncomePaid)}


def test_r3_1_both_d10s_are_recorded() -> None:
    events, state = rolled(base(), 0, *dice(7, 3))
    roll = next(e for e in events if isinstance(e, DiceRolled))
    assert roll.dice == (7, 3) and roll.tax_dice == () and state.roll is not None and state.roll.income == 7


def test_r3_2_a_1_taxes_one_suit_down_to_one_token_for_every_player_before_income() -> None:
    state = base()
    state = arrange(state, 1, columns={0: column("4MS")})
    events, after = rolled(state, 0, *dice(4, 1), *dice(1))  # tax die 1: Moons
    taxed = [e for e in events if isinstance(e, Taxed)]
    assert taxed == [Taxed(seat=0, suit="M", count=3)]  # seat 1 holds no Moons: not affected
    assert events.index(taxed[0]) < next(i for i, e in enumerate(events) if isinstance(e, IncomePaid))
    assert after.seats[0].supply[0] == 1
    assert after.seats[1].supply == supply(M=1, S=1, L=2, Y=1, K=5)  # The Mountain paid after the tax


def test_r3_2_tokens_on_deeds_are_never_taxed_and_a_double_1_rolls_one_tax_die() -> None:
    state = arrange(base(), 0, columns={0: column(("9MS", supply(M=3)))})
    events, after = rolled(state, 0, *dice(1, 1), *dice(1))
    roll = next(e for e in events if isinstance(e, DiceRolled))
    assert roll.tax_dice == (1,) and roll.taxed == ("M",)
    assert after.seats[0].columns[0][0].tokens == supply(M=3)


def test_v3_double_taxation_rolls_two_tax_dice_and_one_suit_is_taxed_once() -> None:
    state = base(taxtax=True)
    events, _ = rolled(state, 0, *dice(1, 5), *dice(1, 6))
    assert [(e.seat, e.suit) for e in events if isinstance(e, Taxed)] == [(0, "M"), (1, "K")]
    events, _ = rolled(state, 0, *dice(1, 5), *dice(6, 6))
    roll = next(e for e in events if isinstance(e, DiceRolled))
    assert roll.taxed == ("K",) and [e.suit for e in events if isinstance(e, Taxed)] == ["K"]


def test_r3_3_r3_4_income_goes_to_every_player_by_the_higher_die_and_a_double_pays_once() -> None:
    state = arrange(base(), 0, columns={0: column("7ML"), 1: column("7SK")})
    state = arrange(state, 1, columns={0: column("7VY")})
    events, _ = rolled(state, 1, *dice(7, 7))
    assert paid(events) == {0: supply(M=1, L=1, S=1, K=1), 1: supply(V=1, Y=1)}


def test_r3_4_a_10_pays_each_crown_and_properties_nothing() -> None:
    state = arrange(base(), 0, columns={0: column("9MS")})
    events, _ = rolled(state, 0, *dice(10, 9))
    assert paid(events) == {0: supply(M=1, S=1, V=1), 1: supply(L=1, Y=1, K=1)}


def test_v2_3_two_crowns_of_a_suit_collect_two_on_a_10() -> None:
    _, state = started(mega=True)
    state = arrange(state, 0, crowns=("NM1", "NM2", "NS1", "NV1", "NL1", "NY1"))
    events, _ = rolled(state, 1, *dice(10, 2))
    assert paid(events)[0] == supply(M=2, S=1, V=1, L=1, Y=1)


def test_r3_4_a_double_1_pays_developed_and_deeded_aces_and_courts_never_pay() -> None:
    state = arrange(base(), 0, columns={0: column("1M", "TMVK"), 1: column(("1S", supply()))})
    events, _ = rolled(state, 1, *dice(1, 1), *dice(6))
    assert paid(events)[0] == supply(M=1, S=1)


def test_r3_4_r9_1b_an_opponents_deed_pays_its_preference_or_the_default() -> None:
    state = arrange(base(), 1, columns={0: column(("7VY", supply()))})  # seat 1 owns the Wyrms Crown, not Waves
    events, _ = rolled(state, 0, *dice(7, 2))
    assert paid(events)[1] == supply(V=1)  # the suit without a Crown
    held = state.seats[1]
    pref = replace(held.columns[0][0], preference="Y")
    state = replace(state, seats=(state.seats[0], replace(held, columns=((pref,), *held.columns[1:]))))
    events, _ = rolled(state, 0, *dice(7, 2))
    assert paid(events)[1] == supply(Y=1)


def test_r9_1b_default_then_fewer_tokens_then_the_second_suit() -> None:
    state = arrange(base(), 1, crowns=("NM", "NS", "NK"), columns={0: column(("6LK", supply()))},
                    supply_=supply(L=2, K=1))
    state = arrange(state, 0, crowns=("NV", "NL", "NY"))
    events, _ = rolled(state, 0, *dice(6, 2))  # no Crown of Leaves, a Crown of Knots: Leaves
    assert paid(events)[1] == supply(L=1)
    state = arrange(state, 1, crowns=("NM", "NS", "NV"), supply_=supply(L=2, K=1))
    events, _ = rolled(state, 0, *dice(6, 2))  # neither crowned: fewer tokens (Knots)
    assert paid(events)[1] == supply(K=1)
    state = arrange(state, 1, supply_=supply(L=1, K=1))
    events, _ = rolled(state, 0, *dice(6, 2))  # equal: the second suit
    assert paid(events)[1] == supply(K=1)


def test_r9_1c_the_rollers_own_paying_deeds_await_its_choice_and_aces_need_none() -> None:
    state = arrange(base(), 0, columns={0: column(("7VY", supply())), 1: column(("1M", supply()))})
    events, after = rolled(state, 0, *dice(7, 2))
    assert ChoicesDue(seat=0, cards=("7VY",)) in events and after.choices == ("7VY",)
    assert 0 not in paid(events)


def test_r3_6_the_income_number_has_the_stated_odds() -> None:
    chance = Chance(b"odds", 0)
    counts = Counter(max(chance.roll(2, 10)) for _ in range(20_000))
    for k in range(1, 11):
        assert abs(counts[k] / 20_000 - (2 * k - 1) / 100) < 0.012


def test_r1_4_the_bank_is_unlimited() -> None:
    state = arrange(base(), 0, supply_=supply(M=40), columns={0: column("7ML"), 1: column("4MS")})
    events, after = rolled(state, 1, *dice(7, 4))
    assert paid(events)[0] == supply(M=1, L=1) and after.seats[0].supply == supply(M=41, L=1)
