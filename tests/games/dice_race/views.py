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
from domain.kernel.phrases import say, seat
from domain.kernel.reveal import seed_revealed

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
    """The race in phrases (the kernel's line narrator; the services name the seats in the reader's language)."""

    def __init__(self, names: Mapping[int, str]) -> None:
        super().__init__(names)
        self.tellers = {
            Started: lambda e: [(0, say("The race to square {goal} begins.", goal=e.options.goal))],
            SecretDealt: lambda e: [(0, say("{seat} is dealt a secret number.", seat=seat(e.seat))
                                     if e.secret is None else
                                     say("{seat} is dealt the secret number {secret}.", seat=seat(e.seat),
                                         secret=f"{e.secret:06d}"))],
            RollAsked: lambda e: [(0, say("{seat} rolls.", seat=seat(e.seat)))],
            Thrown: lambda e: [(1, say("{seat} throws {pips} and reaches square {square}.", seat=seat(e.seat),
                                       pips=e.pips, square=e.square))],
            SeedRevealed: lambda e: [(0, seed_revealed(e.seed))],
        }


def random_bot(seed: int) -> RandomLegal[DiceRaceState]:
    """The kernel's random legal bot (a runner has only ``roll`` to choose)."""
    return RandomLegal(legal_commands, ChanceDraws.seeded(f"dice_race-random:{seed}"))
