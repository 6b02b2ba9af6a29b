"""Exception -> JSON error mapping: every error body is ``{"code", "message", "details"}``.

=========================================  ======  ================================================
raised                                     status  code
=========================================  ======  ================================================
ApiError (this module)                     its own ``request/*``, ``auth/*``, ``rate/*``, ``mail/*``
malformed JSON body (or nested too deep,   400     ``request/malformed``
or not UTF-8)
body or parameter validation               400     ``request/invalid``
a name with no visible character or with   400     ``request/invalid_name`` (``services.api.names``)
a control character
a language the service does not speak      400     ``language/unknown`` (``PUT /api/me/language``)
a JSON object with a key twice (signing    400     ``request/duplicate_key`` (``services.api.bodies``)
in, asking a link, renaming)
not ``application/json`` there             415     ``request/unsupported_media_type``
another site's page (signed-in changes,    403     ``auth/origin`` (``services.api.sessions``)
signing in, asking a link)
no mail configured (asking a link)         403     ``mail/not_configured``
CommandIdReserved                          400     ``request/reserved_command_id``
InvalidIdempotencyKey                      400     ``request/invalid_idempotency_key``
body over ``max_body_bytes``               413     ``request/too_large`` (details.max_bytes)
RuleViolation (and subclasses)             422     the rule's own code (``rule/not_your_turn``)
ViewUnavailable                            403     ``view/unavailable``
StreamNotFound                             404     ``game/not_found``
SeatTaken (an invite of a claimed seat)    403     ``seat/claimed``
a note of a game where one holds no seat   403     ``notes/not_seated`` (``services.gameplay.notes``)
a note over its length                     413     ``notes/too_long`` (details.max_length)
deleting the account without its address   422     ``account/not_confirmed`` (``DELETE /api/me``)
AlreadySeated                              409     ``seat/already_seated``
InviteInvalid                              401     ``auth/invalid_token``
CSRF check failed (cookie-signed writes,   403     ``auth/csrf`` (also: a token of another session)
signing in)
ConcurrencyConflict                        409     ``conflict/version`` (details.retry = true)
CommandIdReused                            409     ``conflict/command_id_reused``
IdempotencyKeyReused                       409     ``conflict/idempotency_key_reused``
a rate limit (Litestar's middleware)       429     ``rate/limited`` (``Retry-After``, details.retry_after_s)
StoreUnavailable                           503     ``infra/unavailable`` (``Retry-After``, details.retry_after_s)
Redis, OS or asyncpg connection errors     503     ``infra/unavailable`` (a safety net; logged)
anything else                              500     ``internal/error`` (logged, never explained)
=========================================  ======  ================================================

Infrastructure errors are mapped by their ``code`` (the stable contract the service and the clients share).
This is the API's outermost error boundary, the one place allowed to see broad exceptions.

The ``message`` is for people, in the request's language (:mod:`.language`): an :class:`ApiError` or a
``GameError`` may carry a phrase (:mod:`domain.kernel.phrases`), rendered here; ``code`` and ``details`` are for
programs and never translated.
"""

from __future__ import annotations

import errno
import logging
import socket
from collections.abc import Callable
from typing import Any

import asyncpg
from litestar import MediaType, Request, Response
from litestar.exceptions import (
    HTTPException,
    MethodNotAllowedException,
    NotFoundException,
    PermissionDeniedException,
    SerializationException,
    TooManyRequestsException,
    ValidationException,
)
from litestar.openapi import ResponseSpec
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from domain.kernel import GameError, ViewUnavailable
from domain.kernel.phrases import Phrase, plain, say
from infra.errors import ConcurrencyConflict, InfraError

from . import names
from .language import error_words, game_error_words
from .schemas import ErrorBody

log = logging.getLogger(__name__)

RETRY_AFTER_S = 2
"""What a 503 asks the client to wait before retrying (``Retry-After`` and ``details.retry_after_s``)."""


Said = str | Phrase
"""What an error says: a phrase (rendered in the request's language), or text that is not words (a reason a
library gave, already in English)."""


class ApiError(Exception):
    """An error the HTTP layer itself detects (bad request, missing or wrong token, wrong seat); ``message``: a
    phrase, rendered in the request's language (``self.message`` is its English text)."""

    def __init__(self, status_code: int, code: str, message: Said, *, headers: dict[str, str] | None = None,
                 **details: Any) -> None:
        english = plain(message) if isinstance(message, Phrase) else message
        super().__init__(english)
        self.status_code = status_code
        self.code = code
        self.message = english
        self.phrase = message if isinstance(message, Phrase) else None
        self.headers = headers
        self.details = details


def malformed(message: Said) -> ApiError:
    return ApiError(400, "request/malformed", message)


def invalid(message: Said, **details: Any) -> ApiError:
    return ApiError(400, "request/invalid", message, **details)


TOO_DEEP = "the JSON body is nested too deeply"
NOT_UTF8 = "the JSON body is not UTF-8"
BODY_WORDS = {TOO_DEEP: say("the JSON body is nested too deeply"), NOT_UTF8: say("the JSON body is not UTF-8")}


def too_many(message: Said, retry_after_s: int, **details: Any) -> ApiError:
    """A 429 that says when to come back."""
    retry_after_s = max(1, retry_after_s)
    return ApiError(429, "rate/limited", message, headers={"Retry-After": str(retry_after_s)},
                    retry_after_s=retry_after_s, **details)


def error_response(
    status_code: int, code: str, message: str, details: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> Response[ErrorBody]:
    return Response(ErrorBody(code, message, details or {}), status_code=status_code, media_type=MediaType.JSON,
                    headers=headers)


def unavailable(message: str) -> Response[ErrorBody]:
    return error_response(503, "infra/unavailable", message, {"retry_after_s": RETRY_AFTER_S},
                          headers={"Retry-After": str(RETRY_AFTER_S)})


_DOCUMENTED = {
    400: "Malformed JSON or JSON nested too deeply (request/malformed), an invalid request (request/invalid), "
         "a command id of the service's own (request/reserved_command_id)",
    401: "Missing or unknown seat token (auth/missing_token, auth/invalid_token)",
    403: "Not this token's seat (auth/wrong_seat), or a view that is not open yet (view/unavailable)",
    404: "No such game (game/not_found)",
    409: "The game moved on (conflict/version) or the command id was used for another command "
         "(conflict/command_id_reused)",
    413: "The request body is larger than the server reads (request/too_large; details.max_bytes)",
    415: "The body is not JSON (request/unsupported_media_type)",
    422: "The command breaks a rule; the code is the rule's own (rule/not_your_turn, ...)",
    429: "Too many requests from this client address (rate/limited); Retry-After says when to come back",
    503: "PostgreSQL or Redis is unreachable (infra/unavailable); retry after Retry-After seconds",
}
EVERY_API_ROUTE = (429, 503)
"""What any ``/api`` route may answer: a rate limit (its counters live in Redis) and a store that is away."""


def documented(*statuses: int, **described: str) -> dict[int, ResponseSpec]:
    """OpenAPI entries for the error responses a handler may give (all with an ErrorBody), always with
    :data:`EVERY_API_ROUTE`. ``described`` overrides a description (``s409="..."``)."""
    texts = _DOCUMENTED | {int(k.removeprefix("s")): v for k, v in described.items()}
    return {s: ResponseSpec(ErrorBody, description=texts[s]) for s in sorted({*statuses, *EVERY_API_ROUTE})}


NAME_RULE = say("a name needs a visible character and holds no control character (no line break, no bidirectional "
                "override)")
"""What a refused name is told (:data:`.names.RULE`, as a phrase)."""
INTERNAL = say("internal server error")
UNAVAILABLE = say("a store is unreachable: retry later")


def said(request: Request[Any, Any, Any], message: Said) -> str:
    """``message`` in the request's language (text that is not a phrase as it is)."""
    return error_words(request).text(message) if isinstance(message, Phrase) else message


def on_api_error(request: Request[Any, Any, Any], exc: ApiError) -> Response[ErrorBody]:
    if exc.code == "request/invalid" and names.is_refusal(exc.message):  # a body a handler decoded itself
        return error_response(400, "request/invalid_name", said(request, NAME_RULE))
    return error_response(exc.status_code, exc.code, said(request, exc.phrase or exc.message), exc.details,
                          headers=exc.headers)


def on_game_error(request: Request[Any, Any, Any], exc: GameError) -> Response[ErrorBody]:
    """A domain error: its phrase (the kernel's ``GameError.phrase``) in the request's language, with the words of
    every game (the handler cannot tell which game the request was about), else its English message."""
    status = 403 if isinstance(exc, ViewUnavailable) else 422
    message = game_error_words(request).text(exc.phrase) if exc.phrase is not None else exc.message
    return error_response(status, exc.code, message, exc.details)


INFRA_STATUS: dict[str, int] = {
    "request/reserved_command_id": 400,
    "request/invalid_idempotency_key": 400,
    "game/not_found": 404,
    "conflict/version": 409,
    "conflict/command_id_reused": 409,
    "conflict/idempotency_key_reused": 409,
    "infra/unavailable": 503,
    "seat/claimed": 403,
    "seat/already_seated": 409,
    "auth/invalid_token": 401,
}
"""The status of each infrastructure error, by its code."""


INFRA_WORDS: dict[str, Phrase] = {
    "request/reserved_command_id": say("this command id is reserved for the service's own commands"),
    "request/invalid_idempotency_key": say("the Idempotency-Key is not valid"),
    "game/not_found": say("there is no such game"),
    "conflict/version": say("the game has moved on since: read it again and retry"),
    "conflict/command_id_reused": say("this command id was used already for another command"),
    "conflict/idempotency_key_reused": say("this Idempotency-Key was used already for another request"),
    "seat/claimed": say("this seat is taken: a signed-in player claimed it. Ask the game's host for an invite to a "
                        "free seat"),
    "seat/already_seated": say("you have a seat at this table already"),
    "auth/invalid_token": say("this seat's token is not valid"),
}
"""What each infrastructure error tells a person (its own message, with ids, goes to the logs)."""


def on_infra_error(request: Request[Any, Any, Any], exc: InfraError) -> Response[ErrorBody]:
    status = INFRA_STATUS.get(exc.code)
    if status is None:
        log.error("unmapped infrastructure error", exc_info=exc)
        return error_response(500, "internal/error", said(request, INTERNAL))
    if status == 503:
        log.warning("store unavailable: %s", exc)
        return unavailable(said(request, UNAVAILABLE))
    details: dict[str, Any] = {}
    if isinstance(exc, ConcurrencyConflict):
        details = {"expected_version": exc.expected_version, "retry": True}
    words = INFRA_WORDS.get(exc.code)
    return error_response(status, exc.code, said(request, words) if words is not None else str(exc), details)


def _retry_after(headers: dict[str, str]) -> int:
    """Seconds until a rate limit's window resets (Litestar's ``RateLimit-Reset``), at least 1."""
    try:
        return max(1, int(headers.get("RateLimit-Reset", "1")))
    except ValueError:
        return 1


def on_http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[ErrorBody]:
    """Litestar's own errors: body decoding, parameter validation, body size, rate limits, unknown routes."""
    status = exc.status_code
    details: dict[str, Any] = {}
    message: Said = exc.detail
    if isinstance(exc, ValidationException):
        if names.is_refusal(str(exc.extra)):
            return error_response(400, "request/invalid_name", said(request, NAME_RULE))
        details = {"errors": exc.extra} if exc.extra else {}
        code = "request/invalid"
        message = say("the request is not valid (details.errors says where)") if exc.extra else exc.detail
    elif isinstance(exc.__cause__, SerializationException):
        code = "request/malformed"
        message = BODY_WORDS.get(exc.detail, say("the request body is not valid JSON"))
    elif isinstance(exc, NotFoundException):
        code = "route/not_found"
        message = say("there is nothing at this address")
    elif isinstance(exc, MethodNotAllowedException):
        code = "request/method_not_allowed"
        message = say("this address does not take this method")
    elif isinstance(exc, PermissionDeniedException) and "CSRF" in exc.detail:  # Litestar's CSRFMiddleware
        return error_response(403, "auth/csrf", said(request, say(
            "a signed-in page's change needs the X-CSRFToken header (the value of the csrftoken cookie)")))
    elif isinstance(exc, TooManyRequestsException):
        retry = _retry_after(exc.headers or {})
        return error_response(status, "rate/limited", said(request, say(
            "too many requests from this client: retry later")), {"retry_after_s": retry},
            {**(exc.headers or {}), "Retry-After": str(retry)})
    elif status == 413:
        limit = request.route_handler.resolve_request_max_body_size()
        return error_response(status, "request/too_large", said(request, say(
            "the request body is larger than {limit} bytes", limit=limit or 0)), {"max_bytes": limit})
    elif status >= 500:
        log.error("internal error", exc_info=exc)
        return error_response(500, "internal/error", said(request, INTERNAL))
    else:
        code = f"http/{status}"
    return error_response(status, code, said(request, message), details, headers=exc.headers)


NETWORK_ERRNOS = frozenset({errno.ECONNREFUSED, errno.ECONNRESET, errno.ECONNABORTED, errno.EHOSTUNREACH,
                            errno.ENETUNREACH, errno.ENETDOWN, errno.ETIMEDOUT, errno.EPIPE})
"""An OSError with one of these is the network (a store away); any other (a missing file, a permission) is a bug."""

CONNECTION_ERRORS: tuple[type[BaseException], ...] = (
    RedisConnectionError,  # BusyLoadingError included; a ResponseError is a bug
    RedisTimeoutError,
    ConnectionError,  # the built-in one: refused, reset, aborted, broken pipe
    TimeoutError,
    socket.gaierror,
    asyncpg.PostgresConnectionError,  # SQLSTATE class 08: the connection failed or was lost
    asyncpg.CannotConnectNowError,
    asyncpg.TooManyConnectionsError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
)
"""Driver errors that mean "a store is away": the adapters should have raised StoreUnavailable, but one that
slips through is still a 503 the client may retry, not a 500."""


def is_outage(exc: BaseException) -> bool:
    return isinstance(exc, CONNECTION_ERRORS) or (isinstance(exc, OSError) and exc.errno in NETWORK_ERRNOS)


def on_unexpected(request: Request[Any, Any, Any], exc: Exception) -> Response[ErrorBody]:
    if is_outage(exc):
        log.warning("store unavailable (%s reached the API): %s", type(exc).__name__, exc)
        return unavailable(said(request, UNAVAILABLE))
    log.error("unhandled exception", exc_info=exc)
    return error_response(500, "internal/error", said(request, INTERNAL))


def on_not_utf8(request: Request[Any, Any, Any], exc: UnicodeDecodeError) -> Response[ErrorBody]:
    """Bytes that are not UTF-8 where text was expected: a body a handler decodes itself (msgspec raises this, not
    its DecodeError), or a header. The client's input, never a bug of ours: 400, not 500."""
    return error_response(400, "request/malformed", said(request, say(
        "the request is not UTF-8 where text is expected")), {"reason": exc.reason})


EXCEPTION_HANDLERS: dict[type[Exception] | int, Callable[[Request[Any, Any, Any], Any], Response[Any]]] = {
    ApiError: on_api_error,
    UnicodeDecodeError: on_not_utf8,
    GameError: on_game_error,
    InfraError: on_infra_error,
    HTTPException: on_http_error,
    Exception: on_unexpected,
}
