"""What the contract suites of the stores around the games need, on either side: the event store, its table read
model and vacations, and the players, all in memory or all on the REAL PostgreSQL (they read each other's rows)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from infra.accounts import InMemoryPlayerStore, Players, PlayerStore
from infra.accounts.vacations import InMemoryVacations, Vacations, VacationStore
from infra.errors import StreamNotFound
from infra.eventstore import EventStore, GameSummary
from infra.eventstore.memory import InMemoryEventStore
from infra.eventstore.memory_tables import InMemoryTables
from infra.eventstore.postgres import PostgresEventStore
from infra.eventstore.tables import PostgresTables, TableStore

from .store_records import RUNNING, SEED, decision, new_id, seats


@dataclass
class World:
    events: EventStore
    tables: TableStore
    vacations: Vacations
    players: Players

    async def game(self, *, listed: bool = True, host_seat: int | None = None,
                   summary: GameSummary = RUNNING) -> str:
        """A new game (seats 0 and 1 people, 2 the AI's), listed unless told otherwise."""
        game_id = new_id()
        await self.events.create(game_id, "magnate", seats(), SEED, decision("start", b'{"n":1}', actor="system"),
                                 summary, host_seat=host_seat)
        await self.tables.set_table(game_id, listed, b'{"seats": [{}, {}, {"kind": "ai"}]}')
        return game_id

    async def known(self, game_id: str) -> bool:
        """Whether the game exists (what the in-memory twins beside the log ask their event store)."""
        try:
            await self.events.head(game_id)
        except StreamNotFound:
            return False
        return True

    async def player(self, email: str) -> str:
        link = await self.players.issue_link(email, "/", 15, limited=False)
        player, _ = await self.players.redeem(link.token)
        return player.player_id

    async def claim(self, game_id: str, seat: int, player_id: str, token_hash: str | None,
                    name: str | None = None) -> None:
        """Claim ``seat`` for the player (shown as ``name``; None: the seat keeps its name), by its invite's
        ``token_hash`` or (None) by joining the listed game."""
        head = await self.events.head(game_id)
        await self.events.claim_seat(game_id, head.version, decision(f"claim-{new_id()}", b'{"c":1}'),
                                     GameSummary(head.status, head.on_turn, head.system_job), seat, token_hash,
                                     player_id, name)


def world_of(request: pytest.FixtureRequest) -> World:
    if request.param == "memory":
        events = InMemoryEventStore()
        return World(events, InMemoryTables(events), InMemoryVacations(events), InMemoryPlayerStore())
    pool = request.getfixturevalue("pg_pool")
    return World(PostgresEventStore(pool), PostgresTables(pool), VacationStore(pool), PlayerStore(pool))
