"""What a viewer may see (R1.7, §3.4, §3.7): everything but the other seats' hands (their sizes are public), the
other seats' deed preferences (R9.1a) and the draw pile (a count; it has no order to show). A seat also sees the
sorted list of the cards it has not seen (the draw pile and the other hands together, §3.4's open aid to
counting). Once the game is over every hand is shown; the auditor's view opens then.
"""

from __future__ import annotations

import msgspec

from domain.kernel import Viewer
from domain.kernel.viewing import opened

from .board import letter
from .scoring import controller, district_value
from .state import DecktetState, Phase, Roll, Score
from .turn import plays_required
from .variant import Variant


class PlacedView(msgspec.Struct, frozen=True, kw_only=True):
    card: str
    deed: bool
    tokens: tuple[int, ...]
    preference: str | None = None
    """Only for the deed's owner."""


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    crowns: tuple[str, ...]
    supply: tuple[int, ...]
    """Tokens in printed suit order (public, §2 terms)."""
    hand: tuple[str, ...] | None
    """The cards, for their owner (and everyone once the game is over); None otherwise."""
    hand_size: int
    columns: tuple[tuple[PlacedView, ...], ...]
    """One column per district, nearest the district card first."""
    values: tuple[int, ...]
    """The seat's value in each district now (R7.2)."""
    districts: int
    """Districts it would control now (§3.5's sidebar)."""
    total: int
    """Its total development value now (the first tie-breaker, D4)."""


class DistrictView(msgspec.Struct, frozen=True, kw_only=True):
    letter: str
    card: str
    builders: tuple[int, ...]
    controller: int | None


class DecktetView(msgspec.Struct, frozen=True, kw_only=True):
    viewer: str
    phase: str
    variant: Variant
    districts: tuple[DistrictView, ...]
    seats: tuple[SeatView, ...]
    piles: tuple[int, ...]
    """Cards left in the draw pile (V8: in each personal pile until the reshuffle)."""
    discard: tuple[str, ...]
    reshuffles: int
    """Reshuffles left (R6.5: shown beside the discard pile)."""
    final_round: bool
    """The final exhaustion has happened: nobody draws again (R6.5's warning)."""
    turns_left: int | None
    active: int
    turn: int
    plays: int
    plays_required: int
    choices: tuple[str, ...]
    roll: Roll | None
    unseen: tuple[str, ...]
    """The cards this viewer has not seen, sorted (the draw pile and the hands it may not see)."""
    scores: tuple[Score, ...]
    seed_commitment: str
    seed: str | None


def view(state: DecktetState, viewer: Viewer, game_over: bool = False) -> DecktetView:
    """The projection of ``state`` for ``viewer``.

    Raises:
        ViewUnavailable: for the auditor while the game runs, or before the game was set up.
    """
    over = game_over or state.phase == Phase.ENDED
    sees_all = opened(viewer, over, bool(state.seats))
    control = tuple(controller(state, d) for d in range(len(state.districts)))
    seats = []
    unseen: list[str] = [c for pile in state.piles for c in pile]
    for seat, held in enumerate(state.seats):
        mine = sees_all or viewer == seat
        if not mine:
            unseen += held.hand
        values = tuple(district_value(state, seat, d) for d in range(len(state.districts)))
        seats.append(SeatView(
            seat=seat, crowns=held.crowns, supply=held.supply, hand=held.hand if mine else None,
            hand_size=len(held.hand),
            columns=tuple(tuple(PlacedView(card=p.card, deed=p.deed, tokens=p.tokens,
                                           preference=p.preference if mine else None) for p in column)
                          for column in held.columns),
            values=values, districts=control.count(seat), total=sum(values)))
    return DecktetView(
        viewer=str(viewer), phase=str(state.phase), variant=state.variant,
        districts=tuple(DistrictView(letter=letter(d), card=card, builders=state.builders[d], controller=control[d])
                        for d, card in enumerate(state.districts)),
        seats=tuple(seats), piles=tuple(len(p) for p in state.piles), discard=state.discard,
        reshuffles=state.reshuffles, final_round=state.exhausted, turns_left=state.turns_left,
        active=state.active, turn=state.turn, plays=state.plays,
        plays_required=plays_required(state) if state.phase == Phase.PLAYING else 0,
        choices=state.choices, roll=state.roll, unseen=tuple(sorted(unseen)), scores=state.scores,
        seed_commitment=state.seed_commitment, seed=state.seed,
    )
