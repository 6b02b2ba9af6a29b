"""``pending`` (who must act, or which system job is due) and ``legal_commands`` (what a seat may do, as
templates): exact answers in crafted situations, and in random games every offered move is accepted."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from typing import Any

import msgspec
import pytest

from domain.kernel import SYSTEM, Chance, CommandTemplate, IntParam, Pending, Seat, SubsetParam, commitment_of
from domain.kernel.driver import play
from domain.magnate import GAME, GameOptions, MagnateState, SeatSpec, StartGame, decide, legal_commands, pending
from domain.magnate.bots import instantiate
from domain.magnate.city import ALL_PLOTS
from domain.magnate.commands import (
    Advertise,
    AttractTenants,
    Build,
    BuyLand,
    ChooseTenants,
    Consult,
    FinishAttracting,
    PassBid,
    PlaceBid,
    ProcessMarket,
    RollDice,
    Sell,
    UseAdvertising,
)
from domain.magnate.events import AttractionStarted, DiceRolled, DiceSettled, PhaseStarted
from domain.magnate.state import Phase

from .builders import (
    given,
    in_actions,
    in_attracting,
    play_to_end,
    plot,
    run,
    set_available,
    set_cash,
    set_plot,
    started,
    tutorial,
)

TUTORIAL_FOR_SALE = ("1D", "1H", "1I", "2A", "2C", "3E", "3H", "3I", "5E", "5H", "6B", "6H")


def _attracting() -> MagnateState:
    """Tutorial, phase 2, seat 0 on turn with an empty apartment on 1D (4 dice) and an empty house on 1H."""
    state = set_plot(tutorial(), "1D", owner=0, building="apartment", for_sale=False)
    return in_attracting(set_plot(state, "1H", owner=0, building="house", for_sale=False))


def _rolled(faces: tuple[int, ...], advertising: int) -> MagnateState:
    """Seat 0's apartment on 1D rolled ``faces`` with ``advertising`` tokens committed."""
    return given(
        _attracting(),
        AttractionStarted(seat=0, plot="1D", advertising=advertising, dice=len(faces)),
        DiceRolled(seat=0, plot="1D", faces=faces),
    )


# --- pending ---------------------------------------------------------------------------------------------


def _due(seat: int) -> Pending:
    """What the game waits for when ``seat`` must decide."""
    return Pending(seats=(Seat(seat),))


def test_in_the_auction_the_seat_to_bid_is_pending() -> None:
    state = tutorial()
    assert pending(state) == _due(0)
    _, state = run(state, 0, PlaceBid(amount=300))
    assert pending(state) == _due(1)
    _, state = run(state, 1, PassBid())
    assert pending(state) == _due(2)


def test_seats_with_nothing_to_attract_are_skipped_to_the_first_seat_that_has() -> None:
    state = set_plot(tutorial(), "1D", owner=2, building="apartment", for_sale=False)
    _, state = run(state, 0, PlaceBid(amount=100))
    for seat in (1, 2, 3, 4):
        _, state = run(state, seat, PassBid())
    # Seat 0 won the auction; seats 0 and 1 own no building, so their rent (0) is collected for them.
    assert (state.phase, state.first_player) == (Phase.ATTRACTING, 0)
    assert pending(state) == _due(2)


def test_after_attract_tenants_with_dice_the_system_must_roll_them() -> None:
    _, state = run(_attracting(), 0, AttractTenants(plot="1D", advertising=1))
    assert state.attraction is not None and state.attraction.dice == 4
    assert pending(state) == Pending(system=RollDice())
    _, state = run(state, SYSTEM, RollDice())
    assert pending(state) == _due(0)  # to choose which die the token turns into a 5


def test_in_the_action_phase_each_seat_in_turn_order_is_pending() -> None:
    state = in_actions(tutorial(), first_player=3)
    order = []
    for _ in range(5):
        (seat,) = pending(state).seats
        order.append(seat)
        _, state = run(state, seat, Consult())
    assert order == [3, 4, 0, 1, 2]
    assert (state.action_pass, pending(state)) == (1, _due(3))


def test_after_the_last_action_of_the_third_pass_the_market_is_due() -> None:
    state = in_actions(tutorial(), first_player=0, turn=4, action_pass=2)
    assert pending(state) == _due(4)
    events, state = run(state, 4, Consult())
    assert events[-1] == PhaseStarted(phase=Phase.MARKET)
    assert pending(state) == Pending(system=ProcessMarket())
    _, state = run(state, SYSTEM, ProcessMarket())
    assert (state.phase, state.round) == (Phase.BIDDING, 2)
    assert pending(state) == _due(1)  # the next seat after the first player opens


def test_after_the_end_the_game_is_finished() -> None:
    state = play_to_end(2).state
    assert state.phase == Phase.ENDED
    assert pending(state) == Pending(finished=True)
    assert all(legal_commands(state, Seat(seat)) == [] for seat in range(2))


# --- legal commands: who ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("situation", "on_turn"),
    [
        pytest.param(tutorial, 0, id="auction"),
        pytest.param(_attracting, 0, id="attraction"),
        pytest.param(lambda: in_actions(tutorial(), first_player=2), 2, id="actions"),
    ],
)
def test_only_the_seat_on_turn_has_legal_commands(situation: Any, on_turn: int) -> None:
    state = situation()
    assert legal_commands(state, Seat(on_turn)) != []
    assert [s for s in range(5) if legal_commands(state, Seat(s))] == [on_turn]


def test_while_dice_wait_to_be_rolled_no_seat_may_act() -> None:
    _, state = run(_attracting(), 0, AttractTenants(plot="1D"))
    assert [legal_commands(state, Seat(s)) for s in range(5)] == [[]] * 5


# --- legal commands: bidding -----------------------------------------------------------------------------


def test_the_opener_may_pass_or_bid_from_100k_up_to_its_cash() -> None:
    assert legal_commands(tutorial(), Seat(0)) == [
        CommandTemplate(PassBid()),
        CommandTemplate(PlaceBid(amount=100), (IntParam("amount", 100, 2000, 100),)),
    ]


def test_a_bid_must_beat_the_highest_and_is_capped_at_cash_rounded_down_to_100k() -> None:
    _, state = run(tutorial(), 0, PlaceBid(amount=300))
    state = set_cash(state, 1, 1850)
    assert legal_commands(state, Seat(1)) == [
        CommandTemplate(PassBid()),
        CommandTemplate(PlaceBid(amount=400), (IntParam("amount", 400, 1800, 100),)),
    ]


@pytest.mark.parametrize(("cash", "can_bid"), [(399, False), (300, False), (0, False), (400, True)])
def test_no_bid_is_offered_when_cash_is_below_the_minimum_bid(cash: int, can_bid: bool) -> None:
    _, state = run(tutorial(), 0, PlaceBid(amount=300))
    templates = legal_commands(set_cash(state, 1, cash), Seat(1))
    bid = [CommandTemplate(PlaceBid(amount=400), (IntParam("amount", 400, 400, 100),))] if can_bid else []
    assert templates == [CommandTemplate(PassBid()), *bid]


# --- legal commands: actions -----------------------------------------------------------------------------


def _commands(templates: list[CommandTemplate], kind: type) -> list[Any]:
    return [t.command for t in templates if isinstance(t.command, kind)]


def _bought_1d(cash: int) -> MagnateState:
    """Phase 3, seat 0 on turn owning unbuilt 1D (next to 1A, 1B, 1E, 1H and the 1G car park)."""
    return set_cash(set_plot(in_actions(tutorial()), "1D", owner=0, for_sale=False), 0, cash)


def test_every_for_sale_plot_is_offered_when_affordable() -> None:
    templates = legal_commands(in_actions(tutorial()), Seat(0))
    assert _commands(templates, BuyLand) == [BuyLand(plot=p) for p in TUTORIAL_FOR_SALE]


@pytest.mark.parametrize(
    ("cash", "adjacent"),
    [(2000, ("1A", "1B", "1E")), (600, ("1A", "1B", "1E")), (599, ()), (300, ())],
)
def test_adjacent_unmarked_plots_are_offered_only_when_twice_the_price_is_affordable(
    cash: int, adjacent: tuple[str, ...]
) -> None:
    templates = legal_commands(_bought_1d(cash), Seat(0))
    expected = sorted([*(p for p in TUTORIAL_FOR_SALE if p != "1D"), *adjacent], key=ALL_PLOTS.index)
    assert _commands(templates, BuyLand) == [BuyLand(plot=p) for p in expected]


def test_no_land_is_offered_below_the_land_price() -> None:
    assert _commands(legal_commands(_bought_1d(299), Seat(0)), BuyLand) == []


def test_built_owned_and_feature_plots_are_never_offered() -> None:
    state = set_plot(_bought_1d(2000), "1A", building="house", tenants=("home",))  # sold, still built
    state = set_plot(state, "1H", owner=1)  # another seat's
    offered = {c.plot for c in _commands(legal_commands(state, Seat(0)), BuyLand)}
    assert offered.isdisjoint({"1A", "1D", "1H", "1G", "1F", "0E", "0A"})
    assert {"1B", "1E"} <= offered


def test_build_never_offers_the_identical_building() -> None:
    state = set_plot(_bought_1d(2000), "1D", building="house")
    state = set_plot(state, "1I", owner=0, for_sale=False)
    builds = _commands(legal_commands(state, Seat(0)), Build)
    assert builds == [
        Build(plot="1D", building="retail_unit"),
        Build(plot="1D", building="small_office"),
        Build(plot="1D", building="industrial_unit"),
        Build(plot="1I", building="house"),
        Build(plot="1I", building="retail_unit"),
        Build(plot="1I", building="small_office"),
        Build(plot="1I", building="industrial_unit"),
    ]
    rich = legal_commands(set_cash(state, 0, 5000), Seat(0))
    assert {b.building for b in _commands(rich, Build) if b.plot == "1D"} == {
        "apartment", "retail_unit", "shopping_mall", "small_office", "industrial_unit", "industrial_park",
    }


def test_the_full_action_menu_of_a_seat_owning_one_house() -> None:
    state = set_plot(_bought_1d(1000), "1D", building="house", tenants=("home",))
    assert legal_commands(state, Seat(0)) == [
        CommandTemplate(Consult()),
        CommandTemplate(Advertise(bought=0), (IntParam("bought", 0, 2),)),
        *(CommandTemplate(BuyLand(plot=p)) for p in sorted(
            [*(p for p in TUTORIAL_FOR_SALE if p != "1D"), "1A", "1B", "1E"], key=ALL_PLOTS.index)),
        CommandTemplate(Build(plot="1D", building="industrial_unit")),
        CommandTemplate(Sell(plot="1D")),
    ]


def test_sell_is_offered_for_exactly_the_owned_plots() -> None:
    state = set_plot(_bought_1d(2000), "3E", owner=0, for_sale=False, building="house")
    state = set_plot(state, "5H", owner=1, for_sale=False)
    assert _commands(legal_commands(state, Seat(0)), Sell) == [Sell(plot="1D"), Sell(plot="3E")]


def test_consult_and_free_advertising_are_always_offered_even_without_cash() -> None:
    templates = legal_commands(_bought_1d(0), Seat(0))
    assert templates == [CommandTemplate(Consult()), CommandTemplate(Advertise(bought=0)), CommandTemplate(
        Sell(plot="1D"))]


# --- legal commands: attraction --------------------------------------------------------------------------


def test_attracting_offers_each_building_with_room_and_the_advertising_range() -> None:
    state = set_plot(_attracting(), "1I", owner=0, for_sale=False)  # unbuilt: nothing to attract to
    state = set_plot(state, "3E", owner=0, for_sale=False, building="house", tenants=("home",))  # full
    assert legal_commands(state, Seat(0)) == [
        CommandTemplate(AttractTenants(plot="1D"), (IntParam("advertising", 0, 4),)),
        CommandTemplate(AttractTenants(plot="1H"), (IntParam("advertising", 0, 4),)),
        CommandTemplate(FinishAttracting()),
    ]


@pytest.mark.parametrize(
    ("faces", "advertising", "fives"),
    [
        ((2, 6, 1, 4), 2, (0, 2)),  # the 1 and the 2 become 5s
        ((4, 2, 3, 1), 2, (1, 3)),  # the 1 and the 2, not the 3
        ((5, 6, 3, 5), 3, (2,)),  # only one die is below 5; the other tokens are wasted
        ((5, 6, 6, 5), 1, ()),  # nothing to improve
        ((1, 2, 3, 4), 4, (0, 1, 2, 3)),
    ],
)
def test_the_suggested_advertising_turns_the_lowest_dice_below_5_into_5s(
    faces: tuple[int, ...], advertising: int, fives: tuple[int, ...]
) -> None:
    state = _rolled(faces, advertising)
    templates = legal_commands(state, Seat(0))
    assert templates == [CommandTemplate(UseAdvertising(dice=fives), (SubsetParam("dice", 4, advertising),))]
    command = templates[0].command
    assert isinstance(command, UseAdvertising)
    events, _ = run(state, 0, command)
    settled = next(e for e in events if isinstance(e, DiceSettled))
    assert sorted(d - settled.modifier for d in settled.final) == sorted(
        5 if i in fives else f for i, f in enumerate(faces)
    )


def test_advanced_tenant_options_are_exactly_the_feasible_selections_best_first() -> None:
    # Final dice 4,4,4,5,6,2: five dice >= 4, two >= 5, one >= 6. Students need (2, >=4), professional
    # couples (2, >=5), families (2, >=6). The apartment has room for 3; available: 2 students, 2 couples,
    # 1 family. Feasible: nothing, S, C, S+S, S+C (C+C needs 4 dice >= 5; S+S+C needs 6 dice >= 4; any F
    # needs 2 dice >= 6). Largest with the most rent: S+C (100K + 300K).
    state = in_attracting(started(2, advanced=True))
    home = next(p for p in ALL_PLOTS if p[0] == "1" and plot(state, p).feature is None)
    state = set_plot(state, home, owner=0, building="apartment", tenants=("family", "students"))
    state = set_available(state, students=2, professional_couple=2, family=1, restaurant=4)
    final = (4, 4, 4, 5, 6, 2)
    state = given(
        state,
        AttractionStarted(seat=0, plot=home, advertising=0, dice=6),
        DiceRolled(seat=0, plot=home, faces=final),
        DiceSettled(seat=0, plot=home, fives=(), modifier=0, final=final),
    )
    templates = legal_commands(state, Seat(0))
    assert all(t.params == () for t in templates)
    choices = [t.command for t in templates if isinstance(t.command, ChooseTenants)]
    assert len(choices) == len(templates)
    chosen = [tuple(sorted(c.tenants)) for c in choices]
    assert chosen[0] == ("professional_couple", "students")
    assert sorted(chosen) == sorted([
        (), ("students",), ("professional_couple",), ("students", "students"), ("professional_couple", "students"),
    ])
    for choice in choices:  # each is accepted, and moves exactly those tenants in
        _, after = run(state, 0, choice)
        assert plot(after, home).tenants == tuple(sorted(("family", "students", *choice.tenants)))


# --- every offered move is accepted ----------------------------------------------------------------------


def _variants(template: CommandTemplate) -> Iterator[Any]:
    """The suggested command, and each parameter at the ends of its range."""
    yield template.command
    for param in template.params:
        match param:
            case IntParam(field=field, minimum=lo, maximum=hi):
                yield msgspec.structs.replace(template.command, **{field: lo})
                yield msgspec.structs.replace(template.command, **{field: hi})
            case SubsetParam(field=field, size=size, max_count=most):
                k = min(size, most)
                yield msgspec.structs.replace(template.command, **{field: ()})
                yield msgspec.structs.replace(template.command, **{field: tuple(range(k))})
                yield msgspec.structs.replace(template.command, **{field: tuple(range(size - k, size))})


class Checking:
    """A random legal policy that first checks every offered command (and its parameter extremes) is
    accepted by ``decide``, and that no other seat is offered anything."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.offered: Counter[str] = Counter()
        self.decisions = 0

    def __call__(self, state: MagnateState, seat: Seat) -> Any:
        assert pending(state).seats == (seat,)
        assert all(legal_commands(state, Seat(other)) == [] for other in range(len(state.seats)) if other != seat)
        templates = legal_commands(state, seat)
        assert templates, f"seat {seat} is on turn with nothing to do in {state.phase}"
        for template in templates:
            self.offered[type(template.command).__name__] += 1
            for command in _variants(template):
                decide(state, seat, command, Chance(b"probe", 1))  # raises if the offer was illegal
        self.decisions += 1
        return instantiate(self.rng.choice(templates), self.rng)


@cache
def _checked_games() -> Checking:
    policy = Checking(2024)
    human, ai = SeatSpec(), SeatSpec(kind="ai")
    for seats, advanced, tutorial_setup in [
        ((human,) * 2, False, False), ((human,) * 3, True, False), ((human,) * 4, False, False),
        ((human,) * 5, True, False), ((human,) * 2, True, False), ((human,) * 5, False, True),
        ((human,) * 3, False, False), ((human,) * 4, True, False),
        ((human, ai), False, False), ((human, ai), True, False), ((ai, human, human), False, False),
    ]:
        seed = f"legal-{len(seats)}-{ai in seats}-{advanced}-{tutorial_setup}".encode()
        options = GameOptions(seats=seats, advanced=advanced, tutorial=tutorial_setup,
                              difficulty="robot_overlord" if ai in seats else None)
        played = play(GAME, StartGame(options=options, seed_commitment=commitment_of(seed)), seed, policy)
        assert played.state.phase == Phase.ENDED
    return policy


def test_every_template_offered_in_random_games_is_accepted_by_decide() -> None:
    policy = _checked_games()
    assert policy.decisions > 500
    # Every kind of player move was offered (and checked) somewhere.
    assert set(policy.offered) == {
        "PlaceBid", "PassBid", "AttractTenants", "UseAdvertising", "ChooseTenants", "FinishAttracting",
        "BuyLand", "Build", "Advertise", "Consult", "Sell",
    }
