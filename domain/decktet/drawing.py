"""Drawing at the end of the action phase (R6.1), the reshuffle (R6.2, V8) and the final exhaustion (R6.3).

A card is drawn uniformly from the pile at the moment of drawing (the pile is a set: no order is ever kept), with
the chance source of the command that ends the turn, and recorded in :class:`~.events.CardsDrawn`. When a draw
finds the pile empty, a reshuffle that is left turns the discards (V8: and both personal piles) into the one
draw pile, even when there are no discards (R6.3: the reshuffle then counts as used). The final exhaustion
happens when the last card is taken after the last reshuffle, or when a draw finds the pile empty with no
reshuffle left; after it nobody draws, and each seat plays one more turn (R6.4).
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import Chance

from .board import dealt
from .catalog import catalog
from .events import CardsDrawn, DiscardsReshuffled, FinalRoundStarted
from .recorder import Recorder
from .state import DecktetState
from .variant import mode


def draw(rec: Recorder, seat: int, chance: Chance) -> None:
    """R6.1: ``seat`` draws its cards (1, or 2 in Mega), reshuffling or exhausting the pile part-way if need be."""
    if rec.state.exhausted:
        return
    wanted = mode(catalog(rec.state.variant.dataset), rec.state.variant).draw
    drawn: list[str] = []

    def pile_of(state: DecktetState) -> int:
        return seat if len(state.piles) > 1 else 0

    def flush() -> None:
        if drawn:
            rec.emit(CardsDrawn(seat=seat, cards=tuple(sorted(drawn)), count=len(drawn), pile=pile_of(rec.state)))
            drawn.clear()

    for _ in range(wanted):
        pile = [c for c in rec.state.piles[pile_of(rec.state)] if c not in drawn] if drawn else \
            list(rec.state.piles[pile_of(rec.state)])
        if not pile:
            flush()
            while not rec.state.piles[pile_of(rec.state)] and rec.state.reshuffles > 0:
                state = rec.state
                rec.emit(DiscardsReshuffled(cards=len(state.discard) + sum(map(len, state.piles)),
                                            left=state.reshuffles - 1))
            pile = list(rec.state.piles[pile_of(rec.state)])
            if not pile:
                rec.emit(FinalRoundStarted(turns=len(rec.state.seats)))
                return
        drawn.append(pile[chance.below(len(pile))])
        if len(pile) == 1 and rec.state.reshuffles == 0:
            flush()
            rec.emit(FinalRoundStarted(turns=len(rec.state.seats)))
            return
    flush()


def apply_cards_drawn(state: DecktetState, event: CardsDrawn) -> DecktetState:
    return dealt(state, event.seat, event.pile, event.cards, event.count)


def apply_discards_reshuffled(state: DecktetState, event: DiscardsReshuffled) -> DecktetState:
    merged = tuple(sorted((*state.discard, *(c for pile in state.piles for c in pile))))
    return replace(state, piles=(merged,), discard=(), reshuffles=event.left)


def apply_final_round_started(state: DecktetState, event: FinalRoundStarted) -> DecktetState:
    return replace(state, exhausted=True, turns_left=event.turns)
