"""Dice Race: a deliberately tiny game that exists only for the tests (issue #25, "prove it"). It is never offered to
players (it is not in ``domain/games.py``); the tests' registry (``tests/games/registry.py``, named by
``MAGNATE_GAMES``) serves it beside the real games, through the API, the worker, the page (its bundle is ``web/``
here), redaction, ``simulate`` and ``verify``, with nothing outside this folder and that registry naming it.

Two runners race to a goal square; each holds a secret number only it sees until the end (see :mod:`.messages`).
Like every game, it is a pure package that imports from the domain only the kernel.
"""

from __future__ import annotations

from domain.kernel import GameModule, start_and_reveal

from .messages import DiceRaceOptions, DiceRaceState, Events, RevealSeed, Roll, Start, SystemCommands
from .rules import decide, evolve, legal_commands, outcome, pending, step
from .views import Narrator, hide, random_bot, redact, seats, view

NAME = "dice_race"


def _sim_options(kinds: tuple[str, ...], level: str | None, flags: frozenset[str]) -> DiceRaceOptions:
    if len(kinds) != 2:
        raise ValueError("Dice Race is for two runners")
    return DiceRaceOptions(seats=tuple("ai" if kind == "ai" else "human" for kind in kinds))


GAME: GameModule[DiceRaceState] = GameModule(
    name=NAME,
    state_type=DiceRaceState,
    player_command_type=Roll,
    system_command_type=SystemCommands,
    event_type=Events,
    options_type=DiceRaceOptions,
    **start_and_reveal(Start, RevealSeed),
    seats=seats,
    initial_state=DiceRaceState,
    decide=decide,
    step=step,
    evolve=evolve,
    pending=pending,
    view=view,
    legal_commands=legal_commands,
    title="Dice Race",
    narrator=Narrator,
    redact=redact,
    events_public=False,
    hide=hide,
    outcome=outcome,
    bots={"random": random_bot},
    ai_levels=("plain",),
    sim_options=_sim_options,
)

__all__ = ["GAME", "NAME", "DiceRaceOptions", "DiceRaceState"]
