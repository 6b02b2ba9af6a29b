"""Ratings within one process: the twin of :class:`~.postgres.PostgresRatings` over the in-memory event store (the
games, their host seats and who holds them) and player store (names, and which accounts still exist), held to the
same contract (tests/integration/test_ratings_store.py)."""

from __future__ import annotations

from collections.abc import Sequence

from infra.accounts import Players
from infra.eventstore.base import timestamp
from infra.eventstore.memory import InMemoryEventStore

from .base import PAGE_MAX, BoardRow, HostRating, PlayerRating, Result, Skill, Update


class InMemoryRatings:
    def __init__(self, events: InMemoryEventStore, players: Players) -> None:
        self._events = events
        self._players = players
        self._games: dict[str, tuple[str, Result, bool]] = {}
        """game id -> (game type, result, settled)"""
        self._ratings: dict[tuple[str, str], tuple[Skill, str]] = {}
        """(player id, game type) -> (rating, updated at)"""

    async def open(self, game_id: str, game_type: str) -> None:
        self._games.setdefault(game_id, (game_type, "open", False))

    async def settle(self, game_id: str, game_type: str, players: Sequence[str], fresh: Skill,
                     update: Update | None, result: Result) -> tuple[Skill, ...] | None:
        known = self._games.get(game_id)
        if known is not None and known[2]:
            return None
        self._games[game_id] = (game_type, result, True)
        if update is None:
            return ()
        kept = [p for p in players if await self._players.get(p) is not None]
        if len(kept) < 2:
            self._games[game_id] = (game_type, "too_few_players", True)
            return ()
        after = tuple(update([(p, self._ratings.get((p, game_type), (fresh, ""))[0]) for p in kept]))
        now = timestamp()
        for player, skill in zip(kept, after, strict=True):
            self._ratings[(player, game_type)] = (skill, now)
        return after

    async def result(self, game_id: str) -> Result | None:
        known = self._games.get(game_id)
        return known[1] if known is not None else None

    async def of_player(self, player_id: str) -> list[PlayerRating]:
        if await self._players.get(player_id) is None:  # as the real rows, gone with the account
            return []
        return [PlayerRating(game_type, s.mu, s.sigma, s.games, s.shown, at)
                for (player, game_type), (s, at) in sorted(self._ratings.items())
                if player == player_id and s.games > 0]

    async def leaderboard(self, game_type: str, limit: int, offset: int) -> list[BoardRow]:
        rows: list[tuple[str, str, Skill]] = []
        for (player_id, kind), (skill, _) in self._ratings.items():
            player = await self._players.get(player_id)
            if kind == game_type and skill.games > 0 and player is not None:
                rows.append((player_id, player.name, skill))
        rows.sort(key=lambda r: (-r[2].shown, -r[2].games, r[0]))
        board: list[BoardRow] = []
        for index, (player_id, name, s) in enumerate(rows):
            position = board[-1].position if board and board[-1].shown == s.shown else index + 1
            board.append(BoardRow(position, player_id, name, s.shown, s.mu, s.sigma, s.games))
        return board[offset:offset + min(limit, PAGE_MAX)]

    async def hosts(self, game_ids: Sequence[str]) -> list[HostRating]:
        found: list[HostRating] = []
        records = self._events.records()
        for game_id in sorted(set(game_ids)):
            known, game = self._games.get(game_id), records.get(game_id)
            if known is None or game is None:
                continue
            holder = next((s.player_id for s in game.seats if s.seat == game.host_seat), None)
            skill = self._ratings.get((holder, known[0]), None) if holder is not None else None
            if skill is None or skill[0].games == 0 or await self._players.get(holder or "") is None:
                found.append(HostRating(game_id, known[0], None, 0))
            else:
                found.append(HostRating(game_id, known[0], skill[0].shown, skill[0].games))
        return found
