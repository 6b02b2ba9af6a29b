"""What a game module offers the services: the one object a game exports.

The services never import a game's internals; they speak to its :class:`GameModule`:
``initial_state``/``decide``/``evolve`` (the rules), ``pending`` (who may act or which system job is
due), ``view`` (what a viewer may see) and ``legal_commands`` (the one source of legality for the web
page, the bots and the AI), plus the message unions for decoding.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import msgspec

from .chance import Chance
from .messages import Command, SystemCommand
from .seats import Actor, Seat, Viewer


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """What the game waits for now.

    ``seats`` may act (usually one); ``system`` is the system command due now (the service runs it in
    a worker with the chance source of the next version); ``finished`` once the game has ended.
    """

    seats: tuple[Seat, ...] = ()
    system: SystemCommand | None = None
    finished: bool = False


class SeatInfo(msgspec.Struct, frozen=True):
    """A seat as the services need to know it: who plays it and under which name."""

    kind: str
    """"human" or "ai"."""
    label: str
    """The seat's in-game identity (a company key in Magnate)."""


class IntParam(msgspec.Struct, frozen=True, tag="int"):
    """A command field that may take any value ``minimum, minimum+step, ..., <= maximum``."""

    field: str
    minimum: int
    maximum: int
    step: int = 1


class SubsetParam(msgspec.Struct, frozen=True, tag="subset"):
    """A command field holding distinct indices into ``0..size-1``, at most ``max_count`` of them."""

    field: str
    size: int
    max_count: int


Param = IntParam | SubsetParam


class CommandTemplate(msgspec.Struct, frozen=True):
    """One kind of legal move: ``command`` is itself legal (and the suggested choice); ``params`` say
    which of its fields may vary and how, every combination within them being legal too."""

    command: Command
    params: tuple[Param, ...] = ()


S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class GameModule(Generic[S]):
    """The contract every game satisfies (ARCHITECTURE §3), as one record of pure functions.

    Commands and events are typed ``Any`` here because each game narrows them to its own unions;
    the unions themselves are carried for decoding.
    """

    name: str
    state_type: Any
    """The state struct (for snapshots)."""
    player_command_type: Any
    """The tagged union of player commands (what a client may submit)."""
    system_command_type: Any
    """The tagged union of system commands (what the service may submit)."""
    event_type: Any
    """The tagged union of events (what the log stores)."""
    options_type: Any
    """The struct of options a new game is created with."""
    start: Callable[[Any, str], SystemCommand]
    """``start(options, seed_commitment)``: the system command that sets a game up."""
    reveal: Callable[[str], SystemCommand]
    """``reveal(seed_hex)``: the system command that publishes the seed once the game has ended."""
    seats: Callable[[S], tuple[SeatInfo, ...]]
    initial_state: Callable[[], S]
    decide: Callable[[S, Actor, Any, Chance], list[Any]]
    step: Callable[[S, Actor, Any, Chance], tuple[list[Any], S]]
    """``decide`` that also returns the state after its events (the fold the rules already did)."""
    evolve: Callable[[S, Any], S]
    pending: Callable[[S], Pending]
    view: Callable[[S, Viewer, bool], msgspec.Struct]
    """``view(state, viewer, game_over)``: what ``viewer`` may see of ``state`` (``game_over`` says the game
    it belongs to has ended, which opens the auditor view of historical states)."""
    legal_commands: Callable[[S, Seat], list[CommandTemplate]]
