"""Games: create one, and read it as a viewer may see it (public, a seat, the auditor once over)."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, Response, get, post
from litestar.di import Provide
from litestar.params import FromPath, HeaderParameter, QueryParameter, RawBody

from domain.kernel import AUDITOR, PUBLIC, GameModule, Seat, Viewer, ViewUnavailable, tag_of
from domain.kernel.phrases import say
from services.gameplay import Gameplay
from services.gameplay.creation_keys import KEY_PATTERN
from services.gameplay.people import require_a_person
from services.gameplay.story import NoNarrator

from ..auth import SECURITY, provide_optional_seat, provide_seat
from ..clock_schemas import table_state
from ..deps import ChatDep, GameplayDep, OptionalSeatDep, RatingsDep, SeatDep, SettingsDep, StoriesDep, TablesDep
from ..errors import TOO_DEEP, documented, invalid, malformed
from ..language import CatalogsDep, LanguageDep
from ..limits import CREATE, RATE
from ..pages import events_page, public_url, viewer_of
from ..schemas import (
    VERSION_MAX,
    CreateGameRequest,
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


async def players(gameplay: Gameplay, game_id: str) -> tuple[PlayerOut, ...]:
    return tuple(PlayerOut(s.seat, s.kind, s.name, s.payload, s.player_id is not None)
                 for s in await gameplay.queries.seats(game_id))


def game_options(game: GameModule[Any], data: CreateGameRequest) -> Any:
    """The game's options from the request's raw ``options`` (400 if the game refuses their shape); integers
    written as ``2.0`` are read as JSON Schema means them, as in the envelope (:func:`decode_create`)."""
    try:
        return msgspec.json.decode(bytes(data.options), type=game.options_type)
    except msgspec.ValidationError as exc:
        if "got `float`" in str(exc):
            try:
                return msgspec.json.decode(msgspec.json.encode(integral(msgspec.json.decode(bytes(data.options)))),
                                           type=game.options_type)
            except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
                pass
        raise invalid(say("invalid options for {game}: {reason}", game=game.name, reason=str(exc)),
                      field="options") from exc
    except RecursionError as exc:
        raise malformed(TOO_DEEP) from exc


_create = msgspec.json.Decoder(CreateGameRequest)


def integral(value: Any) -> Any:
    """``value`` (decoded JSON) with every number that has no fractional part as an int: JSON Schema's ``integer``
    includes ``2.0``, which msgspec's strict decoding refuses for an ``int`` field."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [integral(v) for v in value]
    if isinstance(value, dict):
        return {k: integral(v) for k, v in value.items()}
    return value


def decode_create(body: bytes) -> CreateGameRequest:
    """The create request's envelope; its ``options`` stay raw until the game is known. A body whose integers are
    written as ``2.0`` is read as its JSON Schema means it (the rare path: tried only after a strict decode fails)."""
    try:
        return _create.decode(body)
    except msgspec.ValidationError as exc:
        if "got `float`" in str(exc):
            try:
                return _create.decode(msgspec.json.encode(integral(msgspec.json.decode(body))))
            except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
                pass
        try:  # a shape error found before the end of a truncated body: the body is no JSON at all
            msgspec.json.decode(body)
        except (msgspec.DecodeError, RecursionError) as broken:
            raise malformed(say("the body is not valid JSON: {reason}", reason=str(broken))) from broken
        raise invalid(say("invalid create request: {reason}", reason=str(exc))) from exc
    except msgspec.DecodeError as exc:
        raise malformed(say("the body is not valid JSON: {reason}", reason=str(exc))) from exc
    except RecursionError as exc:
        raise malformed(TOO_DEEP) from exc


class GameController(Controller):
    path = "/api/games"
    tags = ("games",)

    @post("/", status_code=201, summary="Create a game", opt={RATE: CREATE}, responses=documented(
        400, 409, 413, 422,
        s409="The Idempotency-Key was used before with another request (conflict/idempotency_key_reused)",
        s422="The game refuses these options; the code is the rule's own (rule/invalid_value, ...)"))
    async def create(
        self, body: RawBody, gameplay: GameplayDep, settings: SettingsDep, tables: TablesDep, ratings: RatingsDep,
        idempotency_key: IdempotencyKey = None,
    ) -> GameCreatedOut:
        """Set a game up. Returns one secret token and invite link per human seat (shown only here, and again
        to a retry with the same ``Idempotency-Key``). The body names the ``game`` and gives its ``options`` in
        that game's own shape (``GET /api/catalog`` lists the games with the JSON Schema of their options)."""
        data = decode_create(body)
        if data.game not in gameplay.games:
            raise invalid(say("unknown game '{game}'", game=data.game), game=data.game, known=sorted(gameplay.games))
        if data.seed is not None and not settings.sandbox:
            raise invalid(say("a seed may only be chosen on a sandbox server"), field="seed")
        options = game_options(gameplay.module(data.game), data)
        if not settings.sandbox:  # no game the computer plays alone for an anonymous client (services/gameplay/people)
            require_a_person(gameplay.module(data.game), options, data.table)
        seed = bytes.fromhex(data.seed) if data.seed is not None else None
        created = await gameplay.create_game(data.game, options, [n or "" for n in data.names], seed,
                                             idempotency_key=idempotency_key, table=data.table)
        await tables.created(created.game_id, options, data.listed)
        await ratings.opened(created.game_id, data.game, data.table)
        base = public_url(settings)
        seats = tuple(
            SeatCreatedOut(s.seat, s.kind, s.name, s.payload, s.token,
                           f"{base}/play/{created.game_id}#token={s.token}" if s.token else None)
            for s in created.seats
        )
        return GameCreatedOut(created.game_id, created.game_type, created.version, seats, created.host_seat)

    @get("/{game_id:str}", summary="The public view of a game", responses=documented(400, 404))
    async def read(self, game_id: FromPath[str], gameplay: GameplayDep, tables: TablesDep) -> GameOut:
        loaded = await gameplay.load(game_id)
        game = gameplay.module(loaded.game_type)
        due = game.pending(loaded.state)
        table = await tables.table_of(game_id)  # one row: the host and the rematch
        return GameOut(
            game_id=game_id,
            game_type=loaded.game_type,
            version=loaded.version,
            status="finished" if due.finished else "running",
            on_turn=tuple(int(s) for s in due.seats),
            system_job=tag_of(due.system) if due.system is not None else None,
            view=game.view(loaded.state, PUBLIC, False),
            players=await players(gameplay, game_id),
            title=game.title,
            outcome=game.outcome(loaded.state),
            host_seat=table.host_seat,
            rematch_id=table.rematch_id if due.finished else None,
            table=table_state(loaded.state, len(game.seats(loaded.state)), gameplay.now_ms()),
        )

    @get("/{game_id:str}/me", summary="The caller's seat view and legal commands",
         dependencies={"seat": Provide(provide_seat)}, security=SECURITY, responses=documented(400, 401, 404))
    async def me(self, game_id: FromPath[str], seat: SeatDep, gameplay: GameplayDep) -> MeOut:
        loaded = await gameplay.load(game_id)
        game = gameplay.module(loaded.game_type)
        legal = game.legal_commands(loaded.state, Seat(seat))
        return MeOut(seat, loaded.version, game.view(loaded.state, Seat(seat), False), tuple(legal),
                     await players(gameplay, game_id),
                     table_state(loaded.state, len(game.seats(loaded.state)), gameplay.now_ms()))

    @get("/{game_id:str}/events", summary="The event log, as the caller may see it",
         dependencies={"seat": Provide(provide_optional_seat)}, security=[{}, *SECURITY],
         responses=documented(400, 401, 404))
    async def events(
        self, game_id: FromPath[str], seat: OptionalSeatDep, gameplay: GameplayDep, after: After = 0
    ) -> EventsOut:
        """The events after ``after``, each as the caller (a seat token, else the public) may see it: a game's
        hidden information (another seat's hand, a sealed bid) is redacted until the game ends (``redacted``);
        after the end, every caller gets the whole log."""
        return await events_page(gameplay.queries, game_id, after, viewer_of(seat))

    @get("/{game_id:str}/history", summary="The game so far, told in sentences",
         dependencies={"seat": Provide(provide_optional_seat)}, security=[{}, *SECURITY],
         responses=documented(400, 401, 404))
    async def history(
        self, game_id: FromPath[str], seat: OptionalSeatDep, gameplay: GameplayDep, stories: StoriesDep,
        language: LanguageDep, catalogs: CatalogsDep, after: After = 0,
    ) -> HistoryOut:
        """One line per sentence, each with the version and type of the event it tells and its depth
        (0 = a round, 1 = a step of it, 2 = a seat's doing, 3 = its detail). The story is told from the
        whole log the caller may see (it names things from the start), but only lines of events after
        ``after`` are sent. Each line's ``text`` is in the reader's language (``seats``: where it names each
        seat, in UTF-16 code units); its ``phrase`` is the line in no language (a message key of the game's
        catalog and its arguments), for a client that renders the story itself."""
        try:
            version, lines = await stories.told_in(gameplay.queries, game_id, after, viewer_of(seat), catalogs,
                                                   language)
        except NoNarrator as exc:
            raise invalid(say("{game} games have no narrated history", game=exc.game_type)) from exc
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
            if not await gameplay.queries.finished(game_id):
                raise ViewUnavailable(phrase=say("the audit view opens when the game is over"))
            who = AUDITOR
        loaded = await (gameplay.load(game_id) if at == VERSION_MAX else gameplay.queries.state_at(game_id, at))
        view = gameplay.module(loaded.game_type).view(loaded.state, who, who == AUDITOR)
        return StateOut(game_id, loaded.version, str(who), view)

    @get("/{game_id:str}/export", summary="The full history as JSON Lines", media_type="application/x-ndjson",
         responses=documented(400, 403, 404))
    async def export(self, game_id: FromPath[str], gameplay: GameplayDep, chat: ChatDep) -> Response[bytes]:
        """A ``game`` line, then each command and its events, then the chat's lines (``kind: chat``, outside the
        hash chain); the seed only once the game is over.
        Anyone can check it with ``services.gameplay.audit.verify``. A game with hidden information (whose
        commands and events carry a hand or a sealed bid) is exported once it is over (403 before)."""
        loaded = await gameplay.load(game_id)
        game = gameplay.module(loaded.game_type)
        if not game.events_public and not game.pending(loaded.state).finished:
            raise ViewUnavailable(
                phrase=say("the export of a game with hidden information opens when the game is over"))
        lines = await chat.export(game_id)
        return Response(b"".join(line + b"\n" for line in lines), media_type="application/x-ndjson")
