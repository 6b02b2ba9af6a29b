"""nchan's authorisation of a subscription (``nchan_authorize_request``, ``infra/nchan/nginx.conf.template``).

Before nchan holds a page's connection to a channel it asks this route, with the subscriber's own cookie and
``Authorization`` header and the address it asked for in ``X-Original-URI`` (its ``?token=`` included, as an
EventSource sends it): 200 opens the subscription, 403 refuses it. A seat's channel
(``/push/games/<id>/seat/<n>/<language>``) opens only for that seat's token (``?token=``, a bearer header, or the
seat cookie, :data:`..seat_access.SEAT_COOKIE`, that ``POST .../stream/seat`` sets for the game's stream and its push
location) or for the signed-in player who holds seat n; the public channel (``/push/games/<id>/public/<language>``)
for anyone, as the public stream does, when the game exists. Anything else is refused: a token of another seat or of
another game, a claimed seat's invite token, no credentials, a language the service does not speak, an address that
names no channel. A signed-in player's page asks for its game's channel with its own beside it
(``.../<language>/player/<player id>``: "My games"' messages, :mod:`services.pusher_players`): both must open, the
player's only for that player's session.

The answer says no more than the stream route would: whether the caller's own credentials open the seat."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from litestar import Request, Response, get
from redis.exceptions import RedisError

from infra.errors import InfraError
from services.gameplay import Gameplay
from services.language.catalogs import Catalogs

from ..auth import bearer_token, seat_of, session_seat
from ..deps import AccountsDep, GameplayDep
from ..errors import ApiError
from ..language import CatalogsDep
from ..players import session_player_id
from ..seat_access import SEAT_COOKIE

CHANNEL = re.compile(r"^/push/games/(?P<game>[A-Za-z0-9_-]{1,64})/(?:(?P<public>public)|seat/(?P<seat>[0-9]{1,3}))"
                     r"/(?P<language>[A-Za-z0-9-]{2,16})(?:/player/(?P<player>[A-Za-z0-9_-]{1,64}))?$")


def _answer(allowed: bool) -> Response[None]:
    return Response(None, status_code=200 if allowed else 403, headers={"Cache-Control": "no-store"})


@dataclass(frozen=True)
class Opened:
    """A subscription the caller's own credentials open: its game, its seat (None: the public's), its player."""

    game_id: str
    seat: int | None
    player_id: str | None


async def opened(request: Request[Any, Any, Any], gameplay: Gameplay, catalogs: Catalogs) -> Opened | None:
    """What the subscription nginx asks about (``X-Original-URI``) opens for the caller, or None (refused)."""
    asked = urlsplit(request.headers.get("x-original-uri", ""))
    channel = CHANNEL.match(asked.path)
    if channel is None or channel["language"] not in catalogs.languages:
        return None
    if channel["player"] is not None and channel["player"] != session_player_id(request):
        return None  # a player's own channel: that player's session only
    game_id = channel["game"]
    try:
        if channel["public"] is not None:
            await gameplay.queries.head(game_id)  # a game that exists
            return Opened(game_id, None, channel["player"])
        tokens = parse_qs(asked.query).get("token")
        token = bearer_token(request) or (tokens[0] if tokens else None) or request.cookies.get(SEAT_COOKIE)
        seat = await session_seat(request, gameplay, game_id) if token is None else await seat_of(
            gameplay, game_id, token)
    except (ApiError, InfraError):  # a bad token, a claimed seat's invite, an unknown game: no subscription
        return None
    return Opened(game_id, seat, channel["player"]) if seat is not None and seat == int(channel["seat"]) else None


@get("/internal/push-auth", tags=["push"], include_in_schema=False, summary="nchan: may this subscriber subscribe?")
async def push_auth(request: Request[Any, Any, Any], gameplay: GameplayDep, catalogs: CatalogsDep) -> Response[None]:
    return _answer(await opened(request, gameplay, catalogs) is not None)


PRESENT_S = 120
"""How long a page held by nchan counts as present after it subscribed: the page ends each subscription before
(``renew_s`` of ``GET .../stream/address``: ``infra.config.Settings.nchan_subscription_s``) and opens the next one,
resuming after the last message it saw, and is marked again. nchan's unsubscribe call is not used: after the client
has hung up it carries the request's variables corrupted (its address, the connection's id: seen here with nchan
1.3.6) and it is not made at all when a client vanishes (slact/nchan#579), so a page that left counts as present
until its mark lapses."""
CONNECTION = re.compile(r"^[A-Za-z0-9_.:-]{1,128}$")


@get("/internal/push-presence", tags=["push"], include_in_schema=False, summary="nchan: a subscriber came")
async def push_presence(request: Request[Any, Any, Any], gameplay: GameplayDep, catalogs: CatalogsDep,
                        accounts: AccountsDep) -> Response[None]:
    """``nchan_subscribe_request``: a seat's page (and a signed-in player's) held by nchan keeps that seat (and player)
    present for :data:`PRESENT_S`, as the Python stream does while it is open, so email and push wait. The
    subscription is checked again with the caller's own credentials, so no one marks another's seat present;
    ``X-Push-Connection`` names it."""
    connection = request.headers.get("x-push-connection", "")
    if not CONNECTION.match(connection):
        return Response(None, status_code=400, headers={"Cache-Control": "no-store"})
    subscription = await opened(request, gameplay, catalogs)
    if subscription is None:
        return _answer(False)
    try:
        if subscription.seat is not None:
            await accounts.seat_here(subscription.game_id, subscription.seat, connection, PRESENT_S)
        if subscription.player_id is not None:
            await accounts.player_here(subscription.player_id, connection, PRESENT_S)
    except (InfraError, RedisError):  # Redis away: the page counts as away (what a lost stream does)
        pass
    return Response(None, status_code=204, headers={"Cache-Control": "no-store"})
