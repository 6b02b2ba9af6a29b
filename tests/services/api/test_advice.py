"""A seat's advice (``GET /api/games/{id}/advice``): the engine's ranked options for the seat's current state, the
seat authenticated as for ``/me``; computed once per (game, version, seat) whoever asks and however many at once,
off the event loop; nothing recorded; the same advice for two games that differ only in what the seat may not see.

A game whose engine gives no advice yet gets a stand-in here, decided on the seat's view only (its commands legal,
its ranking drawn from the view): what is tested is the route and the service around ``GameModule.advise``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import msgspec
import pytest

from domain.games import GAMES
from domain.kernel import GameModule, Seat
from domain.kernel.advice import Advice, AdviceOption, Reason, ranked, view_seed
from domain.kernel.phrases import Phrase, plain, say
from domain.kernel.phrases import seat as seat_ref
from services.gameplay import Loaded
from services.gameplay.bootstrap import Runtime

from .table import Game, Table, bearer


def as_json(value: Any) -> Any:
    return json.loads(msgspec.json.encode(value))


def stand_in(module: GameModule[Any]) -> Callable[[Any, Seat], Advice]:
    """An engine that decides on the seat's view alone: the seat's legal commands, ranked by a draw from its view."""

    def advise(state: Any, seat: Seat) -> Advice:
        seed = view_seed(module.view(state, seat, False))
        legal = module.legal_commands(state, seat)
        return ranked([AdviceOption(t.command, Reason("test.draw", {"draw": (seed >> i) % 97, "kind": i}),
                                    (seed >> i) % 97) for i, t in enumerate(legal)])

    return advise


class Counted:
    """An engine that counts its decisions and takes ``slow_s`` over each, in whatever thread runs it."""

    def __init__(self, advise: Callable[[Any, Seat], Advice], slow_s: float = 0.0) -> None:
        self.inner = advise
        self.slow_s = slow_s
        self.calls = 0
        self.threads: set[int] = set()

    def __call__(self, state: Any, seat: Seat) -> Advice:
        self.calls += 1
        self.threads.add(threading.get_ident())
        time.sleep(self.slow_s)
        return self.inner(state, seat)


def advising(runtime: Runtime, name: str, engine: Callable[[Any, Seat], Advice] | None = None) -> GameModule[Any]:
    """The runtime's ``name`` given ``engine`` (by default its own advice, or the stand-in where it has none)."""
    module = runtime.gameplay.games[name]
    chosen = engine or module.advise or stand_in(module)
    words = module.advice_text or (lambda reason: f"{reason.key} {sorted(reason.args.items())}")
    runtime.gameplay.games[name] = dataclasses.replace(module, advise=chosen, advice_text=words)
    return runtime.gameplay.games[name]


async def ask(client: httpx.AsyncClient, game: Game, seat: int) -> httpx.Response:
    return await client.get(f"/api/games/{game.id}/advice", headers=bearer(game.tokens[seat]))


async def test_the_seat_on_turn_gets_ranked_legal_options_with_reasons_and_playing_the_first_works(
    client: httpx.AsyncClient, table: Table, runtime: Runtime
) -> None:
    module = advising(runtime, "magnate")
    assert module.advice_text is not None
    game = await table.create(seed="5eed")
    seat = await table.seat_on_turn(game)
    me = await table.me(game, seat)
    response = await ask(client, game, seat)
    assert response.status_code == 200, response.text
    advice = response.json()
    assert advice["seat"] == seat and advice["version"] == me["version"]
    assert advice["options"], advice
    scores = [o["score"] for o in advice["options"]]
    assert scores == sorted(scores, reverse=True)
    for option in advice["options"]:
        why = option["why"]
        assert set(why) == {"key", "args", "text", "phrase"}
        if why["phrase"] is None:  # a game that gives no phrase speaks English
            assert why["text"] == module.advice_text(Reason(why["key"], why["args"]))
        else:  # no Accept-Language: the phrase in English
            assert why["text"] == plain(msgspec.json.decode(json.dumps(why["phrase"]), type=Phrase))
        assert isinstance(option["command"], dict) and "type" in option["command"]
    played = await table.submit(game, seat, advice["options"][0]["command"], expected_version=advice["version"])
    assert played.status_code == 200, played.text


async def test_a_reason_given_as_a_phrase_is_told_in_the_readers_language(
    client: httpx.AsyncClient, table: Table, runtime: Runtime
) -> None:
    module = runtime.gameplay.games["magnate"]

    def engine(state: Any, seat: Seat) -> Advice:
        why = Reason("test.claim", {"seat": 1}, say("{seat} claimed seat {number}.", seat=seat_ref(1), number=2))
        return ranked([AdviceOption(t.command, why, 1) for t in module.legal_commands(state, seat)])

    advising(runtime, "magnate", engine)
    game = await table.create(seed="5eed")
    seat = await table.seat_on_turn(game)
    said = {}
    for language in ("en", "ru", "de"):
        response = await client.get(f"/api/games/{game.id}/advice",
                                    headers={**bearer(game.tokens[seat]), "Accept-Language": language})
        assert response.status_code == 200, response.text
        said[language] = {option["why"]["text"] for option in response.json()["options"]}
    assert said == {"en": {"Player 2 claimed seat 2."}, "ru": {"Игрок 2 занимает место 2."},
                    "de": {"Spieler 2 übernimmt Platz 2."}}


async def test_a_seat_with_nothing_to_decide_is_advised_nothing(
    client: httpx.AsyncClient, table: Table, runtime: Runtime
) -> None:
    engine = Counted(stand_in(runtime.gameplay.games["magnate"]))
    advising(runtime, "magnate", engine)
    game = await table.create(seed="5eed")
    seat = await table.seat_on_turn(game)
    other = next(s for s in game.tokens if s != seat)
    response = await ask(client, game, other)
    assert response.status_code == 200, response.text
    assert response.json()["options"] == [] and engine.calls == 0


async def test_the_seat_is_authenticated_as_for_its_view(client: httpx.AsyncClient, table: Table) -> None:
    game = await table.create(seed="5eed")
    elsewhere = await table.create(seed="5eed")
    for headers in ({}, bearer("not-a-token"), bearer(elsewhere.tokens[0]), {"Authorization": "Basic x"}):
        me = await client.get(f"/api/games/{game.id}/me", headers=headers)
        advice = await client.get(f"/api/games/{game.id}/advice", headers=headers)
        assert me.status_code >= 400 and (advice.status_code, advice.json()["code"]) == (me.status_code,
                                                                                          me.json()["code"])
    unknown = await client.get("/api/games/no-such-game/advice", headers=bearer(game.tokens[0]))
    assert unknown.status_code == 404 and unknown.json()["code"] == "game/not_found"


async def test_asking_records_nothing(client: httpx.AsyncClient, table: Table, runtime: Runtime) -> None:
    advising(runtime, "magnate")
    game = await table.create(seed="5eed")
    seat = await table.seat_on_turn(game)
    before = await runtime.gameplay.store.read(game.id)
    jobs = len(await table.log(game))
    for _ in range(3):
        assert (await ask(client, game, seat)).status_code == 200
    after = await runtime.gameplay.store.read(game.id)
    assert after == before and len(await table.log(game)) == jobs  # the same events, the same hash chain
    assert (await table.read(game))["version"] == before[-1].version


async def test_one_decision_per_version_and_seat_however_many_pages_ask_at_once(
    client: httpx.AsyncClient, table: Table, runtime: Runtime
) -> None:
    engine = Counted(stand_in(runtime.gameplay.games["magnate"]), slow_s=0.2)
    advising(runtime, "magnate", engine)
    game = await table.create(seed="5eed")
    seat = await table.seat_on_turn(game)
    answers = await asyncio.gather(*(ask(client, game, seat) for _ in range(20)))
    assert {a.status_code for a in answers} == {200}
    assert len({a.content for a in answers}) == 1 and engine.calls == 1
    assert (await ask(client, game, seat)).content == answers[0].content and engine.calls == 1  # kept
    assert runtime.advice.computed == 1
    first = answers[0].json()["options"][0]["command"]
    assert (await table.submit(game, seat, first, expected_version=answers[0].json()["version"])).status_code == 200
    seat = await table.seat_on_turn(game)
    assert (await ask(client, game, seat)).status_code == 200 and engine.calls == 2  # a new version, a new decision


async def test_a_slow_engine_runs_off_the_event_loop(client: httpx.AsyncClient, table: Table, runtime: Runtime) -> None:
    engine = Counted(stand_in(runtime.gameplay.games["magnate"]), slow_s=0.6)
    advising(runtime, "magnate", engine)
    game = await table.create(seed="5eed")
    seat = await table.seat_on_turn(game)
    asking = asyncio.ensure_future(ask(client, game, seat))
    while engine.calls == 0:
        await asyncio.sleep(0.01)
    started = time.perf_counter()
    assert (await client.get(f"/api/games/{game.id}")).status_code == 200
    assert time.perf_counter() - started < 0.3  # answered while the engine thinks
    assert not asking.done() and (await asking).status_code == 200
    assert threading.get_ident() not in engine.threads


def creation(name: str) -> dict[str, Any]:
    module = GAMES[name]
    assert module.sim_options is not None
    return {"game": name, "options": as_json(module.sim_options(("human", "human"), None, frozenset()))}


async def created(table: Table, body: dict[str, Any]) -> Game:
    response = await table.client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    game = response.json()
    return Game(game["game_id"], {s["seat"]: s["token"] for s in game["seats"] if s["token"]}, game)


def leaky(module: GameModule[Any]) -> Callable[[Any, Seat], Advice]:
    """The stand-in reading the whole state, what the seat may not see included: what the attack must catch."""

    def advise(state: Any, seat: Seat) -> Advice:
        seed = int.from_bytes(hashlib.sha256(msgspec.json.encode(state)).digest()[:8], "big")
        return ranked([AdviceOption(t.command, Reason("test.leak", {}), (seed >> i) % 97)
                       for i, t in enumerate(module.legal_commands(state, seat))])

    return advise


@pytest.mark.parametrize("name", sorted(GAMES))
async def test_two_games_that_differ_only_in_what_the_seat_may_not_see_get_the_same_advice(
    name: str, table: Table, runtime: Runtime
) -> None:
    """Game B is game A with everything the seat may not know changed (the game's own ``hide``): the attack a
    leaky engine fails, reading another seat's hand or the deck's order into its advice."""
    assert await same_advice_when_hidden_things_change(name, table, runtime, advising(runtime, name))


async def test_the_attack_catches_an_engine_that_reads_what_the_seat_may_not_see(
    table: Table, runtime: Runtime
) -> None:
    module = runtime.gameplay.games["magnate"]
    assert not await same_advice_when_hidden_things_change("magnate", table, runtime,
                                                           advising(runtime, "magnate", leaky(module)))


async def same_advice_when_hidden_things_change(name: str, table: Table, runtime: Runtime,
                                                module: GameModule[Any]) -> bool:
    assert module.hide is not None
    body = creation(name) | {"seed": "0a2b"}
    game = await created(table, body)
    bots = {seat: module.bots["random"](seat) for seat in game.tokens}
    for move in range(12):  # into the game, where hands and decks are hidden
        seat = await table.seat_on_turn(game)
        loaded = await runtime.gameplay.load(game.id)
        command = as_json(bots[seat](loaded.state, Seat(seat)))
        assert (await table.submit(game, seat, command, expected_version=loaded.version)).status_code == 200, move
    seat = await table.seat_on_turn(game)
    loaded = await runtime.gameplay.load(game.id)
    mine = (await ask(table.client, game, seat)).json()
    assert mine["options"]
    for hidden in (1, 2):
        twin = await created(table, body | {"seed": f"{hidden:02x}0b"})
        twin_version = (await table.read(twin))["version"]
        varied = module.hide(loaded.state, Seat(seat), hidden)
        runtime.gameplay.loader.cache.remember(twin.id, Loaded(loaded.game_type, twin_version, varied))
        theirs = (await ask(table.client, Game(twin.id, {seat: twin.tokens[seat]}, twin.created), seat)).json()
        if theirs["options"] != mine["options"]:
            return False
    return True
