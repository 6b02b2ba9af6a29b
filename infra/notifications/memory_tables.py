"""The in-memory twin's tables: plain dicts of frozen rows, shared by the store and its open transactions, and the
journal that undoes a transaction's writes when it fails."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import msgspec

from .records import Settings

_MISSING = object()


class SettingsRow(msgspec.Struct, frozen=True):
    settings: Settings
    unsubscribe_hash: str | None = None
    last_digest_at: datetime | None = None


class NoticeRow(msgspec.Struct, frozen=True):
    player_id: str
    game_id: str
    seat: int
    version: int
    kind: str
    text: str
    created_at: datetime
    read_at: datetime | None = None
    phrase: str | None = None


class DeliveryRow(msgspec.Struct, frozen=True):
    player_id: str
    channel: str
    target: str
    notice_id: str | None
    status: str
    due_at: datetime
    created_at: datetime
    attempts: int = 0
    sent_at: datetime | None = None
    detail: str = ""


class WebhookRow(msgspec.Struct, frozen=True):
    player_id: str
    url: str
    shape: str
    secret: str
    created_at: datetime
    failures: int = 0
    disabled_at: datetime | None = None


class DeviceRow(msgspec.Struct, frozen=True):
    player_id: str
    endpoint: str
    p256dh: str
    auth: str
    created_at: datetime
    order: int
    """Insertion order: ties of ``created_at`` (one clock tick) still have a newest."""


class GameRow(msgspec.Struct, frozen=True):
    game_type: str
    version: int
    status: str
    on_turn: tuple[int, ...]
    updated_at: datetime


class SeatRow(msgspec.Struct, frozen=True):
    name: str
    player_id: str | None


class Tables:
    """Every table of the twin, and the cursors held by open transactions."""

    def __init__(self) -> None:
        self.settings: dict[str, SettingsRow] = {}
        self.notices: dict[str, NoticeRow] = {}
        self.deliveries: dict[str, DeliveryRow] = {}
        self.webhooks: dict[str, WebhookRow] = {}
        self.devices: dict[str, DeviceRow] = {}
        self.keys: dict[str, str] = {}
        self.cursors: dict[str, int] = {}
        self.players: dict[str, str] = {}
        """player id → address."""
        self.languages: dict[str, str] = {}
        """player id → the language chosen (players who chose one)."""
        self.games: dict[str, GameRow] = {}
        self.seats: dict[tuple[str, int], SeatRow] = {}
        self.held: set[str] = set()
        """Cursors locked by an open transaction."""
        self.inserted = 0


Journal = list[Callable[[], None]]


def put(journal: Journal | None, table: dict[Any, Any], key: Any, row: Any) -> None:
    """Write ``row`` at ``key``, remembering in ``journal`` (a transaction's) how to undo it."""
    if journal is not None:
        old = table.get(key, _MISSING)
        journal.append(lambda: table.pop(key, None) if old is _MISSING else table.__setitem__(key, old))
    table[key] = row


def drop(journal: Journal | None, table: dict[Any, Any], key: Any) -> None:
    if key not in table:
        return
    if journal is not None:
        old = table[key]
        journal.append(lambda: table.__setitem__(key, old))
    del table[key]


class OnTables:
    """Statements over the twin's tables: on the store (each write at once) or in a transaction (journaled, a
    fixed ``now`` as PostgreSQL's transaction time, and the cursors it holds)."""

    def __init__(self, tables: Tables, clock: Callable[[], datetime], journal: Journal | None = None,
                 now: datetime | None = None) -> None:
        self._t = tables
        self._clock = clock
        self._journal = journal
        self._fixed_now = now
        self._mine: set[str] = set()

    def _now(self) -> datetime:
        return self._fixed_now if self._fixed_now is not None else self._clock()

    def _put(self, table: dict[Any, Any], key: Any, row: Any) -> None:
        put(self._journal, table, key, row)

    def _drop(self, table: dict[Any, Any], key: Any) -> None:
        drop(self._journal, table, key)
