"""The twin's notices and deliveries (the :class:`~.base.Inbox` and :class:`~.base.Outbox` ports)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from msgspec.structs import replace

from .memory_tables import DeliveryRow, NoticeRow, OnTables
from .records import DETAIL_MAX, Busy, Claimed, Delivery, Entry, Notice, NoticeAbout, Told

OPEN = ("pending", "sending")


class MemoryInbox(OnTables):
    async def write_notices(self, told: Sequence[Told]) -> None:
        now = self._now()
        for t in told:
            if t.notice_id not in self._t.notices:
                self._put(self._t.notices, t.notice_id,
                          NoticeRow(t.player_id, t.game_id, t.seat, t.version, t.kind, t.text, now, phrase=t.phrase))

    async def has_notice(self, notice_id: str) -> bool:
        return notice_id in self._t.notices

    async def notice(self, notice_id: str) -> NoticeAbout | None:
        row = self._t.notices.get(notice_id)
        game = None if row is None else self._t.games.get(row.game_id)
        if row is None or game is None:
            return None
        return NoticeAbout(notice_id, row.game_id, row.seat, row.version, row.kind, row.text, row.created_at,
                           game.game_type, row.phrase)

    async def notices(self, player_id: str, limit: int) -> list[Notice]:
        mine = sorted(((i, r) for i, r in self._t.notices.items() if r.player_id == player_id),
                      key=lambda x: (x[1].created_at, x[0]), reverse=True)
        return [Notice(i, r.game_id, r.seat, r.version, r.kind, r.text, r.created_at, r.read_at is not None,
                       r.phrase, self._game_type(r.game_id)) for i, r in mine[:limit]]

    def _game_type(self, game_id: str) -> str:
        game = self._t.games.get(game_id)
        return "" if game is None else game.game_type

    async def unread(self, player_id: str) -> int:
        return sum(1 for r in self._t.notices.values() if r.player_id == player_id and r.read_at is None)

    async def mark_read(self, player_id: str, notice_ids: Sequence[str]) -> None:
        now, wanted = self._now(), set(notice_ids)
        for notice_id, row in list(self._t.notices.items()):
            if row.player_id == player_id and row.read_at is None and (not wanted or notice_id in wanted):
                self._put(self._t.notices, notice_id, replace(row, read_at=now))


class MemoryOutbox(OnTables):
    async def write_deliveries(self, deliveries: Sequence[Delivery]) -> list[tuple[str, datetime]]:
        now, made = self._now(), []
        for d in deliveries:
            if d.delivery_id not in self._t.deliveries:
                self._put(self._t.deliveries, d.delivery_id,
                          DeliveryRow(d.player_id, d.channel, d.target, d.notice_id, "pending", d.due_at, now))
                made.append((d.delivery_id, d.due_at))
        return made

    def _claimable(self, row: DeliveryRow, now: datetime) -> bool:
        return row.status in OPEN and row.due_at <= now

    async def claim(self, delivery_id: str) -> Claimed | Busy:
        now = self._now()
        row = self._t.deliveries.get(delivery_id)
        if row is None:
            return Busy("gone", None)
        if self._claimable(row, now):
            row = replace(row, status="sending", attempts=row.attempts + 1)
            self._put(self._t.deliveries, delivery_id, row)
            return Claimed(delivery_id, row.player_id, row.channel, row.target, row.notice_id, row.attempts,
                           row.created_at)
        if row.status in OPEN:
            return Busy(row.status, max(0.0, (row.due_at - now).total_seconds()))
        return Busy(row.status, None)

    def _sending(self, delivery_id: str) -> DeliveryRow | None:
        row = self._t.deliveries.get(delivery_id)
        return row if row is not None and row.status == "sending" else None

    async def finish(self, delivery_id: str, status: str, detail: str) -> bool:
        row = self._sending(delivery_id)
        if row is None:
            return False
        sent_at = self._now() if status == "sent" else row.sent_at
        self._put(self._t.deliveries, delivery_id,
                  replace(row, status=status, detail=detail[:DETAIL_MAX], sent_at=sent_at))
        return True

    async def put_back(self, delivery_id: str, wait_s: float, detail: str) -> None:
        row = self._sending(delivery_id)
        if row is not None:
            self._put(self._t.deliveries, delivery_id,
                      replace(row, status="pending", detail=detail[:DETAIL_MAX],
                              due_at=self._now() + timedelta(seconds=wait_s)))

    async def due(self, limit: int) -> list[tuple[str, datetime]]:
        now = self._now()
        found = sorted((row.due_at, delivery_id) for delivery_id, row in self._t.deliveries.items()
                       if self._claimable(row, now))
        return [(delivery_id, due_at) for due_at, delivery_id in found[:limit]]

    async def entries(self, player_id: str, limit: int) -> list[Entry]:
        mine = [(i, r) for i, r in self._t.deliveries.items() if r.player_id == player_id]
        mine.sort(key=lambda x: x[0])
        mine.sort(key=lambda x: x[1].created_at, reverse=True)
        return [Entry(i, r.channel, r.target, r.notice_id, r.status, r.attempts, r.detail, r.created_at, r.sent_at)
                for i, r in mine[:limit]]
