"""Vacations: a player's pauses of their clocks, bounded by a yearly allowance. The row is the player's record
(what is used of the year); each game the player sits at records the vacation in its own log.

The port :class:`Vacations`: :class:`VacationStore` on PostgreSQL and its twin :class:`InMemoryVacations`, held to
one contract suite (tests/integration/test_vacations_store.py)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Protocol

import asyncpg
import msgspec

if TYPE_CHECKING:
    from infra.eventstore.memory import InMemoryEventStore


class Vacation(msgspec.Struct, frozen=True):
    vacation_id: str
    starts_at: datetime
    ends_at: datetime


class VacationTooLong(Exception):
    def __init__(self, asked: int, left: int) -> None:
        super().__init__(f"{asked} days is more than the {left} days of vacation left this year")
        self.asked, self.left = asked, left


class AlreadyAway(Exception):
    def __init__(self, until: datetime) -> None:
        super().__init__(f"you are already on vacation until {until:%Y-%m-%d %H:%M} UTC")
        self.until = until


def days_of(vacation: Vacation) -> int:
    """Whole days a vacation uses of the allowance (a started day counts)."""
    return -(-int((vacation.ends_at - vacation.starts_at).total_seconds()) // 86_400)


def _start(taken: list[Vacation], days: int, allowance: int, now: datetime) -> Vacation:
    """The vacation ``days`` long from ``now`` (AlreadyAway during one, VacationTooLong past the allowance)."""
    current = next((v for v in taken if v.ends_at > now), None)
    if current is not None:
        raise AlreadyAway(current.ends_at)
    left = allowance - sum(days_of(v) for v in taken)
    if days > left:
        raise VacationTooLong(days, max(0, left))
    return Vacation(uuid.uuid4().hex, now, now + timedelta(days=days))


class Vacations(Protocol):
    async def of_year(self, player_id: str, now: datetime) -> list[Vacation]:
        """The player's vacations started this calendar year (of ``now``), oldest first."""
        ...

    async def take(self, player_id: str, days: int, allowance: int, now: datetime) -> Vacation:
        """Start a vacation of ``days`` now: VacationTooLong past the year's allowance, AlreadyAway during one; two
        requests cannot both spend the last days."""
        ...

    async def end(self, player_id: str, now: datetime) -> Vacation | None:
        """End the vacation running at ``now`` early (it then ends at ``now`` and uses only its started days);
        None when the player is not on vacation."""
        ...

    async def running_games(self, player_id: str) -> list[tuple[str, int]]:
        """(game id, seat) of every running game the player holds a seat at."""
        ...

    async def every(self, player_id: str) -> list[Vacation]:
        """Every vacation the player took, oldest first (their data's export)."""
        ...


class VacationStore:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def of_year(self, player_id: str, now: datetime) -> list[Vacation]:
        year = datetime(now.year, 1, 1, tzinfo=UTC)
        rows = await self._pool.fetch(
            "SELECT vacation_id, starts_at, ends_at FROM vacations WHERE player_id = $1 AND starts_at >= $2"
            " ORDER BY starts_at", player_id, year)
        return [Vacation(r["vacation_id"], r["starts_at"], r["ends_at"]) for r in rows]

    async def take(self, player_id: str, days: int, allowance: int, now: datetime) -> Vacation:
        """Start a vacation of ``days`` now: VacationTooLong past the year's allowance, AlreadyAway during one.
        The check and the insert hold the player's row lock, so two requests cannot both spend the last days."""
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT 1 FROM players WHERE player_id = $1 FOR UPDATE", player_id)
            vacation = _start(await self.of_year(player_id, now), days, allowance, now)
            await conn.execute(
                "INSERT INTO vacations (vacation_id, player_id, starts_at, ends_at) VALUES ($1, $2, $3, $4)",
                vacation.vacation_id, player_id, vacation.starts_at, vacation.ends_at)
        return vacation

    async def end(self, player_id: str, now: datetime) -> Vacation | None:
        row = await self._pool.fetchrow(
            "UPDATE vacations SET ends_at = $2 WHERE player_id = $1 AND starts_at <= $2 AND ends_at > $2"
            " RETURNING vacation_id, starts_at, ends_at", player_id, now)
        return Vacation(row["vacation_id"], row["starts_at"], row["ends_at"]) if row is not None else None

    async def every(self, player_id: str) -> list[Vacation]:
        rows = await self._pool.fetch(
            "SELECT vacation_id, starts_at, ends_at FROM vacations WHERE player_id = $1 ORDER BY starts_at", player_id)
        return [Vacation(r["vacation_id"], r["starts_at"], r["ends_at"]) for r in rows]

    async def running_games(self, player_id: str) -> list[tuple[str, int]]:
        """(game id, seat) of every running game the player holds a seat at."""
        rows = await self._pool.fetch(
            "SELECT s.game_id, s.seat FROM seats s JOIN games g USING (game_id)"
            " WHERE s.player_id = $1 AND g.status = 'running'", player_id)
        return [(r["game_id"], r["seat"]) for r in rows]


class InMemoryVacations:
    """:class:`Vacations` within one process; the running games are the seats ``games`` (the event store twin)
    keeps. Nothing awaits between the check and the record, so a take is whole."""

    def __init__(self, games: InMemoryEventStore) -> None:
        self._games = games
        self._taken: dict[str, list[Vacation]] = {}

    async def of_year(self, player_id: str, now: datetime) -> list[Vacation]:
        year = datetime(now.year, 1, 1, tzinfo=UTC)
        return sorted((v for v in self._taken.get(player_id, []) if v.starts_at >= year), key=lambda v: v.starts_at)

    async def take(self, player_id: str, days: int, allowance: int, now: datetime) -> Vacation:
        vacation = _start(await self.of_year(player_id, now), days, allowance, now)  # of_year never suspends
        self._taken.setdefault(player_id, []).append(vacation)
        return vacation

    async def end(self, player_id: str, now: datetime) -> Vacation | None:
        taken = self._taken.get(player_id, [])
        for index, vacation in enumerate(taken):
            if vacation.starts_at <= now < vacation.ends_at:
                taken[index] = msgspec.structs.replace(vacation, ends_at=now)
                return taken[index]
        return None

    async def running_games(self, player_id: str) -> list[tuple[str, int]]:
        return [(g.game_id, g.seat) for g in await self._games.player_games(player_id) if g.status == "running"]

    async def every(self, player_id: str) -> list[Vacation]:
        return sorted(self._taken.get(player_id, []), key=lambda v: v.starts_at)

    def forget(self, player_id: str) -> None:
        """The account is erased (:mod:`.erasure`)."""
        self._taken.pop(player_id, None)
