"""The read side of the service: what a caller may see of a game — its events, its state at a version, its
seats — redacted for that caller by the game's own rules (``GameModule.redact`` and ``view``).

Every route that hands out events goes through :meth:`GameQueries.visible_events`, so a game with hidden
information (a hand of cards, a sealed bid) never has them handed to anybody but their owner before the
game's end; after it, every viewer sees the whole log. A game whose events are all public
(``GameModule.events_public``) is handed out as stored, byte for byte, with no decoding.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import msgspec
from cachetools import TTLCache

from domain.kernel import Viewer
from infra.eventstore import GameHead, PlayerGame, SeatRecord, StoredEvent

from .cache import Loaded
from .loader import GameLoader

TOKENS_KEPT = 20_000
"""Seat tokens (by hash) whose seat this process remembers."""
TOKEN_TTL_S = 2.0
"""How long this process trusts a remembered token: an invite revoked, reissued or claimed through another API
process stops working here within this time (at once through this one, see :meth:`GameQueries.forget_token`)."""


UNSHOWN = ""
"""The hash and prev_hash shown for the events of a running game with hidden information stored before commitments
(chain 1): there each hash covers the payload itself, so a hidden event's hash (and the next event's prev_hash)
would let anyone test candidates for it. They are shown again, with everything else, once the game is over."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Visible:
    """The events after some version that a viewer may see, up to the current ``version``."""

    version: int
    events: Sequence[StoredEvent]
    """As stored, or with the payload of the redacted event (its hash is then the stored event's)."""
    redacted: frozenset[int] = field(default_factory=frozenset)
    """Versions whose payload was redacted for this viewer."""
    over: bool = False
    """The game has ended: nothing is hidden any more."""


class GameQueries:
    def __init__(self, loader: GameLoader) -> None:
        self.loader = loader
        self.store = loader.store
        self._seat_of_token: TTLCache[tuple[str, str], int] = TTLCache(maxsize=TOKENS_KEPT, ttl=TOKEN_TTL_S)

    def follow(self, game_id: str) -> None:
        """An event stream of this process follows the game: it hears every version any process announces for
        it and passes them to :meth:`events_after`, which brings this process up to date. While one does, a
        command on a game held at the highest version announced is decided on the held state without reading
        the store first; if another process appended meanwhile (its announcement still on the way), the append
        is refused by its expected version and the command is judged again on the state read from the store.
        Pair with :meth:`unfollow`."""
        self.loader.cache.follow(game_id)

    def unfollow(self, game_id: str) -> None:
        self.loader.cache.unfollow(game_id)

    async def events_after(
        self, game_id: str, after: int, announced: int | None = None
    ) -> tuple[int, list[StoredEvent]]:
        """The current version and the events after version ``after`` up to it, as stored (unredacted: for the
        service's own use; callers outside it use :meth:`visible_events`). With ``announced`` (a version some
        process said it appended), a game this process already holds at that version is answered from memory,
        with no I/O: the events of its own appends and of its last reads are kept."""
        version, events, _ = await self.read_after(game_id, after, announced)
        return version, events

    async def read_after(
        self, game_id: str, after: int, announced: int | None
    ) -> tuple[int, list[StoredEvent], Loaded]:
        """:meth:`events_after` and the state they lead to (for the service's own use: :mod:`.moment`)."""
        cache = self.loader.cache
        if announced is not None:
            cache.heard(game_id, announced)
        loaded = cache.get(game_id)
        if announced is None:  # a re-read: nothing heard says what the store holds, so a read of its own
            loaded = await self.loader.load(game_id)
        elif loaded is None or loaded.version < announced:
            loaded = await self.loader.load_shared(game_id, announced)
        events = cache.events_after(game_id, after)
        if events is None:
            events = await self.store.read(game_id, after=after, until=loaded.version)
        return loaded.version, [e for e in events if e.version <= loaded.version], loaded

    async def visible_events(
        self, game_id: str, after: int, viewer: Viewer, announced: int | None = None
    ) -> Visible:
        """The events after version ``after`` as ``viewer`` may see them (see the module docstring)."""
        version, events, loaded = await self.read_after(game_id, after, announced)
        over = self.loader.module(loaded.game_type).pending(loaded.state).finished
        return self.redacted(loaded.game_type, version, events, viewer, over)

    def redacted(
        self, game_type: str, version: int, events: Sequence[StoredEvent], viewer: Viewer, over: bool
    ) -> Visible:
        """``events`` (of a game at ``version``) as ``viewer`` may see them."""
        game = self.loader.module(game_type)
        if game.events_public or over:
            return Visible(version, events, over=over)
        codec = self.loader.codecs[game_type]
        shown: list[StoredEvent] = []
        redacted: set[int] = set()
        for kept in events:
            # a game stored before commitments: its hashes would give hidden events away
            stored = kept if kept.commitment is not None else msgspec.structs.replace(kept, prev_hash=UNSHOWN,
                                                                                     hash=UNSHOWN)
            event = codec.decode_event(stored.payload)
            seen = game.redact(event, viewer, False)
            if seen is None:
                continue
            if seen != event:
                redacted.add(stored.version)
                shown.append(msgspec.structs.replace(stored, payload=codec.encode(seen)))
            else:
                shown.append(stored)
        return Visible(version, shown, frozenset(redacted), over)

    async def state_at(self, game_id: str, version: int) -> Loaded:
        """The state after event ``version`` (auditing); versions beyond the head give the head."""
        head = await self.store.head(game_id)
        if version >= head.version:
            return await self.loader.load(game_id)
        return await self.loader.state_at(game_id, head.game_type, max(0, version))

    def forget_token(self, game_id: str, token_hash_: str | None = None) -> None:
        """A seat's invite changed: forget the tokens remembered for ``game_id`` (all of them, or one by hash)."""
        for key in [k for k in self._seat_of_token if k[0] == game_id and token_hash_ in (None, k[1])]:
            self._seat_of_token.pop(key, None)

    async def seat_for_token(self, game_id: str, token: str) -> int | None:
        key = (game_id, token_hash(token))
        seat = self._seat_of_token.get(key)
        if seat is None:
            seat = await self.store.seat_for_token(*key)
            if seat is None:
                return None
            self._seat_of_token[key] = seat
        return seat

    # -- who sits where: the facts the HTTP layer needs, read through the service ---------------------------------

    async def head(self, game_id: str) -> GameHead:
        """The game's row in the read model (StreamNotFound: no such game)."""
        return await self.store.head(game_id)

    async def finished(self, game_id: str) -> bool:
        """Whether the game is over, by the read model (StreamNotFound: no such game)."""
        return (await self.store.head(game_id)).status == "finished"

    async def seats(self, game_id: str) -> list[SeatRecord]:
        """The game's seats in order (an empty list for an unknown game)."""
        return await self.store.seats(game_id)

    async def host_seat(self, game_id: str) -> int | None:
        """The creator's seat (StreamNotFound: no such game)."""
        return await self.store.host_seat(game_id)

    async def claimed_seat(self, game_id: str, token: str) -> int | None:
        """The seat a signed-in player claimed with the invite ``token``, if any (its link opens it no more)."""
        return await self.store.claimed_by_token(game_id, token_hash(token))

    async def seat_of_player(self, game_id: str, player_id: str) -> int | None:
        """The seat ``player_id`` claimed in the game, if any."""
        return await self.store.seat_of_player(game_id, player_id)

    async def player_games(self, player_id: str) -> list[PlayerGame]:
        """Every game the player holds a seat in, newest first."""
        return await self.store.player_games(player_id)
