"""A game's chat: its seats post lines, anyone who may watch the game reads them, the host mutes a seat.

Lines are kept beside the log (:class:`services.gameplay.chat.Chat`), so posting moves no version and never makes a
pending move conflict. A line is 1 to 500 characters once trimmed (422 ``chat/empty``, ``chat/too_long``; a NUL is a
400); a seat may post ``CHAT_PER_MIN`` lines a minute (429 ``rate/limited`` with ``Retry-After``; none on a sandbox
server); a muted seat's post is 403 ``chat/muted``. Lines are live on their own Server-Sent Events stream,
``/chat/stream``, whose ``id`` is the line's ``seq`` (so the game stream's ``id``, its version, is untouched, and
an EventSource resumes each at its own place).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, delete, get, post
from litestar.di import Provide
from litestar.middleware.rate_limit import get_remote_address
from litestar.params import FromPath, HeaderParameter, JSONBody, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from redis.exceptions import RedisError

from domain.kernel.phrases import say
from infra.errors import InfraError
from services.gameplay import Gameplay
from services.gameplay.chat import MUTES, Chat

from ..auth import SECURITY, provide_optional_seat, provide_seat, provide_stream_seat
from ..chat_schemas import TEXT_MAX, ChatOut, ChatRequest
from ..deps import ChatDep, GameplayDep, OptionalSeatDep, SeatDep, SettingsDep
from ..errors import ApiError, documented, too_many
from ..held_stream import KEEP_ALIVE_S, RETRY_MS, HeldStream
from ..limits import COMMANDS, RATE, StreamSlots
from ..seat_access import SeatNumber, host_only

log = logging.getLogger(__name__)

CHAT_PER_MIN = 20
"""Lines one seat may post per minute (none on a sandbox server)."""
SEQ_MAX = 2**31 - 1

After = Annotated[int, QueryParameter(ge=0, le=SEQ_MAX, description="Only lines with a higher seq.")]


async def read_chat(chat: Chat, game_id: str, after: int, seat: int | None) -> ChatOut:
    """The lines after ``after``; a muted seat's only for the host."""
    view = await chat.read(game_id, after, seat)  # StreamNotFound: 404
    return ChatOut(game_id, view.lines, view.muted, view.host_seat)


class ChatController(Controller):
    path = "/api/games/{game_id:str}"
    tags = ("chat",)

    @post("/chat", status_code=201, summary="Post a line to the game's chat", opt={RATE: COMMANDS},
          dependencies={"seat": Provide(provide_seat)}, security=SECURITY, responses=documented(
              400, 401, 403, 404, 413, 422,
              s400="Malformed JSON, or a NUL character in the text (request/invalid)",
              s403="The host muted this seat (chat/muted), or the CSRF header is missing (auth/csrf)",
              s422=f"The text is empty once trimmed (chat/empty) or longer than {TEXT_MAX} characters (chat/too_long)",
              s429="Too many lines from this seat or requests from this client (rate/limited); Retry-After says when"))
    async def post_line(
        self, game_id: FromPath[str], data: JSONBody[ChatRequest], seat: SeatDep, chat: ChatDep,
        settings: SettingsDep,
    ) -> ChatOut:
        """By a seat (its token, or the signed-in player who claimed it). Answers with the new line. The text is
        kept as it is written (trimmed) and always shown as text, never as HTML."""
        text = data.text.strip()
        if not text:
            raise ApiError(422, "chat/empty", say("a chat line needs some text"))
        if len(text) > TEXT_MAX:
            raise ApiError(422, "chat/too_long", say("a chat line is at most {n} characters", n=TEXT_MAX),
                           max_length=TEXT_MAX, length=len(text))
        posted, view = await chat.post(game_id, seat, text, 0 if settings.sandbox else CHAT_PER_MIN)
        if posted.muted:
            raise ApiError(403, "chat/muted", say("the game's host muted this seat's chat"))
        if view is None:
            raise too_many(say("a seat may post {n} chat lines a minute", n=CHAT_PER_MIN), posted.retry_after_s)
        return ChatOut(game_id, view.lines, view.muted, view.host_seat)

    @get("/chat", summary="The game's chat", dependencies={"seat": Provide(provide_optional_seat)},
         security=[{}, *SECURITY], responses=documented(400, 401, 404))
    async def read(self, game_id: FromPath[str], seat: OptionalSeatDep, chat: ChatDep, after: After = 0) -> ChatOut:
        """Anyone who may watch the game reads its chat (no token needed). The lines of a seat the host muted are
        left out, except for the host, who sees them marked ``hidden``."""
        return await read_chat(chat, game_id, after, seat)

    @post("/seats/{seat:int}/mute", status_code=204, summary="Mute a seat's chat (the host only)",
          dependencies={"caller": Provide(provide_seat)}, security=SECURITY, responses=documented(
              400, 401, 403, 404, 422, s403="Not the host (seat/not_host)", s404="No such game or seat",
              s422="The host cannot mute their own seat (chat/own_seat)"))
    async def mute(self, game_id: FromPath[str], seat: SeatNumber, caller: SeatDep, chat: ChatDep,
                   gameplay: GameplayDep) -> None:
        """The seat's lines are hidden from everyone but the host, and its new lines refused (403 chat/muted).
        Nothing is deleted: the export keeps every line."""
        await self._set_mute(chat, gameplay, game_id, seat, caller, muted=True)

    @delete("/seats/{seat:int}/mute", status_code=204, summary="Unmute a seat's chat (the host only)",
            dependencies={"caller": Provide(provide_seat)}, security=SECURITY, responses=documented(
                400, 401, 403, 404, 422, s403="Not the host (seat/not_host)", s404="No such game or seat",
                s422="The host cannot mute their own seat (chat/own_seat)"))
    async def unmute(self, game_id: FromPath[str], seat: SeatNumber, caller: SeatDep, chat: ChatDep,
                     gameplay: GameplayDep) -> None:
        """The seat's lines show again and it may post."""
        await self._set_mute(chat, gameplay, game_id, seat, caller, muted=False)

    @staticmethod
    async def _set_mute(chat: Chat, gameplay: Gameplay, game_id: str, seat: int, caller: int, *, muted: bool
                        ) -> None:
        await host_only(gameplay, game_id, caller)
        if not await chat.has_seat(game_id, seat):
            raise ApiError(404, "seat/not_found", say("the game has no seat {seat}", seat=seat))
        if seat == caller:
            raise ApiError(422, "chat/own_seat", say("the host cannot mute their own seat"))
        await chat.mute(game_id, seat, muted)

    @get("/chat/stream", summary="Server-Sent Events: the chat's new lines",
         dependencies={"seat": Provide(provide_stream_seat)}, security=[{}, *SECURITY],
         media_type="text/event-stream", responses=documented(
             400, 401, 404, s429="Too many requests, or too many open streams, from this client address "
                                 "(rate/limited); Retry-After says when to come back"))
    async def stream(
        self, request: Request[Any, Any, Any], game_id: FromPath[str], seat: OptionalSeatDep, chat: ChatDep,
        gameplay: GameplayDep, after: After = 0,
        last_event_id: Annotated[int, HeaderParameter(name="Last-Event-ID", ge=0, le=SEQ_MAX, required=False,
                                                      description="Sent by a reconnecting EventSource: wins over "
                                                                  "`after`.")] = 0,
    ) -> ServerSentEvent:
        """A ``chat`` message (``id`` = its ``seq``, data = a line) for each new line after ``Last-Event-ID`` or
        ``after``; a ``mutes`` message (no id; data = ``{"muted": [...]}``) when the host mutes or unmutes a seat,
        after which a page reads the chat again."""
        await gameplay.queries.host_seat(game_id)  # 404 now rather than a broken stream
        slots: StreamSlots = request.app.state.stream_slots
        client = get_remote_address(request)
        slots.admit(client)
        lines = chat_messages(chat, game_id, last_event_id or after, seat)
        return ServerSentEvent(HeldStream(slots, client, lines))


async def chat_messages(chat: Chat, game_id: str, after: int, seat: int | None
                        ) -> AsyncIterator[ServerSentEventMessage]:
    """The chat stream's messages; ends (and the browser reconnects) if the store or Redis fails. It re-reads the
    chat at each announcement and each keep-alive tick (which also closes the gap before the subscription)."""
    yield ServerSentEventMessage(data=None, comment="connected", retry=RETRY_MS)
    heard = chat.listen(game_id, KEEP_ALIVE_S)
    try:
        found = await read_chat(chat, game_id, after, seat)
        while True:
            for line in found.lines:
                after = line.seq
                yield ServerSentEventMessage(data=msgspec.json.encode(line).decode(), event="chat", id=line.seq)
            message = await anext(heard)
            found = await read_chat(chat, game_id, after, seat)
            if message is not None and message[1] == MUTES.encode():
                yield ServerSentEventMessage(data=msgspec.json.encode({"muted": found.muted}).decode(), event="mutes")
            elif message is None and not found.lines:
                yield ServerSentEventMessage(data=None, comment="keep-alive")
    except (InfraError, RedisError) as exc:
        log.warning("chat stream of game %s ended: %s", game_id, exc)
    finally:
        if isinstance(heard, AsyncGenerator):
            await heard.aclose()
