"""``decide`` and ``evolve`` for Magnate: dispatch tables over the rules modules.

``decide`` validates one command, then lets every phase settle what follows automatically (an auction
that is decided, a seat with nothing to attract, the end of the action passes), so the events of one
command always leave the game waiting for a decision or a system job, never half-way through a
transition.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, assert_never

from domain.kernel import Actor, Chance, GameAlreadyOver, Seat, WrongPhase
from domain.kernel.decider import evolve_by_type, replay_of, unchanged
from domain.kernel.deciding import decide_from, seat_of, system_only
from domain.kernel.phrases import say
from domain.kernel.reveal import apply_seed_revealed, reveal_seed

from .ai import actions as ai_actions
from .ai import attraction as ai_attraction
from .ai import deck as ai_deck
from .ai import turn as ai_turn
from .commands import (
    Advertise,
    AttractTenants,
    Build,
    BuyLand,
    ChooseTenants,
    Consult,
    FinishAttracting,
    MagnateCommand,
    MagnateSystemCommand,
    PassBid,
    PlaceBid,
    PlayerCommand,
    ProcessMarket,
    RevealSeed,
    RollDice,
    Sell,
    StartGame,
    TakeAiTurn,
    UseAdvertising,
)
from .events import (
    AdvertisingTaken,
    AiAdvertised,
    AiCardDrawn,
    AiCardResolved,
    AiDecided,
    AiDeckReshuffled,
    AiDieRolled,
    AiHoldingsChanged,
    AiLevelRaised,
    AttractionStarted,
    BidPassed,
    BidPlaced,
    BuildingBuilt,
    Consulted,
    DiceRolled,
    DiceSettled,
    FirstPlayerDecided,
    ForSaleMarkerDrawn,
    GameEnded,
    GameStarted,
    LandBought,
    LandPriceMoved,
    MagnateEvent,
    MarketCrashed,
    NewTenantsArrived,
    PhaseStarted,
    PlotLiquidated,
    PlotSold,
    RentCollected,
    RiskCardDrawn,
    RoundStarted,
    SeedRevealed,
    TenantsMovedIn,
)
from .recorder import Recorder
from .rules import actions, attraction, bidding, market, setup, turns
from .state import MagnateState, Phase


def initial_state() -> MagnateState:
    return MagnateState()


def step(
    state: MagnateState, actor: Actor, command: MagnateCommand, chance: Chance
) -> tuple[list[MagnateEvent], MagnateState]:
    """``decide``, also returning the state after the events (equal to folding them onto ``state``)."""
    rec = Recorder(state, evolve)
    if isinstance(command, PlayerCommand):
        seat = seat_of(actor)
        if state.phase == Phase.ENDED:
            raise GameAlreadyOver(phrase=say("the game is over"))
        if state.phase == Phase.SETUP:
            raise WrongPhase(phrase=say("the game has not started"))
        rec.emit(*_decide_player(state, seat, command))
    else:
        system_only(actor)
        _decide_system(rec, command, chance)
    settle(rec)
    return rec.events, rec.state


decide = decide_from(step)


def _decide_player(state: MagnateState, seat: Seat, command: PlayerCommand) -> list[MagnateEvent]:
    match command:
        case PlaceBid(amount=amount):
            return list(bidding.place_bid(state, seat, amount))
        case PassBid():
            return list(bidding.pass_bid(state, seat))
        case AttractTenants(plot=plot, advertising=advertising):
            return list(attraction.attract(state, seat, plot, advertising))
        case UseAdvertising(dice=dice):
            return list(attraction.use_advertising(state, seat, dice))
        case ChooseTenants(tenants=tenants):
            return list(attraction.choose_tenants(state, seat, tenants))
        case FinishAttracting():
            return list(attraction.finish(state, seat))
        case BuyLand(plot=plot):
            return list(actions.buy_land(state, seat, plot))
        case Build(plot=plot, building=building, returned=returned):
            return list(actions.build(state, seat, plot, building, returned))
        case Advertise(bought=bought):
            return list(actions.advertise(state, seat, bought))
        case Consult():
            return list(actions.consult(state, seat))
        case Sell(plot=plot):
            return list(actions.sell(state, seat, plot))
        case _:
            assert_never(command)


def _decide_system(rec: Recorder, command: MagnateSystemCommand, chance: Chance) -> None:
    state = rec.state
    if isinstance(command, StartGame):
        if state.phase != Phase.SETUP or state.seats:
            raise WrongPhase(phrase=say("the game has already started"))
        rec.emit(*setup.start(command, chance))
        return
    if state.phase == Phase.SETUP:
        raise WrongPhase(phrase=say("the game has not started"))
    match command:
        case RollDice():
            rec.emit(*attraction.roll(state, chance))
        case ProcessMarket():
            market.process(rec, chance)
        case RevealSeed(seed=seed):
            rec.emit(*reveal_seed(state, state.phase == Phase.ENDED, seed, SeedRevealed))
        case TakeAiTurn():
            ai_turn.take_turn(rec, chance)
        case _:
            assert_never(command)


_SETTLERS = (bidding.settle, attraction.settle, actions.settle)


def settle(rec: Recorder) -> None:
    """Run the automatic steps until the game waits for a seat or a system job."""
    while any(step(rec) for step in _SETTLERS):
        pass


_APPLY: dict[type[Any], Callable[[MagnateState, Any], MagnateState]] = {
    GameStarted: setup.apply_game_started,
    RoundStarted: bidding.apply_round_started,
    BidPlaced: bidding.apply_bid_placed,
    BidPassed: bidding.apply_bid_passed,
    FirstPlayerDecided: bidding.apply_first_player_decided,
    PhaseStarted: turns.apply_phase_started,
    AttractionStarted: attraction.apply_attraction_started,
    DiceRolled: attraction.apply_dice_rolled,
    DiceSettled: attraction.apply_dice_settled,
    TenantsMovedIn: attraction.apply_tenants_moved_in,
    RentCollected: attraction.apply_rent_collected,
    LandBought: actions.apply_land_bought,
    BuildingBuilt: actions.apply_building_built,
    AdvertisingTaken: actions.apply_advertising_taken,
    Consulted: actions.apply_consulted,
    PlotSold: actions.apply_plot_sold,
    RiskCardDrawn: market.apply_risk_card_drawn,
    LandPriceMoved: market.apply_land_price_moved,
    NewTenantsArrived: market.apply_new_tenants_arrived,
    ForSaleMarkerDrawn: market.apply_for_sale_marker_drawn,
    MarketCrashed: market.apply_market_crashed,
    PlotLiquidated: market.apply_plot_liquidated,
    GameEnded: market.apply_game_ended,
    SeedRevealed: apply_seed_revealed,
    AiCardDrawn: ai_deck.apply_card_drawn,
    AiLevelRaised: ai_deck.apply_level_raised,
    AiDeckReshuffled: ai_deck.apply_deck_reshuffled,
    AiCardResolved: ai_deck.apply_card_resolved,
    AiHoldingsChanged: ai_actions.apply_holdings_changed,
    AiAdvertised: ai_attraction.apply_advertised,
    AiDieRolled: unchanged,
    AiDecided: unchanged,
}
"""Event type -> the rule's evolve half. A dictionary rather than a ``match``: folding is the hot path
of every read, and a lookup beats trying each class in turn. ``tests/domain/magnate/test_event_tags.py``
checks that every member of the event union has an entry."""

HANDLED_EVENTS = frozenset(_APPLY)


evolve: Callable[[MagnateState, MagnateEvent], MagnateState] = evolve_by_type(_APPLY)
"""Apply one event; total for every valid history, and never draws or validates."""

replay: Callable[[Iterable[MagnateEvent]], MagnateState] = replay_of(evolve, initial_state)
"""The state after a whole log."""
