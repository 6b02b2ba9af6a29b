"""The application factory: ``create_app(settings)`` composes the HTTP API around a Runtime, and serves
the play-by-web page (``services/api/web``) at ``/`` from the same process.

Without a runtime the lifespan builds one from the settings (connecting to PostgreSQL and Redis) and
closes it on shutdown; with one (tests, an embedding process) the caller owns it. To serve it from the
environment: ``uvicorn --factory services.api.app:from_environment``.

Every request body is capped (``max_body_bytes``: 413) and decoded with a bounded depth (400), every ``/api``
request counts against a rate per client address (``limits``: 429), and the OpenAPI document is completed
with what Litestar cannot derive (``openapi``). ``GET /metrics`` serves Prometheus (``metrics``), and every log
line of a request under ``/api/games/{game_id}`` carries its ``game_id`` (``log_context``). The app leaves the
process's logging alone (``logging_config=None``): ``infra.logs.configure`` set it up at start-up, and Litestar's
default would replace the root logger's handlers with its own.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar, Request
from litestar.datastructures import State
from litestar.di import Provide
from litestar.exceptions import NotFoundException, SerializationException
from litestar.openapi import OpenAPIConfig
from litestar.stores.base import Store

from infra.channels.devmail import DevMailbox
from infra.config import Settings, load
from services.gameplay.bootstrap import Runtime, build
from services.gameplay.registry import registry_of
from services.gameplay.story import Stories
from services.language.catalogs import catalogs_for

from .allow import allow_every_method
from .auth import COMPONENTS
from .controllers import CatalogController, CommandController, GameController, StreamController, health
from .controllers.accounts import AccountController
from .controllers.advice import AdviceController
from .controllers.chat import ChatController
from .controllers.devmail import devmail_router
from .controllers.lobby import LobbyBoard, LobbyController
from .controllers.mine import MyGamesController
from .controllers.notes import NotesController
from .controllers.notification_channels import NotificationChannelController, push_key
from .controllers.notifications import NotificationController
from .controllers.plans import PlansController
from .controllers.push_auth import push_auth, push_presence
from .controllers.ratings import RatingsController
from .controllers.rules import RulesController
from .controllers.seating import SeatingController
from .controllers.stream import SharedPages
from .controllers.tables import TablesController
from .controllers.unsubscribe import unsubscribe_now, unsubscribe_page
from .controllers.vacation import VacationController
from .deps import SERVICES, plausible_game_id, provide_settings, provide_stories
from .errors import EXCEPTION_HANDLERS, NOT_UTF8, TOO_DEEP
from .language import provide_catalogs, provide_language
from .limits import rate_limit_middleware, rate_limit_stores, stream_slots
from .log_context import bind_request
from .metrics import PROMETHEUS, MetricsController, watch_streams
from .openapi import complete
from .players import csrf_config, csrf_for_sessions, session_config, sessions_for_signed_in
from .sessions import csrf_bound_to_session
from .web import schema_viewers, web_router

log = logging.getLogger(__name__)

DESCRIPTION = """Play Magnate: The First City over HTTP (the play-by-web page at `/` uses only this API).
Create a game, share each human seat's invite link, read views, submit commands, follow the game over
Server-Sent Events and export its verifiable history.
Errors are JSON `{"code", "message", "details"}` with a stable, namespaced `code`.
Request bodies are at most 64 KiB by default (413 `request/too_large`). Each client address has a rate of game
creations, of commands and of other requests per minute, and a number of open event streams (429 `rate/limited`
with `Retry-After`); a sandbox server has none. A 503 (`infra/unavailable`) also says when to retry."""


class BoundedRequest(Request[Any, Any, Any]):
    """A request whose JSON body nested deeper than the decoder's recursion limit, or is not UTF-8, is a 400
    (request/malformed), like any body that is not JSON, instead of a RecursionError or a UnicodeDecodeError."""

    async def json(self) -> Any:
        try:
            return await super().json()
        except RecursionError as exc:
            raise SerializationException(TOO_DEEP) from exc
        except UnicodeDecodeError as exc:  # msgspec's, for bytes that are not UTF-8
            raise SerializationException(NOT_UTF8) from exc


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
        for name, store in stores_of(settings, built).items():
            app.stores.register(name, store, allow_override=True)
        try:
            yield
        finally:
            await built.close()

    slots = stream_slots(settings)
    watch_streams(slots)
    csrf = csrf_config(csrf_secret(settings), secure_cookies(settings))
    catalogs = catalogs_for(settings.games, settings.languages, settings.pseudo_locale)
    kept: dict[str, object] = {"settings": settings, "stories": Stories(), "stream_slots": slots,
                               "stream_pages": SharedPages(), "lobby_board": LobbyBoard(), "csrf": csrf,
                               "catalogs": catalogs}
    state = State(kept | ({"runtime": runtime} if runtime is not None else {}))
    dev_mail = [devmail_router()] if dev_mailbox_on(settings) else []
    app = Litestar(
        route_handlers=[GameController, CommandController, StreamController, CatalogController, AccountController,
                        MyGamesController, SeatingController, TablesController, LobbyController, NotificationController,
                        NotificationChannelController, VacationController, AdviceController, RulesController,
                        ChatController, NotesController, PlansController, RatingsController, push_key, unsubscribe_page,
                        unsubscribe_now, health, MetricsController, web_router(registry_of(settings), catalogs),
                        *dev_mail],
        dependencies={
            **{name: Provide(provide, sync_to_thread=False) for name, provide in SERVICES.items()},
            "settings": Provide(provide_settings, sync_to_thread=False),
            "stories": Provide(provide_stories, sync_to_thread=False),
            "catalogs": Provide(provide_catalogs, sync_to_thread=False),
            "language": Provide(provide_language),
            "devmail": Provide(provide_devmail, sync_to_thread=False),
        },
        guards=[plausible_game_id, csrf_bound_to_session],
        before_request=bind_request,
        exception_handlers=EXCEPTION_HANDLERS,
        lifespan=[lifespan],
        state=state,
        request_class=BoundedRequest,
        request_max_body_size=settings.max_body_bytes,
        logging_config=None,
        middleware=[PROMETHEUS.middleware, allow_every_method(), *rate_limit_middleware(settings),
                    sessions_for_signed_in(session_config(secure_cookies(settings))),
                    csrf_for_sessions(csrf)],
        stores=stores_of(settings, runtime) if runtime is not None else None,
        openapi_config=OpenAPIConfig(
            title="Magnate Server", version="0.1.0", description=DESCRIPTION, path="/schema", components=COMPONENTS,
            render_plugins=schema_viewers(),
        ),
    )
    app.register(push_auth)  # nchan's subscription check (infra/nchan/), outside the schema
    app.register(push_presence)  # nchan: a page subscribed, its seat is present
    complete(app.openapi_schema, registry_of(settings).games)
    return app


def stores_of(settings: Settings, runtime: Runtime) -> dict[str, Store]:
    """The Litestar stores of the app: the rate limits' (Redis) and the sessions' (PostgreSQL)."""
    return {**rate_limit_stores(settings, runtime.counters), "sessions": runtime.session_store()}


def secure_cookies(settings: Settings) -> bool:
    """Cookies only over https: asked for (``MAGNATE_SECURE_COOKIES``), or implied by an https ``PUBLIC_URL``."""
    return settings.secure_cookies or (settings.public_url or "").lower().startswith("https://")


def csrf_secret(settings: Settings) -> str:
    """The secret of the CSRF tokens: ``MAGNATE_SECRET_KEY`` (`magnate run` keeps one in its data folder), else
    one for this process (a server of several API processes must set it: each would refuse the others' tokens)."""
    if settings.secret_key:
        return settings.secret_key
    if not settings.sandbox:
        log.warning("MAGNATE_SECRET_KEY is not set: signed-in pages work only against this one API process")
    return secrets.token_urlsafe(32)


def dev_mailbox_on(settings: Settings) -> bool:
    """Whether the development mailbox is served (asked for, and no SMTP server): said once at start-up, with what
    a server that has neither does (it refuses to send sign-in links: ``mail/not_configured``)."""
    if settings.smtp_url:
        if settings.dev_mailbox:
            log.warning("SMTP_URL is set: mail goes to the SMTP server and there is no development mailbox")
        return False
    if settings.dev_mailbox:
        log.warning("development mailbox on (MAGNATE_DEV_MAILBOX): every mail, sign-in links included, is shown "
                    "to anyone at /dev/mail; never run it where others can reach it")
        return True
    log.warning("no SMTP_URL and no development mailbox: this server sends no mail and refuses to send sign-in "
                "links (set SMTP_URL, or MAGNATE_DEV_MAILBOX=1 on a development machine)")
    return False


def provide_devmail(state: State) -> DevMailbox:
    mailbox: DevMailbox | None = state.runtime.accounts.mailbox
    if mailbox is None:
        raise NotFoundException("mail is sent by SMTP on this server: there is no development mailbox")
    return mailbox


def from_environment() -> Litestar:
    """The app configured from environment variables (``infra.config``), for ``uvicorn --factory``."""
    return create_app(load())
