"""Builders for Decktet Magnate tests: a started game, a state arranged by hand, scripted dice."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.decktet.commands import StartGame
from domain.decktet.decider import step
from domain.decktet.economy import tokens
from domain.decktet.events import DecktetEvent
from domain.decktet.state import DecktetState, Placed, SeatState
from domain.decktet.variant import GameOptions
from domain.kernel import SYSTEM, Chance

SUIT = {c: i for i, c in enumerate("MSVLYK")}


def supply(**counts: int) -> tuple[int, ...]:
    """``supply(M=3, S=5)`` -> six counts."""
    return tokens({SUIT[k]: v for k, v in counts.items()})


class Scripted(Chance):
    """A chance source whose ``below`` answers come from a script (then from the seed): ``Scripted(d10=(7, 1),
    d6=(6,))`` rolls 7 and 1 and a tax die of 6 (Knots)."""

    def __init__(self, *answers: int, seed: bytes = b"scripted") -> None:
        super().__init__(seed, 0)
        self.answers = list(answers)

    def below(self, n: int) -> int:
        if self.answers:
            answer = self.answers.pop(0)
            assert 0 <= answer < n, (answer, n)
            return answer
        return super().below(n)


def dice(*faces: int) -> list[int]:
    """Script answers for dice showing ``faces``."""
    return [f - 1 for f in faces]


def started(seed: bytes = b"test", **options: Any) -> tuple[list[DecktetEvent], DecktetState]:
    """A game just set up (its first roll made), from the seed."""
    return step(DecktetState(), SYSTEM, StartGame(options=GameOptions(**options), seed_commitment="c"),
                Chance(seed, 1))


def column(*cards: str | tuple[str, tuple[int, ...]]) -> tuple[Placed, ...]:
    """Developed cards, or ``(card, tokens)`` for a deed holding ``tokens``."""
    return tuple(Placed(card=c) if isinstance(c, str) else Placed(card=c[0], deed=True, tokens=c[1]) for c in cards)


def arrange(state: DecktetState, seat: int, *, hand: tuple[str, ...] | None = None,
            supply_: tuple[int, ...] | None = None, columns: dict[int, tuple[Placed, ...]] | None = None,
            crowns: tuple[str, ...] | None = None) -> DecktetState:
    """``state`` with ``seat``'s hand, supply, columns or Crowns replaced. Cards put in a hand or column are taken
    out of the piles, the discard and every other hand, so every card stays in exactly one place."""
    held = state.seats[seat]
    placed = [c for col in (columns or {}).values() for c in (p.card for p in col)]
    moved = set((hand or ()) + tuple(placed))
    state = _take_out(state, moved)
    held = state.seats[seat]
    cols = list(held.columns)
    for d, col in (columns or {}).items():
        cols[d] = col
    new = SeatState(crowns=crowns if crowns is not None else held.crowns,
                    supply=supply_ if supply_ is not None else held.supply,
                    hand=tuple(sorted(hand)) if hand is not None else held.hand, columns=tuple(cols))
    seats = list(state.seats)
    seats[seat] = new
    return replace(state, seats=tuple(seats))


def _take_out(state: DecktetState, cards: set[str]) -> DecktetState:
    """Remove ``cards`` from wherever they are; hands that lose cards are refilled from the first pile."""
    piles = [tuple(c for c in p if c not in cards) for p in state.piles]
    seats = []
    for held in state.seats:
        hand = [c for c in held.hand if c not in cards]
        while len(hand) < len(held.hand) and piles[0]:
            hand.append(piles[0][0])
            piles[0] = piles[0][1:]
        columns = tuple(tuple(p for p in col if p.card not in cards) for col in held.columns)
        seats.append(replace(held, hand=tuple(sorted(hand)), columns=columns))
    return replace(state, piles=tuple(piles), discard=tuple(c for c in state.discard if c not in cards),
                   seats=tuple(seats))


def fresh_turn(state: DecktetState, seat: int) -> DecktetState:
    """``state`` at the start of ``seat``'s action phase, with no roll pending choices and no plays made."""
    return replace(state, active=seat, plays=0, choices=())


def rolled(state: DecktetState, seat: int, *answers: int) -> tuple[list[DecktetEvent], DecktetState]:
    """Open ``seat``'s turn on ``state`` with scripted dice (``dice(7, 1) + dice(6)``)."""
    from domain.decktet.decider import evolve
    from domain.decktet.recorder import Recorder
    from domain.decktet.turn import begin

    rec = Recorder(state, evolve)
    begin(rec, seat, Scripted(*answers))
    return rec.events, rec.state


def act(state: DecktetState, seat: int, command: Any, *answers: int) -> tuple[list[DecktetEvent], DecktetState]:
    """``seat`` issues ``command`` (scripted chance answers for draws and the next roll)."""
    return step(state, seat, command, Scripted(*answers))  # type: ignore[arg-type]
