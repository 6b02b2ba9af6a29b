"""A game a person plays (issue #24): a game created over HTTP on a production server needs at least one seat a
person plays, so an anonymous client cannot have the computer play every seat (the workers' CPU spent for nobody).

A seat a person plays is a ``human`` seat of the game's own setup (``GameModule.seats`` after the start: every
game's options say it their own way, Magnate's ``seats[].kind``, Decktet's and Master of Economy's ``seats[].kind``
or their defaults) that the table does not give to a stand-in from the start (``table.stand_ins``). The service
itself (:meth:`Gameplay.create_game`, in process: the simulations, the benchmarks, an operator's scripts) and a
sandbox server are not held to it: all-computer games are how the engine and the workers are measured.
"""

from __future__ import annotations

from typing import Any

from domain.kernel import SYSTEM, Chance, GameModule, RuleViolation, commitment_of, fold
from domain.kernel.table import TableOptions

_DRY_SEED = bytes(32)
"""The seed of the dry start that tells who sits where (the seats never depend on the seed's draws)."""


class NobodyPlays(RuleViolation):
    """Every seat of the game would be played by the computer (HTTP 422)."""

    code = "table/nobody_plays"


def people_seats(game: GameModule[Any], options: Any, table: TableOptions | None) -> list[int]:
    """The seats a person plays in a game set up with ``options`` and ``table``; raises the game's RuleViolation
    for options it refuses (as creating the game would)."""
    start = game.start(options, commitment_of(_DRY_SEED))
    state = fold(game.evolve, game.decide(game.initial_state(), SYSTEM, start, Chance(_DRY_SEED, 1)),
                 game.initial_state())
    stand_ins = set(table.stand_ins) if table is not None else set()
    return [seat for seat, info in enumerate(game.seats(state)) if info.kind == "human" and seat not in stand_ins]


def require_a_person(game: GameModule[Any], options: Any, table: TableOptions | None) -> None:
    """:class:`NobodyPlays` unless at least one seat is a person's."""
    if not people_seats(game, options, table):
        raise NobodyPlays("a game needs at least one seat a person plays: make a seat human (and leave it out of "
                          "table.stand_ins)", field="options.seats")
