"""Redaction, for every registered game and every route that hands out a game: nothing a viewer receives holds
what the game's rules hide from it.

Random games of each game in ``domain.games.GAMES`` are played through the API (random bots in the human seats,
the worker's part done inline). At checkpoints, each viewer (every human seat with its token, and the public)
reads every route — the game, ``/me``, ``/events``, ``/history``, ``/state`` now and at an earlier version,
``/export`` and every message of the page's event stream (events, history lines, the game, the seat's view and
legal commands) — and each answer must be exactly what the game's own redaction gives that viewer (``view`` and
``redact``, the oracle, applied here to the full log read from the store), and must not change when everything the
viewer may not know is changed (``hide``): so no route hands out more than the game's redaction, and the game's
redaction hands out nothing of what it hides.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games import GAMES
from domain.kernel import PUBLIC, GameModule, Seat, Viewer
from services.gameplay.story import rendered, renderer
from services.language.catalogs import Catalogs
from services.language.domains import all_domains

from .sse import EventStream
from .table import Game, Table, bearer

CHECKPOINTS = 4
MOVES_BETWEEN = 25


def as_json(value: Any) -> Any:
    return json.loads(msgspec.json.encode(value))


async def viewers_of(table: Table, game: Game) -> list[tuple[Viewer, dict[str, str]]]:
    return [(PUBLIC, {})] + [(Seat(seat), bearer(token)) for seat, token in sorted(game.tokens.items())]


async def play(table: Table, module: GameModule[Any], game: Game, moves: int, seed: int,
               answered: Callable[[Seat, str], None] | None = None) -> None:
    """``moves`` moves of random bots in the human seats, the system jobs run as the worker would; ``answered`` is
    told each answer a seat's command got."""
    bots = {seat: module.bots["random"](seed + seat) for seat in game.tokens}
    for _ in range(moves):
        state = await table.run_system_jobs(game)
        if state["status"] == "finished":
            return
        seat = state["on_turn"][0]
        loaded = await table.runtime.gameplay.load(game.id)
        command = bots[seat](loaded.state, Seat(seat))
        response = await table.submit(game, seat, as_json(command), expected_version=state["version"])
        assert response.status_code == 200, response.text
        if answered is not None:
            answered(Seat(seat), response.text)

ENGLISH_WORDS = Catalogs(all_domains(GAMES, {}), ("en",))


async def check_every_route(table: Table, module: GameModule[Any], game: Game, live_url: str) -> None:
    gameplay = table.runtime.gameplay
    loaded = await gameplay.load(game.id)
    codec = gameplay.codecs[loaded.game_type]
    log = await gameplay.store.read(game.id)
    over = module.pending(loaded.state).finished
    client = table.client
    for viewer, headers in await viewers_of(table, game):
        # the oracle: the game's own redaction of the full log and state for this viewer
        visible = [(e, module.redact(codec.decode_event(e.payload), viewer, over)) for e in log]
        expected_events = [as_json(shown) for _, shown in visible if shown is not None]
        expected_view = as_json(module.view(loaded.state, viewer, False))
        if module.hide is not None:  # what the viewer may not know changes nothing it is shown
            for seed in (1, 2):
                assert as_json(module.view(module.hide(loaded.state, viewer, seed), viewer, False)) == expected_view

        events = (await client.get(f"/api/games/{game.id}/events", headers=headers)).json()["events"]
        assert [e["payload"] for e in events] == expected_events
        state = (await client.get(f"/api/games/{game.id}/state", headers=headers)).json()
        assert state["view"] == expected_view
        if isinstance(viewer, int):
            me = (await client.get(f"/api/games/{game.id}/me", headers=headers)).json()
            assert me["view"] == expected_view
        else:
            assert (await client.get(f"/api/games/{game.id}")).json()["view"] == expected_view
        earlier = max(1, loaded.version // 2)
        at = (await client.get(f"/api/games/{game.id}/state", params={"at": earlier}, headers=headers)).json()
        past = await gameplay.queries.state_at(game.id, earlier)
        assert at["view"] == as_json(module.view(past.state, viewer, False))
        if module.narrator is not None:
            names = {s.seat: s.name for s in await gameplay.store.seats(game.id)}
            narrator = module.narrator(names)
            english = renderer(ENGLISH_WORDS, loaded.game_type, "en", names)  # no Accept-Language: English
            told = [as_json(t) for t in rendered([t for e, shown in visible if shown is not None
                                                  for t in narrator.tell(e.version, e.type, shown)], english)]
            history = (await client.get(f"/api/games/{game.id}/history", headers=headers)).json()
            assert history["lines"] == told
        export = await client.get(f"/api/games/{game.id}/export", headers=headers)
        if module.events_public or over:
            exported = [json.loads(line) for line in export.text.splitlines()]
            assert [line["payload"] for line in exported if line["kind"] == "event"] == expected_events
            assert exported[0].get("seed") is None or over  # the seed only once the game is over
        else:
            assert export.status_code == 403  # a running game's hidden information is in its commands
        await check_page_stream(table, module, game, live_url, viewer, headers,
                                expected_events, told if module.narrator is not None else None)


async def check_page_stream(table: Table, module: GameModule[Any], game: Game, live_url: str, viewer: Viewer,
                            headers: dict[str, str], expected_events: list[Any], told: list[Any] | None) -> None:
    """The page's one stream: every message of the version it catches up to is the viewer's own redaction."""
    loaded = await table.runtime.gameplay.load(game.id)
    async with httpx.AsyncClient(base_url=live_url, timeout=10, headers=headers) as http, http.stream(
        "GET", f"/api/games/{game.id}/stream?after=0"
    ) as response:
        stream = EventStream(response)
        sent: dict[str, dict[str, Any]] = {}
        while "events" not in sent:
            message = await stream.message()
            if message.event is not None:
                sent[message.event] = message.json()
    assert [e["payload"] for e in sent["events"]["events"]] == expected_events
    assert sent["state"]["game"]["view"] == as_json(module.view(loaded.state, PUBLIC, False))
    if isinstance(viewer, int):
        assert sent["state"]["me"]["view"] == as_json(module.view(loaded.state, viewer, False))
        assert sent["state"]["me"]["seat"] == viewer
        assert sent["state"]["me"]["legal"] == as_json(module.legal_commands(loaded.state, viewer))
    else:
        assert sent["state"]["me"] is None
    if told is not None:
        assert sent["history"]["lines"] == told


TABLES = [(name, kinds) for name in sorted(GAMES)
          for kinds in [("human", "human", "human"), *([("human", "human", "ai")] if GAMES[name].ai_levels else [])]]
"""Every game with three people, and with two people and its computer player (whose hand is hidden too)."""


@pytest.mark.parametrize(("name", "kinds"), TABLES, ids=[f"{n}-{'-'.join(k)}" for n, k in TABLES])
@given(seed=st.integers(min_value=0, max_value=2**20))
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
async def test_no_route_hands_a_viewer_more_than_its_redaction(
    name: str, kinds: tuple[str, ...], seed: int, table: Table, live_url: str
) -> None:
    module = GAMES[name]
    assert module.sim_options is not None
    options = module.sim_options(kinds, module.ai_levels[0] if "ai" in kinds else None, frozenset())
    response = await table.client.post("/api/games", json={"game": name, "options": as_json(options),
                                                           "seed": f"{seed:08x}"})
    assert response.status_code == 201, response.text
    created = response.json()
    game = Game(created["game_id"], {s["seat"]: s["token"] for s in created["seats"] if s["token"]}, created)
    for checkpoint in range(CHECKPOINTS):
        await play(table, module, game, MOVES_BETWEEN, seed + checkpoint)
        await check_every_route(table, module, game, live_url)
