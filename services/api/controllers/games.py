"""Games: create one, and read it as a viewer may see it (public, a seat, the auditor once over)."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, Response, get, post
from litestar.di import Provide
from litestar.params import FromPath, HeaderParameter, JSONBody, QueryParameter

from domain.kernel import AUDITOR, PUBLIC, GameModule, Seat, Viewer, ViewUnavailable, tag_of
from infra.config import Settings
from services.gameplay import Gameplay
from services.gameplay.audit import export_lines
from services.gameplay.creation_keys import KEY_PATTERN
from services.gameplay.story import NARRATED

from ..auth import SECURITY, provide_optional_seat, provide_seat
from ..deps import GameplayDep, OptionalSeatDep, SeatDep, SettingsDep, StoriesDep
from ..errors import documented, invalid
from ..limits import CREATE, RATE
from ..schemas import (
    VERSION_MAX,
    CreateGameRequest,
    EventOut,
    EventsOut,
    GameCreatedOut,
    GameOut,
    HistoryOut,
    MeOut,
    PlayerOut,
    SeatCreatedOut,
    StateOut,
)

After = Annotated[int, QueryParameter(ge=0, le=VERSION_MAX, description="Only events with a higher version.")]
IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key", min_length=16, max_length=128, pattern=KEY_PATTERN,
        description="Makes the creation safe to retry: the same key with the same request returns the same game "
                    "with the same seat tokens (201 again, nothing new is created); the same key with another "
                    "request is a 409 (conflict/idempotency_key_reused). 16-128 letters, digits and `.` `_` `~` `-` "
                    "(a UUID fits); keep it secret, as it stands for the seat tokens.",
    ),
]


async def events_page(gameplay: Gameplay, game_id: str, after: int, announced: int | None = None) -> EventsOut:
    """The events after version ``after`` up to the current version (``version``); see
    :meth:`Gameplay.events_after` for ``announced``."""
    version, events = await gameplay.events_after(game_id, after, announced)
    return EventsOut(version, tuple(EventOut.of(e) for e in events))


async def players(gameplay: Gameplay, game_id: str) -> tuple[PlayerOut, ...]:
    return tuple(PlayerOut(s.seat, s.kind, s.name, s.company) for s in await gameplay.store.seats(game_id))




def public_url(settings: Settings) -> str:
    return (settings.public_url or f"http://{settings.host}:{settings.port}").rstrip("/")


def game_options(game: GameModule[Any], data: CreateGameRequest) -> Any:
    """The game's options struct from the request (400 if the game refuses their shape)."""
    seats = [{"kind": s.kind} | ({"company": s.company} if s.company else {}) for s in data.seats]
    raw = {"seats": seats, "advanced": data.advanced, "tutorial": data.tutorial, "difficulty": data.difficulty}
    try:
        return msgspec.convert(raw, game.options_type)
    except msgspec.ValidationError as exc:
        raise invalid(f"invalid options for {game.name}: {exc}") from exc


class GameController(Controller):
    path = "/api/games"
    tags = ("games",)

    @post("/", status_code=201, summary="Create a game", opt={RATE: CREATE}, responses=documented(
        400, 409, 413, 422,
        s409="The Idempotency-Key was used before with another request (conflict/idempotency_key_reused)",
        s422="The game refuses these options; the code is the rule's own (rule/invalid_value, ...)"))
    async def create(
        self, data: JSONBody[CreateGameRequest], gameplay: GameplayDep, settings: SettingsDep,
        idempotency_key: IdempotencyKey = None,
    ) -> GameCreatedOut:
        """Set a game up. Returns one secret token and invite link per human seat (shown only here, and again
        to a retry with the same ``Idempotency-Key``)."""
        if data.game not in gameplay.games:
            raise invalid(f"unknown game {data.game!r}", game=data.game, known=sorted(gameplay.games))
        if data.seed is not None and not settings.sandbox:
            raise invalid("a seed may only be chosen on a sandbox server", field="seed")
        options = game_options(gameplay.module(data.game), data)
        seed = bytes.fromhex(data.seed) if data.seed is not None else None
        created = await gameplay.create_game(data.game, options, [s.name or "" for s in data.seats], seed,
                                             idempotency_key=idempotency_key)
        base = public_url(settings)
        seats = tuple(
            SeatCreatedOut(s.seat, s.kind, s.name, s.company, s.token,
                           f"{base}/play/{created.game_id}#token={s.token}" if s.token else None)
            for s in created.seats
        )
        return GameCreatedOut(created.game_id, created.game_type, created.version, seats)

    @get("/{game_id:str}", summary="The public view of a game", responses=documented(400, 404))
    async def read(self, game_id: FromPath[str], gameplay: GameplayDep) -> GameOut:
        loaded = await gameplay.load(game_id)
        game = gameplay.module(loaded.game_type)
        due = game.pending(loaded.state)
        return GameOut(
            game_id=game_id,
            game_type=loaded.game_type,
            version=loaded.version,
            status="finished" if due.finished else "running",
            on_turn=tuple(int(s) for s in due.seats),
            system_job=tag_of(due.system) if due.system is not None else None,
            view=game.view(loaded.state, PUBLIC, False),
            players=await players(gameplay, game_id),
        )

    @get("/{game_id:str}/me", summary="The caller's seat view and legal commands",
         dependencies={"seat": Provide(provide_seat)}, security=SECURITY, responses=documented(400, 401, 404))
    async def me(self, game_id: FromPath[str], seat: SeatDep, gameplay: GameplayDep) -> MeOut:
        loaded = await gameplay.load(game_id)
        game = gameplay.module(loaded.game_type)
        legal = game.legal_commands(loaded.state, Seat(seat))
        return MeOut(seat, loaded.version, game.view(loaded.state, Seat(seat), False), tuple(legal),
                     await players(gameplay, game_id))

    @get("/{game_id:str}/events", summary="The event log", responses=documented(400, 404))
    async def events(self, game_id: FromPath[str], gameplay: GameplayDep, after: After = 0) -> EventsOut:
        """Events never carry a seat's secrets, so every caller gets the same, complete log."""
        return await events_page(gameplay, game_id, after)

    @get("/{game_id:str}/history", summary="The game so far, told in sentences", responses=documented(400, 404))
    async def history(
        self, game_id: FromPath[str], gameplay: GameplayDep, stories: StoriesDep, after: After = 0
    ) -> HistoryOut:
        """One line per sentence, each with the version and type of the event it tells and its depth
        (0 = a round, 1 = a step of it, 2 = a seat's doing, 3 = its detail). The story is told from the
        whole log (it names things from the start), but only lines of events after ``after`` are sent.
        The log carries no secrets, so every caller gets the same story."""
        game_type = await gameplay.game_type(game_id)
        if game_type not in NARRATED:
            raise invalid(f"no narration for {game_type} games", game_type=game_type)
        version, lines = await stories.told_after(gameplay, game_id, after)
        return HistoryOut(version, tuple(lines))

    @get("/{game_id:str}/state", summary="The state at a version, as the caller may see it",
         dependencies={"seat": Provide(provide_optional_seat)}, security=[{}, *SECURITY],
         responses=documented(400, 401, 403, 404))
    async def state(
        self,
        game_id: FromPath[str],
        seat: OptionalSeatDep,
        gameplay: GameplayDep,
        at: Annotated[int, QueryParameter(ge=0, le=VERSION_MAX,
                                          description="The version (default, or beyond the last: the latest).")
                      ] = VERSION_MAX,
        viewer: Annotated[str | None, QueryParameter(pattern="^(public|auditor)$",
                                                     description="`public` or `auditor`; by default the bearer's "
                                                                 "seat, else public.")] = None,
    ) -> StateOut:
        """A seat token shows that seat's view; ``viewer=auditor`` shows everything, once the game is over."""
        who: Viewer = PUBLIC if seat is None or viewer == "public" else Seat(seat)
        if viewer == "auditor":
            if (await gameplay.store.head(game_id)).status != "finished":
                raise ViewUnavailable("the audit view opens when the game is over")
            who = AUDITOR
        loaded = await (gameplay.load(game_id) if at == VERSION_MAX else gameplay.state_at(game_id, at))
        view = gameplay.module(loaded.game_type).view(loaded.state, who, who == AUDITOR)
        return StateOut(game_id, loaded.version, str(who), view)

    @get("/{game_id:str}/export", summary="The full history as JSON Lines", media_type="application/x-ndjson",
         responses=documented(400, 404))
    async def export(self, game_id: FromPath[str], gameplay: GameplayDep) -> Response[bytes]:
        """A ``game`` line, then each command and its events; the seed only once the game is over.
        Anyone can check it with ``services.gameplay.audit.verify``."""
        lines = await export_lines(gameplay, game_id)
        return Response(b"".join(line + b"\n" for line in lines), media_type="application/x-ndjson")
