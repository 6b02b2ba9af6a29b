"""The deliveries in PostgreSQL (``deliveries``): a claim is one ``UPDATE ... RETURNING`` that counts an attempt.
The ``lease_until`` column is no longer written (a delivery's job holds the one lease, in the queue)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from .executor import OnExecutor
from .records import DETAIL_MAX, Busy, Claimed, Delivery, Entry

_WRITE = """
INSERT INTO deliveries (delivery_id, player_id, channel, target, notice_id, status, due_at)
SELECT d, p, c, t, n, 'pending', due
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[]) AS x(d, p, c, t, n, due)
ON CONFLICT (delivery_id) DO NOTHING
RETURNING delivery_id, due_at
"""
_CLAIM = """
UPDATE deliveries SET status = 'sending', attempts = attempts + 1
WHERE delivery_id = $1 AND due_at <= now() AND status IN ('pending', 'sending')
RETURNING delivery_id, player_id, channel, target, notice_id, attempts, created_at
"""
_STATE = """
SELECT status, extract(epoch FROM due_at - now()) AS wait_s FROM deliveries WHERE delivery_id = $1
"""
_FINISH = """
UPDATE deliveries SET status = $2, detail = $3, sent_at = CASE WHEN $2 = 'sent' THEN now() ELSE sent_at END
WHERE delivery_id = $1 AND status = 'sending' RETURNING 1
"""
_PUT_BACK = """
UPDATE deliveries SET status = 'pending', detail = $3, due_at = now() + make_interval(secs => $2)
WHERE delivery_id = $1 AND status = 'sending'
"""
_DUE = """
SELECT delivery_id, due_at FROM deliveries
WHERE status IN ('pending', 'sending') AND due_at <= now()
ORDER BY due_at LIMIT $1
"""
_ENTRIES = """
SELECT delivery_id, channel, target, notice_id, status, attempts, detail, created_at, sent_at
FROM deliveries WHERE player_id = $1 ORDER BY created_at DESC, delivery_id LIMIT $2
"""


class PostgresOutbox(OnExecutor):
    async def write_deliveries(self, deliveries: Sequence[Delivery]) -> list[tuple[str, datetime]]:
        if not deliveries:
            return []
        rows = await self._db.fetch(_WRITE, [d.delivery_id for d in deliveries], [d.player_id for d in deliveries],
                                    [d.channel for d in deliveries], [d.target for d in deliveries],
                                    [d.notice_id for d in deliveries], [d.due_at for d in deliveries])
        return [(r["delivery_id"], r["due_at"]) for r in rows]

    async def claim(self, delivery_id: str) -> Claimed | Busy:
        row = await self._db.fetchrow(_CLAIM, delivery_id)
        if row is not None:
            return Claimed(**dict(row))
        state = await self._db.fetchrow(_STATE, delivery_id)
        if state is None:
            return Busy("gone", None)
        if state["status"] in ("pending", "sending"):
            return Busy(state["status"], max(0.0, float(state["wait_s"] or 0.0)))
        return Busy(state["status"], None)

    async def finish(self, delivery_id: str, status: str, detail: str) -> bool:
        return await self._db.fetchval(_FINISH, delivery_id, status, detail[:DETAIL_MAX]) is not None

    async def put_back(self, delivery_id: str, wait_s: float, detail: str) -> None:
        await self._db.execute(_PUT_BACK, delivery_id, float(wait_s), detail[:DETAIL_MAX])

    async def due(self, limit: int) -> list[tuple[str, datetime]]:
        return [(r["delivery_id"], r["due_at"]) for r in await self._db.fetch(_DUE, limit)]

    async def entries(self, player_id: str, limit: int) -> list[Entry]:
        return [Entry(**dict(r)) for r in await self._db.fetch(_ENTRIES, player_id, limit)]
