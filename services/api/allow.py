"""The ``Allow`` header of the automatic ``OPTIONS`` answers, listing every method of the path.

Litestar 2 answers ``OPTIONS`` on a path served by several handlers (``GET`` and ``PUT`` of ``/api/me/settings``)
with the methods of the first handler only (litestar-org/litestar#4169, fixed in Litestar 3). This middleware
rewrites that header from the application's merged routes (``Litestar.routes``, public), so the OpenAPI
conformance test and any client probing a resource see the truth. Remove it with the upgrade to Litestar 3.
"""

from __future__ import annotations

from typing import Any

from litestar import Litestar
from litestar.datastructures import MutableScopeHeaders
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send


def allow_every_method() -> Any:
    """Middleware factory (see the module's docstring)."""

    def middleware(app: ASGIApp) -> ASGIApp:
        async def fixed(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != ScopeType.HTTP or scope["method"] != "OPTIONS":
                await app(scope, receive, send)
                return
            methods = _methods(scope)

            async def send_allow(message: Message) -> None:
                if message["type"] == "http.response.start" and methods:
                    headers = MutableScopeHeaders.from_message(message)
                    if "allow" in headers:
                        headers["allow"] = ", ".join(sorted(methods))
                await send(message)

            await app(scope, receive, send_allow)

        return fixed

    return middleware


def _methods(scope: Scope) -> set[str]:
    template = scope.get("path_template")
    found: set[str] = set()
    for route in Litestar.from_scope(scope).routes:
        if route.path_format == template:
            found.update(str(m) for m in getattr(route, "methods", ()))
    return found
