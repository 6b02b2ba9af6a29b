"""An in-memory event store with the same contract as the PostgreSQL one (for service-layer unit
tests, the API's tests over a runtime of twins and quick experiments; never used in production).

Beside the streams it keeps the facts of the table around a game that PostgreSQL keeps in the ``games`` and
``seats`` rows (listed, options, rematch, which invite links were used): :class:`~.memory_tables.InMemoryTables`
reads and writes them through :meth:`InMemoryEventStore.record`."""

from __future__ import annotations

import msgspec

from infra.chain import COMMITTED, GENESIS, event_hash
from infra.errors import AlreadySeated, ConcurrencyConflict, InviteInvalid, SeatInUse, SeatTaken, StreamNotFound

from .base import (
    CommandRecord,
    CreationKey,
    Decision,
    DuplicateCommand,
    DuplicateCreation,
    GameHead,
    GameSummary,
    PlayerGame,
    SeatRecord,
    Snapshot,
    StoredEvent,
    timestamp,
)


class GameRecord:
    """One game as the store keeps it: its stream and the facts PostgreSQL keeps in its ``games`` and ``seats``
    rows."""

    def __init__(self, game_type: str, seats: list[SeatRecord], seed: bytes) -> None:
        self.game_type = game_type
        self.seats = seats
        self.seed = seed
        self.events: list[StoredEvent] = []
        self.commands: dict[str, CommandRecord] = {}
        self.snapshots: list[Snapshot] = []
        self.summary = GameSummary("running", (), None)
        self.updated_at = timestamp()
        self.host_seat: int | None = None
        self.claimed_tokens: dict[str, int] = {}
        self.chain = COMMITTED
        """The chain scheme (:mod:`infra.chain`)."""
        self.created_at = self.updated_at
        self.link_used: set[int] = set()
        """The seats whose invite link was used (a guest plays them: not free to join)."""
        self.listed = False
        self.options: bytes | None = None
        self.rematch_id: str | None = None
        self.rematch_key: str | None = None


class InMemoryEventStore:
    def __init__(self, chain: int = COMMITTED) -> None:
        """``chain``: the chain scheme of the games it creates (:data:`~infra.chain.LEGACY` stands for games
        stored before commitments, as a PostgreSQL store still holds them)."""
        self._chain = chain
        self._games: dict[str, GameRecord] = {}
        self._creations: dict[str, CreationKey] = {}

    def _game(self, game_id: str) -> GameRecord:
        try:
            return self._games[game_id]
        except KeyError:
            raise StreamNotFound(f"no game {game_id}") from None

    def record(self, game_id: str) -> GameRecord:
        """The game's record, for the twins that read the same rows in PostgreSQL (StreamNotFound)."""
        return self._game(game_id)

    def records(self) -> dict[str, GameRecord]:
        """Every game's record by id (the twins' listings)."""
        return dict(self._games)

    async def create(
        self, game_id: str, game_type: str, seats: list[SeatRecord], seed: bytes, decision: Decision | list[Decision],
        summary: GameSummary, creation: CreationKey | None = None, rules_version: str = "v1",
        host_seat: int | None = None,
    ) -> list[StoredEvent]:
        if creation is not None and creation.key_hash in self._creations:
            raise DuplicateCreation(self._creations[creation.key_hash])
        if game_id in self._games:
            raise ConcurrencyConflict(game_id, 0)
        self._games[game_id] = GameRecord(game_type, seats, seed)
        self._games[game_id].chain = self._chain
        self._games[game_id].host_seat = host_seat
        if creation is not None:
            self._creations[creation.key_hash] = creation
        return await self.append(game_id, 0, decision if isinstance(decision, list) else [decision], summary)

    async def find_creation(self, key_hash: str) -> CreationKey | None:
        return self._creations.get(key_hash)

    async def append(
        self, game_id: str, expected_version: int, decisions: list[Decision], summary: GameSummary,
        snapshot: Snapshot | None = None,
    ) -> list[StoredEvent]:
        game = self._game(game_id)
        for decision in decisions:
            if decision.command_id in game.commands:
                raise DuplicateCommand(game.commands[decision.command_id])
        if len(game.events) != expected_version:
            raise ConcurrencyConflict(game_id, expected_version)
        recorded_at = timestamp()
        last_hash = game.events[-1].hash if game.events else GENESIS
        version = expected_version
        stored: list[StoredEvent] = []
        for decision in decisions:
            first = version + 1
            for event in decision.events:
                version += 1
                committed = event.commitment if game.chain == COMMITTED else None
                digest = event_hash(last_hash, game_id, version, event.type, decision.actor, decision.command_id,
                                    recorded_at, event.payload, committed)
                stored.append(StoredEvent(version, event.type, decision.actor, decision.command_id, recorded_at,
                                          event.payload, last_hash, digest, committed))
                last_hash = digest
            game.commands[decision.command_id] = CommandRecord(
                decision.command_id, decision.actor, decision.command_type, decision.command, first, version,
                recorded_at,
            )
        game.events.extend(stored)
        game.summary = summary
        game.updated_at = recorded_at
        if snapshot is not None:
            game.snapshots.append(snapshot)
        return stored

    async def head(self, game_id: str) -> GameHead:
        game = self._game(game_id)
        last = game.events[-1].hash if game.events else GENESIS
        s = game.summary
        return GameHead(game_id, game.game_type, len(game.events), last, s.status, s.on_turn, s.system_job,
                        game.updated_at)

    async def head_with_snapshot(self, game_id: str) -> tuple[GameHead, Snapshot | None]:
        head = await self.head(game_id)
        return head, max(self._games[game_id].snapshots, key=lambda s: s.version, default=None)

    async def heads(self, game_ids: list[str]) -> list[GameHead]:
        return [await self.head(g) for g in game_ids if g in self._games]

    async def due_jobs(self) -> list[GameHead]:
        heads = [await self.head(g) for g in self._games]
        return [h for h in heads if h.status == "running" and h.system_job is not None]

    async def timed_games(self) -> list[str]:
        return [g for g, game in self._games.items()
                if game.summary.status == "running" and game.summary.deadline is not None]

    async def read(
        self, game_id: str, after: int = 0, until: int | None = None, *, known: bool = False
    ) -> list[StoredEvent]:
        events = self._game(game_id).events
        return [e for e in events if e.version > after and (until is None or e.version <= until)]

    async def latest_snapshot(self, game_id: str, schema: str, at_most: int | None = None) -> Snapshot | None:
        if game_id not in self._games:
            return None
        fitting = [s for s in self._games[game_id].snapshots
                   if s.schema == schema and (at_most is None or s.version <= at_most)]
        return max(fitting, key=lambda s: s.version, default=None)

    async def find_command(self, game_id: str, command_id: str) -> CommandRecord | None:
        game = self._games.get(game_id)
        return game.commands.get(command_id) if game else None

    async def commands(self, game_id: str) -> list[CommandRecord]:
        game = self._games.get(game_id)
        return sorted(game.commands.values(), key=lambda c: c.first_version) if game else []

    async def seed(self, game_id: str) -> bytes:
        return self._game(game_id).seed

    async def seats(self, game_id: str) -> list[SeatRecord]:
        return list(self._game(game_id).seats)

    async def seat_for_token(self, game_id: str, token_hash: str) -> int | None:
        """The seat the token opens, its link marked used (so the seat is no longer free to join)."""
        game = self._games.get(game_id)
        seat = next((s.seat for s in game.seats if s.token_hash == token_hash), None) if game else None
        if game is not None and seat is not None:
            game.link_used.add(seat)
        return seat

    # -- who holds a seat ---------------------------------------------------------------------------------

    async def claim_seat(
        self, game_id: str, expected_version: int, decision: Decision, summary: GameSummary, seat: int,
        token_hash: str | None, player_id: str, name: str | None = None,
    ) -> list[StoredEvent]:
        game = self._game(game_id)
        if decision.command_id in game.commands:
            raise DuplicateCommand(game.commands[decision.command_id])
        held = next((s for s in game.seats if s.seat == seat), None)
        if token_hash is None:  # joining a listed game: any free person's seat
            if held is None or held.kind != "human" or not game.listed or seat == game.host_seat:
                raise InviteInvalid("only a free person's seat of a game listed publicly can be joined")
        elif held is None or (held.player_id is None and held.token_hash != token_hash):
            raise InviteInvalid("this invite does not open this seat (it was revoked or replaced)")
        if held.player_id is not None:
            raise SeatTaken("this seat was claimed by a signed-in player")
        if token_hash is None and seat in game.link_used:
            raise SeatInUse("a guest plays this seat by its invite link")
        if any(s.player_id == player_id for s in game.seats):
            raise AlreadySeated("you already hold another seat of this game")
        stored = await self.append(game_id, expected_version, [decision], summary)
        claimed = held.token_hash
        game.seats = [msgspec.structs.replace(s, token_hash=None, player_id=player_id, name=name or s.name)
                      if s.seat == seat else s for s in game.seats]
        if claimed is not None:
            game.claimed_tokens[claimed] = seat
        return stored

    async def claimed_by_token(self, game_id: str, token_hash: str) -> int | None:
        game = self._games.get(game_id)
        return game.claimed_tokens.get(token_hash) if game else None

    async def seat_of_player(self, game_id: str, player_id: str) -> int | None:
        game = self._games.get(game_id)
        return next((s.seat for s in game.seats if s.player_id == player_id), None) if game else None

    async def host_seat(self, game_id: str) -> int | None:
        return self._game(game_id).host_seat

    async def set_invite(self, game_id: str, seat: int, token_hash: str | None) -> None:
        game = self._game(game_id)
        held = next((s for s in game.seats if s.seat == seat), None)
        if held is None or held.kind != "human":
            raise InviteInvalid(f"seat {seat + 1} is not a person's seat of this game")
        if held.player_id is not None:
            raise SeatTaken("this seat was claimed by a signed-in player: its invite cannot change")
        game.seats = [msgspec.structs.replace(s, token_hash=token_hash) if s.seat == seat else s for s in game.seats]
        game.link_used.discard(seat)

    async def player_games(self, player_id: str) -> list[PlayerGame]:
        found = []
        for game_id, game in self._games.items():
            seat = next((s.seat for s in game.seats if s.player_id == player_id), None)
            if seat is not None:
                found.append(PlayerGame(game_id, game.game_type, game.summary.status, len(game.events),
                                        game.summary.on_turn, game.updated_at, seat,
                                        tuple(s.name for s in game.seats)))
        return sorted(found, key=lambda g: g.updated_at, reverse=True)
