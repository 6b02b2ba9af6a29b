"""Dice Race's options, commands, events and state.

Each seat is dealt a secret number (six digits) at the start that only it sees until the game is over. On its turn
a seat asks to roll (``dice_race.roll``); the die is thrown by the service (the system command
``dice_race.throw``, run by a worker with the game's seeded chance) and the seat moves that many squares. The first
seat to reach the goal ends the race; then every secret is shown, and a seat's score is its square plus the last
digit of its secret number.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.kernel import Command, Event, SystemCommand
from domain.kernel.table import TableFacts

SeatKind = Literal["human", "ai"]


class DiceRaceOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Two seats (``human`` or ``ai``: the computer rolls for an ``ai`` seat) racing to ``goal``."""

    seats: Annotated[tuple[SeatKind, ...], msgspec.Meta(min_length=2, max_length=2)] = ("human", "human")
    goal: Annotated[int, msgspec.Meta(ge=6, le=60)] = 20


# -- commands -----------------------------------------------------------------------------------


class Roll(Command, frozen=True, tag="dice_race.roll"):
    """The seat on turn asks for its die to be thrown."""


class Start(SystemCommand, frozen=True, tag="dice_race.start"):
    options: DiceRaceOptions
    seed_commitment: str


class Throw(SystemCommand, frozen=True, tag="dice_race.throw"):
    """The die of the seat that asked to roll (the service's: its chance source is the game's seeded one)."""


class ComputerRolls(SystemCommand, frozen=True, tag="dice_race.computer_rolls"):
    """The computer asks to roll for an ``ai`` seat on turn."""


class RevealSeed(SystemCommand, frozen=True, tag="dice_race.reveal_seed"):
    seed: str


SystemCommands = Start | Throw | ComputerRolls | RevealSeed


# -- events -------------------------------------------------------------------------------------


class Started(Event, frozen=True, tag="dice_race.started"):
    options: DiceRaceOptions
    seed_commitment: str


class SecretDealt(Event, frozen=True, tag="dice_race.secret_dealt"):
    """``seat``'s secret number: another viewer sees the event with ``secret`` None until the game is over."""

    seat: int
    secret: int | None


class RollAsked(Event, frozen=True, tag="dice_race.roll_asked"):
    seat: int


class Thrown(Event, frozen=True, tag="dice_race.thrown"):
    seat: int
    pips: int
    square: int
    """Where the seat stands now."""


class SeedRevealed(Event, frozen=True, tag="dice_race.seed_revealed"):
    seed: str


Events = Started | SecretDealt | RollAsked | Thrown | SeedRevealed


# -- state --------------------------------------------------------------------------------------


class DiceRaceState(msgspec.Struct, frozen=True):
    options: DiceRaceOptions | None = None
    """None until the start."""
    seed_commitment: str = ""
    seed: str | None = None
    squares: tuple[int, ...] = ()
    secrets: tuple[int, ...] = ()
    turn: int = 0
    """The seat on turn."""
    asked: bool = False
    """The seat on turn has asked to roll: the throw is due."""
    throws: int = 0
    table: TableFacts = TableFacts()

    @property
    def over(self) -> bool:
        return self.options is not None and max(self.squares) >= self.options.goal


class DiceRaceView(msgspec.Struct, frozen=True):
    """What a viewer sees: every square, its own secret (everyone's once the race is over)."""

    goal: int
    squares: tuple[int, ...]
    secrets: tuple[int | None, ...]
    turn: int
    asked: bool
    over: bool
    seed_commitment: str
    seed: str | None
