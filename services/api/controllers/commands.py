"""Player commands: authenticate the seat, decode the game's command, hand it to gameplay."""

from __future__ import annotations

import msgspec
from litestar import Controller, post
from litestar.di import Provide
from litestar.params import FromPath, RawBody

from ..auth import SECURITY, provide_seat
from ..deps import GameplayDep, SeatDep
from ..errors import ApiError, documented, invalid, malformed
from ..schemas import CommandOut, CommandRequest, EventOut

_envelope = msgspec.json.Decoder(CommandRequest)


def decode_envelope(body: bytes) -> CommandRequest:
    try:
        return _envelope.decode(body)
    except msgspec.ValidationError as exc:
        raise invalid(f"invalid command request: {exc}") from exc
    except msgspec.DecodeError as exc:
        raise malformed(f"the body is not valid JSON: {exc}") from exc


class CommandController(Controller):
    path = "/api/games/{game_id:str}/commands"
    tags = ("commands",)

    @post("/", status_code=200, summary="Submit a player command", dependencies={"seat": Provide(provide_seat)},
          security=SECURITY, responses=documented(400, 401, 403, 404, 409, 422, 503))
    async def submit(self, game_id: FromPath[str], body: RawBody, seat: SeatDep, gameplay: GameplayDep) -> CommandOut:
        """Body: ``{"command_id": str (1-100 chars), "expected_version"?: int, "seat"?: int,
        "command": {"type": "magnate.place_bid", ...}}`` where ``command`` is one of the game's player
        commands (the ``legal`` templates of ``/me`` show them). Applied at most once per ``command_id``:
        a retry returns the first result with ``duplicate: true``."""
        request = decode_envelope(body)
        if request.seat is not None and request.seat != seat:
            raise ApiError(403, "auth/wrong_seat", f"this token plays seat {seat}, not seat {request.seat}",
                           seat=seat)
        game_type = await gameplay.game_type(game_id)
        try:
            command = gameplay.codecs[game_type].decode_player_command(bytes(request.command))
        except msgspec.ValidationError as exc:
            raise invalid(f"not a {game_type} player command: {exc}") from exc
        applied = await gameplay.submit(game_id, seat, request.command_id, command, request.expected_version)
        return CommandOut(applied.version, applied.duplicate, tuple(EventOut.of(e) for e in applied.events))
