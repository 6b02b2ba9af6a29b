"""The Ratings service (docs/PLAYERS.md, "Ratings"): records a rated table when it is created, settles each rated
game once when it ends, and reads the players' ratings, the leaderboards and the rated open tables' hosts.

Who is rated: the seats people play. The computer's seats (the game's AI seats, and the seats a stand-in plays from
the start) are left out of the match: the ranks of the people's seats among themselves are what changes their
ratings. A seat the computer took over during the game (a timeout, leaving, resigning) is still its player's, and
rated as the table ranked it (a resigned or forfeited seat below every seat that played on). Every person's seat
must be a signed-in player's at the end: a seat still played by a guest's invite link leaves the game unrated
(``guest_seat``), since a guest has no rating to change.

Exactly once: :meth:`RatingService.game_over` may be called any number of times for a game (the notification
projector calls it when it sees a game end, again after a restart, and its periodic catch-up retries a failed
one): the store's settling transaction records the game as settled and changes the ratings together, and finds a
settled game settled."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.kernel.table import TableOptions, facts_of
from infra.ratings import BoardRow, HostRating, PlayerRating, Ratings, Result, Skill
from services.gameplay.handler import Gameplay

from .skill import FRESH, rate


class Settled(msgspec.Struct, frozen=True):
    """What settling a game did: ``result``, and the players' (id, rating after) when it was rated."""

    game_id: str
    result: Result
    after: tuple[tuple[str, Skill], ...] = ()


class RatingService:
    def __init__(self, gameplay: Gameplay, store: Ratings) -> None:
        self.gameplay = gameplay
        self.store = store

    async def opened(self, game_id: str, game_type: str, table: TableOptions | None) -> None:
        """A new game: recorded as rated when its table says so."""
        if table is not None and table.rated:
            await self.store.open(game_id, game_type)

    async def game_over(self, game_id: str) -> Settled | None:
        """Settle the game if it is a rated game that has ended and was not settled yet; None otherwise."""
        loaded = await self.gameplay.load(game_id)
        game = self.gameplay.module(loaded.game_type)
        options = facts_of(loaded.state).options
        if options is None or not options.rated or not game.pending(loaded.state).finished:
            return None
        outcome = game.outcome(loaded.state)
        if outcome is None:
            return None
        seats = await self.gameplay.queries.seats(game_id)
        people = [s for s in seats if s.kind == "human" and s.seat not in options.stand_ins]
        rank = {s.seat: s.rank for s in outcome.standings}
        if any(s.player_id is None for s in people):
            return await self._settled(game_id, loaded.game_type, "guest_seat")
        if len(people) < 2:
            return await self._settled(game_id, loaded.game_type, "too_few_players")
        ranks = {s.player_id: rank[s.seat] for s in people if s.player_id is not None}

        def update(before: Sequence[tuple[str, Skill]]) -> list[Skill]:
            return rate([skill for _, skill in before], [ranks[player] for player, _ in before])

        players = list(ranks)
        after = await self.store.settle(game_id, loaded.game_type, players, FRESH, update, "rated")
        if after is None:
            return None
        if not after:
            return Settled(game_id, "too_few_players")
        return Settled(game_id, "rated", tuple(zip(players, after, strict=False)))

    async def _settled(self, game_id: str, game_type: str, result: Result) -> Settled | None:
        done = await self.store.settle(game_id, game_type, (), FRESH, None, result)
        return None if done is None else Settled(game_id, result)

    async def of_player(self, player_id: str) -> list[PlayerRating]:
        """The player's ratings, by game type (also the player's data export's hook)."""
        return await self.store.of_player(player_id)

    async def leaderboard(self, game_type: str, limit: int, offset: int) -> list[BoardRow]:
        return await self.store.leaderboard(game_type, limit, offset)

    async def hosts(self, game_ids: Sequence[str]) -> list[HostRating]:
        return await self.store.hosts(game_ids)
