"""What the routes about a game's seats share: the seat number in a path, and the host's privilege."""

from __future__ import annotations

from typing import Annotated

from litestar.params import PathParameter

from domain.kernel.phrases import say
from services.gameplay import Gameplay

from .errors import ApiError

SeatNumber = Annotated[int, PathParameter(ge=0, le=15, description="The seat (0-based).")]


async def host_only(gameplay: Gameplay, game_id: str, caller: int) -> None:
    """403 ``seat/not_host`` unless ``caller`` is the game's host (StreamNotFound: 404)."""
    if await gameplay.queries.host_seat(game_id) != caller:
        raise ApiError(403, "seat/not_host", say("only the game's host (the seat that created it) manages its "
                                                 "invites"))


def no_such_seat(seat: int) -> ApiError:
    return ApiError(404, "seat/not_found", say("this game has no person's seat {seat} (seats count from 0)",
                                               seat=seat), seat=seat)


SEAT_COOKIE = "magnate_stream_seat"
"""The cookie that carries a seat's token to its game's stream (an EventSource sends no header): set by
``POST /api/games/{id}/stream/seat``, read by the stream and by nchan's subscription check."""
