"""Dependencies injected into the controllers: the application services the composition root built
(:class:`services.gameplay.bootstrap.Runtime`, which the lifespan puts in the application state), never the runtime
itself nor a connection. Handlers receive the services they need.

Injected services are annotated ``SkipValidation[...]`` (Litestar >= 2.23; it replaces the deprecated
``Dependency(skip_validation=True)``): Litestar validates injected values against their annotation,
which fails for protocols and is pointless for our own objects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from litestar.connection import ASGIConnection
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.handlers import BaseRouteHandler
from litestar.params import SkipValidation

from infra.config import Settings
from infra.errors import StreamNotFound
from infra.notify import Subscriber
from services.gameplay import Gameplay
from services.gameplay.accounts import Accounts
from services.gameplay.advice import Advisor
from services.gameplay.chat import Chat
from services.gameplay.health import Health
from services.gameplay.mine import MyGames
from services.gameplay.my_data import MyData
from services.gameplay.notes import PrivateNotes
from services.gameplay.plans import SeatPlanning
from services.gameplay.seating import Seating
from services.gameplay.story import Stories
from services.gameplay.tables import Tables
from services.notifications.service import Notifications
from services.ratings import RatingService

GameplayDep = NamedDependency[SkipValidation[Gameplay]]
AccountsDep = NamedDependency[SkipValidation[Accounts]]
AdviceDep = NamedDependency[SkipValidation[Advisor]]
ChatDep = NamedDependency[SkipValidation[Chat]]
HealthDep = NamedDependency[SkipValidation[Health]]
MyGamesDep = NamedDependency[SkipValidation[MyGames]]
SeatingDep = NamedDependency[SkipValidation[Seating]]
TablesDep = NamedDependency[SkipValidation[Tables]]
NotesDep = NamedDependency[SkipValidation[PrivateNotes]]
PlanningDep = NamedDependency[SkipValidation[SeatPlanning]]
MyDataDep = NamedDependency[SkipValidation[MyData]]
RatingsDep = NamedDependency[SkipValidation[RatingService]]
NewsDep = NamedDependency[SkipValidation[Subscriber]]
"""The announcements of new versions an event stream waits on."""
SettingsDep = NamedDependency[SkipValidation[Settings]]
NotificationsDep = NamedDependency[SkipValidation[Notifications]]
StoriesDep = NamedDependency[SkipValidation[Stories]]
SeatDep = NamedDependency[int]
"""The authenticated seat (``auth.provide_seat`` and friends, declared per handler)."""
OptionalSeatDep = NamedDependency[int | None]


def from_runtime(attribute: str) -> Callable[[State], Any]:
    """The provider of one service the runtime holds (the lifespan put the runtime in the application state)."""

    def provide(state: State) -> Any:
        return getattr(state.runtime, attribute)

    provide.__name__ = f"provide_{attribute}"
    return provide


SERVICES = {name: from_runtime(attribute) for name, attribute in (
    ("gameplay", "gameplay"), ("accounts", "accounts"), ("chat", "chat"), ("health", "health"),
    ("mine", "my_games"), ("seating", "seating"), ("tables", "tables"), ("news", "notifier"), ("advice", "advice"),
    ("notifications", "notifications"), ("notes", "notes"), ("my_data", "my_data"),
    ("ratings", "ratings"), ("planning", "planning"))}
"""The services by the name handlers ask for them, each read from the runtime in the application state."""


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
