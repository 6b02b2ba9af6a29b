"""The private notes' contract (:class:`infra.notes.Notes`), run against the REAL PostgreSQL
(:class:`~infra.notes.PostgresNotes`) and the in-memory twin (:class:`~infra.notes.InMemoryNotes`): one note per player
and game, replaced whole, an empty text deletes it, a player's notes are theirs alone, an unknown game is refused, and
forgetting a player deletes only their notes."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from infra.errors import StreamNotFound
from infra.notes import InMemoryNotes, Notes, PostgresNotes

from .store_records import new_id
from .table_world import World, world_of

pytestmark = pytest.mark.integration


@dataclass
class NotesWorld:
    world: World
    notes: Notes


@pytest.fixture(params=["memory", "postgres"])
def side(request: pytest.FixtureRequest) -> NotesWorld:
    world = world_of(request)
    if request.param == "memory":
        return NotesWorld(world, InMemoryNotes(world.known))
    return NotesWorld(world, PostgresNotes(request.getfixturevalue("pg_pool")))


async def test_a_note_is_kept_replaced_whole_and_deleted_by_an_empty_text(side: NotesWorld) -> None:
    player = await side.world.player(f"ada-{new_id()}@example.org")
    game = await side.world.game()
    assert await side.notes.get(player, game) is None
    text = "Bob hoards coal.\nWatch the auction."
    first = await side.notes.put(player, game, 1, text)
    assert first is not None and (first.game_id, first.seat, first.text) == (game, 1, text)
    assert first.updated_at.endswith("Z")
    second = await side.notes.put(player, game, 1, "Bid 300 on plot 4")
    assert await side.notes.get(player, game) == second
    assert second is not None and second.text == "Bid 300 on plot 4"
    assert await side.notes.put(player, game, 1, "") is None
    assert await side.notes.get(player, game) is None


async def test_notes_are_each_players_own(side: NotesWorld) -> None:
    ada, bob = (await side.world.player(f"ada-{new_id()}@example.org"),
                await side.world.player(f"bob-{new_id()}@example.org"))
    game, other = await side.world.game(), await side.world.game()
    await side.notes.put(ada, game, 0, "Ada's secret plan")
    await side.notes.put(ada, other, 1, "another table")
    await side.notes.put(bob, game, 1, "Bob's")
    assert await side.notes.get(bob, other) is None
    assert [(n.game_id, n.text) for n in await side.notes.of_player(ada)] == sorted(
        [(game, "Ada's secret plan"), (other, "another table")])
    assert await side.notes.forget_player(ada) == 2
    assert await side.notes.of_player(ada) == []
    bobs = await side.notes.get(bob, game)
    assert bobs is not None and bobs.text == "Bob's"


async def test_a_note_on_an_unknown_game_is_refused(side: NotesWorld) -> None:
    player = await side.world.player(f"cyd-{new_id()}@example.org")
    with pytest.raises(StreamNotFound):
        await side.notes.put(player, f"nope-{new_id()}", 0, "text")
