"""Exception -> JSON error mapping: every error body is ``{"code", "message", "details"}``.

=================================  ======  ==========================================
raised                             status  code
=================================  ======  ==========================================
ApiError (this module)             its own ``request/*``, ``auth/*``
malformed JSON body                400     ``request/malformed``
body or parameter validation       400     ``request/invalid``
RuleViolation (and subclasses)     422     the rule's own code (``rule/not_your_turn``)
ViewUnavailable                    403     ``view/unavailable``
StreamNotFound                     404     ``game/not_found``
ConcurrencyConflict                409     ``conflict/version`` (details.retry = true)
CommandIdReused                    409     ``conflict/command_id_reused``
StoreUnavailable                   503     ``infra/unavailable``
anything else                      500     ``internal/error`` (logged, never explained)
=================================  ======  ==========================================

This is the API's outermost error boundary, the one place allowed to see broad exceptions.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from litestar import MediaType, Request, Response
from litestar.exceptions import (
    HTTPException,
    MethodNotAllowedException,
    NotFoundException,
    SerializationException,
    ValidationException,
)
from litestar.openapi import ResponseSpec

from domain.kernel import GameError, ViewUnavailable
from infra.errors import CommandIdReused, ConcurrencyConflict, InfraError, StoreUnavailable, StreamNotFound

from .schemas import ErrorBody

log = logging.getLogger(__name__)


class ApiError(Exception):
    """An error the HTTP layer itself detects (bad request, missing or wrong token, wrong seat)."""

    def __init__(self, status_code: int, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.code = code
        self.message = message
        self.details = details


def malformed(message: str) -> ApiError:
    return ApiError(400, "request/malformed", message)


def invalid(message: str, **details: Any) -> ApiError:
    return ApiError(400, "request/invalid", message, **details)


def error_response(
    status_code: int, code: str, message: str, details: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> Response[ErrorBody]:
    return Response(ErrorBody(code, message, details or {}), status_code=status_code, media_type=MediaType.JSON,
                    headers=headers)


_DOCUMENTED = {
    400: "Malformed JSON (request/malformed) or an invalid request (request/invalid)",
    401: "Missing or unknown seat token (auth/missing_token, auth/invalid_token)",
    403: "Not this token's seat (auth/wrong_seat), or a view that is not open yet (view/unavailable)",
    404: "No such game (game/not_found)",
    409: "The game moved on (conflict/version) or the command id was used for another command "
         "(conflict/command_id_reused)",
    422: "The command breaks a rule; the code is the rule's own (rule/not_your_turn, ...)",
    503: "PostgreSQL or Redis is unreachable (infra/unavailable)",
}


def documented(*statuses: int) -> dict[int, ResponseSpec]:
    """OpenAPI entries for the error responses a handler may give (all with an ErrorBody)."""
    return {s: ResponseSpec(ErrorBody, description=_DOCUMENTED[s]) for s in statuses}


def on_api_error(_: Request[Any, Any, Any], exc: ApiError) -> Response[ErrorBody]:
    return error_response(exc.status_code, exc.code, exc.message, exc.details)


def on_game_error(_: Request[Any, Any, Any], exc: GameError) -> Response[ErrorBody]:
    status = 403 if isinstance(exc, ViewUnavailable) else 422
    return error_response(status, exc.code, exc.message, exc.details)


_INFRA_STATUS: dict[type[InfraError], int] = {
    StreamNotFound: 404,
    ConcurrencyConflict: 409,
    CommandIdReused: 409,
    StoreUnavailable: 503,
}


def on_infra_error(_: Request[Any, Any, Any], exc: InfraError) -> Response[ErrorBody]:
    status = next((s for kind, s in _INFRA_STATUS.items() if isinstance(exc, kind)), None)
    if status is None:
        log.error("unmapped infrastructure error", exc_info=exc)
        return error_response(500, "internal/error", "internal server error")
    details: dict[str, Any] = {}
    if isinstance(exc, ConcurrencyConflict):
        details = {"expected_version": exc.expected_version, "retry": True}
    return error_response(status, exc.code, str(exc), details)


def on_http_error(_: Request[Any, Any, Any], exc: HTTPException) -> Response[ErrorBody]:
    """Litestar's own errors: body decoding, parameter validation, unknown routes."""
    status = exc.status_code
    if isinstance(exc, ValidationException):
        code, details = "request/invalid", {"errors": exc.extra} if exc.extra else {}
    elif isinstance(exc.__cause__, SerializationException):
        code, details = "request/malformed", {}
    elif isinstance(exc, NotFoundException):
        code, details = "route/not_found", {}
    elif isinstance(exc, MethodNotAllowedException):
        code, details = "request/method_not_allowed", {}
    elif status >= 500:
        log.error("internal error", exc_info=exc)
        return error_response(500, "internal/error", "internal server error")
    else:
        code, details = f"http/{status}", {}
    return error_response(status, code, exc.detail, details, headers=exc.headers)


def on_unexpected(_: Request[Any, Any, Any], exc: Exception) -> Response[ErrorBody]:
    log.error("unhandled exception", exc_info=exc)
    return error_response(500, "internal/error", "internal server error")


EXCEPTION_HANDLERS: dict[type[Exception] | int, Callable[[Request[Any, Any, Any], Any], Response[Any]]] = {
    ApiError: on_api_error,
    GameError: on_game_error,
    InfraError: on_infra_error,
    HTTPException: on_http_error,
    Exception: on_unexpected,
}
