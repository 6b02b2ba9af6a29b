"""Planned moves (issue #29): a seat's standing instructions, kept beside the log and played for the seat at its turn.

A plan is the game's own (:attr:`GameModule.plans`, :mod:`domain.kernel.plans`): the seat sets one through its own
routes only (:class:`SeatPlanning` reads and writes the caller's seat's plans, nobody else's), and it is kept with the
seat (:class:`infra.plans.SeatPlans`), never in the log, the views, the history, the streams or the export.

Playing it is a worker's job (``planned_move``, id ``{game}:{version}:planned_move``): the worker hears every append
(the news) and, for the games that hold plans (one read per gathering of news), queues the job at the game's version;
setting a plan queues it too, and the reconcile queues it for every game with plans (a lost announcement). The job
asks the game what the plan makes now (``planned``) for each seat the game waits for, and applies it as that seat
through the game's own ``decide`` under the service's id ``plan:{version}:{seat}``: a job run twice, or by two
workers, appends once, and a job whose game has moved on does nothing (the move's news queues the next). A plan whose
scope is over (``expired``) or whose move the rules refuse is dropped; any move the seat makes itself drops its
plans (:meth:`SeatPlanning.cancel`, called by the command route once the move is appended; a plan keeps the version
it was set at, so the job also drops a plan whose seat moved itself since, should that call never have come).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import msgspec

from domain.kernel import GameModule, RuleViolation, Seat
from domain.kernel.phrases import Phrase
from domain.kernel.plans import PlanKinds, PlanOffer, plan_tag
from infra.errors import ConcurrencyConflict, StoreUnavailable
from infra.eventstore import DuplicateCommand
from infra.logs import get_logger
from infra.plans import PlanRecord, SeatPlans
from infra.queue import Job, JobQueue

from .command_ids import PLANNED, plan_id
from .handler import Gameplay

log = get_logger("magnate.plans")

PLANNED_MOVE = "planned_move"
"""The worker's job that plays the seats' plans of one game at one version."""


class NoPlans(Exception):
    """The game offers no planned moves."""

    code = "plan/unavailable"


class BadPlan(Exception):
    """Not one of the game's plans (the body does not decode as the game's plan union)."""

    code = "plan/invalid"


class OtherGamesPlan(Exception):
    """A well-formed plan of another game (the request is fine, the plan is not this game's)."""

    code = "plan/other_games_plan"

    def __init__(self, other: str, game: str) -> None:
        super().__init__(f"that is a {other} plan, and this is a {game} game")
        self.other, self.game = other, game


class Kept(msgspec.Struct, frozen=True):
    """One plan as its seat reads it."""

    kind: str
    plan: msgspec.Raw
    """The plan as kept (its scope fixed: ``round``)."""
    set_at: str
    text: Phrase
    """What it will do, in no language."""


class SeatsPlans(msgspec.Struct, frozen=True):
    """A seat's plans in a game and the kinds it may set now."""

    game_id: str
    game_type: str
    seat: int
    version: int
    offered: tuple[PlanOffer, ...]
    """The plans the seat may set now."""
    plans: tuple[Kept, ...]


class SeatPlanning:
    def __init__(self, gameplay: Gameplay, plans: SeatPlans, queue: JobQueue) -> None:
        self.gameplay = gameplay
        self.plans = plans
        self.queue = queue
        self._decoders: dict[str, msgspec.json.Decoder[Any]] = {}

    def _kinds(self, module: GameModule[Any]) -> PlanKinds[Any]:
        if module.plans is None:
            raise NoPlans(f"{module.name} games offer no planned moves")
        return module.plans

    def _decode(self, module: GameModule[Any], body: bytes) -> Any:
        kinds = self._kinds(module)
        decoder = self._decoders.get(module.name)
        if decoder is None:
            decoder = self._decoders[module.name] = msgspec.json.Decoder(kinds.plan_type)
        return decoder.decode(body)

    # -- the seat's own routes ------------------------------------------------------------------

    async def _holders(self, game_id: str) -> dict[int, str]:
        """Who holds each seat now: its claiming player and its invite (a release, a claim or a new invite changes it,
        and the plans set before are not the new holder's)."""
        return {r.seat: f"{r.player_id or ''}/{r.token_hash or ''}" for r in await self.gameplay.store.seats(game_id)}

    async def _held(self, module: GameModule[Any], game_id: str, records: list[PlanRecord]
                    ) -> list[tuple[PlanRecord, Any]]:
        """``records`` of the seats' current holders, each with its plan; the others are dropped, and so is a plan
        the game no longer reads (kept by an older version of its plans)."""
        holders = await self._holders(game_id)
        held = []
        for record in records:
            try:
                plan = self._decode(module, record.body) if holders.get(record.seat) == record.holder else None
            except (msgspec.ValidationError, msgspec.DecodeError):
                log.warning("a plan the game no longer reads is dropped", seat=record.seat, kind=record.kind)
                plan = None
            if plan is None:
                await self.plans.drop(game_id, record.seat, (record.kind,))
            else:
                held.append((record, plan))
        return held

    async def read(self, game_id: str, seat: int) -> SeatsPlans:
        """The seat's plans and the kinds it may set now (StreamNotFound, NoPlans)."""
        loaded = await self.gameplay.load(game_id)
        module = self.gameplay.module(loaded.game_type)
        kinds = self._kinds(module)
        held = await self._held(module, game_id, await self.plans.of_seat(game_id, seat))
        return SeatsPlans(game_id, loaded.game_type, seat, loaded.version, kinds.offered(loaded.state, Seat(seat)),
                          tuple(Kept(r.kind, msgspec.Raw(r.body), r.set_at, kinds.describe(plan)) for r, plan in held))

    async def set(self, game_id: str, seat: int, body: bytes) -> SeatsPlans:
        """Keep the plan ``body`` (the game's plan JSON) for the seat, its scope fixed now, replacing one of its kind;
        then queue its job, in case the seat is on turn now. BadPlan (not a plan of this game), the rules' refusal
        (PlanRefused: not offered now), StreamNotFound, NoPlans."""
        loaded = await self.gameplay.load(game_id)
        module = self.gameplay.module(loaded.game_type)
        kinds = self._kinds(module)
        try:
            asked = self._decode(module, body)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            for other in self.gameplay.games.values():
                if other.name != module.name and other.plans is not None:
                    try:
                        self._decode(other, body)
                    except (msgspec.ValidationError, msgspec.DecodeError):
                        continue
                    raise OtherGamesPlan(other.name, module.name) from exc
            raise BadPlan(str(exc)) from exc
        plan = kinds.fix(loaded.state, Seat(seat), asked)
        holder = (await self._holders(game_id)).get(seat, "")
        await self.plans.put(game_id, seat, plan_tag(type(plan)), msgspec.json.encode(plan), holder, loaded.version)
        await self.queue.enqueue(Job(game_id, loaded.version, PLANNED_MOVE))
        return await self.read(game_id, seat)

    async def clear(self, game_id: str, seat: int, kind: str | None = None) -> SeatsPlans:
        """Drop the seat's plan of ``kind`` (None: all its plans). StreamNotFound, NoPlans."""
        await self.plans.drop(game_id, seat, None if kind is None else (kind,))
        return await self.read(game_id, seat)

    async def cancel(self, game_id: str, seat: int) -> int:
        """The seat moved itself: its plans in the game are dropped (how many)."""
        return await self.plans.drop(game_id, seat)

    # -- the worker's side ----------------------------------------------------------------------

    async def moved(self, game_ids: Collection[str]) -> int:
        """The news named these games: queue the plan job of each that holds a plan (one read for all)."""
        planned = sorted({r.game_id for r in await self.plans.of_games(game_ids)})
        return await self._queue(planned)

    async def reconcile(self) -> int:
        """Queue the plan job of every game that holds a plan (announcements may have been lost)."""
        return await self._queue(await self.plans.planned_games())

    async def _queue(self, game_ids: Collection[str]) -> int:
        """Queue the plan job of each game at its version. A game that cannot be loaded is logged and passed over (it
        holds up no other game's plans); an outage (StoreUnavailable) ends the round."""
        count = 0
        for game_id in game_ids:
            try:
                loaded = await self.gameplay.load(game_id)
            except StoreUnavailable:
                raise
            except Exception:
                log.exception("planned moves: a game with plans could not be loaded", game_id=game_id)
                continue
            count += await self.queue.enqueue(Job(game_id, loaded.version, PLANNED_MOVE))
        return count

    async def _moved_since(self, game_id: str, after: int, until: int) -> dict[int, int]:
        """The last version of each seat's own move (not one its plans made) after ``after``, read from the log:
        the command route drops a seat's plans after its move, and this catches a move whose drop never came (the
        process stopped in between)."""
        last: dict[int, int] = {}
        if after >= until:
            return last
        for event in await self.gameplay.store.read(game_id, after, until, known=True):
            if event.actor.startswith("seat:") and not event.command_id.startswith(PLANNED):
                last[int(event.actor.removeprefix("seat:"))] = event.version
        return last

    async def play(self, game_id: str, version: int) -> bool:
        """The plan job: drop the expired plans and play the first plan that makes a move for a seat the game waits
        for at ``version``, as that seat; True if it appended. A job whose game has moved on, or that ran before,
        does nothing."""
        loaded = await self.gameplay.loader.load_until(game_id, version)
        if loaded.version != version:
            return False
        module = self.gameplay.module(loaded.game_type)
        if module.plans is None:
            return False
        kinds = module.plans
        live: list[tuple[PlanRecord, Any]] = []
        held = await self._held(module, game_id, await self.plans.of_games((game_id,)))
        moved = await self._moved_since(game_id, min((r.since for r, _ in held), default=version), version)
        for record, plan in held:
            # cancelled (the seat moved itself after setting it) or over (its scope ended)
            if moved.get(record.seat, 0) > record.since or kinds.expired(loaded.state, plan):
                await self.plans.drop(game_id, record.seat, (record.kind,))
            else:
                live.append((record, plan))
        for seat in module.pending(loaded.state).seats:
            for record, plan in live:
                if record.seat != seat:
                    continue
                command = kinds.planned(loaded.state, Seat(seat), plan)
                if command is None:
                    continue
                try:
                    await self.gameplay.apply_planned(game_id, loaded, seat, plan_id(version, seat), command)
                except (DuplicateCommand, ConcurrencyConflict):
                    return False  # played before, or the game moved on (its news queues the next job)
                except RuleViolation as refused:
                    log.info("a planned move was refused; the plan is dropped", seat=seat, kind=record.kind,
                             code=refused.code)
                    await self.plans.drop(game_id, seat, (record.kind,))
                    continue
                log.info("planned move played", seat=seat, kind=record.kind)
                return True
        return False
