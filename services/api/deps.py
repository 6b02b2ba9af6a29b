"""Dependencies injected into the controllers. The runtime lives in the application state (the lifespan
puts it there); handlers receive the pieces they need.

Injected services are annotated ``SkipValidation[...]`` (Litestar >= 2.23; it replaces the deprecated
``Dependency(skip_validation=True)``): Litestar validates injected values against their annotation,
which fails for protocols and is pointless for our own objects.
"""

from __future__ import annotations

from typing import Any

from litestar.connection import ASGIConnection
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.handlers import BaseRouteHandler
from litestar.params import SkipValidation

from infra.config import Settings
from infra.errors import StreamNotFound
from services.gameplay import Gameplay
from services.gameplay.bootstrap import Runtime
from services.gameplay.story import Stories
from services.notifications.service import Notifications

RuntimeDep = NamedDependency[SkipValidation[Runtime]]
GameplayDep = NamedDependency[SkipValidation[Gameplay]]
SettingsDep = NamedDependency[SkipValidation[Settings]]
NotificationsDep = NamedDependency[SkipValidation[Notifications]]
StoriesDep = NamedDependency[SkipValidation[Stories]]
SeatDep = NamedDependency[int]
"""The authenticated seat (``auth.provide_seat`` and friends, declared per handler)."""
OptionalSeatDep = NamedDependency[int | None]


def provide_runtime(state: State) -> Runtime:
    runtime: Runtime = state.runtime
    return runtime


def provide_gameplay(state: State) -> Gameplay:
    gameplay: Gameplay = state.runtime.gameplay
    return gameplay


def provide_notifications(state: State) -> Notifications:
    notifications: Notifications = state.runtime.notifications
    return notifications


def provide_stories(state: State) -> Stories:
    stories: Stories = state.stories
    return stories


def provide_settings(state: State) -> Settings:
    settings: Settings = state.settings
    return settings


GAME_ID_MAX = 100


async def plausible_game_id(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Guard: a game id the database could not even hold (a NUL character, a huge id) is an unknown game,
    answered before any query sees it. ``async`` although it awaits nothing: Litestar runs a synchronous guard
    in a thread pool, a hop on every request."""
    game_id = connection.path_params.get("game_id")
    if isinstance(game_id, str) and ("\x00" in game_id or len(game_id) > GAME_ID_MAX):
        raise StreamNotFound("no such game")
