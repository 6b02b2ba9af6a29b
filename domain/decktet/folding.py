"""``evolve``: the fold of Decktet Magnate's events (a lookup table over the rules modules' evolve halves)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from domain.kernel.decider import evolve_by_type, replay_of, unchanged
from domain.kernel.reveal import apply_seed_revealed

from . import actions, drawing, plays, roll, scoring, setup, turn
from .events import (
    AiTurnPlanned,
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
from .state import DecktetState


def initial_state() -> DecktetState:
    return DecktetState()


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
    AiTurnPlanned: unchanged,
    SeedRevealed: apply_seed_revealed,
}
"""Event type -> the rule's evolve half (a lookup: folding is the hot path of every read)."""

HANDLED_EVENTS = frozenset(_APPLY)


evolve: Callable[[DecktetState, DecktetEvent], DecktetState] = evolve_by_type(_APPLY)
"""Apply one event; total for every valid history, and never draws or validates."""

replay: Callable[[Iterable[DecktetEvent]], DecktetState] = replay_of(evolve, initial_state)
"""The state after a whole log."""
