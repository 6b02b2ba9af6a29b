"""Hidden information over a whole game: seat 0's token never shows seat 1's cash, anywhere; the auditor
view opens only when the game is over, and then the export replays and verifies."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec

from domain.games import GAMES
from services.gameplay.audit import verify

from .sse import EventStream
from .table import Table, bearer

SECRETS = ("cash", "advertising")


def seat_entries(document: Any, seat: int) -> Iterator[dict[str, Any]]:
    """Every JSON object about ``seat`` that carries one of its secrets, however deep."""
    if isinstance(document, dict):
        if document.get("seat") == seat and any(key in document for key in SECRETS):
            yield document
        for value in document.values():
            yield from seat_entries(value, seat)
    elif isinstance(document, list):
        for value in document:
            yield from seat_entries(value, seat)


class Watcher:
    """Collects what seat 0 is shown and checks that seat 1's secrets are always null."""

    def __init__(self) -> None:
        self.entries = 0
        self.responses = 0

    def check(self, where: str, document: Any) -> None:
        self.responses += 1
        for entry in seat_entries(document, 1):
            self.entries += 1
            assert all(entry.get(key) is None for key in SECRETS), f"{where} shows seat 1's secrets: {entry}"


async def test_seat_0_never_sees_seat_1s_cash_and_the_audit_opens_at_the_end(
    client: httpx.AsyncClient, table: Table, live_url: str
) -> None:
    game = await table.create(seed="5eed")
    mine = bearer(game.tokens[0])
    watcher = Watcher()
    rng = random.Random(0)
    async with httpx.AsyncClient(base_url=live_url, timeout=10) as http, http.stream(
        "GET", f"/api/games/{game.id}/stream", params={"after": 0, "token": game.tokens[0]}
    ) as streamed_response:
        stream = EventStream(streamed_response)
        while (state := await table.run_system_jobs(game))["status"] == "running":
            version = state["version"]
            watcher.check("the public view", state)
            for path, params in [
                ("/me", {}),
                ("/events", {"after": rng.randrange(version)}),
                ("/state", {"at": rng.randrange(game.created["version"], version + 1)}),
                ("/state", {}),
            ]:
                response = await client.get(f"/api/games/{game.id}{path}", params=params, headers=mine)
                assert response.status_code == 200, response.text
                watcher.check(path, response.json())
            export = await client.get(f"/api/games/{game.id}/export", headers=mine)
            for line in export.content.splitlines():
                watcher.check("the export", msgspec.json.decode(line))
            audit = await client.get(f"/api/games/{game.id}/state", params={"viewer": "auditor"}, headers=mine)
            assert audit.status_code == 403 and audit.json()["code"] == "view/unavailable"
            played = await table.play_suggested(game)
            if state["on_turn"] == [0]:
                watcher.check("a command's result", played)
        final = state["version"]
        messages = await stream.until_version(final)
    # Final cash is public once the game is over (GameEnded); everything before must have hidden it.
    running = [m for m in messages if int(m.id or 0) < final]
    for message in running:
        watcher.check("the event stream", message.json())
    streamed = [e for m in messages for e in m.json()["events"]]
    assert [e["version"] for e in streamed] == list(range(1, final + 1))
    assert watcher.entries > 100, "the check never met seat 1's entry (is the walker broken?)"

    audit = await client.get(f"/api/games/{game.id}/state", params={"viewer": "auditor"})
    assert audit.status_code == 200, audit.text
    assert all(isinstance(s["cash"], int) for s in audit.json()["view"]["seats"])
    lines = (await client.get(f"/api/games/{game.id}/export")).content.splitlines()
    assert msgspec.json.decode(lines[0])["seed"] == "5eed"
    verdict = verify(lines, GAMES)
    assert verdict.ok, verdict.problems
    assert verdict.replayed == verdict.commands
