"""A seat's own commands: one action of its action phase (R4, R9.1), the end of its turn, or (R9.4) a whole turn
at once. The decider applies them for a person; the computer (domain/decktet/ai) applies them for its seats and in
its searches."""

from __future__ import annotations

from typing import assert_never

from domain.kernel import Chance
from domain.kernel.phrases import say

from . import actions, plays, turn
from .commands import Buy, Choose, Deed, Develop, EndTurn, PlayerCommand, PlayTurn, Prefer, Sell, Trade, TurnAction
from .errors import ChoicesFirst
from .events import DecktetEvent
from .folding import evolve
from .recorder import Recorder
from .state import DecktetState


def play(rec: Recorder, seat: int, command: PlayerCommand, chance: Chance) -> None:
    """Record the events of ``seat``'s ``command`` (a RuleViolation leaves ``rec`` to be thrown away)."""
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


def step_seat(
    state: DecktetState, seat: int, command: PlayerCommand, chance: Chance
) -> tuple[list[DecktetEvent], DecktetState]:
    """The events of ``seat``'s ``command`` and the state after them (no check of who is on turn)."""
    rec = Recorder(state, evolve)
    play(rec, seat, command, chance)
    return rec.events, rec.state


def decide_action(state: DecktetState, seat: int, action: TurnAction) -> list[DecktetEvent]:
    """The events of one action of ``seat``'s action phase (R4, R9.1), or a RuleViolation."""
    if state.choices and not isinstance(action, Choose):
        raise ChoicesFirst(phrase=say("make your income choices first"), cards=state.choices)
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
