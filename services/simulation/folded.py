"""The bot client's copy of a game: the state folded, by the module of the game's type (from the registry of the
simulation's spec), from the events the client received, and what the client observed of them (bot commands, system
jobs and their delays).

For a game whose events are all public every copy is the same. For a game that redacts events (Decktet Magnate's
hands) each copy is one viewer's: the public's (which says whose turn it is) or a seat's (which holds that seat's
hand, so its bot decides as it would on the whole state); events a viewer may not see at all are missing from its
copy, so its versions may jump.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import msgspec

from domain.kernel import GameModule
from services.gameplay.registry import DEFAULT as OFFERED

from .spec import games


class LiveError(Exception):
    """A game could not be driven to its end (refused command, stalled stream, server error)."""


class StreamEvent(msgspec.Struct, frozen=True):
    """An event as the API hands it out (the fields a client folding the game needs)."""

    version: int
    actor: str
    command_id: str
    recorded_at: str
    payload: msgspec.Raw
    redacted: bool = False


_events: dict[str, msgspec.json.Decoder[Any]] = {}


def _event_decoder(game: GameModule[Any]) -> msgspec.json.Decoder[Any]:
    decoder = _events.get(game.name)
    if decoder is None:
        decoder = _events[game.name] = msgspec.json.Decoder(game.event_type)
    return decoder


@dataclass
class LiveMetrics:
    """What the bot clients observed; times are ``time.monotonic()`` seconds."""

    commands: list[tuple[float, float]] = field(default_factory=list)
    """(when the response arrived, round-trip latency) of every bot command."""
    jobs: list[tuple[float, float]] = field(default_factory=list)
    """(when the client saw it, latency) of every system job: from the recorded time of the append that made
    it due to the recorded time of its own append (both stamped by the server at the start of the append)."""
    errors: list[str] = field(default_factory=list)
    versions: dict[int, int] = field(default_factory=dict)
    """The latest version each game (by key) reached."""
    game_ids: dict[int, str] = field(default_factory=dict)
    progress: dict[int, tuple[int, int]] = field(default_factory=dict)
    """(bot commands, system jobs) each game (by key) has appended so far."""
    finished: int = 0


def _moment(recorded_at: str) -> float:
    return datetime.fromisoformat(recorded_at).timestamp()


class FoldedGame:
    """The client-side copy of one game: the state folded, by the module of its type, from the events received
    so far, and the bot commands and system jobs that appended them (counted as the in-process play counts them,
    for :func:`services.simulation.local.outcome`). With ``metrics``, each job's delay and the progress are
    recorded there under ``key``."""

    def __init__(self, game_id: str, game_type: str, metrics: LiveMetrics | None = None, key: int = 0,
                 registry: str = OFFERED) -> None:
        known = games(registry)
        if game_type not in known:
            raise LiveError(f"game {game_id}: the server made a {game_type!r} game, which is not registered here")
        self.game_id = game_id
        self.registry = registry
        """The registry the game's module is from (``package.module:attribute``, the ``MAGNATE_GAMES`` setting)."""
        self.module = known[game_type]
        self._decoder = _event_decoder(self.module)
        self.state: Any = self.module.initial_state()
        self.version = 0
        self.metrics = metrics
        self.key = key
        self.players = 0
        self.jobs = 0
        self._last_command = ""
        self._last_recorded = 0.0

    def apply(self, events: Sequence[StreamEvent], through: int | None = None) -> None:
        """Fold ``events`` (those after the copy's version; ``through``: the version the page they came in runs
        to, which a viewer's copy reaches even when its last events were hidden from it)."""
        for e in events:
            if e.version <= self.version:
                continue  # already folded (our own command's events come back on the stream too)
            if e.version != self.version + 1 and self.module.events_public:
                raise LiveError(f"game {self.game_id}: a gap in the log after version {self.version}")
            if e.redacted and self.module.events_public:
                raise LiveError(f"game {self.game_id}: event {e.version} came redacted; the client cannot fold it")
            self.state = self.module.evolve(self.state, self._decoder.decode(e.payload))
            self.version = e.version
            if e.command_id != self._last_command:
                recorded = _moment(e.recorded_at)
                if e.command_id.startswith("system:"):
                    self.jobs += 1
                    if self.metrics is not None:
                        self.metrics.jobs.append((time.monotonic(), recorded - self._last_recorded))
                elif e.actor.startswith("seat:"):
                    self.players += 1
                self._last_command, self._last_recorded = e.command_id, recorded
        if through is not None and not self.module.events_public:
            self.version = max(self.version, through)
        if self.metrics is not None:
            self.metrics.versions[self.key] = self.version
            self.metrics.progress[self.key] = (self.players, self.jobs)

    @property
    def finished(self) -> bool:
        return bool(self.module.pending(self.state).finished)


