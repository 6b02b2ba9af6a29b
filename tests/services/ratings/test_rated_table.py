"""The table option ``rated`` (domain/kernel/table): a rated table needs two seats people play (the computer is left
out of the rating), and the story says the table is rated."""

from __future__ import annotations

import pytest

from domain.games import GAMES
from domain.kernel import SYSTEM, Chance, GameError, commitment_of
from domain.kernel.phrases import plain
from domain.kernel.table import OpenTable, TableOptions
from domain.kernel.table.narrate import options_phrase
from domain.magnate import GameOptions, SeatSpec

GAME = GAMES["magnate"]
SEED = b"rated-table-seed"


def opened(kinds: list[str], table: TableOptions) -> list[object]:
    options = GameOptions(seats=tuple(SeatSpec(kind=k) for k in kinds), difficulty="digital_assistant")
    _, state = GAME.step(GAME.initial_state(), SYSTEM, GAME.start(options, commitment_of(SEED)), Chance(SEED, 1))
    events, _ = GAME.step(state, SYSTEM, OpenTable(options=table), Chance(SEED, 2))
    return list(events)


def test_a_rated_table_needs_two_seats_people_play() -> None:
    assert opened(["human", "human", "ai"], TableOptions(rated=True))
    with pytest.raises(GameError, match="rated game needs at least two seats people play"):
        opened(["human", "ai"], TableOptions(rated=True))
    with pytest.raises(GameError):
        opened(["human", "human"], TableOptions(rated=True, stand_ins=(1,)))
    assert opened(["human", "ai"], TableOptions(stand_ins=()))  # unrated: one person is enough


def test_the_story_says_the_table_is_rated() -> None:
    assert plain(options_phrase(TableOptions(rated=True))).startswith("The rated table is open: ")
    assert plain(options_phrase(TableOptions())).startswith("The table is open: ")
