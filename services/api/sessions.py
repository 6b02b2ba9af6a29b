"""Sessions that cannot be planted and CSRF tokens bound to them (issue #24, items 4 and 5; docs/PLAYERS.md).

* **A new session id at every sign-in** (and a pre-session's start): :func:`start_session` deletes the id the
  browser had from the store and has the backend hand out a fresh one. Signing out deletes the row (Litestar clears
  a session by deleting it). So an id an attacker planted in a victim's browser never becomes the victim's session.
* **Pre-sessions are short**: anyone may start one (``GET /api/auth/csrf``), so one is kept a day, not the
  signed-in sessions' 30 days.
* **No session made from nothing**: Litestar's server-side backend would store an empty session under whatever id a
  cookie names (or a new one) and set the cookie, on every response that passed its middleware; this backend keeps
  no empty session and sets no cookie for it (a refused sign-in sets none), and an id it could not have made (not
  :data:`SESSION_ID_CHARS` hex digits) is no session at all.
* **Signing out holds**: a session is written only when a request changed it (signing in, binding its CSRF token),
  never again as it was read; Litestar writes it back as every response starts, so a request that read it before
  the browser signed out (an event stream answering late) would have stored it, and set its cookie, again. A session
  thus lasts :data:`~.players.SESSION_DAYS` from its last change (signing in), not from its last use.
* **The CSRF token is the session's**: Litestar's ``CSRFMiddleware`` checks that the ``X-CSRFToken`` header equals
  the ``csrftoken`` cookie (both signed with the server's secret); :func:`csrf_bound_to_session` (an app guard) also
  checks that it is the token the session was given, for every change a signed-in session makes and for signing in
  (whose pre-session, ``GET /api/auth/csrf``, holds only that token). A token of one session is refused in another.
* **The Origin** (or, without one, the Referer) of those requests must be the server's own (``PUBLIC_URL``, else the
  ``Host`` the request came to); a request with neither is a script's, not a page's, and is judged by its token.

All of it through Litestar's public API: its ``ServerSideSessionBackend``'s public methods, its CSRF token
function, and guards.
"""

from __future__ import annotations

import re
import secrets
from secrets import compare_digest
from typing import Any
from urllib.parse import urlsplit

from litestar import Request
from litestar.config.csrf import CSRFConfig
from litestar.connection import ASGIConnection
from litestar.datastructures import Cookie
from litestar.handlers import BaseRouteHandler
from litestar.middleware.csrf import generate_csrf_token
from litestar.middleware.session.server_side import ServerSideSessionBackend
from litestar.stores.base import Store
from litestar.types import Empty, Message

from domain.kernel.phrases import say

from .errors import ApiError

SESSION_COOKIE = "session"
SESSION_ID_BYTES = 32
SESSION_ID_CHARS = SESSION_ID_BYTES * 2
_SESSION_ID = re.compile(f"[0-9a-f]{{{SESSION_ID_CHARS}}}")
LOADED = "magnate.session_loaded"
"""The connection state's key of the session as the request read it (serialised: a change in place shows)."""
NEW_ID = "magnate.new_session_id"
"""The connection state's key of the id :func:`start_session` chose."""
PRE_SESSION_S = 86400
"""How long a pre-session (a CSRF token before signing in) is kept."""
CSRF_KEY = "csrf"
"""The session's key of its CSRF token."""
EXCLUDE_KEY = CSRFConfig(secret="-").exclude_from_csrf_key
"""The ``opt`` key of a route Litestar's CSRF check leaves out."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SIGN_IN_PATH = "/api/auth/session"
CSRF_PATH = "/api/auth/csrf"
LINK_PATH = "/api/auth/link"


def plausible_session_id(value: str | None) -> bool:
    return value is not None and _SESSION_ID.fullmatch(value) is not None


class FreshSessions(ServerSideSessionBackend):
    """Litestar's server-side sessions, with a fresh id when :func:`start_session` asks for one, no empty session
    ever stored, and a malformed id treated as no id (it never reaches the store)."""

    def get_session_id(self, connection: ASGIConnection[Any, Any, Any, Any]) -> str:
        fresh = connection.state.get(NEW_ID)
        if isinstance(fresh, str):
            return fresh
        cookie = connection.cookies.get(self.config.key)
        if plausible_session_id(cookie):
            return str(cookie)
        return connection.get_session_id() or self.generate_session_id()

    async def load_from_connection(self, connection: ASGIConnection[Any, Any, Any, Any]) -> dict[str, Any]:
        if not plausible_session_id(connection.cookies.get(self.config.key)):
            return {}
        loaded = await super().load_from_connection(connection)
        connection.state[LOADED] = self.serialize_data(loaded, connection.scope)
        return loaded

    async def set(self, session_id: str, data: bytes, store: Store) -> None:
        """A pre-session (no player in it) is kept :data:`PRE_SESSION_S` only: anyone may start one, so they must
        not pile up for the signed-in sessions' 30 days."""
        if b'"player_id"' in data:
            await super().set(session_id, data, store)
        else:
            await store.set(session_id, data, expires_in=PRE_SESSION_S)

    async def store_in_message(self, scope_session: Any, message: Message,
                               connection: ASGIConnection[Any, Any, Any, Any]) -> None:
        if scope_session is not Empty and not scope_session:
            return  # nothing to keep: no row, no cookie (Litestar would store {} under a new or planted id)
        if scope_session is not Empty and NEW_ID not in connection.state and self.serialize_data(
                scope_session, connection.scope) == connection.state.get(LOADED):
            # Unchanged, so stored already. Litestar would store it again as this response starts: a request that
            # read the session before the browser signed out (an event stream answering late, a read crossing the
            # sign-out) would bring the signed-out session back, and set its cookie again.
            return
        await super().store_in_message(scope_session, message, connection)


async def start_session(request: Request[Any, Any, Any], data: dict[str, Any]) -> None:
    """Replace the browser's session, if any, by a new one under a new id holding ``data``: the old id is deleted
    from the store now, so it is worth nothing to whoever knew it."""
    previous = request.cookies.get(SESSION_COOKIE)
    if plausible_session_id(previous):
        await request.app.stores.get("sessions").delete(str(previous))
    request.state[NEW_ID] = secrets.token_hex(SESSION_ID_BYTES)
    request.set_session(data)


def new_csrf_cookie(config: CSRFConfig) -> tuple[str, Cookie]:
    """A new CSRF token (signed as Litestar's middleware expects) and the cookie that hands it to the page, set as
    the middleware would set it."""
    token = generate_csrf_token(config.secret)
    return token, Cookie(key=config.cookie_name, value=token, path=config.cookie_path, secure=config.cookie_secure,
                         httponly=config.cookie_httponly, samesite=config.cookie_samesite,
                         domain=config.cookie_domain)


def own_origin(connection: ASGIConnection[Any, Any, Any, Any]) -> str:
    """``scheme://host[:port]`` of this server as browsers see it: ``PUBLIC_URL``'s, else the request's own."""
    public = getattr(connection.app.state.settings, "public_url", None)
    base = public or str(connection.base_url)
    return origin_of(base) or ""


def origin_of(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    default = 443 if parts.scheme == "https" else 80
    return f"{parts.scheme}://{parts.hostname}" + (f":{port}" if port and port != default else "")


def check_origin(connection: ASGIConnection[Any, Any, Any, Any]) -> None:
    """403 ``auth/origin`` when the request names another origin than this server's (Origin, else Referer)."""
    sent = connection.headers.get("origin") or connection.headers.get("referer")
    if sent is None:
        return  # not sent by a browser page: the CSRF token decides
    if origin_of(sent) != own_origin(connection):
        raise ApiError(403, "auth/origin", say("this request comes from another site's page: it is refused"))


async def csrf_bound_to_session(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """Guard: a change made with a signed-in session, and signing in (with its pre-session), must come from this
    server's origin and carry the session's own CSRF token (403 ``auth/origin`` / ``auth/csrf``). A route Litestar's
    CSRF check leaves out (``opt={"exclude_from_csrf": True}``: the one-click unsubscribe a mail client posts) is
    left out here too."""
    method = connection.scope.get("method", "GET")
    if method in SAFE_METHODS or handler.opt.get(EXCLUDE_KEY):
        return
    path = connection.scope["path"]
    if path == LINK_PATH:
        check_origin(connection)
        return
    session = connection.scope.get("session")  # present only where the session middleware ran
    signing_in = path == SIGN_IN_PATH and method == "POST"
    if not signing_in and not (isinstance(session, dict) and session.get("player_id")):
        return  # no signed-in session: the request is not cookie-authenticated
    check_origin(connection)
    bound = session.get(CSRF_KEY) if isinstance(session, dict) else None
    sent = connection.headers.get("x-csrftoken")
    if not isinstance(bound, str) or sent is None or not compare_digest(bound.encode(), sent.encode()):
        raise ApiError(403, "auth/csrf", say("this change needs the X-CSRFToken header with this session's token "
                                             "(GET /api/auth/csrf gives it, and sets it as the csrftoken cookie)"))
