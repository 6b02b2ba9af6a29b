"""What a seat may know, and the worlds it cannot tell apart (the information set).

A seat knows its own hand and preferences and everything public (R1.7, R9.1a); it does not know how the cards it
has not seen are split between the other hands and the draw pile, nor the others' preferences. The computer
plans from :func:`canonical` (those unknowns replaced by one fixed arrangement, so that two states a seat cannot
tell apart give the same plan) and searches over :func:`determinise` (the unseen cards dealt at random, the
others' preferences cleared to the default of R9.1b). With the stacked deck (V8), before the reshuffle, each seat's
hand and personal pile are its own copy of the deck, so the unseen cards are dealt again within each copy (as
:func:`~domain.decktet.secrets.hide` does).
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from ..state import DecktetState, Phase, Placed, SeatState
from .stream import Stream

Order = Callable[[list[str]], list[str]]


def canonical(state: DecktetState, seat: int) -> DecktetState:
    """``state`` with what ``seat`` may not know put in a fixed order: the same for every state it cannot tell
    from this one."""
    return _deal(state, seat, sorted)


def determinise(state: DecktetState, seat: int, stream: Stream) -> DecktetState:
    """One world ``seat`` cannot tell from ``state``, drawn uniformly: the unseen cards dealt at random."""
    return _deal(state, seat, lambda pool: stream.shuffle(sorted(pool)))


def _deal(state: DecktetState, seat: int, order: Order) -> DecktetState:
    if state.phase != Phase.PLAYING:
        return state
    others = [s for s in range(len(state.seats)) if s != seat]
    seats = list(state.seats)
    piles = list(state.piles)
    groups = [([s], [s]) for s in others] if len(piles) > 1 else [(others, [0])]
    for hands, own_piles in groups:
        pool = order([c for s in hands for c in seats[s].hand] + [c for p in own_piles for c in piles[p]])
        for s in hands:
            size = len(seats[s].hand)
            seats[s] = replace(seats[s], hand=tuple(sorted(pool[:size])))
            pool = pool[size:]
        for p in own_piles:
            piles[p] = tuple(sorted(pool[: len(piles[p])]))
            pool = pool[len(piles[p]):]
    for s in others:
        seats[s] = _without_preferences(seats[s])
    return replace(state, seats=tuple(seats), piles=tuple(piles))


def _without_preferences(held: SeatState) -> SeatState:
    if not any(p.preference is not None for column in held.columns for p in column):
        return held
    return replace(held, columns=tuple(tuple(_cleared(p) for p in column) for column in held.columns))


def _cleared(placed: Placed) -> Placed:
    return replace(placed, preference=None) if placed.preference is not None else placed
