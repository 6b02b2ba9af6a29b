"""Strict JSON for the routes a hostile page would like to reach with a form (signing in, asking for a link,
renaming): JSON only, and no key twice.

A form of another site can post ``text/plain`` (no CORS preflight) whose body happens to be JSON, and a JSON object
with a key twice means whatever the last one says to one parser and the first to another; neither is ever what a
page of this server sends. :func:`json_only` (a guard, before the body is read) answers 415
``request/unsupported_media_type``; :func:`refuse_duplicate_keys` answers 400 ``request/duplicate_key``.
"""

from __future__ import annotations

import json
from typing import Any

from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from domain.kernel.phrases import say

from .errors import ApiError

JSON = "application/json"


async def json_only(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Guard: the body must be declared ``application/json`` (parameters such as ``charset=utf-8`` allowed)."""
    declared = connection.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if declared != JSON:
        raise ApiError(415, "request/unsupported_media_type", say("this route reads {type} only", type=JSON),
                       content_type=declared or None)


class DuplicateKey(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise DuplicateKey(key)
        seen[key] = value
    return seen


def refuse_duplicate_keys(body: bytes) -> None:
    """400 ``request/duplicate_key`` when an object of the (already decoded, so well-formed) body repeats a key."""
    try:
        json.loads(body, object_pairs_hook=_pairs)
    except DuplicateKey as exc:
        raise ApiError(400, "request/duplicate_key", say("the key {key} appears twice in one object",
                                                         key=repr(str(exc))), key=str(exc)) from exc
    except ValueError as exc:  # a body the handler's decoder took but this one does not: refuse it as well
        raise ApiError(400, "request/malformed", say("the request body is not valid JSON")) from exc
