"""Final scoring (R7): hands and incomplete deeds count for nothing (R7.1); each district's value per seat (R7.2,
V5, V6); control (R7.3, V4.5); the winner by districts controlled, then total development value (D4), then tokens
left (R7.5), else a shared win.

The same functions score a running game (the view's sidebar, §3.5) and the end, so a final score can always be
recomputed from the final state.
"""

from __future__ import annotations

from msgspec.structs import replace

from .cards import info
from .economy import economy
from .events import GameEnded
from .recorder import Recorder
from .state import DecktetState, Phase, Placed, Score


def _developed(column: tuple[Placed, ...]) -> list[str]:
    return [p.card for p in column if not p.deed]


def district_value(state: DecktetState, seat: int, district: int) -> int:
    """R7.2: the developed properties of ``seat``'s column; an Ace counts the developed cards of its suit in that
    column, itself included (V6: also the district card and every other column there; V5: an Ace is worth 1)."""
    dataset = state.variant.dataset
    eco = economy(state.variant)
    own = _developed(state.seats[seat].columns[district])
    total = 0
    for card in own:
        card_info = info(dataset, card)
        fixed = eco.fixed_value(card_info)
        if fixed or not card_info.ace:
            total += fixed
            continue
        suit = card_info.suits[0]
        counted = list(own)
        if state.variant.deucey:
            counted.append(state.districts[district])
            counted += [c for s, other in enumerate(state.seats) if s != seat
                        for c in _developed(other.columns[district])]
        total += sum(1 for c in counted if suit in info(dataset, c).suits)
    return total


def controller(state: DecktetState, district: int) -> int | None:
    """R7.3, V4.5: the builder with the highest value there, or None on a tie for highest (including 0 to 0)."""
    values = [(district_value(state, s, district), s) for s in state.builders[district]]
    best = max(v for v, _ in values)
    leaders = [s for v, s in values if v == best]
    return leaders[0] if len(leaders) == 1 else None


def standings(state: DecktetState) -> tuple[tuple[Score, ...], tuple[int | None, ...]]:
    """Every seat's score, best first (seat order among equals), and who controls each district."""
    control = tuple(controller(state, d) for d in range(len(state.districts)))
    rows = []
    for seat, held in enumerate(state.seats):
        values = tuple(district_value(state, seat, d) for d in range(len(state.districts)))
        rows.append((control.count(seat), sum(values), sum(held.supply), seat, values))
    scores = [Score(seat=seat, values=values, districts=won, total=total, tokens=tokens,
                    rank=1 + sum(1 for r in rows if r[:3] > (won, total, tokens)))
              for won, total, tokens, seat, values in rows]
    return tuple(sorted(scores, key=lambda s: (s.rank, s.seat))), control


def finish(rec: Recorder) -> None:
    """The end of the game: score it (R7)."""
    scores, control = standings(rec.state)
    rec.emit(GameEnded(scores=scores, control=control))


def apply_game_ended(state: DecktetState, event: GameEnded) -> DecktetState:
    return replace(state, phase=Phase.ENDED, scores=event.scores, choices=())
