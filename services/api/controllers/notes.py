"""Private notes (issue #29): a signed-in player's own note on a game they hold a seat in. Only its author reads it:
no game route, stream or export carries a note, its existence or its length (docs/PLAYERS.md, "Private notes")."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, get, put
from litestar.datastructures import CacheControlHeader
from litestar.di import Provide
from litestar.params import FromPath, JSONBody

from domain.kernel.phrases import say
from infra.notes import TEXT_MAX, Note
from services.gameplay.notes import NoteTooLong, NotSeated

from ..bodies import json_only, refuse_duplicate_keys
from ..deps import NotesDep, plausible_game_id
from ..errors import ApiError, documented
from ..note_schemas import NoteOut, NoteRequest
from ..players import PlayerDep, provide_player

PRIVATE = CacheControlHeader(no_store=True)
"""A note is nobody's but its author's: no cache keeps it."""
NOT_SEATED = say("only a player who holds a seat in this game keeps notes on it")


def note_out(game_id: str, seat: int, note: Note | None) -> NoteOut:
    return NoteOut(game_id, seat, note.text if note else "", note.updated_at if note else None)


class NotesController(Controller):
    path = "/api/games/{game_id:str}/notes"
    tags = ("players",)
    guards = [plausible_game_id]  # noqa: RUF012 (Litestar reads it off the class)
    dependencies = {"player": Provide(provide_player)}  # noqa: RUF012

    @get("/", summary="Your private note on this game", responses=documented(
        401, 403, 404, s401="Not signed in (auth/signed_out)",
        s403="You hold no seat in this game (notes/not_seated)"), cache_control=PRIVATE)
    async def read(self, game_id: FromPath[str], player: PlayerDep, notes: NotesDep) -> NoteOut:
        """The signed-in player's own note (``text`` is "" when there is none); nobody else ever reads it."""
        try:
            seat, note = await notes.read(player.player_id, game_id)
        except NotSeated as exc:
            raise ApiError(403, exc.code, NOT_SEATED) from exc
        return note_out(game_id, seat, note)

    @put("/", summary="Write your private note on this game", guards=[json_only], responses=documented(
        400, 401, 403, 404, 413, 415, s401="Not signed in (auth/signed_out)",
        s403="You hold no seat in this game (notes/not_seated), or the CSRF header is missing (auth/csrf)",
        s413=f"Longer than {TEXT_MAX} characters (notes/too_long)"), cache_control=PRIVATE)
    async def write(self, request: Request[Any, Any, Any], game_id: FromPath[str], data: JSONBody[NoteRequest],
                    player: PlayerDep, notes: NotesDep) -> NoteOut:
        """Replaces the note with ``text`` (an empty text deletes it). Kept with your account, never in the game's
        log or export."""
        refuse_duplicate_keys(await request.body())
        if "\x00" in data.text:
            raise ApiError(400, "request/invalid", say("a note may not hold a NUL character"), field="text")
        try:
            seat, note = await notes.write(player.player_id, game_id, data.text)
        except NoteTooLong as exc:
            raise ApiError(413, exc.code, say("a note is at most {n} characters", n=TEXT_MAX), max_length=TEXT_MAX,
                           length=exc.length) from exc
        except NotSeated as exc:
            raise ApiError(403, exc.code, NOT_SEATED) from exc
        return note_out(game_id, seat, note)
