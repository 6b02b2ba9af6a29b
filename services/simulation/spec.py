"""What a simulation plays: the game, its seats, the AI level, the bot policy and the variants (flags), the
seeds, and the outcome of one game. Everything about the game comes from its module in the process's registry
(``MAGNATE_GAMES``, :mod:`services.gameplay.registry`: the command line passes it; a spec carries the registry's
name to the processes that play it): its bots, its AI levels, its options for a simulated game and its outcome.

Game ``i`` of a simulation of game ``G`` with seed text ``T`` uses the game seed ``SHA-256("G-simulate:T:i")``
and, for each human seat ``s``, a bot seeded with the first 8 bytes of ``SHA-256("G-simulate:T:i:bot:s")``.
Nothing else is random, so the same seed text gives the same games, in-process or through the live service,
on any machine. The AI level is deliberately *not* part of the seeds: simulations at several levels play the
very same games (common random numbers), so their differences come from the level alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.kernel import Command, GameModule, Seat, SystemCommand, commitment_of
from services.gameplay.registry import DEFAULT as OFFERED
from services.gameplay.registry import registry

NO_AI = "none"
"""The difficulty value that seats no AI (every seat is a bot)."""
DEFAULT = "default"
"""For :attr:`SimSpec.difficulty` and :attr:`SimSpec.bot`: the game's own default (:func:`default_level`, the
first of its bots)."""


def games(named: str = OFFERED) -> Mapping[str, GameModule[Any]]:
    """The games of the registry ``named`` (``package.module:attribute``, the ``MAGNATE_GAMES`` setting)."""
    return registry(named).games


def first_game(named: str = OFFERED) -> str:
    """The game ``simulate`` plays unless told: the first one registered."""
    return next(iter(games(named)))


def module(game: str, named: str = OFFERED) -> GameModule[Any]:
    """The registered game ``game`` (ValueError for an unknown one)."""
    known = games(named)
    try:
        return known[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}; one of {', '.join(known)}") from None


def difficulties(game: str | None = None, named: str = OFFERED) -> list[str]:
    """The AI levels of ``game`` (default: the first registered), weakest first."""
    return list(module(game or first_game(named), named).ai_levels)


def default_level(game: GameModule[Any]) -> str | None:
    """The AI level a simulation plays against unless told: the middle one (the weaker of the two middle ones),
    None for a game without an AI."""
    levels = game.ai_levels
    return levels[(len(levels) - 1) // 2] if levels else None


def score_text(game: GameModule[Any]) -> Callable[[int], str]:
    """How ``game`` writes a score (a whole number of its points): the contract's ``score_text``."""
    return game.score_text


@dataclass(frozen=True, slots=True)
class SimSpec:
    """One arm of a simulation: ``games`` games with these settings. With an AI, it sits in the last seat.

    ``game`` defaults to the first registered game, ``difficulty`` and ``bot`` to the game's own defaults
    (:data:`DEFAULT`) and ``seed`` to the game's name; each is checked against the game's module."""

    games: int
    seats: int = 2
    """Every seat, the AI's included."""
    difficulty: str | None = DEFAULT
    """The AI's level (one of the game's ``ai_levels``), or None for no AI seat."""
    bot: str = DEFAULT
    """The policy of every human seat (a key of the game's ``bots``)."""
    flags: frozenset[str] = field(default_factory=frozenset)
    """Variants switched on (some of the game's ``sim_flags``)."""
    seed: str = ""
    """The seed text every game seed and bot seed derives from."""
    game: str = ""
    """The game's type name in the registry."""
    registry: str = OFFERED
    """The registry the game is in (``package.module:attribute``: the ``MAGNATE_GAMES`` setting, by default the games
    offered to players); a name, so the processes that play the spec's games find the same game."""

    def __post_init__(self) -> None:
        game = module(self.game or first_game(self.registry), self.registry)
        object.__setattr__(self, "game", game.name)
        object.__setattr__(self, "seed", self.seed or game.name)
        object.__setattr__(self, "flags", frozenset(self.flags))
        if self.difficulty == DEFAULT:
            object.__setattr__(self, "difficulty", default_level(game))
        if self.bot == DEFAULT and game.bots:
            object.__setattr__(self, "bot", next(iter(game.bots)))
        if self.bot not in game.bots:
            raise ValueError(f"unknown bot {self.bot!r} for {game.name}; one of {', '.join(game.bots)}")
        if self.difficulty is not None and self.difficulty not in game.ai_levels:
            raise ValueError(f"unknown difficulty {self.difficulty!r} for {game.name}; one of "
                             f"{', '.join(game.ai_levels) or '(it has no AI)'}")
        if unknown := self.flags - set(game.sim_flags):
            raise ValueError(f"unknown flag(s) {', '.join(sorted(unknown))} for {game.name}; one of "
                             f"{', '.join(game.sim_flags) or '(it has none)'}")
        if game.sim_options is None:
            raise ValueError(f"{game.name} cannot be simulated (its module has no sim_options)")
        if self.games < 0:
            raise ValueError("games must not be negative")

    @property
    def module(self) -> GameModule[Any]:
        return games(self.registry)[self.game]

    @property
    def ai(self) -> bool:
        return self.difficulty is not None

    @property
    def humans(self) -> int:
        return self.seats - 1 if self.ai else self.seats

    @property
    def name(self) -> str:
        """A short label: ``2 seats, generalised_ai, greedy bot``."""
        return ", ".join([f"{self.seats} seats", self.difficulty or "no AI", f"{self.bot} bot", *sorted(self.flags)])

    def seat_kinds(self) -> tuple[str, ...]:
        return ("human",) * self.humans + (("ai",) if self.ai else ())

    def options(self) -> Any:
        """The game's options of these games (what a create request carries)."""
        make = self.module.sim_options
        assert make is not None  # checked when the spec was made
        return make(self.seat_kinds(), self.difficulty, self.flags)

    def start(self, seed: bytes) -> SystemCommand:
        return self.module.start(self.options(), commitment_of(seed))

    def game_seed(self, game: int) -> bytes:
        return hashlib.sha256(f"{self.game}-simulate:{self.seed}:{game}".encode()).digest()

    def bot_seed(self, game: int, seat: int) -> int:
        digest = hashlib.sha256(f"{self.game}-simulate:{self.seed}:{game}:bot:{seat}".encode()).digest()
        return int.from_bytes(digest[:8], "big")

    def bots(self, game: int) -> SeatBots:
        return SeatBots(self, game)

    def describe(self) -> dict[str, object]:
        """The spec as plain data (for the JSON result)."""
        return {"game": self.game, "games": self.games, "seats": self.seats, "difficulty": self.difficulty,
                "bot": self.bot, "flags": sorted(self.flags), "seed": self.seed}


class SeatBots:
    """The policy of game ``game``: one bot per human seat, each with its own seed."""

    def __init__(self, spec: SimSpec, game: int) -> None:
        make = spec.module.bots[spec.bot]
        self._bots = {seat: make(spec.bot_seed(game, seat)) for seat in range(spec.humans)}

    def __call__(self, state: Any, seat: Seat) -> Command:
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
    scores: tuple[int, ...]
    """Final score per seat (the game's standings; Magnate: cash in $K after the crash)."""
    winners: tuple[int, ...]
    """Seats ranked first (more than one: a shared win)."""
    rounds: int
    """Rounds played (the game's outcome; Magnate: the round of the crash)."""
    events: int
    """Events in the log, the revealed seed included."""
    player_commands: int
    """Commands the bots issued (that appended events)."""
    system_jobs: int
    """System commands a worker ran: AI turns, dice, markets (not the start or the seed reveal)."""



def arms(games: int, *, game: str | None = None, seats: int = 2, difficulty: str | None = None,
         bot: str | None = None, flags: frozenset[str] = frozenset(), seed: str | None = None,
         registry: str = OFFERED) -> list[SimSpec]:
    """The specs of a command line (``magnate simulate``): one per AI level in ``difficulty`` — a level of the
    game, ``all`` (every level, the same games), :data:`NO_AI`, or None for the game's default; the game, the
    bot and the seed default as in :class:`SimSpec`; ``registry`` names the registry the game is in. Raises
    ValueError, saying what is known, for anything the game does not have."""
    rules = module(game or first_game(registry), registry)
    levels = list(rules.ai_levels)
    chosen: list[str | None]
    if difficulty is None:
        chosen = [DEFAULT]
    elif difficulty == "all":
        chosen = list(levels) or [None]
    elif difficulty == NO_AI:
        chosen = [None]
    elif difficulty in levels:
        chosen = [difficulty]
    else:
        raise ValueError(f"unknown difficulty {difficulty!r} for {rules.name}; one of "
                         f"{', '.join([*levels, 'all', NO_AI] if levels else [NO_AI])}")
    return [SimSpec(games=games, seats=seats, difficulty=level, bot=bot or DEFAULT, flags=flags, seed=seed or "",
                    game=rules.name, registry=registry) for level in chosen]
