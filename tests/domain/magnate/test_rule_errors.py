"""Every rule error the engine raises, provoked by a realistic illegal command through ``decide``.

Each test checks the exception class, its stable ``code`` (what clients and the API map to messages),
and that nothing happened: ``decide`` raised instead of returning events and the state it was given is
unchanged (equal to a deep copy taken before).
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest

from domain.kernel import (
    SYSTEM,
    ActorNotAllowed,
    Chance,
    GameAlreadyOver,
    GameError,
    InvalidValue,
    NothingPending,
    NotYourTurn,
    Seat,
    WrongPhase,
)
from domain.magnate import GameOptions, MagnateState, SeatSpec, StartGame, decide, initial_state
from domain.magnate.city import ALL_PLOTS
from domain.magnate.commands import (
    Advertise,
    AttractTenants,
    Build,
    BuyLand,
    ChooseTenants,
    Consult,
    FinishAttracting,
    MagnateCommand,
    PassBid,
    PlaceBid,
    ProcessMarket,
    RevealSeed,
    RollDice,
    Sell,
    TakeAiTurn,
    UseAdvertising,
)
from domain.magnate.errors import (
    AlreadyAttracted,
    BadReturnedTenants,
    BidTooLow,
    InfeasibleTenants,
    InsufficientFunds,
    NoBuilding,
    NotEnoughAdvertising,
    NotOwner,
    OverCapacity,
    PlotUnavailable,
    SameBuilding,
    TenantsUnavailable,
)
from domain.magnate.events import AttractionStarted, DiceRolled, DiceSettled
from domain.magnate.state import Phase

from .builders import (
    GAME_SEED,
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


def refused(state: MagnateState, actor: Any, command: MagnateCommand, error: type[GameError]) -> GameError:
    """Decide ``command`` expecting exactly ``error``; the state must come out untouched."""
    before = copy.deepcopy(state)
    who = SYSTEM if actor == SYSTEM else Seat(actor)
    with pytest.raises(error) as caught:
        decide(state, who, command, Chance(b"any-seed", 100))
    assert type(caught.value) is error
    assert state == before
    return caught.value


# --- situations ------------------------------------------------------------------------------------------
# The tutorial (§3.3): 5 seats, Vector (seat 0) first, land price 300K, 'for sale' on 1D 1H 1I 2A 2C 3E
# 3H 3I 5E 5H 6B 6H; in neighbourhood 1 (Halestown) 1F is woods and 1G an industrial car park.


@cache
def bidding() -> MagnateState:
    """Round 1's auction, seat 0 to bid."""
    return tutorial()


@cache
def actions() -> MagnateState:
    """Phase 3, first pass, seat 0 (first player) on turn, owning nothing yet."""
    return in_actions(tutorial())


@cache
def attracting() -> MagnateState:
    """Phase 2, seat 0 on turn, owning an empty apartment on 1D and an empty house on 1H; 1D rolls 4 dice."""
    state = set_plot(tutorial(), "1D", owner=0, building="apartment", for_sale=False)
    state = set_plot(state, "1H", owner=0, building="house", for_sale=False)
    return in_attracting(state)


def awaiting_advertising(committed: int = 1) -> MagnateState:
    """Seat 0 attracted to 1D committing ``committed`` tokens; the dice are rolled and wait for its choice."""
    _, state = run(attracting(), 0, AttractTenants(plot="1D", advertising=committed))
    _, state = run(state, SYSTEM, RollDice())
    assert state.attraction is not None and state.attraction.faces is not None
    assert state.attraction.final is None
    return state


def advanced_choice(final: tuple[int, ...], tenants: tuple[str, ...] = (), **available: int) -> MagnateState:
    """Advanced game, phase 2: seat 0's apartment (holding ``tenants``) has settled ``final`` dice and waits
    for ChooseTenants; the available area holds exactly ``available``."""
    state = in_attracting(started(2, advanced=True))
    home = next(p for p in ALL_PLOTS if p[0] == "1" and plot(state, p).feature is None)
    state = set_plot(state, home, owner=0, building="apartment", tenants=tenants)
    state = set_available(state, **available)
    return given(
        state,
        AttractionStarted(seat=0, plot=home, advertising=0, dice=len(final)),
        DiceRolled(seat=0, plot=home, faces=final),
        DiceSettled(seat=0, plot=home, fives=(), modifier=0, final=final),
    )


def _human_opens_against_ai() -> MagnateState:
    """A solo game (human seat 0 against the AI) whose random first player is the human."""
    state = started(2, ai=True, seed=b"b")
    assert state.auction is not None and state.auction.turn == 0
    return state


@pytest.fixture(scope="module")
def ended() -> MagnateState:
    """A whole 3-seat game played to the crash by random legal moves."""
    state: MagnateState = play_to_end(3).state
    assert state.phase == Phase.ENDED
    return state


# --- kernel errors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("situation", "seat", "command"),
    [
        pytest.param(bidding, 0, BuyLand(plot="1D"), id="buy-land-during-the-auction"),
        pytest.param(bidding, 0, Consult(), id="consult-during-the-auction"),
        pytest.param(bidding, 0, AttractTenants(plot="1D"), id="attract-during-the-auction"),
        pytest.param(actions, 0, PlaceBid(amount=100), id="bid-during-actions"),
        pytest.param(actions, 0, PassBid(), id="pass-during-actions"),
        pytest.param(actions, 0, FinishAttracting(), id="finish-attracting-during-actions"),
        pytest.param(attracting, 0, Sell(plot="1D"), id="sell-during-attraction"),
        pytest.param(attracting, 0, UseAdvertising(dice=(0,)), id="use-advertising-with-no-attraction"),
        pytest.param(attracting, 0, ChooseTenants(tenants=("home",)), id="choose-tenants-with-no-attraction"),
    ],
)
def test_a_command_outside_its_phase_is_wrong_phase(situation: Any, seat: int, command: MagnateCommand) -> None:
    error = refused(situation(), seat, command, WrongPhase)
    assert error.code == "rule/wrong_phase"


def test_starting_a_second_attraction_before_the_first_is_resolved_is_wrong_phase() -> None:
    state = awaiting_advertising()
    assert refused(state, 0, AttractTenants(plot="1H"), WrongPhase).code == "rule/wrong_phase"
    assert refused(state, 0, FinishAttracting(), WrongPhase).code == "rule/wrong_phase"


def test_choosing_tenants_in_the_standard_game_is_wrong_phase() -> None:
    error = refused(awaiting_advertising(), 0, ChooseTenants(tenants=("home",)), WrongPhase)
    assert error.code == "rule/wrong_phase"


def test_using_advertising_again_once_the_dice_are_settled_is_wrong_phase() -> None:
    state = advanced_choice((4, 4, 6, 6, 6, 6), students=2)
    assert refused(state, 0, UseAdvertising(dice=()), WrongPhase).code == "rule/wrong_phase"


def test_starting_a_game_twice_is_wrong_phase() -> None:
    options = GameOptions(seats=(SeatSpec(), SeatSpec()))
    error = refused(bidding(), SYSTEM, StartGame(options=options, seed_commitment="c0ffee"), WrongPhase)
    assert error.code == "rule/wrong_phase"


@pytest.mark.parametrize(
    ("actor", "command"),
    [
        pytest.param(0, PlaceBid(amount=100), id="bid"),
        pytest.param(SYSTEM, RollDice(), id="roll-dice"),
        pytest.param(SYSTEM, ProcessMarket(), id="process-market"),
    ],
)
def test_commands_before_the_game_has_started_are_wrong_phase(actor: Any, command: MagnateCommand) -> None:
    assert refused(initial_state(), actor, command, WrongPhase).code == "rule/wrong_phase"


def test_revealing_the_seed_while_the_game_runs_is_wrong_phase() -> None:
    error = refused(actions(), SYSTEM, RevealSeed(seed=GAME_SEED.hex()), WrongPhase)
    assert error.code == "rule/wrong_phase"


def test_revealing_the_seed_twice_is_wrong_phase(ended: MagnateState) -> None:
    _, revealed = run(ended, SYSTEM, RevealSeed(seed=GAME_SEED.hex()))
    assert revealed.seed == GAME_SEED.hex()
    assert refused(revealed, SYSTEM, RevealSeed(seed=GAME_SEED.hex()), WrongPhase).code == "rule/wrong_phase"


@pytest.mark.parametrize(
    ("situation", "seat", "command"),
    [
        pytest.param(bidding, 1, PlaceBid(amount=100), id="bid-out-of-turn"),
        pytest.param(bidding, 4, PassBid(), id="pass-out-of-turn"),
        pytest.param(actions, 2, Consult(), id="consult-out-of-turn"),
        pytest.param(actions, 1, BuyLand(plot="1D"), id="buy-out-of-turn"),
        pytest.param(attracting, 1, FinishAttracting(), id="finish-attracting-out-of-turn"),
    ],
)
def test_a_seat_not_on_turn_is_refused(situation: Any, seat: int, command: MagnateCommand) -> None:
    assert refused(situation(), seat, command, NotYourTurn).code == "rule/not_your_turn"


def test_the_high_bidder_is_skipped_and_cannot_raise_its_own_bid() -> None:
    _, state = run(bidding(), 0, PlaceBid(amount=300))
    assert refused(state, 0, PlaceBid(amount=400), NotYourTurn).code == "rule/not_your_turn"


def test_the_dice_of_another_seat_cannot_be_settled() -> None:
    error = refused(awaiting_advertising(), 1, UseAdvertising(dice=(0,)), NotYourTurn)
    assert error.code == "rule/not_your_turn"


@pytest.mark.parametrize(
    "command",
    [PlaceBid(amount=100), PassBid(), AttractTenants(plot="1D"), FinishAttracting(), Consult(),
     BuyLand(plot="1D"), Advertise(bought=0)],
    ids=lambda c: type(c).__name__,
)
@pytest.mark.parametrize("seat", [0, 1, 2])
def test_no_seat_can_act_after_the_game_has_ended(ended: MagnateState, seat: int, command: MagnateCommand) -> None:
    assert refused(ended, seat, command, GameAlreadyOver).code == "rule/game_over"


@pytest.mark.parametrize(
    "command",
    [RollDice(), ProcessMarket(), RevealSeed(seed=GAME_SEED.hex()), TakeAiTurn(),
     StartGame(options=GameOptions(seats=(SeatSpec(), SeatSpec())), seed_commitment="c0ffee")],
    ids=lambda c: type(c).__name__,
)
def test_a_seat_cannot_send_a_system_command(command: MagnateCommand) -> None:
    assert refused(actions(), 0, command, ActorNotAllowed).code == "rule/actor_not_allowed"


@pytest.mark.parametrize(
    "command", [PlaceBid(amount=100), PassBid(), Consult()], ids=lambda c: type(c).__name__
)
def test_the_system_cannot_send_a_player_command(command: MagnateCommand) -> None:
    assert refused(bidding(), SYSTEM, command, ActorNotAllowed).code == "rule/actor_not_allowed"


@pytest.mark.parametrize(
    ("situation", "command"),
    [
        pytest.param(bidding, RollDice(), id="roll-during-the-auction"),
        pytest.param(attracting, RollDice(), id="roll-with-no-attraction"),
        pytest.param(awaiting_advertising, RollDice(), id="roll-twice"),
        pytest.param(actions, RollDice(), id="roll-during-actions"),
        pytest.param(bidding, ProcessMarket(), id="market-during-the-auction"),
        pytest.param(actions, ProcessMarket(), id="market-before-the-third-pass-ends"),
        pytest.param(bidding, TakeAiTurn(), id="ai-turn-in-a-game-without-ai"),
        pytest.param(_human_opens_against_ai, TakeAiTurn(), id="ai-turn-while-a-human-bids"),
    ],
)
def test_a_system_command_that_is_not_due_is_nothing_pending(situation: Any, command: MagnateCommand) -> None:
    assert refused(situation(), SYSTEM, command, NothingPending).code == "rule/nothing_pending"


def test_the_market_is_not_due_while_dice_wait_to_be_rolled() -> None:
    _, state = run(attracting(), 0, AttractTenants(plot="1D", advertising=0))
    assert state.attraction is not None and state.attraction.dice == 4 and state.attraction.faces is None
    assert refused(state, SYSTEM, ProcessMarket(), NothingPending).code == "rule/nothing_pending"


@pytest.mark.parametrize("command", [RollDice(), ProcessMarket()], ids=lambda c: type(c).__name__)
def test_system_jobs_after_the_end_are_nothing_pending(ended: MagnateState, command: MagnateCommand) -> None:
    assert refused(ended, SYSTEM, command, NothingPending).code == "rule/nothing_pending"


# --- invalid values --------------------------------------------------------------------------------------


@pytest.mark.parametrize("amount", [150, 250, 0, -100, -50], ids=lambda a: f"bid-{a}")
def test_a_bid_must_be_a_positive_multiple_of_100k(amount: int) -> None:
    assert refused(bidding(), 0, PlaceBid(amount=amount), InvalidValue).code == "rule/invalid_value"


@pytest.mark.parametrize(
    ("situation", "command"),
    [
        pytest.param(actions, Advertise(bought=-1), id="buy-negative-advertising"),
        pytest.param(attracting, AttractTenants(plot="1D", advertising=-1), id="commit-negative-advertising"),
        pytest.param(actions, BuyLand(plot="9Z"), id="buy-unknown-plot"),
        pytest.param(actions, BuyLand(plot="1J"), id="buy-unknown-letter"),
        pytest.param(actions, BuyLand(plot=""), id="buy-empty-plot-name"),
        pytest.param(actions, Sell(plot="9Z"), id="sell-unknown-plot"),
        pytest.param(actions, Build(plot="9Z", building="house"), id="build-on-unknown-plot"),
        pytest.param(attracting, AttractTenants(plot="9Z"), id="attract-to-unknown-plot"),
    ],
)
def test_malformed_values_are_invalid(situation: Any, command: MagnateCommand) -> None:
    assert refused(situation(), 0, command, InvalidValue).code == "rule/invalid_value"


@pytest.mark.parametrize("building", ["castle", "House", ""])
def test_an_unknown_building_is_invalid(building: str) -> None:
    state = set_plot(actions(), "1D", owner=0, for_sale=False)
    assert refused(state, 0, Build(plot="1D", building=building), InvalidValue).code == "rule/invalid_value"


@pytest.mark.parametrize(
    "dice", [(0, 0), (4,), (-1,), (1, 1, 2)], ids=["duplicate", "past-the-last-die", "negative", "duplicate-of-3"]
)
def test_dice_must_be_distinct_indices_into_the_roll(dice: tuple[int, ...]) -> None:
    state = awaiting_advertising(committed=3)
    assert state.attraction is not None and len(state.attraction.faces or ()) == 4
    assert refused(state, 0, UseAdvertising(dice=dice), InvalidValue).code == "rule/invalid_value"


@pytest.mark.parametrize("tenants", [("dragon",), ("students", "dragon"), ("home",)],
                         ids=["unknown", "unknown-among-known", "standard-type-in-advanced-game"])
def test_an_unknown_tenant_kind_is_invalid(tenants: tuple[str, ...]) -> None:
    state = advanced_choice((6, 6, 6, 6), students=2)
    assert refused(state, 0, ChooseTenants(tenants=tenants), InvalidValue).code == "rule/invalid_value"


@pytest.mark.parametrize("seed", [b"another-seed".hex(), "not hex", ""], ids=["wrong-seed", "not-hex", "empty"])
def test_a_revealed_seed_must_match_the_commitment(ended: MagnateState, seed: str) -> None:
    assert refused(ended, SYSTEM, RevealSeed(seed=seed), InvalidValue).code == "rule/invalid_value"


def _start(*seats: SeatSpec, **options: Any) -> StartGame:
    return StartGame(options=GameOptions(seats=seats, **options), seed_commitment="c0ffee")


HUMAN, AI = SeatSpec(), SeatSpec(kind="ai")


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(_start(HUMAN, AI, AI, difficulty="generalised_ai"), id="two-ai-seats"),
        pytest.param(_start(HUMAN, AI), id="ai-without-difficulty"),
        pytest.param(_start(HUMAN, AI, difficulty="impossible"), id="ai-with-unknown-difficulty"),
        pytest.param(_start(HUMAN), id="one-seat"),
        pytest.param(_start(AI, difficulty="generalised_ai"), id="only-an-ai"),
        pytest.param(_start(*[HUMAN] * 6), id="six-seats"),
        pytest.param(_start(), id="no-seats"),
        pytest.param(_start(HUMAN, SeatSpec(kind="robot")), id="unknown-seat-kind"),
        pytest.param(_start(SeatSpec(company="urhme"), SeatSpec(company="urhme")), id="same-company-twice"),
        pytest.param(_start(HUMAN, SeatSpec(company="acme")), id="unknown-company"),
        pytest.param(_start(HUMAN, HUMAN, dataset="v999"), id="unknown-dataset"),
        pytest.param(_start(*[HUMAN] * 4, tutorial=True), id="tutorial-with-four-seats"),
        pytest.param(_start(*[HUMAN] * 5, tutorial=True, advanced=True), id="advanced-tutorial"),
    ],
)
def test_impossible_game_options_are_invalid(command: StartGame) -> None:
    assert refused(initial_state(), SYSTEM, command, InvalidValue).code == "rule/invalid_value"


# --- Magnate's errors ------------------------------------------------------------------------------------


def test_a_bid_above_the_bidders_cash_is_unaffordable() -> None:
    error = refused(bidding(), 0, PlaceBid(amount=2100), InsufficientFunds)
    assert error.code == "rule/insufficient_funds"
    poorer = set_cash(bidding(), 0, 450)
    assert refused(poorer, 0, PlaceBid(amount=500), InsufficientFunds).code == "rule/insufficient_funds"


def test_a_building_costing_more_than_the_cash_is_unaffordable() -> None:
    state = set_plot(actions(), "1D", owner=0, for_sale=False)
    error = refused(state, 0, Build(plot="1D", building="apartment"), InsufficientFunds)  # 3,000K > 2,000K
    assert error.code == "rule/insufficient_funds"
    assert error.details == {"cost": 3000}


def test_land_costing_more_than_the_cash_is_unaffordable() -> None:
    state = set_cash(actions(), 0, 200)
    error = refused(state, 0, BuyLand(plot="1D"), InsufficientFunds)  # land price 300K
    assert error.code == "rule/insufficient_funds"
    assert error.details == {"cost": 300}


def test_an_adjacent_plot_at_double_price_is_unaffordable_when_cash_covers_only_the_single_price() -> None:
    state = set_cash(set_plot(actions(), "1D", owner=0, for_sale=False), 0, 500)
    error = refused(state, 0, BuyLand(plot="1E"), InsufficientFunds)  # 2 x 300K = 600K > 500K
    assert error.code == "rule/insufficient_funds"
    assert error.details == {"cost": 600}


def test_bought_advertising_costing_more_than_the_cash_is_unaffordable() -> None:
    error = refused(actions(), 0, Advertise(bought=5), InsufficientFunds)  # 5 x 500K = 2,500K > 2,000K
    assert error.code == "rule/insufficient_funds"
    assert error.details == {"cost": 2500}


@pytest.mark.parametrize("amount", [300, 200, 100])
def test_a_bid_must_beat_the_highest_bid(amount: int) -> None:
    _, state = run(bidding(), 0, PlaceBid(amount=300))
    assert refused(state, 1, PlaceBid(amount=amount), BidTooLow).code == "rule/bid_too_low"


def _owned_by_others() -> MagnateState:
    return set_plot(actions(), "1H", owner=1, for_sale=False)


def _own_plot() -> MagnateState:
    return set_plot(actions(), "1D", owner=0, for_sale=False)


def _sold_building() -> MagnateState:
    """1A holds a house whose owner sold it (unowned, built), next to seat 0's 1D."""
    return set_plot(_own_plot(), "1A", building="house", tenants=("home",))


def _owning_1c() -> MagnateState:
    return set_plot(actions(), "1C", owner=0)


@pytest.mark.parametrize(
    ("situation", "target"),
    [
        pytest.param(actions, "1F", id="feature-plot"),
        pytest.param(_own_plot, "1G", id="feature-plot-next-to-own-plot"),
        pytest.param(actions, "0E", id="city-hall"),
        pytest.param(actions, "0A", id="centre-building"),
        pytest.param(_owned_by_others, "1H", id="owned-by-another-seat"),
        pytest.param(_own_plot, "1D", id="already-own-it"),
        pytest.param(_sold_building, "1A", id="unowned-plot-with-a-building"),
        pytest.param(actions, "1A", id="unmarked-and-not-adjacent"),
        pytest.param(_own_plot, "1C", id="unmarked-two-plots-away"),
        pytest.param(_owning_1c, "2D", id="unmarked-across-a-tile-border"),
    ],
)
def test_unbuyable_plots_are_unavailable(situation: Any, target: str) -> None:
    assert refused(situation(), 0, BuyLand(plot=target), PlotUnavailable).code == "rule/plot_unavailable"


@pytest.mark.parametrize(
    ("situation", "command"),
    [
        pytest.param(actions, Build(plot="1H", building="house"), id="build-on-unowned-for-sale-plot"),
        pytest.param(_owned_by_others, Build(plot="1H", building="house"), id="build-on-another-seats-plot"),
        pytest.param(_owned_by_others, Sell(plot="1H"), id="sell-another-seats-plot"),
        pytest.param(actions, Sell(plot="0H"), id="sell-a-centre-building"),
        pytest.param(_sold_building, Sell(plot="1A"), id="sell-a-plot-already-sold"),
        pytest.param(attracting, AttractTenants(plot="0H"), id="attract-to-a-centre-building"),
    ],
)
def test_using_a_plot_the_seat_does_not_own_is_not_owner(situation: Any, command: MagnateCommand) -> None:
    assert refused(situation(), 0, command, NotOwner).code == "rule/not_owner"


def test_attracting_to_an_unbuilt_plot_is_no_building() -> None:
    state = set_plot(attracting(), "1I", owner=0, for_sale=False)
    assert refused(state, 0, AttractTenants(plot="1I"), NoBuilding).code == "rule/no_building"


def test_attracting_to_the_same_building_twice_in_a_round_is_refused() -> None:
    _, state = run(attracting(), 0, AttractTenants(plot="1D"))
    _, state = run(state, SYSTEM, RollDice())
    assert state.attraction is None and state.attracted == ("1D",)  # resolved automatically (no advertising)
    assert len(plot(state, "1D").tenants) < 5  # the apartment still has room
    error = refused(state, 0, AttractTenants(plot="1D"), AlreadyAttracted)
    assert error.code == "rule/already_attracted"


def test_attracting_to_a_full_building_is_over_capacity() -> None:
    state = set_plot(attracting(), "1H", tenants=("home",))  # a house holds one tenant
    assert refused(state, 0, AttractTenants(plot="1H"), OverCapacity).code == "rule/over_capacity"


def test_choosing_more_tenants_than_the_building_has_room_for_is_over_capacity() -> None:
    state = advanced_choice((6, 6, 6, 6), ("students",) * 4, students=2)  # room for 1, dice for 2
    error = refused(state, 0, ChooseTenants(tenants=("students", "students")), OverCapacity)
    assert error.code == "rule/over_capacity"


def test_committing_more_advertising_than_held_is_refused() -> None:
    error = refused(attracting(), 0, AttractTenants(plot="1D", advertising=5), NotEnoughAdvertising)
    assert error.code == "rule/not_enough_advertising"


def test_using_more_advertising_than_committed_is_refused() -> None:
    error = refused(awaiting_advertising(committed=1), 0, UseAdvertising(dice=(0, 1)), NotEnoughAdvertising)
    assert error.code == "rule/not_enough_advertising"


def test_tenants_the_dice_cannot_form_are_infeasible() -> None:
    # §6.4: with 4,4,6,6,6,6 the couple+couple+family needs 6 dice >= 5 but only 4 show 5 or better.
    state = advanced_choice((4, 4, 6, 6, 6, 6), students=2, professional_couple=2, family=1)
    choice = ChooseTenants(tenants=("professional_couple", "professional_couple", "family"))
    assert refused(state, 0, choice, InfeasibleTenants).code == "rule/infeasible_tenants"
    too_many = ChooseTenants(tenants=("students", "students", "professional_couple", "family"))
    assert refused(state, 0, too_many, InfeasibleTenants).code == "rule/infeasible_tenants"


@pytest.mark.parametrize(
    "tenants",
    [("restaurant",), ("family",), ("students", "students", "students")],
    ids=["other-type", "none-available", "more-than-available"],
)
def test_tenants_not_in_the_available_area_are_unavailable(tenants: tuple[str, ...]) -> None:
    state = advanced_choice((6, 6, 6, 6, 6, 6), students=2, restaurant=3)
    error = refused(state, 0, ChooseTenants(tenants=tenants), TenantsUnavailable)
    assert error.code == "rule/tenants_unavailable"


def test_rebuilding_the_identical_building_is_refused() -> None:
    state = set_plot(actions(), "1D", owner=0, for_sale=False, building="house")
    assert refused(state, 0, Build(plot="1D", building="house"), SameBuilding).code == "rule/same_building"


@pytest.mark.parametrize(
    ("tenants", "returned"),
    [
        pytest.param(("home",) * 3, ("home",), id="too-few-returned"),
        pytest.param(("home",) * 3, ("home",) * 3, id="too-many-returned"),
        pytest.param(("home",), ("home",), id="nothing-needs-to-return"),
        pytest.param(("home",) * 3, ("retail", "retail"), id="not-the-buildings-tenants"),
    ],
)
def test_returned_tenants_must_be_exactly_the_excess(tenants: tuple[str, ...], returned: tuple[str, ...]) -> None:
    state = set_plot(actions(), "1D", owner=0, for_sale=False, building="apartment", tenants=tenants)
    error = refused(state, 0, Build(plot="1D", building="house", returned=returned), BadReturnedTenants)
    assert error.code == "rule/bad_returned_tenants"


def test_advanced_returned_tenants_must_be_the_buildings_own() -> None:
    state = in_actions(started(2, advanced=True))
    home = next(p for p in ALL_PLOTS if p[0] == "1" and plot(state, p).feature is None)
    state = set_plot(state, home, owner=0, building="apartment", tenants=("family", "students", "students"))
    wrong = Build(plot=home, building="house", returned=("family", "family"))
    assert refused(state, 0, wrong, BadReturnedTenants).code == "rule/bad_returned_tenants"
    # The legal choice of the same rebuild is accepted: any two of its own tenants.
    _, after = run(state, 0, Build(plot=home, building="house", returned=("family", "students")))
    assert plot(after, home).tenants == ("students",)
