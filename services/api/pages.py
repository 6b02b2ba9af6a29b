"""What several controllers hand out the same way: a page of events as a viewer may see it, the viewer of a seat,
and the server's public address (the base of every link it gives)."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from domain.kernel import PUBLIC, Seat, Viewer
from infra.config import Settings
from infra.eventstore import StoredEvent
from services.gameplay.queries import GameQueries, Visible

from .schemas import EventOut, EventsOut


def viewer_of(seat: int | None) -> Viewer:
    return PUBLIC if seat is None else Seat(seat)


def event_outs(events: Iterable[StoredEvent], redacted: frozenset[int] = frozenset()) -> tuple[EventOut, ...]:
    return tuple(EventOut(e.version, e.type, e.actor, e.command_id, e.recorded_at, msgspec.Raw(e.payload),
                          e.prev_hash, e.hash, e.commitment, redacted=e.version in redacted) for e in events)


def page_of(visible: Visible) -> EventsOut:
    return EventsOut(visible.version, event_outs(visible.events, visible.redacted))


async def events_page(
    queries: GameQueries, game_id: str, after: int, viewer: Viewer, announced: int | None = None
) -> EventsOut:
    """The events after version ``after`` that ``viewer`` may see, up to the current version (``version``); see
    :meth:`GameQueries.events_after` for ``announced``."""
    return page_of(await queries.visible_events(game_id, after, viewer, announced))


def public_url(settings: Settings) -> str:
    return (settings.public_url or f"http://{settings.host}:{settings.port}").rstrip("/")
