"""The notification store in memory: the twin of :class:`~.postgres.PostgresNotificationStore`, for service-level
tests and development, held to the same contract suites (``tests/integration/notifications/test_store_*.py``).

What it does as PostgreSQL does: ids are written once, a claim counts an attempt and waits for the due time on the
clock, a cursor is held by one transaction at a time (others skip it), a failed transaction leaves nothing, lists
have the same order and limits. What it does not: its transactions see each other's writes before they commit
(PostgreSQL's do not), a transaction inside one is part of it (not a savepoint), and it checks no foreign keys.
The games, seats and players it reads belong to other stores in production: here they are fed with
:meth:`InMemoryNotificationStore.add_player`, :meth:`~.put_game`, :meth:`~.put_seat` and :meth:`~.watch` (what a
claim does).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from .memory_channels import MemoryChannels, MemoryWatch
from .memory_delivery import MemoryInbox, MemoryOutbox
from .memory_tables import GameRow, Journal, SeatRow, Tables


def utc_now() -> datetime:
    return datetime.now(UTC)


class InMemoryNotificationStore(MemoryInbox, MemoryOutbox, MemoryChannels, MemoryWatch):
    def __init__(self, clock: Callable[[], datetime] = utc_now, *, _tables: Tables | None = None,
                 _journal: Journal | None = None, _now: datetime | None = None) -> None:
        super().__init__(_tables or Tables(), clock, _journal, _now)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[InMemoryNotificationStore]:
        if self._journal is not None:  # nested: part of the open transaction
            yield self
            return
        journal: Journal = []
        tx = InMemoryNotificationStore(self._clock, _tables=self._t, _journal=journal, _now=self._clock())
        try:
            yield tx
        except BaseException:
            for undo in reversed(journal):
                undo()
            raise
        finally:
            self._t.held -= tx._mine

    # What other stores hold in production: the players, the games and their seats, and a claim's cursor.

    def add_player(self, player_id: str, email: str, language: str | None = None) -> None:
        self._t.players[player_id] = email
        if language is not None:
            self._t.languages[player_id] = language

    def put_game(self, game_id: str, game_type: str, version: int, status: str = "running",
                 on_turn: Iterable[int] = ()) -> None:
        """A game's head as the event store keeps it (``updated_at``: now)."""
        self._t.games[game_id] = GameRow(game_type, version, status, tuple(on_turn), self._clock())

    def put_seat(self, game_id: str, seat: int, player_id: str | None, name: str = "") -> None:
        self._t.seats[(game_id, seat)] = SeatRow(name or f"Seat {seat}", player_id)

    def watch(self, game_id: str, version: int) -> None:
        """A seat of the game was claimed at ``version``: the projector watches it from there (kept if watched)."""
        self._t.cursors.setdefault(game_id, version)


    def forget_player(self, player_id: str) -> None:
        """An erased account's rows go, as PostgreSQL's foreign keys to ``players`` find them for
        :class:`infra.accounts.erasure.PostgresErasure`: settings, notices, deliveries, webhooks, push devices, the
        address and language; the seats it held stay, linked to nobody and named "Player N"."""
        t = self._t
        rows: tuple[dict[str, Any], ...] = (t.notices, t.deliveries, t.webhooks, t.devices)
        for table in rows:
            for key in [key for key, row in table.items() if row.player_id == player_id]:
                self._drop(table, key)
        keyed: tuple[dict[str, Any], ...] = (t.settings, t.players, t.languages)
        for table in keyed:
            self._drop(table, player_id)
        for (game_id, seat), row in list(t.seats.items()):
            if row.player_id == player_id:
                self._put(t.seats, (game_id, seat), SeatRow(f"Player {seat + 1}", None))
