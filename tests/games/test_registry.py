"""The game registry is a setting (``MAGNATE_GAMES``): the default is the games offered to players, another registry
(the tests') adds games and says where their bundles are, and the web router and the worker take their games from
it. A setting that names no registry is refused with a message saying why."""

from __future__ import annotations

from pathlib import Path

import pytest
from litestar import Litestar
from litestar.di import Provide
from litestar.testing import TestClient

from domain.games import GAMES as OFFERED
from infra.config import Settings, load
from services.ai_worker import jobs
from services.ai_worker.settings import functions
from services.api.web import web_router
from services.gameplay.registry import DEFAULT, Registry, RegistryError, games_of, registry
from services.language.catalogs import catalogs_for

from .registry import GAMES, SETTING

ADDED = sorted(set(GAMES.games) - set(OFFERED))

BUNDLE_OF_NOTHING = Registry(games={}, bundles={"nothing": Path(__file__).parent})
NOT_GAMES = {"magnate": "not a game module"}


def test_the_default_registry_is_the_games_offered_to_players() -> None:
    assert load({}).games == DEFAULT
    assert registry(DEFAULT).games is OFFERED and not registry(DEFAULT).bundles
    assert games_of(Settings()) is OFFERED


def test_the_setting_names_another_registry() -> None:
    assert load({"MAGNATE_GAMES": SETTING}).games == SETTING
    assert games_of(Settings(games=SETTING)) is GAMES.games
    assert ADDED and set(GAMES.bundles) == set(ADDED)
    assert {name: GAMES.games[name] for name in OFFERED} == dict(OFFERED)


@pytest.mark.parametrize(("spec", "says"), [
    ("domain.games", "is not 'package.module:attribute'"),
    ("domain.no_such_module:GAMES", "cannot load"),
    ("domain.games:NO_SUCH_NAME", "cannot load"),
    (f"{__name__}:NOT_GAMES", "neither a Registry nor a mapping of game modules"),
    (f"{__name__}:BUNDLE_OF_NOTHING", "bundles of games it does not register: ['nothing']"),
])
def test_a_setting_that_names_no_registry_is_refused(spec: str, says: str) -> None:
    with pytest.raises(RegistryError, match=f"MAGNATE_GAMES: .*{says.replace('[', '.').replace(']', '.')}"):
        registry(spec)


def pages_of(served: Registry, spec: str) -> Litestar:
    """An app of nothing but the web router (in English: the words' dependencies as the API provides them)."""
    catalogs = catalogs_for(spec, ("en",), False)
    return Litestar([web_router(served, catalogs)], dependencies={
        "catalogs": Provide(lambda: catalogs, sync_to_thread=False),
        "language": Provide(lambda: "en", sync_to_thread=False)})


def test_the_web_router_serves_each_registered_games_bundle_where_the_registry_says() -> None:
    with TestClient(pages_of(GAMES, SETTING)) as client:
        for name in GAMES.games:
            answer = client.get(f"/static/games/{name}/index.js")
            assert answer.status_code == 200 and "javascript" in answer.headers["content-type"], name
        for name in ADDED:
            served = client.get(f"/static/games/{name}/index.js").content
            assert served == (GAMES.bundles[name] / "index.js").read_bytes()
        assert client.get("/static/shell/bundles.js").status_code == 200
    with TestClient(pages_of(registry(DEFAULT), DEFAULT)) as client:
        assert [client.get(f"/static/games/{name}/index.js").status_code for name in ADDED] == [404] * len(ADDED)
        assert client.get("/static/games/magnate/index.js").status_code == 200


def test_the_worker_runs_the_system_commands_of_the_registered_games() -> None:
    names = {f.name for f in functions(GAMES.games)}
    offered = {f.name for f in functions(OFFERED)}
    added = set(jobs.system_kinds({name: GAMES.games[name] for name in ADDED})) - offered  # the table's are shared
    assert added and added <= names and offered <= names
