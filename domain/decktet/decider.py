"""``decide`` and ``evolve`` for Decktet Magnate: dispatch tables over the rules modules.

A player command is one action of the active seat's turn, the end of the turn, or (R9.4) a whole turn at once.
The end of a turn carries on by itself (the draw, the final-round count, the next seat's roll, taxation and
income, or the final scoring), so the events of a command always leave the game waiting for a seat, never half
way through. The only system commands are the start and, after the end, the seed's reveal: draws and rolls are
decided inside the seat's command that causes them, with its chance source.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, assert_never

from domain.kernel import SYSTEM, Actor, ActorNotAllowed, Chance, GameAlreadyOver, NotYourTurn, WrongPhase, fold

from . import actions, drawing, plays, reveal, roll, scoring, setup, turn
from .commands import (
    Buy,
    Choose,
    DecktetCommand,
    Deed,
    Develop,
    EndTurn,
    PlayerCommand,
    PlayTurn,
    Prefer,
    RevealSeed,
    Sell,
    StartGame,
    Trade,
    TurnAction,
)
from .errors import ChoicesFirst
from .events import (
    CardsDrawn,
    CardSold,
    ChoicesDue,
    DecktetEvent,
    DeedBought,
    DeedCompleted,
    DeedDeveloped,
    DiceRolled,
    DiscardsReshuffled,
    FinalRoundStarted,
    GameEnded,
    GameStarted,
    HandDealt,
    IncomeChosen,
    IncomePaid,
    PreferenceSet,
    PropertyBought,
    SeedRevealed,
    Taxed,
    Traded,
    TurnEnded,
    TurnStarted,
)
from .recorder import Recorder
from .state import DecktetState, Phase


def initial_state() -> DecktetState:
    return DecktetState()


def decide(state: DecktetState, actor: Actor, command: DecktetCommand, chance: Chance) -> list[DecktetEvent]:
    """Validate ``command`` from ``actor`` and return every event it causes (or raise a RuleViolation)."""
    return step(state, actor, command, chance)[0]


def step(
    state: DecktetState, actor: Actor, command: DecktetCommand, chance: Chance
) -> tuple[list[DecktetEvent], DecktetState]:
    """``decide``, also returning the state after the events (equal to folding them onto ``state``)."""
    rec = Recorder(state, evolve)
    if isinstance(command, StartGame):
        _system(actor)
        if state.phase != Phase.SETUP:
            raise WrongPhase("the game has already started")
        rec.emit(*setup.start(command, chance))
        turn.begin(rec, rec.state.first, chance)
    elif isinstance(command, RevealSeed):
        _system(actor)
        rec.emit(*reveal.reveal(state, command.seed))
    else:
        seat = _seat_on_turn(state, actor)
        _player(rec, seat, command, chance)
    return rec.events, rec.state


def _system(actor: Actor) -> None:
    if actor != SYSTEM:
        raise ActorNotAllowed("only the system may issue this command")


def _seat_on_turn(state: DecktetState, actor: Actor) -> int:
    if actor == SYSTEM:
        raise ActorNotAllowed("a player command needs a seat")
    if state.phase == Phase.ENDED:
        raise GameAlreadyOver("the game is over")
    if state.phase == Phase.SETUP:
        raise WrongPhase("the game has not started")
    if actor != state.active:
        raise NotYourTurn(f"it is seat {state.active + 1}'s turn")
    return int(actor)


def _player(rec: Recorder, seat: int, command: PlayerCommand, chance: Chance) -> None:
    match command:
        case EndTurn():
            turn.end_turn(rec, seat, chance)
        case PlayTurn(actions=steps):
            for action in steps:
                rec.emit(*decide_action(rec.state, seat, action))
            turn.end_turn(rec, seat, chance)
        case Choose() | Prefer() | Trade() | Develop() | Buy() | Deed() | Sell():
            rec.emit(*decide_action(rec.state, seat, command))
        case _:
            assert_never(command)


def decide_action(state: DecktetState, seat: int, action: TurnAction) -> list[DecktetEvent]:
    """The events of one action of ``seat``'s action phase (R4, R9.1), or a RuleViolation."""
    if state.choices and not isinstance(action, Choose):
        raise ChoicesFirst("make your income choices first", cards=state.choices)
    match action:
        case Choose(card=card, suit=suit):
            return list(actions.choose(state, seat, card, suit))
        case Prefer(card=card, suit=suit):
            return list(actions.prefer(state, seat, card, suit))
        case Trade(give=give, take=take):
            return list(actions.trade(state, seat, give, take))
        case Develop(card=card, suit=suit, count=count):
            return list(actions.develop(state, seat, card, suit, count))
        case Buy(card=card, district=district, payment=payment):
            return list(plays.buy(state, seat, card, district, payment))
        case Deed(card=card, district=district):
            return list(plays.deed(state, seat, card, district))
        case Sell(card=card):
            return list(plays.sell(state, seat, card))
        case _:
            assert_never(action)


_APPLY: dict[type[Any], Callable[[DecktetState, Any], DecktetState]] = {
    GameStarted: setup.apply_game_started,
    HandDealt: setup.apply_hand_dealt,
    TurnStarted: turn.apply_turn_started,
    DiceRolled: roll.apply_dice_rolled,
    Taxed: roll.apply_taxed,
    IncomePaid: roll.apply_income_paid,
    ChoicesDue: roll.apply_choices_due,
    IncomeChosen: roll.apply_income_chosen,
    PreferenceSet: actions.apply_preference_set,
    Traded: actions.apply_traded,
    DeedDeveloped: actions.apply_deed_developed,
    DeedCompleted: actions.apply_deed_completed,
    PropertyBought: plays.apply_property_bought,
    DeedBought: plays.apply_deed_bought,
    CardSold: plays.apply_card_sold,
    CardsDrawn: drawing.apply_cards_drawn,
    DiscardsReshuffled: drawing.apply_discards_reshuffled,
    FinalRoundStarted: drawing.apply_final_round_started,
    TurnEnded: turn.apply_turn_ended,
    GameEnded: scoring.apply_game_ended,
    SeedRevealed: reveal.apply_seed_revealed,
}
"""Event type -> the rule's evolve half (a lookup: folding is the hot path of every read)."""

HANDLED_EVENTS = frozenset(_APPLY)


def evolve(state: DecktetState, event: DecktetEvent) -> DecktetState:
    """Apply one event; total for every valid history, and never draws or validates."""
    return _APPLY[type(event)](state, event)


def replay(events: list[DecktetEvent]) -> DecktetState:
    """The state after a whole log."""
    return fold(evolve, events, initial_state())
