"""The Inbox port's contract, run against the in-memory twin and the REAL PostgreSQL: a notice is written once per
id, listed newest first within a limit, counted unread and marked read by its player only."""

from __future__ import annotations

import asyncio
import json

import pytest

from infra.notifications import Told

from .store_world import World, new_id

pytestmark = pytest.mark.integration


def told(player_id: str, game_id: str, version: int, text: str = "Your turn") -> Told:
    return Told(f"{game_id}.{version}.0.your_turn", player_id, game_id, 0, version, "your_turn", text)


async def test_a_notice_is_written_once_and_found_with_its_games_type(world: World) -> None:
    store, bea = world.store, await world.player()
    game_id = await world.game(game_type="decktet")
    first = told(bea, game_id, 3)

    await store.write_notices([first])
    await store.write_notices([told(bea, game_id, 3, "a repeat is ignored")])

    about = await store.notice(first.notice_id)
    assert about is not None
    assert (about.game_id, about.seat, about.version, about.kind, about.text, about.game_type) == (
        game_id, 0, 3, "your_turn", "Your turn", "decktet")
    assert await store.has_notice(first.notice_id)
    assert not await store.has_notice(new_id())
    assert await store.notice(new_id()) is None
    assert await store.unread(bea) == 1


async def test_notices_are_listed_newest_first_within_the_limit(world: World) -> None:
    store, bea = world.store, await world.player()
    game_id = await world.game()
    await store.write_notices([told(bea, game_id, 2), told(bea, game_id, 3)])  # one moment: the greater id first
    await asyncio.sleep(0.01)
    await store.write_notices([told(bea, game_id, 1)])  # written last: the newest

    listed = await store.notices(bea, 10)
    assert [n.version for n in listed] == [1, 3, 2]
    assert [n.version for n in await store.notices(bea, 2)] == [1, 3]
    assert not any(n.read for n in listed)
    assert await store.notices(await world.player(), 10) == []


async def test_notices_are_marked_read_by_their_player_only(world: World) -> None:
    store, bea, cid = world.store, await world.player(), await world.player()
    game_id = await world.game()
    await store.write_notices([told(bea, game_id, v) for v in (1, 2, 3)] + [told(cid, new_id(), 1)])
    [cids] = await store.notices(cid, 10)

    await store.mark_read(bea, [f"{game_id}.1.0.your_turn", cids.notice_id, "nobody's"])
    assert await store.unread(bea) == 2 and await store.unread(cid) == 1
    assert {n.version: n.read for n in await store.notices(bea, 10)} == {1: True, 2: False, 3: False}

    await store.mark_read(bea, [])  # none named: all of them
    assert await store.unread(bea) == 0 and await store.unread(cid) == 1
    assert all(n.read for n in await store.notices(bea, 10))


async def test_a_notice_keeps_its_phrase_and_one_kept_before_phrases_has_none(world: World) -> None:
    store, bea = world.store, await world.player()
    game_id = await world.game(game_type="decktet")
    phrase = '{"type": "msg", "key": "Your turn in {game}", "args": {"game": "Decktet Magnate"}}'
    said = Told(f"{game_id}.4.0.your_turn", bea, game_id, 0, 4, "your_turn", "Your turn in Decktet Magnate", phrase)
    await store.write_notices([said, told(bea, game_id, 2)])

    about = await store.notice(said.notice_id)
    assert about is not None and about.phrase is not None
    assert json.loads(about.phrase) == json.loads(phrase)  # the same JSON (jsonb orders the keys its own way)
    listed = {n.version: n for n in await store.notices(bea, 10)}
    assert listed[4].phrase == about.phrase and listed[4].game_type == "decktet"
    assert (listed[2].phrase, listed[2].text) == (None, "Your turn")
