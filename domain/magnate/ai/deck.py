"""The AI's action decks (§11.1, §11.5 step 1): one deck per level, the "first AI action" card on top of
level I, level-ups when a deck runs out, and the level IV reshuffle of its own discards.

A deck is kept as the set of cards not yet drawn; a draw picks uniformly among them (except the first
action card, which is on top), so no future card order exists anywhere to leak.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import Chance

from ..city import catalog_of
from ..events import AiCardDrawn, AiCardResolved, AiDeckReshuffled, AiLevelRaised
from ..recorder import Recorder
from ..state import AiState, MagnateState


def ai_of(state: MagnateState) -> AiState:
    assert state.ai is not None, "this game has no AI seat"
    return state.ai


def initial_ai(state: MagnateState, seat: int) -> AiState:
    """§11.1: level I, every level's cards in its deck, empty rows and discard pile."""
    cat = catalog_of(state)
    levels = sorted(cat.ai_levels)
    decks = tuple(tuple(c.id for c in cat.files.ai_cards if c.level == level) for level in levels)
    return AiState(seat=seat, level=levels[0], decks=decks)


def draw(rec: Recorder, chance: Chance) -> str:
    """Draw the AI's next card, raising the level or reshuffling level IV when the deck is empty."""
    cat = catalog_of(rec.state)
    top_level = max(cat.ai_levels)
    ai = ai_of(rec.state)
    while not ai.decks[ai.level - 1]:
        if ai.level < top_level:
            rec.emit(AiLevelRaised(seat=ai.seat, level=ai.level + 1, reason="its deck is empty"))
        else:
            cards = tuple(c for c in ai.discard if cat.ai_cards[c].level == top_level)
            rec.emit(AiDeckReshuffled(seat=ai.seat, level=top_level, cards=cards))
        ai = ai_of(rec.state)
    deck = ai.decks[ai.level - 1]
    first = [c for c in deck if cat.ai_cards[c].first_action]
    card = first[0] if first else chance.pick(deck)
    rec.emit(AiCardDrawn(seat=ai.seat, card=card, level=ai.level))
    return card


def _with_deck(ai: AiState, level: int, cards: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(cards if i == level - 1 else deck for i, deck in enumerate(ai.decks))


def apply_card_drawn(state: MagnateState, event: AiCardDrawn) -> MagnateState:
    ai = ai_of(state)
    deck = tuple(c for c in ai.decks[event.level - 1] if c != event.card)
    return replace(state, ai=replace(ai, decks=_with_deck(ai, event.level, deck)))


def apply_level_raised(state: MagnateState, event: AiLevelRaised) -> MagnateState:
    return replace(state, ai=replace(ai_of(state), level=event.level))


def apply_deck_reshuffled(state: MagnateState, event: AiDeckReshuffled) -> MagnateState:
    ai = ai_of(state)
    discard = tuple(c for c in ai.discard if c not in event.cards)
    return replace(state, ai=replace(ai, decks=_with_deck(ai, event.level, event.cards), discard=discard))


def apply_card_resolved(state: MagnateState, event: AiCardResolved) -> MagnateState:
    ai = ai_of(state)
    return replace(state, ai=replace(ai, discard=(*ai.discard, event.card), last_card=event.card))
