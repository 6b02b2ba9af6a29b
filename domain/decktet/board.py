"""The table as the rules read and change it: districts by letter, a seat's columns, its deeds.

Pure reads and copy-on-write updates of :class:`~.state.DecktetState`, shared by the decide and evolve halves of
the rules so that both speak of districts and columns the same way.
"""

from __future__ import annotations

from msgspec.structs import replace

from .state import DecktetState, Placed, SeatState

LETTERS = "abcdefghi"


def letter(index: int) -> str:
    return LETTERS[index]


def district_index(state: DecktetState, district: str) -> int | None:
    """The index of a district letter (case-insensitive), or None if the table has no such district."""
    index = LETTERS.find(district.lower()) if len(district) == 1 else -1
    return index if 0 <= index < len(state.districts) else None


def with_seat(state: DecktetState, seat: int, new: SeatState) -> DecktetState:
    seats = list(state.seats)
    seats[seat] = new
    return replace(state, seats=tuple(seats))


def with_column(seat: SeatState, district: int, column: tuple[Placed, ...]) -> SeatState:
    columns = list(seat.columns)
    columns[district] = column
    return replace(seat, columns=tuple(columns))


def find_placed(seat: SeatState, card: str) -> tuple[int, int] | None:
    """(district, position) of ``card`` in the seat's columns, or None."""
    for d, column in enumerate(seat.columns):
        for i, placed in enumerate(column):
            if placed.card == card:
                return d, i
    return None


def deeds(seat: SeatState) -> list[tuple[int, Placed]]:
    """The seat's incomplete deeds with their district, left to right."""
    return [(d, p) for d, column in enumerate(seat.columns) for p in column if p.deed]


def replace_placed(seat: SeatState, district: int, position: int, placed: Placed) -> SeatState:
    column = list(seat.columns[district])
    column[position] = placed
    return with_column(seat, district, tuple(column))


def without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``cards`` with one ``card`` taken out."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def with_added(cards: tuple[str, ...], *added: str) -> tuple[str, ...]:
    """A sorted hand or pile with ``added`` put in."""
    return tuple(sorted((*cards, *added)))


UNSEEN = "?"
"""A card of another seat's hand that a viewer's copy of the log does not name (its ``HandDealt``/``CardsDrawn``
came with ``cards`` empty). Folding the events a seat may see gives that seat's information set: its own hand
named, the others' hands as so many unseen cards, each still counted in the pile it came from."""


def dealt(state: DecktetState, seat: int, pile: int, cards: tuple[str, ...], count: int) -> DecktetState:
    """``seat`` takes ``cards`` from ``pile`` (or, in another viewer's copy, ``count`` cards it does not name)."""
    piles = list(state.piles)
    for card in cards:
        piles[pile] = without(piles[pile], card)
    held = state.seats[seat]
    taken = cards if cards or not count else (UNSEEN,) * count
    state = with_seat(state, seat, replace(held, hand=with_added(held.hand, *taken)))
    return replace(state, piles=tuple(piles))


def played(state: DecktetState, seat: int, card: str) -> tuple[DecktetState, tuple[str, ...]]:
    """The state with ``card`` out of ``seat``'s hand, and that hand. In a viewer's copy a card the viewer never
    saw dealt leaves as one of the unseen cards, and out of the pile that still counted it."""
    hand = state.seats[seat].hand
    if card in hand or UNSEEN not in hand:
        return state, without(hand, card)
    at = next((i for i, pile in enumerate(state.piles) if card in pile), None)
    if at is not None:
        piles = list(state.piles)
        piles[at] = without(piles[at], card)
        state = replace(state, piles=tuple(piles))
    return state, without(hand, UNSEEN)
