"""What a viewer may not know while the game runs (R1.7, R9.1a, §3.4): the other seats' hands (not their sizes),
the other seats' deed preferences, and which cards are still in the draw pile rather than in those hands.

:func:`redact` is the events as a viewer may see them: a card dealt or drawn shows its cards to the seat that
took them only (others see how many), and a preference is seen by its owner only. :func:`hide` is the property
tests' statement of the same: a state that differs only in what ``viewer`` may not know, the unseen cards dealt
again among the other hands and the pile (V8: within each seat's own copy of the deck until the reshuffle, since
a personal pile's cards can be told apart) and the others' preferences changed, so that everything handed to
``viewer`` must be the same for both. After the end, nothing is hidden.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.kernel import AUDITOR, PUBLIC, Chance, Viewer

from .board import with_seat
from .cards import info, suit_codes
from .events import CardsDrawn, HandDealt, PreferenceSet
from .state import DecktetState, Phase, Placed, SeatState


def redact(event: Any, viewer: Viewer, game_over: bool) -> Any | None:
    """``event`` as ``viewer`` may see it, or None when it may not see it at all."""
    if game_over or viewer == AUDITOR:
        return event
    if isinstance(event, HandDealt | CardsDrawn):
        return event if viewer == event.seat else replace(event, cards=())
    if isinstance(event, PreferenceSet):
        return event if viewer == event.seat else None
    return event


def hide(state: DecktetState, viewer: Viewer, seed: int) -> DecktetState:
    """``state`` with everything ``viewer`` may not know changed, differently per ``seed``."""
    if viewer == AUDITOR or state.phase != Phase.PLAYING:
        return state
    chance = Chance(f"decktet-hide:{seed}".encode(), 0)
    others = [s for s in range(len(state.seats)) if viewer == PUBLIC or s != viewer]
    if len(state.piles) > 1:  # V8 before the reshuffle: each seat's hand and pile are its own copy
        for s in others:
            state = _redeal(state, chance, [s], [s])
    else:
        state = _redeal(state, chance, others, [0])
    for s in others:
        state = with_seat(state, s, _new_preferences(state, state.seats[s], chance))
    return state


def _redeal(state: DecktetState, chance: Chance, hands: list[int], piles: list[int]) -> DecktetState:
    """Shuffle the cards of ``hands`` and ``piles`` together and deal them back in the same sizes."""
    pool = chance.shuffle([c for s in hands for c in state.seats[s].hand] + [c for p in piles for c in state.piles[p]])
    for s in hands:
        size = len(state.seats[s].hand)
        state = with_seat(state, s, replace(state.seats[s], hand=tuple(sorted(pool[:size]))))
        pool = pool[size:]
    new_piles = list(state.piles)
    for p in piles:
        size = len(state.piles[p])
        new_piles[p] = tuple(sorted(pool[:size]))
        pool = pool[size:]
    return replace(state, piles=tuple(new_piles))


def _new_preferences(state: DecktetState, held: SeatState, chance: Chance) -> SeatState:
    codes = suit_codes(state.variant.dataset)

    def changed(p: Placed) -> Placed:
        if not p.deed:
            return p
        options: list[str | None] = [None, *(codes[s] for s in info(state.variant.dataset, p.card).suits)]
        return replace(p, preference=chance.pick(options))

    return replace(held, columns=tuple(tuple(changed(p) for p in column) for column in held.columns))
