"""Who holds a seat: a signed-in player claiming it with its invite, and the host revoking or reissuing invites
(docs/PLAYERS.md). A claim is a ``table.seat_claimed`` event in the game's log, appended with the seat's binding in
one transaction (:meth:`OwnershipStore.claim_seat`). The log records no name: the seat's name lives in the seats
table only (as the chat's names do), so an erased account's name leaves the game while its log still verifies."""

from __future__ import annotations

import logging
import secrets

from domain.kernel import SYSTEM, Chance
from domain.kernel.table import ClaimSeat
from infra.errors import ConcurrencyConflict, InfraError, SeatTaken
from infra.eventstore import DuplicateCommand
from infra.notify import Broadcast, player_channel

from .cache import Loaded
from .command_ids import claim_id
from .commitments import Sealer
from .decisions import decision_of, summary_of
from .handler import Gameplay
from .queries import token_hash
from .results import Applied
from .seat_names import seat_name

log = logging.getLogger(__name__)


GAMES_CHANGED = "games"
"""What a claim says on the player's channel: "My games" re-reads its list (a notice says "notice")."""


class Seating:
    """``broadcast``: where the player's open pages listen (:func:`infra.notify.player_channel`); None: nobody is
    told (tests of the service alone)."""

    def __init__(self, gameplay: Gameplay, broadcast: Broadcast | None = None) -> None:
        self.gameplay = gameplay
        self.store = gameplay.store
        self._broadcast = broadcast

    async def _tell_pages(self, player_id: str) -> None:
        """The player's "My games" pages (on any device) learn of the new seat at once; a lost message only waits
        for their next reconnection."""
        if self._broadcast is None:
            return
        try:
            await self._broadcast.publish(player_channel(player_id), GAMES_CHANGED)
        except InfraError as exc:
            log.warning("could not tell the pages of %s about a claimed seat: %s", player_id, exc)

    async def claim(self, game_id: str, seat: int, token: str | None, player_id: str, name: str) -> Applied:
        """Bind ``seat`` (opened by its invite ``token``; None: a free seat of a game listed publicly, which any
        signed-in player may join) to ``player_id``, shown as ``name`` from now on (on the board, in "My games", the
        history and the standings: the seats table, never the log), disambiguated from the other seats' names
        (:func:`.seat_names.seat_name`). A retry by
        the same player is answered with the first claim; SeatTaken if another player claimed it, AlreadySeated,
        InviteInvalid, or the rules' own refusal (a finished game, an AI seat)."""
        gameplay = self.gameplay
        for _ in range(3):  # another command may land between the load and the append: judge again
            loaded = await gameplay.load(game_id)
            game, codec = gameplay.module(loaded.game_type), gameplay.codecs[loaded.game_type]
            others = [s.name for s in await self.store.seats(game_id) if s.seat != seat]
            shown = seat_name(name, seat, others)  # never another seat's name, nor the computer's
            command = ClaimSeat(seat=seat)  # no name in the log: it lives in the seats table
            seed = await gameplay.loader.seed(game_id)
            events, state = game.step(loaded.state, SYSTEM, command, Chance(seed, loaded.version + 1))
            decision = decision_of(codec, Sealer(game, seed, loaded.version), claim_id(seat), SYSTEM, command, events)
            try:
                stored = await self.store.claim_seat(game_id, loaded.version, decision, summary_of(game, state), seat,
                                                     token_hash(token) if token else None, player_id, shown)
            except DuplicateCommand as duplicate:
                if await self.store.seat_of_player(game_id, player_id) != seat:
                    raise SeatTaken("this seat was claimed by a signed-in player") from duplicate
                record = duplicate.record
                events_before = await self.store.read(game_id, after=record.first_version - 1,
                                                      until=record.last_version)
                return Applied(game_id, record.last_version, tuple(events_before), duplicate=True)
            except ConcurrencyConflict:
                continue
            if token:
                gameplay.queries.forget_token(game_id, token_hash(token))
            else:  # the seat's invite, whatever it was, stopped opening it
                gameplay.queries.forget_token(game_id)
            version = stored[-1].version
            await gameplay.after_append(game_id, Loaded(loaded.game_type, version, state), game, stored)
            await self._tell_pages(player_id)
            return Applied(game_id, version, tuple(stored))
        raise ConcurrencyConflict(game_id, -1)

    async def reissue(self, game_id: str, seat: int) -> str:
        """A new invite token for an unclaimed human seat; the old one stops working (SeatTaken if claimed)."""
        token = secrets.token_urlsafe(24)
        await self.store.set_invite(game_id, seat, token_hash(token))
        self.gameplay.queries.forget_token(game_id)
        return token

    async def revoke(self, game_id: str, seat: int) -> None:
        """No invite opens the seat any more (until the host issues a new one)."""
        await self.store.set_invite(game_id, seat, None)
        self.gameplay.queries.forget_token(game_id)
