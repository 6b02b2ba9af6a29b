"""Magnate: The First City — the rules as a pure game module (spec: shared/rules/magnate-the-first-city.md).

Services use only :data:`GAME` and the names re-exported here.
"""

from domain.kernel import GameModule, SeatInfo

from .catalog import Catalog
from .commands import GameOptions, MagnateSystemCommand, PlayerCommand, RevealSeed, SeatSpec, StartGame
from .decider import decide, evolve, initial_state, replay, step
from .events import MagnateEvent
from .legal import legal_commands
from .pending import pending
from .state import MagnateState, Phase
from .view import MagnateView, view


def _start(options: GameOptions, seed_commitment: str) -> StartGame:
    return StartGame(options=options, seed_commitment=seed_commitment)


def _reveal(seed_hex: str) -> RevealSeed:
    return RevealSeed(seed=seed_hex)


def _seats(state: MagnateState) -> tuple[SeatInfo, ...]:
    return tuple(SeatInfo(kind=str(s.kind), label=s.company) for s in state.seats)


GAME: GameModule[MagnateState] = GameModule(
    name="magnate",
    state_type=MagnateState,
    player_command_type=PlayerCommand,
    system_command_type=MagnateSystemCommand,
    event_type=MagnateEvent,
    options_type=GameOptions,
    start=_start,
    reveal=_reveal,
    seats=_seats,
    initial_state=initial_state,
    decide=decide,
    step=step,
    evolve=evolve,
    pending=pending,
    view=view,
    legal_commands=legal_commands,
)

__all__ = [
    "GAME",
    "Catalog",
    "GameOptions",
    "MagnateEvent",
    "MagnateState",
    "MagnateSystemCommand",
    "MagnateView",
    "Phase",
    "PlayerCommand",
    "SeatSpec",
    "StartGame",
    "decide",
    "evolve",
    "initial_state",
    "legal_commands",
    "pending",
    "replay",
    "step",
    "view",
]
