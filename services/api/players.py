"""Who is signed in: Litestar's server-side sessions (cookie ``session``, rows in PostgreSQL) and the CSRF check of
the writes a signed-in page makes (docs/PLAYERS.md).

A session holds ``{"player_id": ..., "csrf": ...}``; a pre-session (``GET /api/auth/csrf``, before signing in) only
``{"csrf": ...}``. A request that carries the session cookie and changes something, and every sign-in, must send
``X-CSRFToken`` with the ``csrftoken`` cookie's value (Litestar's ``CSRFMiddleware`` checks it), which must be the
session's own token (:mod:`.sessions`). A request without the session cookie (a bot's bearer token) is not
cookie-authenticated, so it skips that check: a browser cannot forge an ``Authorization`` header cross-site, and
without the cookie the request is nobody's session.

The cookies are read with Litestar's own parser (the one its session backend uses), so a ``Cookie`` header that
Python's ``SimpleCookie`` would refuse (``junk; session=x``) cannot make the two disagree.
"""

from __future__ import annotations

from typing import Any, cast

from litestar import Request
from litestar.config.csrf import CSRFConfig
from litestar.connection import ASGIConnection
from litestar.di import NamedDependency
from litestar.enums import ScopeType
from litestar.middleware.csrf import CSRFMiddleware
from litestar.middleware.session.base import SessionMiddleware
from litestar.middleware.session.server_side import ServerSideSessionConfig
from litestar.params import SkipValidation
from litestar.types import ASGIApp, Receive, Scope, Send

from domain.kernel.phrases import say
from infra.accounts import Player
from services.gameplay.accounts import Accounts

from .errors import ApiError
from .language import PLAYER_KEY, request_state
from .sessions import (
    CSRF_PATH,
    SAFE_METHODS,
    SESSION_COOKIE,
    SESSION_ID_BYTES,
    SIGN_IN_PATH,
    FreshSessions,
    plausible_session_id,
)

SESSION_DAYS = 30
CSRF_COOKIE = "csrftoken"
CSRF_HEADER = "x-csrftoken"
SESSION_PATHS = frozenset({SIGN_IN_PATH, CSRF_PATH})
"""Where the session middleware runs even without a session cookie: signing in, and starting a pre-session."""

PlayerDep = NamedDependency[SkipValidation[Player]]
OptionalPlayerDep = NamedDependency[SkipValidation[Player | None]]


def session_config(secure: bool) -> ServerSideSessionConfig:
    return ServerSideSessionConfig(key=SESSION_COOKIE, max_age=SESSION_DAYS * 86400, httponly=True, samesite="lax",
                                   secure=secure, store="sessions", renew_on_access=False,
                                   session_id_bytes=SESSION_ID_BYTES)


def has_session_cookie(scope: Scope) -> bool:
    """Whether the request names a session this server could have made (Litestar's cookie parser: the same
    reading its session backend makes; any other value is no session)."""
    return plausible_session_id(ASGIConnection[Any, Any, Any, Any](scope).cookies.get(SESSION_COOKIE))


def sessions_for_signed_in(config: ServerSideSessionConfig) -> Any:
    """Middleware: Litestar's session middleware for the requests that carry a session cookie, and for signing in.

    Litestar's middleware also runs for requests that never signed in: it answers each with a cookie deleting a
    session and deletes that (new, random) id from the store, a database round trip per request for every bot and
    script. A request without the cookie has no session to load or save, so it skips the middleware (and
    ``request.session`` is never read without the cookie: :func:`session_player_id`)."""

    def middleware(app: ASGIApp) -> ASGIApp:
        with_sessions = SessionMiddleware(app=app, backend=FreshSessions(config=config))

        async def guard(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == ScopeType.HTTP and (scope["path"] in SESSION_PATHS or has_session_cookie(scope)):
                await with_sessions(scope, receive, send)
            else:
                await app(scope, receive, send)

        return guard

    return middleware


def is_event_stream(scope: Scope) -> bool:
    """A ``GET`` of a Server-Sent Events route (``.../stream``): a long response of many messages, which a
    middleware that wraps ``send`` would handle message by message for its whole life."""
    return scope.get("method") == "GET" and str(scope["path"]).endswith(STREAM_SUFFIX)


STREAM_SUFFIX = "/stream"


def csrf_config(secret: str, secure: bool) -> CSRFConfig:
    return CSRFConfig(secret=secret, cookie_name=CSRF_COOKIE, header_name=CSRF_HEADER, cookie_secure=secure,
                      cookie_samesite="strict")


def csrf_for_sessions(config: CSRFConfig) -> Any:
    """Middleware: Litestar's CSRF check for requests that carry the session cookie and for signing in (and, on
    safe methods, its ``csrftoken`` cookie for every page to read). An event stream is a safe request and sets no
    cookie: it skips the middleware, whose wrapper of ``send`` would otherwise run for every message of every open
    stream; so does ``GET /api/auth/csrf``, which sets the cookie to its session's token itself."""

    def middleware(app: ASGIApp) -> ASGIApp:
        guarded = CSRFMiddleware(app=app, config=config)

        async def guard(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == ScopeType.HTTP and not is_event_stream(scope) and scope["path"] != CSRF_PATH and (
                    scope["method"] in SAFE_METHODS or scope["path"] == SIGN_IN_PATH or has_session_cookie(scope)):
                await guarded(scope, receive, send)
            else:
                await app(scope, receive, send)

        return guard

    return middleware


def session_player_id(request: Request[Any, Any, Any]) -> str | None:
    if "session" not in cast("dict[str, Any]", request.scope):  # typed as always there; it is where sessions ran
        return None  # the session middleware did not run: a request that never signed in, no lookup at all
    player_id = request.session.get("player_id") if request.session else None
    return player_id if isinstance(player_id, str) else None


def accounts_of(request: Request[Any, Any, Any]) -> Accounts:
    accounts: Accounts = request.app.state.runtime.accounts
    return accounts


async def provide_player(request: Request[Any, Any, Any]) -> Player:
    """Dependency: the signed-in player (401 ``auth/signed_out`` otherwise)."""
    player = await provide_optional_player(request)
    if player is None:
        raise ApiError(401, "auth/signed_out", say("sign in first (POST /api/auth/link sends a sign-in link)"))
    return player


async def provide_optional_player(request: Request[Any, Any, Any]) -> Player | None:
    """Dependency: the signed-in player, or None (read once per request)."""
    state = request_state(request)
    if PLAYER_KEY in state:
        cached: Player | None = state[PLAYER_KEY]
        return cached
    player_id = session_player_id(request)
    if player_id is None:
        state[PLAYER_KEY] = None
        return None
    player = await accounts_of(request).player(player_id)
    if player is None:  # the account is gone: the session is worth nothing
        request.clear_session()
    state[PLAYER_KEY] = player
    return player


def remember_player(request: Request[Any, Any, Any], player: Player) -> None:
    """The request's player has changed (a rename, a new language): later readers of this request see it."""
    request_state(request)[PLAYER_KEY] = player
