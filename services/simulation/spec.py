"""What a simulation plays: the games (seats, AI difficulty, bot policy, advanced), their seeds, and the
outcome of one game.

Game ``i`` of a simulation with seed text ``T`` uses the game seed ``SHA-256("magnate-simulate:T:i")`` and,
for each human seat ``s``, a bot seeded with the first 8 bytes of ``SHA-256("magnate-simulate:T:i:bot:s")``.
Nothing else is random, so the same seed text gives the same games, in-process or through the live service,
on any machine. The AI difficulty is deliberately *not* part of the seeds: simulations of several
difficulties play the very same games (common random numbers), so their differences come from the
difficulty alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

import msgspec

from domain.kernel import Command, Seat, commitment_of
from domain.kernel.driver import Policy
from domain.magnate import GameOptions, MagnateState, SeatSpec, StartGame
from domain.magnate.bots import Greedy, RandomLegal
from domain.magnate.catalog import catalog

BOTS: dict[str, Callable[[int], Policy[MagnateState]]] = {"greedy": Greedy, "random": RandomLegal}
"""The bot policies a human seat can be played by (they choose only among ``legal_commands``)."""

NO_AI = "none"
"""The difficulty value that seats no AI (every seat is a bot)."""


def difficulties() -> list[str]:
    """Every AI difficulty key, easiest first (T16: rising sale value modifier)."""
    return [d.key for d in sorted(catalog().ai_difficulties.values(), key=lambda d: d.sale_value_modifier)]


@dataclass(frozen=True, slots=True)
class SimSpec:
    """One arm of a simulation: ``games`` games with these settings. With an AI, it sits in the last seat."""

    games: int
    seats: int = 2
    """Every seat, the AI's included."""
    difficulty: str | None = "generalised_ai"
    """The AI's difficulty key, or None for no AI seat."""
    bot: str = "greedy"
    """The policy of every human seat (a key of :data:`BOTS`)."""
    advanced: bool = False
    seed: str = "magnate"
    """The seed text every game seed and bot seed derives from."""

    def __post_init__(self) -> None:
        if self.bot not in BOTS:
            raise ValueError(f"unknown bot {self.bot!r}; one of {sorted(BOTS)}")
        if self.games < 0:
            raise ValueError("games must not be negative")

    @property
    def ai(self) -> bool:
        return self.difficulty is not None

    @property
    def humans(self) -> int:
        return self.seats - 1 if self.ai else self.seats

    @property
    def name(self) -> str:
        """A short label: ``2 seats, generalised_ai, greedy bot``."""
        parts = [f"{self.seats} seats", self.difficulty or "no AI", f"{self.bot} bot"]
        if self.advanced:
            parts.append("advanced")
        return ", ".join(parts)

    def seat_kinds(self) -> tuple[str, ...]:
        return ("human",) * self.humans + (("ai",) if self.ai else ())

    def options(self) -> GameOptions:
        return GameOptions(seats=tuple(SeatSpec(kind=kind) for kind in self.seat_kinds()), advanced=self.advanced,
                           difficulty=self.difficulty)

    def start(self, seed: bytes) -> StartGame:
        return StartGame(options=self.options(), seed_commitment=commitment_of(seed))

    def game_seed(self, game: int) -> bytes:
        return hashlib.sha256(f"magnate-simulate:{self.seed}:{game}".encode()).digest()

    def bot_seed(self, game: int, seat: int) -> int:
        digest = hashlib.sha256(f"magnate-simulate:{self.seed}:{game}:bot:{seat}".encode()).digest()
        return int.from_bytes(digest[:8], "big")

    def bots(self, game: int) -> SeatBots:
        return SeatBots(self, game)


class SeatBots:
    """The policy of game ``game``: one bot per human seat, each with its own seed."""

    def __init__(self, spec: SimSpec, game: int) -> None:
        make = BOTS[spec.bot]
        self._bots = {seat: make(spec.bot_seed(game, seat)) for seat in range(spec.humans)}

    def __call__(self, state: MagnateState, seat: Seat) -> Command:
        command: Command = self._bots[seat](state, seat)
        return command


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome of one simulated game; identical for the same spec and game number wherever it ran."""

    arm: int
    """Index of the spec (arm) in the simulation."""
    game: int
    difficulty: str | None
    seed: str
    """The game seed, hex (also revealed in the game's log)."""
    cash: tuple[int, ...]
    """Final cash per seat ($K), after the crash."""
    winners: tuple[int, ...]
    """Seats with the most cash (more than one: a shared win)."""
    rounds: int
    """The round in which the market crashed."""
    events: int
    """Events in the log, the revealed seed included."""
    player_commands: int
    """Commands the bots issued (that appended events)."""
    system_jobs: int
    """System commands a worker ran: AI turns, dice, markets (not the start or the seed reveal)."""
