"""The table around the games in memory: the twin of :class:`~.tables.PostgresTables` over an
:class:`~.memory.InMemoryEventStore` (the games and seats it keeps), held to the same contract suite
(``tests/integration/test_tables_store.py``)."""

from __future__ import annotations

from datetime import datetime

import msgspec

from infra.errors import InviteInvalid, StreamNotFound

from .memory import GameRecord, InMemoryEventStore
from .tables import PAGE_MAX, TableOf, TableRow


def _us(moment: str) -> int:
    """Microseconds since the epoch of a recorded time (:func:`~.base.timestamp`'s text)."""
    at = datetime.fromisoformat(moment.replace("Z", "+00:00"))
    return int(at.timestamp()) * 1_000_000 + at.microsecond


def _row(game_id: str, game: GameRecord) -> TableRow:
    seats = sorted(game.seats, key=lambda s: s.seat)
    return TableRow(game_id, game.game_type, game.created_at, game.updated_at, _us(game.updated_at),
                    tuple(s.name for s in seats), tuple(s.kind for s in seats),
                    tuple(s.player_id is not None or s.seat == game.host_seat or s.seat in game.link_used
                          for s in seats))


def _free(game: GameRecord) -> list[int]:
    """The person's seats nobody claimed but the host's, by seat."""
    return sorted(s.seat for s in game.seats
                  if s.kind == "human" and s.player_id is None and s.seat != game.host_seat)


class InMemoryTables:
    """The listed games, the options games were made with, and rematches (see :class:`~.tables.TableStore`)."""

    def __init__(self, store: InMemoryEventStore) -> None:
        self._store = store

    async def set_table(self, game_id: str, listed: bool, options: bytes) -> None:
        game = self._store.records().get(game_id)
        if game is not None:  # as an UPDATE of no row: nothing
            game.listed, game.options = listed, options

    async def table_of(self, game_id: str) -> TableOf:
        game = self._store.record(game_id)
        return TableOf(game.listed, game.options, game.rematch_id, game.host_seat)

    async def unclaimed(self, game_id: str) -> tuple[list[int], list[int]]:
        game = self._store.records().get(game_id)
        free = _free(game) if game is not None else []
        used = game.link_used if game is not None else set()
        return [s for s in free if s not in used], [s for s in free if s in used]

    async def release_seat(self, game_id: str, token_hash: str) -> int:
        game = self._store.records().get(game_id)
        held = next((s for s in game.seats if s.token_hash == token_hash and s.player_id is None), None) \
            if game is not None else None
        if game is None or held is None:
            raise InviteInvalid("this invite does not open a seat of this game (it was released, revoked or replaced)")
        game.seats = [msgspec.structs.replace(s, token_hash=None) if s.seat == held.seat else s for s in game.seats]
        game.link_used.discard(held.seat)
        return held.seat

    async def open_tables(self, limit: int) -> list[TableRow]:
        games = [(g, game) for g, game in self._listed()
                 if any(s not in game.link_used for s in _free(game))]
        games.sort(key=lambda pair: pair[0])
        games.sort(key=lambda pair: pair[1].created_at, reverse=True)
        return [_row(g, game) for g, game in games[:min(limit, PAGE_MAX)]]

    async def live_tables(self, limit: int, before_us: int | None) -> list[TableRow]:
        games = [(g, game) for g, game in self._listed()
                 if before_us is None or _us(game.updated_at) < before_us]
        games.sort(key=lambda pair: pair[0])
        games.sort(key=lambda pair: pair[1].updated_at, reverse=True)
        return [_row(g, game) for g, game in games[:min(limit, PAGE_MAX)]]

    async def rematch_key(self, game_id: str, candidate: str) -> str:
        game = self._store.records().get(game_id)
        if game is None:
            raise StreamNotFound(f"no game {game_id}")
        if game.rematch_key is None:
            game.rematch_key = candidate
        return game.rematch_key

    async def set_rematch(self, game_id: str, rematch_id: str) -> bool:
        game = self._store.records().get(game_id)
        if game is None or game.rematch_id is not None:
            return False
        game.rematch_id = rematch_id
        return True

    def _listed(self) -> list[tuple[str, GameRecord]]:
        return [(g, game) for g, game in self._store.records().items()
                if game.listed and game.summary.status == "running"]
