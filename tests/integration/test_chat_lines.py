"""The chat store contract (:class:`infra.chat.ChatLines`), run against both stores: the in-memory twin and the REAL
PostgreSQL. The chat service and its tests over the twin mean something for production only if both keep it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import NamedTuple

import pytest

from infra.chat import ChatLines, InMemoryChatStore, PostgresChatStore
from infra.errors import StreamNotFound
from infra.eventstore.memory import InMemoryEventStore
from infra.eventstore.postgres import PostgresEventStore

from .store_records import created, new_id

pytestmark = pytest.mark.integration


class Chats(NamedTuple):
    chat: ChatLines
    new_game: Callable[[], Awaitable[str]]


@pytest.fixture(params=["memory", "postgres"])
def chats(request: pytest.FixtureRequest) -> Chats:
    if request.param == "memory":
        events, known = InMemoryEventStore(), set[str]()

        async def new_game() -> str:
            game_id = await created(events)
            known.add(game_id)
            return game_id

        return Chats(InMemoryChatStore(known.__contains__), new_game)
    pool = request.getfixturevalue("pg_pool")
    store = PostgresEventStore(pool)
    return Chats(PostgresChatStore(pool), lambda: created(store))


async def test_lines_are_numbered_in_order_per_game(chats: Chats) -> None:
    chat = chats.chat
    game, other = await chats.new_game(), await chats.new_game()
    first = (await chat.post(game, 0, None, "Ada", "hello", 0)).line
    second = (await chat.post(game, 1, "player-1", "Bob", "hi", 0)).line
    elsewhere = (await chat.post(other, 0, None, "Cy", "yo", 0)).line
    assert first is not None and second is not None and elsewhere is not None
    assert [(first.seq, first.seat, first.name, first.text), (second.seq, second.seat, second.name)] == [
        (1, 0, "Ada", "hello"), (2, 1, "Bob")]
    assert elsewhere.seq == 1
    assert first.posted_at.endswith("Z") and not first.hidden
    assert await chat.lines(game) == [first, second]
    assert await chat.lines(game, after=1) == [second]
    assert await chat.lines(new_id()) == []


async def test_a_line_of_an_unknown_game_is_refused(chats: Chats) -> None:
    with pytest.raises(StreamNotFound):
        await chats.chat.post(new_id(), 0, None, "Ada", "hello", 0)


async def test_a_muted_seat_is_hidden_and_refused_until_unmuted(chats: Chats) -> None:
    chat = chats.chat
    game = await chats.new_game()
    await chat.post(game, 0, None, "Ada", "one", 0)
    await chat.post(game, 1, None, "Bob", "two", 0)
    await chat.mute(game, 1, True)
    await chat.mute(game, 1, True)  # idempotent
    assert await chat.muted(game) == [1]
    assert [line.text for line in await chat.lines(game)] == ["one"]
    assert [(line.text, line.hidden) for line in await chat.lines(game, hidden=True)] == [("one", False),
                                                                                          ("two", True)]
    refused = await chat.post(game, 1, None, "Bob", "three", 0)
    assert (refused.line, refused.muted) == (None, True)
    await chat.mute(game, 1, False)
    assert await chat.muted(game) == []
    assert [(line.text, line.hidden) for line in await chat.lines(game)] == [("one", False), ("two", False)]
    assert (await chat.post(game, 1, None, "Bob", "three", 0)).line is not None


async def test_a_seat_posts_at_most_its_rate_a_minute(chats: Chats) -> None:
    chat = chats.chat
    game = await chats.new_game()
    assert [(await chat.post(game, 0, None, "Ada", f"{n}", 2)).line is not None for n in range(2)] == [True, True]
    over = await chat.post(game, 0, None, "Ada", "too many", 2)
    assert over.line is None and not over.muted and 1 <= over.retry_after_s <= 61
    assert (await chat.post(game, 1, None, "Bob", "another seat", 2)).line is not None
    assert (await chat.post(game, 0, None, "Ada", "no rate", 0)).line is not None
