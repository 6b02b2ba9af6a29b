"""``decide`` and ``evolve`` for Magnate: dispatch tables over the rules modules.

``decide`` validates one command, then lets every phase settle what follows automatically (an auction
that is decided, a seat with nothing to attract, the end of the action passes), so the events of one
command always leave the game waiting for a decision or a system job, never half-way through a
transition.
"""

from __future__ import annotations

from typing import assert_never

from domain.kernel import SYSTEM, Actor, ActorNotAllowed, Chance, GameAlreadyOver, Seat, WrongPhase, fold

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
from .rules import actions, attraction, bidding, market, reveal, setup, turns
from .state import MagnateState, Phase


def initial_state() -> MagnateState:
    return MagnateState()


def decide(state: MagnateState, actor: Actor, command: MagnateCommand, chance: Chance) -> list[MagnateEvent]:
    """Validate ``command`` from ``actor`` and return every event it causes (or raise a RuleViolation)."""
    return step(state, actor, command, chance)[0]


def step(
    state: MagnateState, actor: Actor, command: MagnateCommand, chance: Chance
) -> tuple[list[MagnateEvent], MagnateState]:
    """``decide``, also returning the state after the events (equal to folding them onto ``state``)."""
    rec = Recorder(state, evolve)
    if isinstance(command, PlayerCommand):
        if actor == SYSTEM:
            raise ActorNotAllowed("a player command needs a seat")
        if state.phase == Phase.ENDED:
            raise GameAlreadyOver("the game is over")
        if state.phase == Phase.SETUP:
            raise WrongPhase("the game has not started")
        rec.emit(*_decide_player(state, Seat(actor), command))
    else:
        if actor != SYSTEM:
            raise ActorNotAllowed("only the system may issue this command")
        _decide_system(rec, command, chance)
    settle(rec)
    return rec.events, rec.state


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
            raise WrongPhase("the game has already started")
        rec.emit(*setup.start(command, chance))
        return
    if state.phase == Phase.SETUP:
        raise WrongPhase("the game has not started")
    match command:
        case RollDice():
            rec.emit(*attraction.roll(state, chance))
        case ProcessMarket():
            market.process(rec, chance)
        case RevealSeed(seed=seed):
            rec.emit(*reveal.reveal(state, seed))
        case TakeAiTurn():
            ai_turn.take_turn(rec, chance)
        case _:
            assert_never(command)


_SETTLERS = (bidding.settle, attraction.settle, actions.settle)


def settle(rec: Recorder) -> None:
    """Run the automatic steps until the game waits for a seat or a system job."""
    while any(step(rec) for step in _SETTLERS):
        pass


def evolve(state: MagnateState, event: MagnateEvent) -> MagnateState:  # noqa: C901, PLR0912 - one dispatch table
    """Apply one event; total for every valid history, and never draws or validates."""
    match event:
        case GameStarted():
            return setup.apply_game_started(state, event)
        case RoundStarted():
            return bidding.apply_round_started(state, event)
        case BidPlaced():
            return bidding.apply_bid_placed(state, event)
        case BidPassed():
            return bidding.apply_bid_passed(state, event)
        case FirstPlayerDecided():
            return bidding.apply_first_player_decided(state, event)
        case PhaseStarted():
            return turns.apply_phase_started(state, event)
        case AttractionStarted():
            return attraction.apply_attraction_started(state, event)
        case DiceRolled():
            return attraction.apply_dice_rolled(state, event)
        case DiceSettled():
            return attraction.apply_dice_settled(state, event)
        case TenantsMovedIn():
            return attraction.apply_tenants_moved_in(state, event)
        case RentCollected():
            return attraction.apply_rent_collected(state, event)
        case LandBought():
            return actions.apply_land_bought(state, event)
        case BuildingBuilt():
            return actions.apply_building_built(state, event)
        case AdvertisingTaken():
            return actions.apply_advertising_taken(state, event)
        case Consulted():
            return actions.apply_consulted(state, event)
        case PlotSold():
            return actions.apply_plot_sold(state, event)
        case RiskCardDrawn():
            return market.apply_risk_card_drawn(state, event)
        case LandPriceMoved():
            return market.apply_land_price_moved(state, event)
        case NewTenantsArrived():
            return market.apply_new_tenants_arrived(state, event)
        case ForSaleMarkerDrawn():
            return market.apply_for_sale_marker_drawn(state, event)
        case MarketCrashed():
            return market.apply_market_crashed(state, event)
        case PlotLiquidated():
            return market.apply_plot_liquidated(state, event)
        case GameEnded():
            return market.apply_game_ended(state, event)
        case SeedRevealed():
            return reveal.apply_seed_revealed(state, event)
        case AiCardDrawn():
            return ai_deck.apply_card_drawn(state, event)
        case AiLevelRaised():
            return ai_deck.apply_level_raised(state, event)
        case AiDeckReshuffled():
            return ai_deck.apply_deck_reshuffled(state, event)
        case AiCardResolved():
            return ai_deck.apply_card_resolved(state, event)
        case AiHoldingsChanged():
            return ai_actions.apply_holdings_changed(state, event)
        case AiAdvertised():
            return ai_attraction.apply_advertised(state, event)
        case AiDieRolled() | AiDecided():
            return state
        case _:
            assert_never(event)


def replay(events: list[MagnateEvent]) -> MagnateState:
    """The state after a whole log."""
    return fold(evolve, events, initial_state())
