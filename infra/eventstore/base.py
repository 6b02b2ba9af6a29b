"""The event store port and its records.

A game is a stream of events numbered 1, 2, 3, ... Each command that changed a game is one
:class:`Decision`: its record (id, actor, canonical command bytes) and the events it produced, appended
atomically with an expected version. ``UNIQUE(game_id, command_id)`` makes a retried command a no-op
that returns the first result (:class:`DuplicateCommand`). The ``games`` read model (status, who must
act, which system job is due) is written in the same transaction as the events.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Protocol, runtime_checkable

import msgspec

from infra.errors import InfraError


class NewEvent(msgspec.Struct, frozen=True):
    type: str
    payload: bytes
    commitment: str
    """What the chain hashes in place of the payload (:mod:`infra.chain`): the payload's SHA-256 for a public event,
    a MAC under a key derived from the secret seed for a hidden one. A game stored before commitments (chain 1)
    ignores it and hashes the payload, as it always did."""


class Decision(msgspec.Struct, frozen=True):
    """One command and the events it produced, appended together."""

    command_id: str
    actor: str
    """"system" or "seat:<n>"."""
    command_type: str
    command: bytes
    events: tuple[NewEvent, ...]


class StoredEvent(msgspec.Struct, frozen=True):
    version: int
    type: str
    actor: str
    command_id: str
    recorded_at: str
    payload: bytes
    prev_hash: str
    hash: str
    commitment: str | None = None
    """The commitment the hash covers (:mod:`infra.chain`); None in a game stored before commitments (chain 1)."""


class CommandRecord(msgspec.Struct, frozen=True):
    command_id: str
    actor: str
    type: str
    payload: bytes
    first_version: int
    last_version: int
    recorded_at: str


class SeatRecord(msgspec.Struct, frozen=True):
    seat: int
    kind: str
    name: str
    """The display name (the player's choice, or the game's name for the seat)."""
    payload: dict[str, Any]
    """What the game says about the seat for clients (Magnate: ``{"company": key}``); a JSON object."""
    token_hash: str | None
    player_id: str | None = None
    """The player who claimed the seat (None: a guest's seat, or the AI's)."""


class GameSummary(msgspec.Struct, frozen=True):
    """The games read model: what a lobby or a "your turn" list needs."""

    status: str
    """"running" or "finished"."""
    on_turn: tuple[int, ...]
    system_job: str | None
    deadline: int | None = None
    """The earliest running clock's deadline (ms since the epoch), if the game has a time control."""


class GameHead(msgspec.Struct, frozen=True):
    game_id: str
    game_type: str
    version: int
    last_hash: str
    status: str
    on_turn: tuple[int, ...]
    system_job: str | None
    updated_at: str


class PlayerGame(msgspec.Struct, frozen=True):
    """A game a player holds a seat in, as "My games" lists it."""

    game_id: str
    game_type: str
    status: str
    version: int
    on_turn: tuple[int, ...]
    updated_at: str
    seat: int
    names: tuple[str, ...]
    """Every seat's display name, by seat."""


class CreationKey(msgspec.Struct, frozen=True):
    """An idempotency key of a game's creation: a retried creation finds the game it made the first time."""

    key_hash: str
    """SHA-256 of the client's key (the key itself is never stored: the seat tokens derive from it)."""
    request_hash: str
    """SHA-256 of the request, so the same key with another request is refused, not answered wrongly."""
    game_id: str


class Snapshot(msgspec.Struct, frozen=True):
    version: int
    schema: str
    state: bytes


class DuplicateCommand(InfraError):
    """The command id was already applied; carries the first application's record."""

    code = "command/duplicate"

    def __init__(self, record: CommandRecord) -> None:
        super().__init__(f"command {record.command_id} was already applied")
        self.record = record


class DuplicateCreation(InfraError):
    """A game was already created with this idempotency key; carries that creation."""

    code = "game/duplicate_creation"

    def __init__(self, creation: CreationKey) -> None:
        super().__init__(f"a game was already created with this key: {creation.game_id}")
        self.creation = creation


def timestamp(moment: datetime | None = None) -> str:
    """The canonical text of a recorded time (UTC, microseconds), as hashed into the chain."""
    moment = (moment or datetime.now(UTC)).astimezone(UTC)
    return moment.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"  # %Y-%m-%dT%H:%M:%S.%fZ


class StreamStore(Protocol):
    """The games' streams: create one, append to it, read it. ``head``, ``read`` and ``append`` raise
    StreamNotFound for an unknown game id; the lookups (``find_command``, ``commands``, ``latest_snapshot``)
    answer None or empty, as they do for a known game without a match. ``create`` raises ConcurrencyConflict
    when the id is taken."""

    async def create(
        self, game_id: str, game_type: str, seats: list[SeatRecord], seed: bytes, decision: Decision | list[Decision],
        summary: GameSummary, creation: CreationKey | None = None, rules_version: str = "v1",
        host_seat: int | None = None,
    ) -> list[StoredEvent]:
        """Create the game with its seats and secret seed (and its creation key, in the same transaction);
        DuplicateCreation, and nothing written, if a game was already created with ``creation.key_hash``.
        ``host_seat`` is the creator's seat, whose holder manages the other seats' invites."""
        ...

    async def append(
        self, game_id: str, expected_version: int, decisions: list[Decision], summary: GameSummary,
        snapshot: Snapshot | None = None,
    ) -> list[StoredEvent]:
        """Append atomically; ConcurrencyConflict if the stream moved, DuplicateCommand if any decision's
        command id was already applied (carrying that first application's record)."""
        ...

    async def head(self, game_id: str) -> GameHead: ...

    async def head_with_snapshot(self, game_id: str) -> tuple[GameHead, Snapshot | None]:
        """The head and the game's latest snapshot of any schema, in one read (loading a game not held)."""
        ...

    async def read(
        self, game_id: str, after: int = 0, until: int | None = None, *, known: bool = False
    ) -> list[StoredEvent]:
        """The events after ``after`` up to ``until``. ``known=True``: the caller knows the game exists, so no
        events is an answer, not a reason to check that the game exists (which costs a query)."""
        ...

    async def latest_snapshot(self, game_id: str, schema: str, at_most: int | None = None) -> Snapshot | None: ...

    async def find_command(self, game_id: str, command_id: str) -> CommandRecord | None: ...

    async def commands(self, game_id: str) -> list[CommandRecord]: ...


class SecretStore(Protocol):
    """What is kept apart from the streams: a game's seed (revealed in its log at the end) and the keys that
    made games (hashes only)."""

    async def seed(self, game_id: str) -> bytes:
        """StreamNotFound for an unknown game."""
        ...

    async def find_creation(self, key_hash: str) -> CreationKey | None:
        """The game created with this idempotency key, if any."""
        ...


class SeatStore(Protocol):
    """Who sits where: display names, game payloads and the hashes of the seats' secret tokens."""

    async def seats(self, game_id: str) -> list[SeatRecord]:
        """StreamNotFound for an unknown game."""
        ...

    async def seat_for_token(self, game_id: str, token_hash: str) -> int | None: ...


class OwnershipStore(Protocol):
    """Who holds a seat beyond its token: the player who claimed it, the host, the invites (docs/PLAYERS.md)."""

    async def claim_seat(
        self, game_id: str, expected_version: int, decision: Decision, summary: GameSummary, seat: int,
        token_hash: str | None, player_id: str, name: str | None = None,
    ) -> list[StoredEvent]:
        """Append the claim's decision and bind ``seat`` to ``player_id`` (shown as ``name`` from now on, the name
        the claim's event records; None: the seat keeps its name) in one transaction, if ``token_hash`` is
        still the seat's invite (None: a player joining a free person's seat of a game listed publicly; InviteInvalid
        if the game is not listed, or the seat is not a person's or is the host's): SeatTaken (claimed already),
        AlreadySeated (the player holds another seat of the game), InviteInvalid (not the seat's current invite),
        DuplicateCommand, ConcurrencyConflict. The game's notices start being projected from here (its
        ``notice_cursors`` row)."""
        ...

    async def claimed_by_token(self, game_id: str, token_hash: str) -> int | None:
        """The seat whose invite this was before a player claimed it."""
        ...

    async def seat_of_player(self, game_id: str, player_id: str) -> int | None: ...

    async def host_seat(self, game_id: str) -> int | None:
        """StreamNotFound for an unknown game."""
        ...

    async def set_invite(self, game_id: str, seat: int, token_hash: str | None) -> None:
        """Replace (or, with None, revoke) an unclaimed human seat's invite: SeatTaken if it was claimed,
        InviteInvalid if there is no such human seat."""
        ...

    async def player_games(self, player_id: str) -> list[PlayerGame]:
        """Every game the player holds a seat in, most recently moved first."""
        ...


class ReadModel(Protocol):
    """The games read model, written with every append: what the reconciler and lists need."""

    async def due_jobs(self) -> list[GameHead]:
        """Running games whose read model says a system job is due (for the reconciler)."""
        ...

    async def timed_games(self) -> list[str]:
        """Running games whose read model has a running clock (for the reconciler)."""
        ...

    async def heads(self, game_ids: list[str]) -> list[GameHead]: ...


@runtime_checkable
class EventStore(StreamStore, SecretStore, SeatStore, OwnershipStore, ReadModel, Protocol):
    """Every port of the store, as one adapter (PostgreSQL, or in memory) implements them. A service takes the
    narrowest one it needs."""
