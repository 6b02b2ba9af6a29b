"""The history over the API in the reader's language (``GET /api/games/{id}/history``): each line's text in the
request's language, where it names each seat, and its phrase in no language; the same story read in turn in
English, Russian and German, a seat named by its player's name or "Player 2" in that language."""

from __future__ import annotations

import dataclasses
from typing import Any

import httpx
import msgspec

from domain.kernel import SeatInfo
from domain.kernel.phrases import say
from services.gameplay.bootstrap import Runtime

from .table import Table, game_body

OPENED = {"en": "The table is open: 1 hour per move; on a timeout the computer takes the seat over.",
          "ru": "Стол открыт: 1 час на ход; если время выйдет, место занимает компьютер.",
          "de": "Der Tisch ist eröffnet: 1 Stunde pro Zug; bei Zeitüberschreitung gilt: der Computer übernimmt den "
                "Platz."}
UNNAMED = {"en": "Player 2", "ru": "Игрок 2", "de": "Spieler 2"}


async def history(client: httpx.AsyncClient, game_id: str, language: str, after: int = 0) -> dict[str, Any]:
    response = await client.get(f"/api/games/{game_id}/history", params={"after": after},
                                headers={"Accept-Language": language})
    assert response.status_code == 200, response.text
    return dict(response.json())


async def test_the_history_reads_in_the_requests_language_with_its_phrase(client: httpx.AsyncClient,
                                                                           table: Table) -> None:
    body = game_body([{"kind": "human", "name": "Ada"}, {"kind": "human"}], game="decktet", seed="5eed")
    body["table"] = {"clock": {"kind": "per_move", "seconds": 3600}}
    created = await client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    told = {language: await history(client, game_id, language) for language in ("ru", "en", "de")}
    for language, story in told.items():
        lines = story["lines"]
        opened = next(line for line in lines if line["event"] == "table.opened")
        assert opened["text"] == OPENED[language]
        assert opened["phrase"]["key"] == "The table is open: {clock}; on a timeout {policy}."
        named = [(line["text"], seat) for line in lines for seat in line["seats"]]
        assert named, language
        for text, seat in named:  # UTF-16 offsets; these names are in the Basic Multilingual Plane
            assert text[seat["start"]:seat["end"]] == ("Ada" if seat["seat"] == 0 else UNNAMED[language])
        assert [line["phrase"] for line in lines] == [line["phrase"] for line in told["en"]["lines"]]
        assert story["version"] == told["en"]["version"]
    again = await history(client, game_id, "ru", after=told["ru"]["version"])
    assert again["lines"] == []


async def test_a_seat_still_called_by_its_label_is_named_by_the_labels_phrase(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    module = runtime.gameplay.games["decktet"]

    def seats(state: Any) -> tuple[SeatInfo, ...]:  # the computer's label in no language (here a kernel phrase)
        return tuple(msgspec.structs.replace(info, phrase=say("Player {number}", number=7)) if info.kind == "ai"
                     else info for info in module.seats(state))

    runtime.gameplay.games["decktet"] = dataclasses.replace(module, seats=seats)
    body = game_body([{"kind": "human", "name": "Ada"}, {"kind": "ai", "level": "easy"}], game="decktet", seed="5eed")
    created = await client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    for language, computer in (("ru", "Игрок 7"), ("de", "Spieler 7"), ("en", "Player 7")):
        lines = (await history(client, game_id, language))["lines"]
        named = {line["text"][s["start"]:s["end"]] for line in lines for s in line["seats"] if s["seat"] == 1}
        assert named == {computer}, (language, named)
