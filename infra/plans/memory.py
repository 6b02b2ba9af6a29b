"""Plans within one process: the twin of :class:`~.postgres.PostgresSeatPlans` (tests/integration/
test_plans_store.py holds both to one contract). ``known``: whether a game exists, as the real table's foreign key
asks."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from datetime import UTC, datetime

from infra.errors import StreamNotFound

from .base import PlanRecord


class InMemorySeatPlans:
    def __init__(self, known: Callable[[str], Awaitable[bool]],
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self._known = known
        self._clock = clock
        self._plans: dict[tuple[str, int, str], PlanRecord] = {}

    async def of_seat(self, game_id: str, seat: int) -> list[PlanRecord]:
        return [p for key, p in sorted(self._plans.items()) if key[:2] == (game_id, seat)]

    async def put(self, game_id: str, seat: int, kind: str, body: bytes, holder: str = "", since: int = 0
                  ) -> PlanRecord:
        if not await self._known(game_id):
            raise StreamNotFound("no such game")
        at = self._clock().astimezone(UTC).isoformat().replace("+00:00", "Z")
        record = self._plans[(game_id, seat, kind)] = PlanRecord(game_id, seat, kind, body, at, holder, since)
        return record

    async def drop(self, game_id: str, seat: int, kinds: Collection[str] | None = None) -> int:
        gone = [key for key in self._plans if key[:2] == (game_id, seat) and (kinds is None or key[2] in kinds)]
        for key in gone:
            del self._plans[key]
        return len(gone)

    async def of_games(self, game_ids: Collection[str]) -> list[PlanRecord]:
        wanted = set(game_ids)
        return [p for key, p in sorted(self._plans.items()) if key[0] in wanted]

    async def planned_games(self) -> list[str]:
        return sorted({key[0] for key in self._plans})
