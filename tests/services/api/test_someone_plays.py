"""A game needs at least one seat a person plays (issue #24, item 10): on a production server an anonymous client
cannot have the computer play every seat (worker CPU spent for nobody) — ``422 table/nobody_plays`` for every
game's options shape (Magnate, Decktet, Master of Economy), and for seats the computer takes over from the start
(``table.stand_ins``). A sandbox server (simulations, benchmarks) and the in-process service keep all-computer
games possible."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec
import pytest

from domain.decktet.variant import GameOptions, SeatSpec
from infra.config import Settings
from services.api import create_app
from services.gameplay.bootstrap import Runtime

from .table import asgi_client

AI = {"kind": "ai"}
ALL_COMPUTER: list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any] | None]] = [
    # (game, options the computer plays alone, the same with a person, the table)
    # Magnate's rules seat one computer at most: every other seat is a person's, unless a stand-in takes it over
    ("magnate", {"seats": [{}, AI], "difficulty": "digital_assistant"},
     {"seats": [{}, {}, AI], "difficulty": "digital_assistant"}, {"stand_ins": [0]}),
    ("decktet", {"seats": [AI, AI]}, {"seats": [{}, AI]}, None),
    ("master_of_economy", {"players": 2, "seats": [AI, AI]}, {"players": 2, "seats": [AI, {}]}, None),
]


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """A production server (no sandbox)."""
    return msgspec.structs.replace(settings, sandbox=False)


@pytest.mark.parametrize(("game", "options", "one_person", "table"), ALL_COMPUTER,
                         ids=[g for g, *_ in ALL_COMPUTER])
async def test_a_game_the_computer_plays_alone_is_refused(client: httpx.AsyncClient, game: str,
                                                          options: dict[str, Any], one_person: dict[str, Any],
                                                          table: dict[str, Any] | None) -> None:
    refused = await client.post("/api/games", json={"game": game, "options": options, "table": table})
    assert refused.status_code == 422, refused.text
    assert refused.json()["code"] == "table/nobody_plays"
    made = await client.post("/api/games", json={"game": game, "options": one_person, "table": table})
    assert made.status_code == 201, made.text


async def test_a_person_may_leave_every_other_seat_to_stand_ins(client: httpx.AsyncClient) -> None:
    tutorial = await client.post("/api/games", json={"game": "magnate", "options": {"seats": [{}, {}, {}]},
                                                      "table": {"stand_ins": [1, 2]}})
    assert tutorial.status_code == 201, tutorial.text


async def test_a_sandbox_and_the_service_itself_still_make_computer_only_games(
        client: httpx.AsyncClient, runtime: Runtime, settings: Settings) -> None:
    created = await runtime.gameplay.create_game(
        "decktet", GameOptions(seats=(SeatSpec(kind="ai"), SeatSpec(kind="ai"))))
    assert [s.kind for s in created.seats] == ["ai", "ai"]
    sandbox = msgspec.structs.replace(settings, sandbox=True)
    async with asgi_client(create_app(sandbox, runtime)) as lab:
        made = await lab.post("/api/games", json={"game": "decktet", "options": {"seats": [AI, AI]}})
        assert made.status_code == 201, made.text
