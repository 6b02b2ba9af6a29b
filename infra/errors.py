"""Errors of the adapters. Driver exceptions are translated at one choke point each.

InfraError
├── ConcurrencyConflict    someone appended to the stream first (HTTP 409)
├── CommandIdReused        a command id was reused for a different command (HTTP 409)
├── CommandIdReserved      a client sent a command id of the service's own namespace (HTTP 400)
├── IdempotencyKeyReused   a creation key was reused for a different request (HTTP 409)
├── InvalidIdempotencyKey  a creation key of the wrong length or alphabet (HTTP 400)
├── StreamNotFound         no game with that id (HTTP 404)
└── StoreUnavailable       the database or Redis cannot be reached (HTTP 503; worker jobs retry)
"""

from __future__ import annotations


class InfraError(Exception):
    """Base of the adapters' errors."""

    code = "infra/error"


class ConcurrencyConflict(InfraError):
    """The stream is no longer at the expected version."""

    code = "conflict/version"

    def __init__(self, game_id: str, expected_version: int) -> None:
        super().__init__(f"game {game_id} is no longer at version {expected_version}")
        self.game_id = game_id
        self.expected_version = expected_version


class CommandIdReused(InfraError):
    """The command id was already used in this game for a different command."""

    code = "conflict/command_id_reused"


class CommandIdReserved(InfraError):
    """A client's command id lies in the namespace of the service's own commands (``start``, ``reveal:…``,
    ``system:…``): accepting it would let a seat pre-empt, and so block, the service's own work."""

    code = "request/reserved_command_id"


class IdempotencyKeyReused(InfraError):
    """A game-creation idempotency key was sent again with a different request."""

    code = "conflict/idempotency_key_reused"


class InvalidIdempotencyKey(InfraError):
    """An idempotency key is 16-128 letters, digits and ``. _ ~ -``."""

    code = "request/invalid_idempotency_key"


class StreamNotFound(InfraError):
    """There is no game with this id."""

    code = "game/not_found"


class StoreUnavailable(InfraError):
    """The database or Redis could not be reached."""

    code = "infra/unavailable"


class SeatTaken(InfraError):
    """The seat was claimed by a player: its invite link no longer opens it."""

    code = "seat/claimed"


class SeatInUse(SeatTaken):
    """The seat is played by a guest by its invite link (the link was used): nobody else may join it (the service
    answers it, never the API's error table)."""

    code = "seat/in_use"


class AlreadySeated(InfraError):
    """The player already holds another seat of this game."""

    code = "seat/already_seated"


class InviteInvalid(InfraError):
    """The invite token does not open this seat (revoked, reissued, or never its token)."""

    code = "auth/invalid_token"
