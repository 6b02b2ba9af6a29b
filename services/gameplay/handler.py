"""Gameplay: the command side of the application service (cosmicpython's service layer). No rule logic lives
here: the domain decides, this module stores and schedules; :mod:`.loader` loads and caches, :mod:`.queries`
answers reads.

Every change to a game goes through :meth:`Gameplay._apply`: fold the stream (cache, snapshot + tail),
``decide`` with the chance source of the next version, append with the expected version (one
transaction, idempotent by command id), then publish the new version and enqueue the system job the
game now waits for. A crash between the append and the enqueue loses nothing: the reconciler
re-enqueues whatever the read model says is due.
"""

from __future__ import annotations

import secrets
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from structlog.contextvars import bind_contextvars

from domain.kernel import SYSTEM, Actor, Chance, GameModule, RuleViolation, Seat, commitment_of, fold, tag_of
from domain.kernel.table import OpenTable, TableOptions, facts_of, needs_log, step_with_log
from infra import metrics
from infra.errors import CommandIdReused, ConcurrencyConflict
from infra.eventstore import (
    CommandRecord,
    CreationKey,
    DuplicateCommand,
    DuplicateCreation,
    EventStore,
    SeatRecord,
    Snapshot,
    StoredEvent,
)
from infra.logs import get_logger
from infra.notify import Notifier
from infra.queue import Announcer, Job, JobQueue, QueueAndNotifier

from . import creation_keys
from .cache import Loaded
from .clocks import clocks_changed, timers, wall_ms
from .command_ids import OPEN_ID, START, check_client_id, reveal_id, system_id
from .commitments import Sealer
from .decisions import actor_text, appended, decision_of, refused, summary_of
from .follow_on import then_system, tick_clocks
from .loader import GameLoader
from .queries import GameQueries, token_hash
from .results import Applied, Created, SeatCreated, host_of

log = get_logger("magnate.gameplay")


class Gameplay:
    """Creates games and applies commands (a seat's, or a system job's). ``loader`` loads and caches the games;
    ``queries`` is the read side over the same cache."""

    def __init__(
        self,
        store: EventStore,
        queue: JobQueue,
        notifier: Notifier,
        games: Mapping[str, GameModule[Any]],
        *,
        snapshot_every: int = 100,
        cache_size: int = 2048,
        clock: Callable[[], int] = wall_ms,
        announcer: Announcer | None = None,
        system_chain: int = 16,
    ) -> None:
        """``clock``: the time (ms since the epoch) the table's commands record; tests pass their own.
        ``announcer``: how the news of an append leaves (by default the notifier and the queue, side by side; the
        composition root gives one that does both in one round trip).
        ``system_chain``: how many more system commands due one after another a system job decides in its append
        (:meth:`run_system`)."""
        self.store = store
        self.now_ms = clock
        self.queue = queue
        self.notifier = notifier
        self.announcer = announcer or QueueAndNotifier(queue, notifier)
        self.loader = GameLoader(store, games, cache_size)
        self.queries = GameQueries(self.loader)
        self.games = self.loader.games
        self.codecs = self.loader.codecs
        self.snapshot_every = snapshot_every
        self.system_chain = system_chain
        self._cache = self.loader.cache

    def module(self, game_type: str) -> GameModule[Any]:
        return self.loader.module(game_type)

    async def load(self, game_id: str) -> Loaded:
        """The current state (:meth:`GameLoader.load`)."""
        return await self.loader.load(game_id)

    # -- creating and changing games -------------------------------------------------------------

    async def create_game(
        self, game_type: str, options: Any, names: list[str] | None = None, seed: bytes | None = None, *,
        idempotency_key: str | None = None, host_seat: int | None = None, table: TableOptions | None = None,
    ) -> Created:
        """Set a game up (raises the game's RuleViolation for impossible options).

        With an ``idempotency_key``, a retry of the same request returns the game the first one made, with the
        same seat tokens (derived from the key, see :mod:`.creation_keys`), and the same key with another
        request is refused (IdempotencyKeyReused). A retry also re-enqueues the game's due job, in case the
        first request failed after its game was committed (Redis away: StoreUnavailable)."""
        game, codec = self.module(game_type), self.codecs[game_type]
        game_id = uuid.uuid4().hex
        creation = None
        if idempotency_key is not None:  # of the request as asked: "any seed" stays None
            creation = creation_keys.creation_key(idempotency_key, game_id, game_type, options, names, seed)
            found = await self.store.find_creation(creation.key_hash)
            if found is not None:
                return await self._created_before(found, idempotency_key, game_type, options, names, seed)
        requested, seed = seed, seed or secrets.token_bytes(32)
        start = game.start(options, commitment_of(seed))
        events = game.decide(game.initial_state(), SYSTEM, start, Chance(seed, 1))
        state = fold(game.evolve, events, game.initial_state())
        sealer = Sealer(game, seed, 0)
        decisions = [decision_of(codec, sealer, START, SYSTEM, start, events)]
        if table is not None and table != TableOptions():
            opened, state = game.step(state, SYSTEM, OpenTable(options=table), Chance(seed, len(events) + 1))
            decisions.append(decision_of(codec, sealer, OPEN_ID, SYSTEM, OpenTable(options=table), opened))
            state = tick_clocks(game, codec, sealer, state, decisions, self.now_ms())
        seats: list[SeatCreated] = []
        for i, info in enumerate(game.seats(state)):
            token = creation_keys.seat_token(idempotency_key, game_id, i) if info.kind == "human" else None
            name = (names[i] if names and i < len(names) and names[i] else "") or info.label
            seats.append(SeatCreated(i, info.kind, name, dict(info.payload), token))
        host = host_of(seats, host_seat)
        records = [SeatRecord(s.seat, s.kind, s.name, s.payload, token_hash(s.token) if s.token else None)
                   for s in seats]
        started = time.perf_counter()
        try:
            stored = await self.store.create(game_id, game_type, records, seed, decisions,
                                             summary_of(game, state), creation, game.data_version, host)
        except DuplicateCreation as duplicate:  # a concurrent retry of this very request won
            assert idempotency_key is not None
            return await self._created_before(duplicate.creation, idempotency_key, game_type, options, names,
                                              requested)
        appended(game_type, started, stored)
        bind_contextvars(game_id=game_id, version=stored[-1].version)
        log.info("game created", game_type=game_type, seats=len(seats))
        self.loader.remember_seed(game_id, seed)
        await self.after_append(game_id, Loaded(game_type, stored[-1].version, state), game, stored)
        return Created(game_id, game_type, stored[-1].version, tuple(seats), host)

    async def _created_before(
        self, found: CreationKey, key: str, game_type: str, options: Any, names: list[str] | None,
        seed: bytes | None,
    ) -> Created:
        """The answer to a retried creation: the first one's game, seats and (re-derived) tokens."""
        creation_keys.same_request(found, game_type, options, names, seed)
        head = await self.store.head(found.game_id)
        seats = tuple(
            SeatCreated(r.seat, r.kind, r.name, r.payload,
                        creation_keys.seat_token(key, found.game_id, r.seat) if r.token_hash is not None else None)
            for r in await self.store.seats(found.game_id)
        )
        await self.ensure_scheduled(found.game_id)
        return Created(found.game_id, head.game_type, head.version, seats, await self.store.host_seat(found.game_id))

    async def submit(
        self, game_id: str, seat: int, command_id: str, command: Any, expected_version: int | None = None
    ) -> Applied:
        """Apply a seat's command exactly once per command id. Raises RuleViolation (nothing changes),
        ConcurrencyConflict (the game moved past ``expected_version``) or CommandIdReused.

        A command id seen before is not looked up first: the append refuses a second use of it (the key of
        the command records) and answers with the first application, and a retry that the rules now refuse
        is looked up then. So a command costs one read (the events this process has not seen) and one append;
        on a game an event stream of this process follows and whose every announced version this process
        holds, just the append (see :meth:`follow`).

        ``command_id`` must be a client id (:func:`.command_ids.check_client_id`: CommandIdReserved otherwise),
        so that no seat can take the id of a command the service will append.
        """
        check_client_id(command_id)
        actor = Seat(seat)
        loaded = self._cache.known_current(game_id)
        verified = loaded is None
        retried = False
        while True:
            if loaded is None:
                loaded = await self.load(game_id)
            try:
                if expected_version is not None and loaded.version != expected_version:
                    raise ConcurrencyConflict(game_id, expected_version)
                return await self._apply(game_id, loaded, actor, command_id, command)
            except DuplicateCommand as duplicate:
                return await self._replayed(game_id, duplicate.record, loaded.game_type, actor, command)
            except (ConcurrencyConflict, RuleViolation) as failure:
                if not verified:
                    # decided on the state this process holds, which another process may have moved on since:
                    # judge the command again on the state read from the store
                    loaded, verified = None, True
                    continue
                # A concurrent submit of this very command id may have been applied since we looked it up:
                # then this is a retry and gets the first result, not an error from the state it produced.
                known = await self.store.find_command(game_id, command_id)
                if known is not None:
                    return await self._replayed(game_id, known, loaded.game_type, actor, command)
                # Someone appended between our load and our append: decide once more on the new state,
                # unless the client pinned the version it decided on.
                if isinstance(failure, RuleViolation):
                    refused(loaded.game_type, failure)
                if isinstance(failure, RuleViolation) or expected_version is not None or retried:
                    raise
                loaded, retried = None, True

    async def run_system(self, game_id: str, at_version: int, kind: str) -> bool:
        """Run the system job ``kind`` if the game is still at ``at_version`` and still waits for it, and the
        system commands due after it, up to ``system_chain`` more (:func:`.follow_on.then_system`), in one append.
        Returns False (and changes nothing) for a stale, duplicate or unexpected job."""
        loaded = await self.loader.load_until(game_id, at_version)
        if loaded.version != at_version:
            return False
        due = self.module(loaded.game_type).pending(loaded.state).system
        if due is None or tag_of(due) != kind:
            return False
        try:
            await self._apply(game_id, loaded, SYSTEM, system_id(at_version, kind), due, chain=self.system_chain)
        except (DuplicateCommand, ConcurrencyConflict):
            return False
        return True

    async def _apply(
        self, game_id: str, loaded: Loaded, actor: Actor, command_id: str, command: Any, *, chain: int = 0
    ) -> Applied:
        bind_contextvars(game_id=game_id, version=loaded.version)
        game, codec = self.module(loaded.game_type), self.codecs[loaded.game_type]
        seed = await self.loader.seed(game_id)
        chance = Chance(seed, loaded.version + 1)
        if needs_log(command):  # a takeback is judged on who caused what since the moves (table/undo.py)
            history = await self.loader.log(game_id, loaded.game_type, loaded.version)
            events, state = step_with_log(game, loaded.state, actor, command, chance, history)
        else:
            events, state = game.step(loaded.state, actor, command, chance)
        sealer = Sealer(game, seed, loaded.version)
        decisions = [decision_of(codec, sealer, command_id, actor, command, events)]
        if events:
            state = tick_clocks(game, codec, sealer, state, decisions, self.now_ms())
            state = then_system(game, codec, sealer, state, decisions, self.now_ms, chain)
        if game.pending(state).finished and events:
            reveal = game.reveal(seed.hex())
            revealed, state = game.step(state, SYSTEM, reveal, Chance(seed, sealer.version + 1))
            decisions.append(decision_of(codec, sealer, reveal_id(game_id), SYSTEM, reveal, revealed))
        version = sealer.version
        snapshot = None
        if version // self.snapshot_every > loaded.version // self.snapshot_every:
            snapshot = Snapshot(version, codec.state_schema, codec.encode_state(state))
        started = time.perf_counter()
        try:
            stored = await self.store.append(game_id, loaded.version, decisions, summary_of(game, state), snapshot)
        except ConcurrencyConflict:
            metrics.APPEND_CONFLICTS.labels(loaded.game_type).inc()
            log.info("append conflict: the game moved on", command=tag_of(command))
            raise
        except DuplicateCommand as duplicate:
            if duplicate.record.command_id == command_id:
                raise  # this very command was applied before: the caller answers with that first result
            # A follow-on decision's id (``clock:<version>``, the reveal) derives from the version, so another
            # decision appended at this same version took it first: the stream moved, as in a conflict.
            metrics.APPEND_CONFLICTS.labels(loaded.game_type).inc()
            log.info("append conflict: the game moved on", command=tag_of(command))
            raise ConcurrencyConflict(game_id, loaded.version) from duplicate
        appended(loaded.game_type, started, stored)
        bind_contextvars(version=version)
        log.info("command applied", command=tag_of(command), actor=actor_text(actor), events=len(stored))
        await self.after_append(game_id, Loaded(loaded.game_type, version, state), game, stored)
        return Applied(game_id, version, tuple(stored), over=game.pending(state).finished)

    async def apply_planned(self, game_id: str, loaded: Loaded, seat: int, command_id: str, command: Any) -> Applied:
        """Apply the move a seat's plan makes (:mod:`.plans`) as that seat, under the service's id ``command_id``
        (:func:`.command_ids.plan_id`); raises as :meth:`apply_system` does."""
        return await self._apply(game_id, loaded, Seat(seat), command_id, command)

    async def apply_system(self, game_id: str, loaded: Loaded, command_id: str, command: Any) -> Applied:
        """Apply a system command the service issues by id (a timeout, a vacation) on ``loaded``; raises as
        :meth:`submit`'s append does (ConcurrencyConflict, DuplicateCommand, the rules' refusal)."""
        return await self._apply(game_id, loaded, SYSTEM, command_id, command)

    async def schedule_clocks(self, game_id: str, state: Any, reminders_after: int = 0) -> int:
        """Schedule the timeouts and reminders of the running clocks (a no-op for those already queued)."""
        count = 0
        for timer in timers(game_id, facts_of(state), reminders_after):
            count += await self.queue.schedule(timer)
        return count

    async def after_append(
        self, game_id: str, loaded: Loaded, game: GameModule[Any], stored: Sequence[StoredEvent]
    ) -> None:
        self._cache.remember(game_id, loaded, stored)
        if clocks_changed(stored):
            await self.schedule_clocks(game_id, loaded.state)
        due = game.pending(loaded.state).system
        await self.announcer.moved(game_id, loaded.version,
                                   None if due is None else Job(game_id, loaded.version, tag_of(due)))

    async def _replayed(
        self, game_id: str, record: CommandRecord, game_type: str, actor: Actor, command: Any
    ) -> Applied:
        if record.actor != actor_text(actor) or record.payload != self.codecs[game_type].encode(command):
            raise CommandIdReused(f"command id {record.command_id} was already used for another command")
        events = await self.store.read(game_id, after=record.first_version - 1, until=record.last_version)
        now = await self.ensure_scheduled(game_id)
        over = self.module(now.game_type).pending(now.state).finished
        return Applied(game_id, record.last_version, tuple(events), duplicate=True, over=over)

    async def ensure_scheduled(self, game_id: str) -> Loaded:
        """Enqueue the system job the game waits for, if any (a no-op when it is queued already); returns the game
        as loaded. A retried command or creation calls it: its first try may have committed and then failed to
        enqueue (Redis away), and the retry should not leave the game to the reconciler's next round."""
        loaded = await self.load(game_id)
        due = self.module(loaded.game_type).pending(loaded.state).system
        if due is not None:
            await self.queue.enqueue(Job(game_id, loaded.version, tag_of(due)))
        return loaded

    async def reconcile(self) -> int:
        """Re-enqueue every due system job and every running clock's timers (after a lost queue or a crash after
        an append)."""
        count = 0
        for head in await self.store.due_jobs():
            if head.system_job is not None and await self.queue.enqueue(Job(head.game_id, head.version,
                                                                              head.system_job)):
                count += 1
        for game_id in await self.store.timed_games():
            count += await self.schedule_clocks(game_id, (await self.load(game_id)).state, self.now_ms())
        return count
