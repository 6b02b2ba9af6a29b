"""The state of a game of Decktet Magnate: frozen structs, the fold of its events.

Token amounts are tuples of six counts in printed suit order. Hands and draw piles are sorted tuples: a pile is a
set of cards, never an order (cards are drawn uniformly from it at the moment of drawing, R1.7 and §3.4), so no
future order exists anywhere to leak. Columns are kept per seat and per district (``columns[d]``); in the
three-player game a seat's column stays empty in a district it may not build in.
"""

from __future__ import annotations

import enum

import msgspec

from domain.kernel.table.facts import TableFacts

from .variant import Variant


class Phase(enum.StrEnum):
    SETUP = "setup"
    PLAYING = "playing"
    ENDED = "ended"


class Placed(msgspec.Struct, frozen=True):
    """A card in a column: a developed property, or a deed with the tokens on it (R4.2) and the owner's private
    income preference (R9.1a, a suit code or None)."""

    card: str
    deed: bool = False
    tokens: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    preference: str | None = None


class SeatState(msgspec.Struct, frozen=True):
    crowns: tuple[str, ...]
    supply: tuple[int, ...]
    hand: tuple[str, ...] = ()
    columns: tuple[tuple[Placed, ...], ...] = ()


class Roll(msgspec.Struct, frozen=True):
    """The roll of the turn in progress (R3): both d10s, the tax dice and the suits they taxed."""

    seat: int
    dice: tuple[int, ...]
    tax_dice: tuple[int, ...] = ()
    taxed: tuple[str, ...] = ()

    @property
    def income(self) -> int:
        """R3.3: the higher d10."""
        return max(self.dice)


class Score(msgspec.Struct, frozen=True):
    """A seat's result (R7): district values, districts controlled and the tie-breakers, and its rank."""

    seat: int
    values: tuple[int, ...]
    districts: int
    total: int
    tokens: int
    rank: int


class DecktetState(msgspec.Struct, frozen=True, kw_only=True):
    phase: Phase = Phase.SETUP
    variant: Variant = Variant()
    seed_commitment: str = ""
    seed: str | None = None
    districts: tuple[str, ...] = ()
    """District cards, ``a`` first (R1.2)."""
    builders: tuple[tuple[int, ...], ...] = ()
    """Who may build in each district (every seat but in the three-player Y, V4.2)."""
    seats: tuple[SeatState, ...] = ()
    piles: tuple[tuple[str, ...], ...] = ()
    """The draw pile, or (V8, until the reshuffle) one personal pile per seat."""
    discard: tuple[str, ...] = ()
    """The public discard pile, oldest first."""
    reshuffles: int = 0
    """Reshuffles left (R6.2; two in the three-player game)."""
    exhausted: bool = False
    """The final exhaustion has happened (R6.3): nobody draws again."""
    turns_left: int | None = None
    """After the final exhaustion: how many more turns are played (R6.4)."""
    first: int = 0
    active: int = 0
    turn: int = 0
    plays: int = 0
    """Card plays made this turn (R2.1, V2.5)."""
    choices: tuple[str, ...] = ()
    """The active seat's deeds awaiting its income choice (R9.1c)."""
    roll: Roll | None = None
    scores: tuple[Score, ...] = ()
    """Set when the game ends, best first."""
    table: TableFacts = TableFacts()
    """The table's facts (clocks, stand-ins, ...): changed only by the table's events (domain/kernel/table)."""
