"""Player commands: authenticate the seat, decode the game's command, hand it to gameplay."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import msgspec
from litestar import Controller, post
from litestar.di import Provide
from litestar.params import FromPath, RawBody

from domain.kernel import Seat
from domain.kernel.phrases import say
from infra.errors import CommandIdReserved

from ..auth import SECURITY, provide_seat
from ..deps import GameplayDep, PlanningDep, SeatDep
from ..errors import BODY_WORDS, TOO_DEEP, ApiError, documented, invalid, malformed
from ..limits import COMMANDS, RATE
from ..pages import event_outs
from ..schemas import CommandOut, CommandRequest

_envelope = msgspec.json.Decoder(CommandRequest)
T = TypeVar("T")


class _AnyCommandId(msgspec.Struct):
    command_id: str


_command_id = msgspec.json.Decoder(_AnyCommandId)


def whole_numbers(value: Any) -> Any:
    """``value`` with every float that is a whole number as an int: JSON Schema's ``integer`` is any number without
    a fraction, ``2.0`` included, while msgspec's ``int`` takes only ``2``."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [whole_numbers(v) for v in value]
    if isinstance(value, dict):
        return {k: whole_numbers(v) for k, v in value.items()}
    return value


def decode(decoder: Callable[[bytes], T], body: bytes) -> T:
    """``decoder(body)``, taking whole numbers written as floats (``2.0``) where it wants an int."""
    try:
        return decoder(body)
    except msgspec.ValidationError as exc:
        if "got `float`" not in str(exc):
            raise
    return decoder(msgspec.json.encode(whole_numbers(msgspec.json.decode(body))))


def decode_envelope(body: bytes) -> CommandRequest:
    try:
        return decode(_envelope.decode, body)
    except msgspec.ValidationError as exc:
        if str(exc).endswith("`$.command_id`"):
            _refuse_reserved(body)
        raise invalid(say("invalid command request: {reason}", reason=str(exc))) from exc
    except msgspec.DecodeError as exc:
        raise malformed(say("the body is not valid JSON: {reason}", reason=str(exc))) from exc
    except RecursionError as exc:
        raise malformed(BODY_WORDS[TOO_DEEP]) from exc


def _refuse_reserved(body: bytes) -> None:
    """A command id with a colon is one of the service's own (``reveal:…``, ``system:…``): say so."""
    try:
        command_id = _command_id.decode(body).command_id
    except msgspec.ValidationError:
        return
    if ":" in command_id:
        raise CommandIdReserved(f"command id {command_id[:100]!r} is one of the service's own (ids with a colon, and "
                                "'start', are): use letters, digits and . _ ~ -")


class CommandController(Controller):
    path = "/api/games/{game_id:str}/commands"
    tags = ("commands",)

    @post("/", status_code=200, summary="Submit a player command", dependencies={"seat": Provide(provide_seat)},
          security=SECURITY, opt={RATE: COMMANDS}, responses=documented(400, 401, 403, 404, 409, 413, 422))
    async def submit(self, game_id: FromPath[str], body: RawBody, seat: SeatDep, gameplay: GameplayDep,
                     planning: PlanningDep) -> CommandOut:
        """Body: ``{"command_id": str, "expected_version"?: int, "seat"?: int, "command": {"type":
        "magnate.place_bid", ...}}`` where ``command`` is one of the game's player commands (the ``legal``
        templates of ``/me`` show them). Applied at most once per ``command_id``: a retry returns the first
        result with ``duplicate: true``. Command ids with a colon, and ``start``, are the service's own: 400
        ``request/reserved_command_id``."""
        request = decode_envelope(body)
        if request.seat is not None and request.seat != seat:
            raise ApiError(403, "auth/wrong_seat", say("this token plays seat {seat}, not seat {asked}", seat=seat,
                                                       asked=request.seat), seat=seat)
        game_type = await gameplay.loader.game_type(game_id)
        try:
            command = decode(gameplay.codecs[game_type].decode_player_command, bytes(request.command))
        except msgspec.ValidationError as exc:
            other = _game_of(gameplay, bytes(request.command), game_type)
            if other is not None:  # a well-formed command, of another game: the request is fine, the move is not
                raise ApiError(422, "rule/other_games_command", say(
                    "that is a {other} command, and this is a {game} game", other=other, game=game_type),
                               game=game_type) from exc
            raise invalid(say("not a {game} player command: {reason}", game=game_type, reason=str(exc))) from exc
        except RecursionError as exc:
            raise malformed(BODY_WORDS[TOO_DEEP]) from exc
        applied = await gameplay.submit(game_id, seat, request.command_id, command, request.expected_version)
        if not applied.duplicate and gameplay.module(game_type).plans is not None:
            await planning.cancel(game_id, seat)  # the seat moved itself: its planned moves are off
        shown = gameplay.queries.redacted(game_type, applied.version, applied.events, Seat(seat), applied.over)
        return CommandOut(applied.version, applied.duplicate, event_outs(shown.events, shown.redacted))


def _game_of(gameplay: GameplayDep, command: bytes, but: str) -> str | None:
    """The other offered game whose player command ``command`` is, if any."""
    for name, codec in gameplay.codecs.items():
        if name == but:
            continue
        try:
            decode(codec.decode_player_command, command)
        except (msgspec.ValidationError, RecursionError):
            continue
        return name
    return None
