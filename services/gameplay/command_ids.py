"""Command ids: the service's own and the clients', in namespaces that never meet.

A command id is a game's idempotency key: a second command with a used id is not applied again. The
service writes ``start`` (the creation), ``reveal:{game}`` (the seed at the end) and
``system:{version}:{kind}`` (each system job), so a seat that could send one of those ids first would make
the service's own command a "duplicate" that does nothing — the reveal never happens, the dice are never
rolled, and the game is frozen for good. So every id of the service contains a colon or is ``start``, and a
client's id may hold neither: letters, digits and ``. _ ~ -`` only (the unreserved characters of a URL),
which a UUID, a counter or a ULID all fit.
"""

from __future__ import annotations

import re

from infra.errors import CommandIdReserved

START = "start"
"""The id of the command that creates a game."""
OPEN_ID = "table:open"
"""The id of the command that records the table's options at creation."""

CLIENT_ID_MAX = 100
CLIENT_ID_PATTERN = rf"^[A-Za-z0-9._~-]{{1,{CLIENT_ID_MAX}}}$"
"""A client's command id (the API's schema states the same pattern)."""
_CLIENT_ID = re.compile(CLIENT_ID_PATTERN)


def system_id(version: int, kind: str) -> str:
    """The id of the system job ``kind`` due at ``version``: a job that runs twice appends once."""
    return f"system:{version}:{kind}"


def reveal_id(game_id: str) -> str:
    """The id of the command that reveals a game's seed (once per game)."""
    return f"reveal:{game_id}"


def claim_id(seat: int) -> str:
    """The id of the command that binds a seat to a player (once per seat)."""
    return f"claim:{seat}"


PLANNED = "plan:"
"""The prefix of the ids of the moves the service plays for a seat from its plan (:mod:`.plans`)."""


def plan_id(version: int, seat: int) -> str:
    """The id of the move a seat's plan makes at ``version``: a plan job that runs twice appends once; the log marks
    the move as planned by this id (its actor is the seat, as for any of its moves)."""
    return f"{PLANNED}{version}:{seat}"


def check_client_id(command_id: str) -> None:
    """Refuse (CommandIdReserved) an id a client may not use: one in the service's namespace, or outside the
    client alphabet (which keeps the two namespaces apart by construction)."""
    if command_id == START or not _CLIENT_ID.fullmatch(command_id):
        raise CommandIdReserved(
            f"command id {command_id[:CLIENT_ID_MAX]!r} is not a client id: use 1-{CLIENT_ID_MAX} letters, digits "
            "and . _ ~ - (ids with a colon, and 'start', are the service's own)"
        )
