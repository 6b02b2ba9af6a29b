"""What each viewer may know of Dice Race: a seat sees its own secret number, nobody sees another's until the race
is over (``view``, ``redact``, and ``hide``, which the redaction tests vary); the seats, the story in sentences and
the bot."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.kernel import AUDITOR, Chance, Named, SeatInfo, Told, Viewer
from domain.kernel.bots import ChanceDraws, RandomLegal
from domain.kernel.narration import utf16_length

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


class Narrator:
    """The race in sentences, naming seats with the players' names."""

    def __init__(self, names: Mapping[int, str]) -> None:
        self.names = dict(names)

    def tell(self, version: int, tag: str, event: Any) -> list[Told]:
        match event:
            case Started(options=options):
                return [self._line(version, tag, f"The race to square {options.goal} begins.")]
            case SecretDealt(seat=seat, secret=secret):
                number = f" {secret}" if secret is not None else ""
                return [self._line(version, tag, "", seat, f" is dealt a secret number{number}.")]
            case RollAsked(seat=seat):
                return [self._line(version, tag, "", seat, " rolls.")]
            case Thrown(seat=seat, pips=pips, square=square):
                return [self._line(version, tag, "", seat, f" throws {pips} and reaches square {square}.", depth=1)]
            case SeedRevealed():
                return [self._line(version, tag, "The seed is revealed.")]
        return []

    def _line(self, version: int, tag: str, before: str, seat: int | None = None, after: str = "",
              depth: int = 0) -> Told:
        if seat is None:
            return Told(version, tag, depth, before)
        name = self.names.get(seat, f"Runner {seat + 1}")
        start = utf16_length(before)
        return Told(version, tag, depth, before + name + after, (Named(seat, start, start + utf16_length(name)),))


def narrator(names: Mapping[int, str]) -> Narrator:
    return Narrator(names)


def random_bot(seed: int) -> RandomLegal[DiceRaceState]:
    """The kernel's random legal bot (a runner has only ``roll`` to choose)."""
    return RandomLegal(legal_commands, ChanceDraws.seeded(f"dice_race-random:{seed}"))
