"""Who is calling: a seat's secret token -> its seat in one game, or a signed-in player -> the seat they claimed
in it. The domain never sees tokens.

A token is sent as ``Authorization: Bearer <token>``. Only the event stream also accepts
``?token=<token>``, because a browser's EventSource cannot set headers (query strings end up in
access logs, so no other endpoint takes them). A request with no token but a session acts as the session's
player's seat in the game (:mod:`.players`). The invite token of a seat a player has claimed is refused with
``403 seat/claimed``.
"""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.openapi.spec import Components, SecurityRequirement, SecurityScheme
from litestar.params import FromPath, FromQuery

from domain.kernel.phrases import say
from infra.errors import SeatTaken
from services.gameplay import Gameplay

from .deps import GameplayDep
from .errors import ApiError
from .players import session_player_id

BEARER = "seatToken"
SECURITY: list[SecurityRequirement] = [{BEARER: []}]
COMPONENTS = Components(security_schemes={
    BEARER: SecurityScheme(type="http", scheme="bearer", description="The seat token from the invite link."),
})


def bearer_token(request: Request[Any, Any, Any]) -> str | None:
    """The token of an ``Authorization: Bearer`` header, or None if there is none."""
    header = request.headers.get("authorization")
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "auth/invalid_token", say("the Authorization header must be 'Bearer <token>'"))
    return token.strip()


async def seat_of(gameplay: Gameplay, game_id: str, token: str) -> int:
    seat = await gameplay.queries.seat_for_token(game_id, token)
    if seat is None:
        await gameplay.queries.head(game_id)  # an unknown game is a 404, not a bad token
        if await gameplay.queries.claimed_seat(game_id, token) is not None:
            raise SeatTaken("this seat was claimed by a signed-in player: its invite link no longer opens it. "
                            "Ask the game's host for an invite to a free seat")
        raise ApiError(401, "auth/invalid_token", say("this token does not belong to a seat of this game"))
    return seat


async def session_seat(request: Request[Any, Any, Any], gameplay: Gameplay, game_id: str) -> int | None:
    """The seat the signed-in player holds in the game (None: not signed in, or no seat in it)."""
    player_id = session_player_id(request)
    if player_id is None:
        return None
    return await gameplay.queries.seat_of_player(game_id, player_id)


async def provide_seat(request: Request[Any, Any, Any], game_id: FromPath[str], gameplay: GameplayDep) -> int:
    """Dependency: the caller's seat (401 without a valid token)."""
    token = bearer_token(request)
    if token is None:
        seat = await session_seat(request, gameplay, game_id)
        if seat is None:
            raise ApiError(401, "auth/missing_token", say("this endpoint needs 'Authorization: Bearer <seat token>', "
                                                          "or a signed-in player who holds a seat in this game"))
        return seat
    return await seat_of(gameplay, game_id, token)


async def provide_optional_seat(
    request: Request[Any, Any, Any], game_id: FromPath[str], gameplay: GameplayDep
) -> int | None:
    """Dependency: the caller's seat, or None for an anonymous (public) caller; a bad token is still 401."""
    token = bearer_token(request)
    if token is None:
        return await session_seat(request, gameplay, game_id)
    return await seat_of(gameplay, game_id, token)


async def provide_stream_seat(
    request: Request[Any, Any, Any], game_id: FromPath[str], gameplay: GameplayDep, token: FromQuery[str | None] = None
) -> int | None:
    """Dependency for the event stream: like :func:`provide_optional_seat`, also reading ``?token=``."""
    token = bearer_token(request) or token or None
    if token is None:
        return await session_seat(request, gameplay, game_id)
    return await seat_of(gameplay, game_id, token)
