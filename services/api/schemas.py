"""HTTP-only request and response bodies (msgspec Structs). No rule data lives here: views and legal
moves come from the game module, events from the store."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from domain.kernel import CommandTemplate, Outcome, Told
from domain.kernel.table import TableOptions
from services.gameplay.audit import EventRecord
from services.gameplay.command_ids import CLIENT_ID_MAX, CLIENT_ID_PATTERN

from .clock_schemas import TableStateOut
from .names import OPTIONAL_NAME_PATTERN, check_name

NO_NUL = r"^[^\x00]*$"
"""PostgreSQL text cannot hold NUL characters, so stored strings refuse them up front (a 400, not a 500)."""
CommandId = Annotated[
    str,
    Meta(
        min_length=1, max_length=CLIENT_ID_MAX, pattern=CLIENT_ID_PATTERN,
        description=f"Client-chosen idempotency key of the command: 1-{CLIENT_ID_MAX} letters, digits and "
        "`.` `_` `~` `-` (a UUID fits). Ids with a colon, and `start`, are the service's own and refused (400 "
        "`request/reserved_command_id`).",
    ),
]
VERSION_MAX = 2**31 - 1
"""The highest version a game can reach (versions are PostgreSQL ``integer``s)."""
Version = Annotated[int, Meta(ge=0, le=VERSION_MAX)]


# -- requests ----------------------------------------------------------------------------------------


NAME_MAX = 40


class CreateGameRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A new game of any offered kind: ``options`` is that game's options (its own schema; see
    ``GET /api/catalog`` for the games and their options), decoded once ``game`` is known."""

    options: msgspec.Raw
    game: Annotated[str, Meta(min_length=1, max_length=40, pattern="^[a-z0-9_]+$")] = "magnate"
    names: Annotated[tuple[Annotated[str, Meta(max_length=NAME_MAX, pattern=OPTIONAL_NAME_PATTERN)] | None, ...],
                     Meta(max_length=16)] = ()
    """The players' names by seat, shown to the others (a missing or empty one: the game's name for the seat); a
    visible character at least and no control character (``services.api.names``)."""
    seed: Annotated[str, Meta(pattern="^([0-9a-fA-F]{2}){1,64}$")] | None = None
    """Hex seed; accepted only by a sandbox server (tests and simulations)."""
    table: TableOptions | None = None
    """The table's options: a time control (none, a time per move, or a correspondence bank), what happens when a
    seat's time runs out, whether a player may take a seat back from its stand-in, and seats a stand-in plays from
    the start (to play a setup made for several people alone). Recorded in the game's log."""
    listed: bool = False
    """List the game publicly: signed-in players may join its free seats (``GET /api/tables/open``) and anyone may
    watch it (``GET /api/tables/live``)."""

    def __post_init__(self) -> None:
        for name in self.names:
            if name:  # a missing or empty one: the game's name for the seat
                check_name(name)


class CommandRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The envelope of a player command. ``command`` stays raw until the game type is known, then it
    is decoded as that game's player command union (so system and unknown commands are refused)."""

    command_id: CommandId
    command: msgspec.Raw
    expected_version: Version | None = None
    """Refuse the command (409) unless the game is still at this version."""
    seat: int | None = None
    """If given, it must be the seat of the bearer token (a guard against a mixed-up token)."""


# -- responses ---------------------------------------------------------------------------------------


class ErrorBody(msgspec.Struct, frozen=True):
    code: str
    """Stable and namespaced (``rule/not_your_turn``); clients branch on it."""
    message: str
    """For humans."""
    details: dict[str, Any] = msgspec.field(default_factory=dict)


class SeatCreatedOut(msgspec.Struct, frozen=True):
    seat: int
    kind: str
    name: str
    payload: dict[str, Any]
    """What the game says about the seat (Magnate: ``{"company": key}``)."""
    token: str | None
    """The seat's secret (human seats only); shown this once."""
    invite_url: str | None


class GameCreatedOut(msgspec.Struct, frozen=True):
    game_id: str
    game_type: str
    version: int
    seats: tuple[SeatCreatedOut, ...]
    host_seat: int | None = None
    """The creator's seat (the first person's seat): keep its token, pass the other invite links on. Its holder
    manages the others' invites."""


class PlayerOut(msgspec.Struct, frozen=True):
    """Who sits where: the name chosen at creation (public) and what the game says about the seat."""

    seat: int
    kind: str
    name: str
    payload: dict[str, Any]
    """Game-specific (Magnate: ``{"company": key}``)."""
    claimed: bool = False
    """A signed-in player holds this seat (its invite link no longer opens it)."""


class GameTypeOut(msgspec.Struct, frozen=True):
    """A game this server offers."""

    game: str
    title: str
    data_version: str
    ai_levels: tuple[str, ...]
    """The game's own AI at each strength, weakest first (empty: no AI)."""
    options_schema: dict[str, Any]
    """The JSON Schema of the game's ``options`` in a create request."""
    round_events: tuple[str, ...] = ()
    """The type tags of the events that begin a round (a history line's ``event``): where a replay steps by round."""


class GameOut(msgspec.Struct, frozen=True):
    game_id: str
    game_type: str
    version: int
    status: Literal["running", "finished"]
    on_turn: tuple[int, ...]
    system_job: str | None
    view: Any
    """The public view."""
    players: tuple[PlayerOut, ...] = ()
    title: str = ""
    outcome: Outcome | None = None
    """The standings once the game is over (best first; rank 1 for every winner)."""
    host_seat: int | None = None
    """The creator's seat, whose holder manages the other seats' invites."""
    rematch_id: str | None = None
    """Once the game is over and a seat asked for a rematch: the new game."""
    table: TableStateOut | None = None
    """The clocks, stand-ins and marks of the seats."""


class MeOut(msgspec.Struct, frozen=True):
    seat: int
    version: int
    view: Any
    """The seat's own view (its own secrets shown, nobody else's)."""
    legal: tuple[CommandTemplate, ...]
    players: tuple[PlayerOut, ...] = ()
    table: TableStateOut | None = None


class HistoryOut(msgspec.Struct, frozen=True):
    version: int
    """The version the story runs to."""
    lines: tuple[Told, ...]
    """Each line's ``text`` in the request's language and ``seats`` (where it names each seat, in UTF-16 code
    units), and its ``phrase``: the line in no language (a message key of the game's catalog and its arguments)."""


class StateOut(msgspec.Struct, frozen=True):
    game_id: str
    version: int
    viewer: str
    view: Any


class EventOut(EventRecord, frozen=True):
    """A stored event: the same fields as an export's event lines."""

    redacted: bool = False
    """The payload is the event as this caller may see it, not the one hashed (a game with hidden information,
    before its end)."""


class EventsOut(msgspec.Struct, frozen=True):
    version: int
    events: tuple[EventOut, ...]


class CommandOut(msgspec.Struct, frozen=True):
    version: int
    duplicate: bool
    """True when this command id had been applied before (the first result is returned)."""
    events: tuple[EventOut, ...]


class HealthOut(msgspec.Struct, frozen=True):
    status: Literal["ok", "unavailable"]
    database: bool
    redis: bool
