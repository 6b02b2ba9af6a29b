"""The application factory: ``create_app(settings)`` composes the HTTP API around a Runtime, and serves
the play-by-web page (``services/api/web``) at ``/`` from the same process.

Without a runtime the lifespan builds one from the settings (connecting to PostgreSQL and Redis) and
closes it on shutdown; with one (tests, an embedding process) the caller owns it. To serve it from the
environment: ``uvicorn --factory services.api.app:from_environment``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar
from litestar.datastructures import State
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig

from infra.config import Settings, load
from services.gameplay.bootstrap import Runtime, build
from services.gameplay.story import Stories

from .auth import COMPONENTS
from .controllers import CatalogController, CommandController, GameController, StreamController, health
from .deps import plausible_game_id, provide_gameplay, provide_runtime, provide_settings, provide_stories
from .errors import EXCEPTION_HANDLERS
from .web import web_router

DESCRIPTION = """Play Magnate: The First City over HTTP (the play-by-web page at `/` uses only this API).
Create a game, share each human seat's invite link, read views, submit commands, follow the game over
Server-Sent Events and export its verifiable history.
Errors are JSON `{"code", "message", "details"}` with a stable, namespaced `code`."""


def create_app(settings: Settings, runtime: Runtime | None = None) -> Litestar:
    """The Litestar application.

    Args:
        settings: The server's settings (``infra.config.load()`` in production).
        runtime: Live adapters to use; when None the lifespan builds them with ``build(settings)`` and
            closes them on shutdown.

    Returns:
        The ASGI application.
    """

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        if runtime is not None:
            yield
            return
        built = await build(settings)
        app.state.runtime = built
        try:
            yield
        finally:
            await built.close()

    kept: dict[str, object] = {"settings": settings, "stories": Stories()}
    state = State(kept | ({"runtime": runtime} if runtime is not None else {}))
    return Litestar(
        route_handlers=[GameController, CommandController, StreamController, CatalogController, health,
                        web_router()],
        dependencies={
            "runtime": Provide(provide_runtime, sync_to_thread=False),
            "gameplay": Provide(provide_gameplay, sync_to_thread=False),
            "settings": Provide(provide_settings, sync_to_thread=False),
            "stories": Provide(provide_stories, sync_to_thread=False),
        },
        guards=[plausible_game_id],
        exception_handlers=EXCEPTION_HANDLERS,
        lifespan=[lifespan],
        state=state,
        openapi_config=OpenAPIConfig(
            title="Magnate Server", version="0.1.0", description=DESCRIPTION, path="/schema", components=COMPONENTS
        ),
    )


def from_environment() -> Litestar:
    """The app configured from environment variables (``infra.config``), for ``uvicorn --factory``."""
    return create_app(load())
