"""What each viewer may know of Dice Race: a seat sees its own secret number, nobody sees another's until the race
is over (``view``, ``redact``, and ``hide``, which the redaction tests vary); the seats, the story in sentences and
the bot."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.kernel import AUDITOR, Chance, SeatInfo, Viewer
from domain.kernel.bots import ChanceDraws, RandomLegal
from domain.kernel.narration import LineNarrator

from .messages import DiceRaceState, DiceRaceView, RollAsked, SecretDealt, SeedRevealed, Started, Thrown
from .rules import SECRETS, legal_commands


def _sees(viewer: Viewer, seat: int, over: bool) -> bool:
    return over or viewer in (AUDITOR, seat)


def view(state: DiceRaceState, viewer: Viewer, game_over: bool) -> DiceRaceView:
    over = state.over or game_over
    return DiceRaceView(
        goal=state.options.goal if state.options else 0, squares=state.squares,
        secrets=tuple(secret if _sees(viewer, seat, over) else None for seat, secret in enumerate(state.secrets)),
        turn=state.turn, asked=state.asked, over=state.over, seed_commitment=state.seed_commitment, seed=state.seed)


def redact(event: Any, viewer: Viewer, game_over: bool) -> Any | None:
    if isinstance(event, SecretDealt) and not _sees(viewer, event.seat, game_over):
        return msgspec.structs.replace(event, secret=None)
    return event


def hide(state: DiceRaceState, viewer: Viewer, seed: int) -> DiceRaceState:
    """``state`` with every secret ``viewer`` may not know drawn again (differently per ``seed``)."""
    if state.over or viewer == AUDITOR:
        return state
    chance = Chance(f"dice_race-hide:{seed}".encode(), 0)
    secrets = tuple(secret if viewer == seat else SECRETS[chance.below(len(SECRETS))]
                    for seat, secret in enumerate(state.secrets))
    return msgspec.structs.replace(state, secrets=secrets)


def seats(state: DiceRaceState) -> tuple[SeatInfo, ...]:
    kinds = state.options.seats if state.options else ()
    return tuple(SeatInfo(kind, "Computer" if kind == "ai" else f"Runner {seat + 1}")
                 for seat, kind in enumerate(kinds))


class Narrator(LineNarrator):
    """The race in sentences, naming seats with the players' names (the kernel's line narrator)."""

    def __init__(self, names: Mapping[int, str]) -> None:
        super().__init__(names)
        self.tellers = {
            Started: lambda e: [(0, [f"The race to square {e.options.goal} begins."])],
            SecretDealt: lambda e: [(0, [(e.seat,), " is dealt a secret number"
                                         f"{f' {e.secret}' if e.secret is not None else ''}."])],
            RollAsked: lambda e: [(0, [(e.seat,), " rolls."])],
            Thrown: lambda e: [(1, [(e.seat,), f" throws {e.pips} and reaches square {e.square}."])],
            SeedRevealed: lambda e: [(0, ["The seed is revealed."])],
        }

    def seat_name(self, seat: int) -> str:
        return self.names.get(seat) or f"Runner {seat + 1}"


def random_bot(seed: int) -> RandomLegal[DiceRaceState]:
    """The kernel's random legal bot (a runner has only ``roll`` to choose)."""
    return RandomLegal(legal_commands, ChanceDraws.seeded(f"dice_race-random:{seed}"))
