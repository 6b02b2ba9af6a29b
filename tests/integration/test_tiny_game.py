"""Dice Race, the tests' tiny game (``tests/games``), served by processes started with the tests' registry
(``MAGNATE_GAMES``) and nothing else changed: played to its end through the live API with the dice thrown by the
arq worker; what every viewer receives from every route and the event stream during play is the game's own
redaction of the log (the oracle: its ``view``, ``redact`` and narrator over the full log, read from the export once
the race is over) and does not change when what the viewer may not know changes (``hide``), and no other seat's
secret number is anywhere in it; ``export`` on the command line writes what the API exports; ``simulate`` plays it
in process, on a process pool and through the service with the same results; ``verify`` passes its export and fails
it when a byte is changed; and the files naming the game are its package, its bundle, the tests' registry and its
tests, so it needed nothing else."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from domain.kernel import PUBLIC, Seat, Viewer, fold
from services.gameplay.registry import DEFAULT, registry
from services.gameplay.story import rendered, renderer
from services.language.catalogs import Catalogs
from services.language.domains import all_domains
from services.simulation import Progress, SimSpec, simulate
from services.supervisor import Services
from tests.conftest import drop_queue
from tests.games.registry import GAMES, SETTING
from tests.live import ROOT

pytestmark = pytest.mark.integration

NAME = "dice_race"
GAME = GAMES.games[NAME]
WORDS = Catalogs(all_domains(GAMES.games, GAMES.bundles), ("en",))
PACKAGE = ROOT / "tests" / "games" / NAME
THE_GAMES_TESTS = ("tests/integration/test_tiny_game.py", "tests/browser/test_tiny_game.py")
ENV = {"MAGNATE_GAMES": SETTING}


@pytest.fixture(scope="module")
def live(pg_dsn: str, redis_url: str) -> Iterator[Services]:
    """The API and one worker, started with the tests' registry (as ``magnate run`` starts them)."""
    queue = f"magnate:test:tiny:{os.getpid()}"
    running = Services.start(pg_dsn, redis_url, queue, workers=1, env=ENV)
    try:
        yield running
    finally:
        running.stop()
        drop_queue(redis_url, queue)


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def as_json(value: Any) -> Any:
    return json.loads(msgspec.json.encode(value))


def first_events_message(client: httpx.Client, game_id: str, headers: dict[str, str]) -> list[Any]:
    """The payloads of the event stream's first ``events`` message (every visible event so far)."""
    with client.stream("GET", f"/api/games/{game_id}/stream?after=0", headers=headers, timeout=10) as response:
        assert response.status_code == 200
        event = None
        for line in response.iter_lines():
            if line.startswith("event:"):
                event = line.removeprefix("event:").strip()
            elif line.startswith("data:") and event == "events":
                return [e["payload"] for e in json.loads(line.removeprefix("data:"))["events"]]
    raise AssertionError("the stream ended before its first events")


def read_every_route(client: httpx.Client, game_id: str, token: str | None, version: int) -> dict[str, Any]:
    """What one viewer (a seat's token, or the public) gets from every route that hands out the game."""
    headers = bearer(token)
    routes = {"game": client.get(f"/api/games/{game_id}"),
              "events": client.get(f"/api/games/{game_id}/events", headers=headers),
              "history": client.get(f"/api/games/{game_id}/history", headers=headers),
              "state": client.get(f"/api/games/{game_id}/state", headers=headers),
              "earlier": client.get(f"/api/games/{game_id}/state", params={"at": max(1, version // 2)},
                                    headers=headers),
              "export": client.get(f"/api/games/{game_id}/export", headers=headers)}
    if token:
        routes["me"] = client.get(f"/api/games/{game_id}/me", headers=headers)
    assert routes["export"].status_code == 403  # a running game with hidden information is exported once over
    read = {name: response.json() for name, response in routes.items()}
    assert all(r.status_code == 200 for name, r in routes.items() if name != "export"), read
    read["stream"] = first_events_message(client, game_id, headers)
    return read


def numbers_in(value: Any) -> Iterator[str]:
    """Every number in a JSON document, and every run of digits standing alone in its strings."""
    if isinstance(value, dict):
        for item in value.values():
            yield from numbers_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from numbers_in(item)
    elif isinstance(value, bool):
        return
    elif isinstance(value, int):
        yield str(value)
    elif isinstance(value, str):
        yield from re.findall(r"(?<![0-9A-Za-z.:+-])[0-9]+(?![0-9A-Za-z])", value)


def play(client: httpx.Client, game_id: str, tokens: dict[int, str]) -> list[tuple[int, Viewer, dict[str, Any]]]:
    """Roll for the seat on turn until the race is over, waiting for the worker's throw after each roll; before each
    roll, every viewer reads every route."""
    seen: list[tuple[int, Viewer, dict[str, Any]]] = []
    for _ in range(200):
        game = client.get(f"/api/games/{game_id}").json()
        if game["status"] == "finished":
            return seen
        if game["system_job"] is not None or not game["on_turn"]:  # the worker's throw is due
            with client.stream("GET", f"/api/games/{game_id}/stream?after={game['version']}", timeout=10) as stream:
                next(line for line in stream.iter_lines() if line.startswith("data:"))
            continue
        viewers: list[tuple[Viewer, str | None]] = [(PUBLIC, None), *((Seat(s), t) for s, t in tokens.items())]
        for viewer, token in viewers:
            seen.append((game["version"], viewer, read_every_route(client, game_id, token, game["version"])))
        seat = game["on_turn"][0]
        body = {"command_id": f"roll-{game['version']}", "expected_version": game["version"],
                "command": {"type": "dice_race.roll"}}
        answer = client.post(f"/api/games/{game_id}/commands", json=body, headers=bearer(tokens[seat]))
        assert answer.status_code == 200, answer.text
    raise AssertionError("the race did not end")


def export_of(client: httpx.Client, game_id: str) -> bytes:
    response = client.get(f"/api/games/{game_id}/export")
    assert response.status_code == 200, response.text
    return response.content


def logged_events(export: bytes) -> list[tuple[int, str, str, Any]]:
    """(version, actor, command id, event) of every event line of an export, in order."""
    commands: dict[int, tuple[str, str]] = {}
    events = []
    for raw in export.splitlines():
        line = json.loads(raw)
        if line["kind"] == "command":
            for version in range(line["first_version"], line["last_version"] + 1):
                commands[version] = (line["actor"], line["command_id"])
        elif line["kind"] == "event":
            event = msgspec.json.decode(json.dumps(line["payload"]), type=GAME.event_type)
            events.append((line["version"], *commands[line["version"]], event))
    return events


def check_against_the_oracle(seen: list[tuple[int, Viewer, dict[str, Any]]], log: list[Any],
                             secrets: tuple[int, ...], names: dict[int, str]) -> None:
    for version, viewer, read in seen:
        state = fold(GAME.evolve, log[:version], GAME.initial_state())
        visible = [(v, GAME.redact(e, viewer, False)) for v, e in enumerate(log[:version], start=1)]
        expected_events = [as_json(shown) for _, shown in visible if shown is not None]
        expected_view = as_json(GAME.view(state, viewer, False))
        assert GAME.hide is not None
        for seed in (1, 2):  # what the viewer may not know changes nothing it is shown
            hidden = GAME.hide(state, viewer, seed)
            assert as_json(GAME.view(hidden, viewer, False)) == expected_view
            assert hidden.secrets != state.secrets
        assert [e["payload"] for e in read["events"]["events"]] == expected_events
        assert read["stream"] == expected_events
        assert read["state"]["view"] == expected_view
        assert read["game"]["view"] == as_json(GAME.view(state, PUBLIC, False))
        earlier = max(1, version // 2)
        assert read["earlier"]["view"] == as_json(GAME.view(fold(GAME.evolve, log[:earlier], GAME.initial_state()),
                                                             viewer, False))
        if "me" in read:
            assert read["me"]["view"] == expected_view and read["me"]["seat"] == viewer
        assert GAME.narrator is not None
        narrator = GAME.narrator(names)
        told = [as_json(t) for t in rendered([t for v, shown in visible if shown is not None
                                              for t in narrator.tell(v, type(shown).__struct_config__.tag, shown)],
                                             renderer(WORDS, NAME, "en", names))]  # no Accept-Language: English
        assert read["history"]["lines"] == told
        others = {str(secret) for seat, secret in enumerate(secrets) if viewer != seat}
        assert others.isdisjoint(numbers_in(read)), f"{viewer} was shown another seat's secret number"
        if isinstance(viewer, int) and len(log[:version]) > len(secrets):
            assert str(secrets[viewer]) in set(numbers_in(read["me"]))  # the seat sees its own


@pytest.mark.parametrize(("kinds", "seed"), [(("human", "human"), "d1ce"), (("human", "ai"), "5eed")])
def test_the_tiny_game_plays_through_the_api_and_the_worker_and_no_route_shows_another_seats_secret(
    live: Services, tmp_path: Path, kinds: tuple[str, ...], seed: str, pg_dsn: str
) -> None:
    with httpx.Client(base_url=live.url, timeout=20) as client:
        catalog = client.get("/api/catalog").json()
        assert NAME in [entry["game"] for entry in catalog]
        created = client.post("/api/games", json={"game": NAME, "options": {"seats": kinds, "goal": 14},
                                                  "names": ["Ada", "Bob"][:kinds.count("human")], "seed": seed})
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        tokens = {s["seat"]: s["token"] for s in created.json()["seats"] if s["token"]}
        names = {s["seat"]: s["name"] for s in created.json()["seats"]}
        seen = play(client, game_id, tokens)
        export = export_of(client, game_id)
        finished = client.get(f"/api/games/{game_id}").json()
    logged = logged_events(export)
    log = [event for _, _, _, event in logged]
    final = fold(GAME.evolve, log, GAME.initial_state())
    assert final.over and final.seed is not None and finished["outcome"]["standings"]
    run_by_the_worker = [(actor, command_id) for _, actor, command_id, event in logged
                         if type(event).__name__ == "Thrown" or (type(event).__name__ == "RollAsked"
                                                                 and kinds[event.seat] == "ai")]
    assert len(run_by_the_worker) >= final.throws
    assert all(actor == "system" and command_id.startswith("system:") for actor, command_id in run_by_the_worker)
    assert len(seen) >= 2 * (1 + len(tokens))  # every viewer, twice at least
    check_against_the_oracle(seen, log, final.secrets, names)

    path = tmp_path / "race.jsonl"
    exported = cli(["export", game_id, "-o", str(path)], {**ENV, "DATABASE_URL": pg_dsn})
    assert exported.returncode == 0, exported.stderr
    assert path.read_bytes() == export  # the command line's export is the API's
    assert verify_file(path, ENV).returncode == 0
    flipped = bytearray(export)
    at = export.index(b'"pips":') + len(b'"pips":')
    flipped[at] = ord("1") if flipped[at] != ord("1") else ord("2")
    path.write_bytes(bytes(flipped))
    done = verify_file(path, ENV)
    assert done.returncode == 1 and "FAILED" in done.stderr
    path.write_bytes(export)
    unknown = verify_file(path, {})  # a production verifier does not know the tests' game
    assert unknown.returncode == 1


def cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``magnate ARGS`` with ``env`` (and no MAGNATE_GAMES unless ``env`` says)."""
    environ = {k: v for k, v in os.environ.items() if k != "MAGNATE_GAMES"} | env
    return subprocess.run([sys.executable, "-m", "services.cli", *args], cwd=ROOT, env=environ, capture_output=True,
                          text=True, timeout=60, check=False)


def verify_file(path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return cli(["verify", str(path)], env)


def test_simulate_plays_the_tiny_game_in_process_on_a_pool_and_through_the_service(
    live: Services, tmp_path: Path
) -> None:
    specs = [SimSpec(games=4, game=NAME, difficulty=level, seed="tiny", registry=SETTING) for level in (None, "plain")]
    quiet = Progress(8, io.StringIO())
    alone = simulate(specs, "inprocess", processes=1, progress=quiet)
    assert [r.winners for r in alone.games] and all(r.rounds >= 1 for r in alone.games)
    assert simulate(specs, "inprocess", processes=2, progress=quiet).games == alone.games
    assert simulate(specs, "service", url=live.url, concurrency=4, progress=quiet).games == alone.games
    out = tmp_path / "sim.json"
    command = [sys.executable, "-m", "services.cli", "simulate", "--game", NAME, "-n", "4", "--difficulty", "all",
               "--seed", "tiny", "--processes", "2", "--no-progress", "-o", str(out)]
    environ = {**os.environ, **ENV}
    done = subprocess.run(command, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert [g["scores"] for g in json.loads(out.read_text())["games"]] == [list(r.scores) for r in alone.games[4:]]
    with pytest.raises(ValueError, match="unknown game 'dice_race'"):
        SimSpec(games=1, game=NAME)  # the games offered to players do not include it


def test_the_games_offered_to_players_do_not_include_it() -> None:
    assert NAME not in registry(DEFAULT).games
    assert set(registry(DEFAULT).games) < set(GAMES.games)


def test_every_file_naming_the_tiny_game_is_its_package_its_bundle_the_tests_registry_or_its_tests() -> None:
    """Adding the game needed its package (the bundle is inside it: ``web/``), one line in the tests' registry and
    its tests: no file of ``domain/``, ``services/``, ``infra/``, the shell or the packaging names it. (Markdown
    is prose about the code, not something the game needs, and is not counted.)"""
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    naming = re.compile(rb"dice[_ -]?race", re.IGNORECASE)
    found = sorted(name for name in tracked.decode().split("\0")
                   if name and not name.endswith(".md") and (ROOT / name).is_file()
                   and naming.search((ROOT / name).read_bytes()))
    package = PACKAGE.relative_to(ROOT).as_posix() + "/"
    allowed = {"tests/games/registry.py", *THE_GAMES_TESTS}
    assert found, "the game's own files are not tracked"
    assert [name for name in found if not name.startswith(package) and name not in allowed] == []
    assert f"{package}web/index.js" in found and "tests/games/registry.py" in found
