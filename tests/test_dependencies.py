"""The dependency rule (STYLE §A, §E, K3; docs/ARCHITECTURE.md "How to add a game"), enforced mechanically by
reading every import of ``domain/``, ``services/``, ``infra/`` and ``bench/``.

* ``domain/`` imports only the standard library, msgspec and itself;
* ``domain/kernel`` imports only itself from ``domain``: never a game, never the registry;
* a game (a package ``domain/<game>/`` other than the kernel) imports from ``domain`` only the kernel and
  itself: never another game, never the registry;
* ``domain/games.py`` (the registry) is the only module that imports the games;
* ``services/``, ``infra/`` and ``bench/`` import from ``domain`` only ``domain.kernel…`` and ``domain.games``,
  never a game: they know games only through the registry and the contract (:class:`domain.kernel.GameModule`);
* nothing in ``domain/`` draws from ``random`` except the test bots in ``domain/magnate/bots.py``
  (every rule draws from the seeded, auditable ``Chance``);
* nothing in ``domain/`` touches ``secrets``, the clock (``time``, ``datetime``), ``uuid`` or ``os``.

Imports inside functions and ``if TYPE_CHECKING:`` blocks count too. Nothing is exempt: a broken rule is
reported as ``file:line: import module (reason)``, one line per import.

Also here: every game in the registry fills the contract the services rely on.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.games import GAMES
from domain.kernel import GameModule

ROOT = Path(__file__).resolve().parent.parent
DOMAIN = ROOT / "domain"
KERNEL = "kernel"
UNSERVED: set[str] = set()
"""Game packages whose rules are built but which the server does not offer yet; each leaves this set when it is
registered."""
REGISTRY = "domain/games.py"
OUTSIDE = ("services", "infra", "bench")
"""The code that runs games without being one: it reaches them through the registry only."""

THIRD_PARTY_ALLOWED = {"msgspec"}
FORBIDDEN_EVERYWHERE = {"secrets", "time", "datetime", "uuid", "os"}
RANDOM_ALLOWED_IN = {"domain/magnate/bots.py"}


def game_packages() -> tuple[str, ...]:
    """The games: every package directly under ``domain/`` but the kernel."""
    return tuple(sorted(p.parent.name for p in DOMAIN.glob("*/__init__.py") if p.parent.name != KERNEL))


def _is_module(dotted: str) -> bool:
    """Whether a dotted name is a module or package of ours (a file under ``ROOT``)."""
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imported_modules(path: Path, source: str) -> list[tuple[int, str]]:
    """(line, absolute dotted module) for every import in a file under ``ROOT``; relative imports are
    resolved against the file's package. ``from package import name`` counts as importing ``package.name``
    when that is one of our modules (``from domain import magnate`` imports the game as surely as ``import
    domain.magnate``), and always from ``domain`` itself, whose ``__init__`` holds nothing but its modules."""
    package = list(path.relative_to(ROOT).parent.parts)  # a module's package, or an __init__'s own
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source, filename=str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                assert node.module is not None
                base = node.module
            else:
                parts = package[: len(package) - (node.level - 1)]
                base = ".".join([*parts, node.module] if node.module else parts)
            modules = [f"{base}.{a.name}" if base == "domain" or _is_module(f"{base}.{a.name}") else base
                       for a in node.names]
            found.extend((node.lineno, module) for module in dict.fromkeys(modules))
    return found


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _domain_import(where: str, module: str, games: tuple[str, ...]) -> str | None:
    """Why importing ``module`` (under ``domain``) from the file ``where`` breaks the rule, or None."""
    target = module.split(".")[1] if "." in module else ""
    kernel, registry = _within(module, "domain.kernel"), _within(module, "domain.games")
    place = where.split("/")
    if place[0] in OUTSIDE:
        if kernel or registry:
            return None
        return f"{place[0]}/ may import from domain only domain.kernel and the registry, domain.games"
    if place[0] != "domain":
        return None
    if len(place) == 2:  # a module directly in domain/: the registry, the package's __init__
        if target in games and where != REGISTRY:
            return f"only {REGISTRY} imports the games"
        return None
    if place[1] == KERNEL:
        if kernel:
            return None
        if target in games:
            return "the kernel must not import a game"
        return "the kernel imports from domain only itself"
    if place[1] in games:
        if kernel or target == place[1]:
            return None
        if target in games:
            return f"a game must not import another game (domain.{target})"
        return "a game imports from domain only the kernel and itself"
    return None


def violations(path: Path, source: str, games: tuple[str, ...] | None = None) -> list[str]:
    """Every broken rule in one file of ``domain/`` or of the code outside it, as ``file:line: reason``."""
    games = game_packages() if games is None else games
    where = path.relative_to(ROOT).as_posix()
    in_domain = where.startswith("domain/")
    out: list[str] = []
    for line, module in imported_modules(path, source):
        top = module.split(".")[0]
        at = f"{where}:{line}: import {module}"
        if top == "domain":
            if (reason := _domain_import(where, module, games)) is not None:
                out.append(f"{at} ({reason})")
            continue
        if not in_domain:
            continue
        if top not in sys.stdlib_module_names and top not in THIRD_PARTY_ALLOWED:
            out.append(f"{at} (domain/ may import only the standard library, msgspec and domain)")
        if top in FORBIDDEN_EVERYWHERE:
            out.append(f"{at} (no {top} in domain/: no clock, no environment, no unseeded identifiers)")
        if top == "random" and where not in RANDOM_ALLOWED_IN:
            out.append(f"{at} (draw from the seeded Chance, never from random)")
    return out


def python_files(top: str) -> list[Path]:
    return sorted((ROOT / top).rglob("*.py"))


def broken(top: str) -> list[str]:
    return [v for path in python_files(top) for v in violations(path, path.read_text(encoding="utf-8"))]


# --- the code itself -------------------------------------------------------------------------------------------


def test_there_are_python_files_and_games_to_check() -> None:
    files = {p.relative_to(ROOT).as_posix() for top in ("domain", *OUTSIDE) for p in python_files(top)}
    assert {"domain/kernel/chance.py", "domain/magnate/decider.py", "domain/magnate/bots.py", REGISTRY} <= files
    assert {"services/api/__init__.py", "infra/eventstore/__init__.py", "bench/engine.py"} <= files
    assert "magnate" in game_packages() and KERNEL not in game_packages()


def test_domain_keeps_the_dependency_rule() -> None:
    """The standard library, msgspec and itself only; the kernel imports no game; a game imports only the kernel
    and itself; only the registry imports the games; no unseeded randomness, no clock, no environment."""
    found = broken("domain")
    assert not found, "forbidden imports in domain/:\n" + "\n".join(found)


@pytest.mark.parametrize("top", OUTSIDE)
def test_outside_code_imports_from_domain_only_the_kernel_and_the_registry(top: str) -> None:
    found = broken(top)
    assert not found, f"{top}/ imports a game instead of going through domain.games:\n" + "\n".join(found)


# --- the checker -----------------------------------------------------------------------------------------------


def test_the_checker_catches_every_kind_of_forbidden_import_in_domain() -> None:
    """The rules above are only as good as the checker: feed it one bad import of each kind."""
    kernel = DOMAIN / "kernel" / "example.py"
    rules = DOMAIN / "magnate" / "rules" / "example.py"
    cases = {
        (kernel, "from domain.magnate import GAME\n"): "the kernel must not import a game",
        (kernel, "from ..magnate.events import GameEnded\n"): "the kernel must not import a game",
        (kernel, "from domain import magnate\n"): "the kernel must not import a game",
        (kernel, "from domain.games import GAMES\n"): "import domain.games (the kernel imports from domain only",
        (rules, "import redis\n"): "only the standard library",
        (rules, "from litestar import get\n"): "only the standard library",
        (rules, "import random\n"): "seeded Chance",
        (rules, "def f():\n    from random import randint\n"): "seeded Chance",
        (rules, "import secrets\n"): "no secrets",
        (rules, "from datetime import datetime\n"): "no datetime",
        (rules, "import time\n"): "no time",
        (rules, "import uuid\n"): "no uuid",
        (rules, "import os.path\n"): "no os",
    }
    for (path, source), reason in cases.items():
        found = violations(path, source)
        assert len(found) == 1 and reason in found[0], (source, found)
        assert found[0].startswith(path.relative_to(ROOT).as_posix() + ":"), found
    assert violations(DOMAIN / "magnate" / "bots.py", "import random\n") == []
    assert violations(rules, "from ... import kernel\nfrom ..city import plot_at\nimport msgspec\n") == []
    assert violations(DOMAIN / "magnate" / "__init__.py", "from .events import MagnateEvent\n") == []


def test_the_checker_keeps_games_apart_and_behind_the_registry() -> None:
    """With a second game, ``chess``: games import neither each other nor the registry; only the registry imports
    them; services, infra and bench reach domain only through the kernel and the registry, whatever the form
    of the import (absolute, ``from domain import``, inside a function, under ``TYPE_CHECKING``)."""
    games = ("chess", "magnate")
    chess = DOMAIN / "chess" / "rules.py"
    cases = {
        (chess, "from domain.magnate.city import plot_at\n"): "must not import another game (domain.magnate)",
        (chess, "from ..magnate import GAME\n"): "must not import another game (domain.magnate)",
        (chess, "from domain import magnate\n"): "must not import another game (domain.magnate)",
        (chess, "import domain.magnate.events\n"): "must not import another game (domain.magnate)",
        (chess, "from domain.games import GAMES\n"): "import domain.games (a game imports from domain only the",
        (chess, "from .. import games\n"): "import domain.games (a game imports from domain only the",
        (DOMAIN / "kernel" / "game.py", "from domain import chess\n"): "the kernel must not import a game",
        (DOMAIN / "__init__.py", "from .magnate import GAME\n"): "only domain/games.py imports the games",
        (ROOT / "services" / "api" / "x.py", "from domain.magnate import GAME, GameOptions\n"):
            "import domain.magnate (services/ may import from domain only domain.kernel and the registry",
        (ROOT / "services" / "x.py", "from domain.magnate.bots import Greedy\n"): "import domain.magnate.bots (",
        (ROOT / "services" / "x.py", "def f():\n    import domain.chess\n"): "import domain.chess (",
        (ROOT / "infra" / "x.py", "from domain import magnate\n"): "import domain.magnate (infra/ may import",
        (ROOT / "infra" / "x.py", "if TYPE_CHECKING:\n    from domain.magnate import MagnateState\n"):
            "import domain.magnate (infra/ may import",
        (ROOT / "bench" / "x.py", "import domain.magnate\n"): "import domain.magnate (bench/ may import",
        (ROOT / "bench" / "x.py", "import domain\n"): "import domain (bench/ may import",
    }
    for (path, source), reason in cases.items():
        found = violations(path, source, games)
        assert len(found) == 1 and reason in found[0], (path, source, found)
        assert found[0].startswith(path.relative_to(ROOT).as_posix() + ":"), found
    allowed = {
        chess: "from domain.kernel import Chance\nfrom domain.chess.board import Board\nfrom . import board\n",
        ROOT / REGISTRY: "from domain.magnate import GAME\nfrom domain.chess import GAME\n",
        ROOT / "services" / "x.py": "from domain.kernel import SYSTEM\nfrom domain.games import GAMES\n",
        ROOT / "infra" / "x.py": "from domain import games, kernel\nimport domain.kernel.seats\nimport redis\n",
        ROOT / "bench" / "x.py": "import random\nimport time\nfrom domain.kernel.chance import Chance\n",
    }
    for path, source in allowed.items():
        assert violations(path, source, games) == [], (path, source)


def test_relative_imports_resolve_against_the_package() -> None:
    assert imported_modules(DOMAIN / "magnate" / "rules" / "market.py", "from ..city import x\n") == [
        (1, "domain.magnate.city")
    ]
    assert imported_modules(DOMAIN / "magnate" / "__init__.py", "from .catalog import Catalog\n") == [
        (1, "domain.magnate.catalog")
    ]
    assert imported_modules(DOMAIN / "kernel" / "game.py", "from . import seats\n") == [(1, "domain.kernel.seats")]
    assert imported_modules(ROOT / "services" / "x.py", "from domain import games, magnate\n") == [
        (1, "domain.games"),
        (1, "domain.magnate"),
    ]


# --- the registry ----------------------------------------------------------------------------------------------

DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(GameModule)}


def test_the_registry_names_every_game_by_its_own_name_and_holds_every_game_package() -> None:
    assert GAMES, "no game is registered"
    assert {key: module.name for key, module in GAMES.items()} == {key: key for key in GAMES}
    packages = {module.state_type.__module__.split(".")[1] for module in GAMES.values()}  # the rules are the table's
    assert packages == set(game_packages()) - UNSERVED, "every game package under domain/ is registered, and only those"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_registered_game_fills_the_contract(name: str) -> None:
    """What the services need beyond the rules: a title, a narrator, the public catalogue, the outcome,
    bots to simulate with and the options of a simulated game."""
    game = GAMES[name]
    assert isinstance(game.title, str) and game.title.strip(), "no title"
    assert game.narrator is not None, "no narrator"
    assert game.narrator({0: "Ada", 1: "Bob"}) is not None
    assert game.catalog is not None, "no catalog"
    assert isinstance(game.catalog(None), msgspec.Struct)
    assert game.outcome is not DEFAULTS["outcome"], "no outcome: the default says every game is unfinished"
    assert game.outcome(game.initial_state()) is None, "a game that has not started has no outcome"
    assert game.bots, "no bots"
    for bot in game.bots.values():
        assert callable(bot(7))
    assert game.sim_options is not None, "no sim_options"
    options = game.sim_options(("human", "human"), None, frozenset(game.sim_flags))
    assert isinstance(options, game.options_type)
    for level in game.ai_levels:
        assert isinstance(game.sim_options(("human", "ai"), level, frozenset()), game.options_type)


# --- the platform wing: controllers receive services, SQL stays in infra/ (issue #25) ----------------------------

API = ROOT / "services" / "api"
CONTROLLERS = API / "controllers"
INFRA_FOR_API = {"infra.config", "infra.errors", "infra.logs", "infra.metrics"}
"""What ``services/api`` may import from ``infra`` wholesale: configuration, errors, logs and metrics."""
INFRA_TYPES_FOR_API: dict[str, set[str]] = {
    "infra.accounts": {"Player"},  # the signed-in player a handler receives (``players.provide_player``)
    "infra.chat": {"ChatLine"},  # a chat line is answered as stored (``chat_schemas.ChatOut``)
    "infra.eventstore": {"StoredEvent"},  # events are answered as stored, their payload's bytes as they are
    "infra.eventstore.tables": {"PAGE_MAX", "TableRow"},  # the listing's page bound (a query bound) and its rows
    "infra.notify": {"QUIET", "Subscriber"},  # what an event stream waits on: the port and its silence marker
    "infra.channels.devmail": {"DevMail", "DevMailList", "DevMailbox"},  # the development mailbox's page and JSON
    "infra.channels.push": {"PushSubscription"},  # a browser's push subscription, the body it posts
    "infra.channels.mail": {"sends_mail"},  # a reading of the settings: does this server send mail at all?
    "infra.notes": {"TEXT_MAX", "Note"},  # a note's size bound (documented and refused with it) and a note as kept
    "infra.ratings": {"PAGE_MAX"},  # the leaderboard's page bound (a query bound, documented in its parameter)
}
"""Beyond those, the names ``services/api`` may import from ``infra``, each a type (or a constant, or a reading of
the settings) it truly needs; any exception class may be imported too, from anywhere (an error it maps to HTTP)."""
CONNECTIONS = {"pool", "redis", "arq"}
SQL = re.compile(r"\bSELECT\b[\s\S]*\bFROM\b|\bINSERT\s+INTO\b|\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b")
ROUTE_MAKERS = {"get", "post", "put", "patch", "delete", "head", "route", "websocket", "Router", "Controller",
                "HTTPRouteHandler", "WebsocketRouteHandler"}


def _imported_names(source: str) -> list[tuple[int, str, str]]:
    """(line, module, name) of every ``from module import name`` (absolute), ``*`` for ``import module``."""
    found: list[tuple[int, str, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
            found.extend((node.lineno, node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, "*") for alias in node.names)
    return found


def _is_error(module: str, name: str) -> bool:
    value = getattr(importlib.import_module(module), name, None)
    return isinstance(value, type) and issubclass(value, BaseException)


def api_infra_imports(path: Path, source: str) -> list[str]:
    """Every import of ``infra`` by a module of ``services/api`` beyond what it may import."""
    where = path.relative_to(ROOT).as_posix()
    out = []
    for line, module, name in _imported_names(source):
        if not _within(module, "infra") or module in INFRA_FOR_API:
            continue
        if module == "infra" and f"infra.{name}" in INFRA_FOR_API:
            continue
        if name in INFRA_TYPES_FOR_API.get(module, set()) or (name != "*" and _is_error(module, name)):
            continue
        out.append(f"{where}:{line}: from {module} import {name} (services/api imports from infra only "
                   "configuration, errors, logs, metrics and the types named in INFRA_TYPES_FOR_API)")
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module and its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def sql_texts(path: Path, source: str) -> list[str]:
    """Every string literal (docstrings aside) that reads as SQL: SELECT ... FROM, INSERT INTO, UPDATE ... SET,
    DELETE FROM."""
    tree = ast.parse(source)
    prose = _docstrings(tree)
    where = path.relative_to(ROOT).as_posix()
    return [f"{where}:{node.lineno}: {node.value[:60]!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
            and SQL.search(node.value)]


def reaches_for(path: Path, source: str, attributes: set[str], owner: str | None = None) -> list[str]:
    """Every ``x.<attribute>`` (with ``owner``: only where ``x`` is named ``owner`` or ends in ``.owner``)."""
    where = path.relative_to(ROOT).as_posix()
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in attributes:
            inner = node.value
            name = inner.id if isinstance(inner, ast.Name) else inner.attr if isinstance(inner, ast.Attribute) else ""
            if owner is None or name == owner:
                out.append(f"{where}:{node.lineno}: {name}.{node.attr}")
    return out


def controller_imports(path: Path, source: str) -> list[str]:
    """Every import of another controller by a controller module (the package's ``__init__`` lists them)."""
    if path.name == "__init__.py":
        return []
    where = path.relative_to(ROOT).as_posix()
    own = "services.api.controllers." + path.stem
    return [f"{where}:{line}: import {module} (a controller imports no other controller)"
            for line, module in imported_modules(path, source)
            if _within(module, "services.api.controllers") and module not in (own, "services.api.controllers")]


def routes_defined(path: Path, source: str) -> list[str]:
    """Every route decorator, router or controller ``infra`` imports from Litestar."""
    where = path.relative_to(ROOT).as_posix()
    return [f"{where}:{line}: from {module} import {name} (infra/ defines no route: routes live in services/api)"
            for line, module, name in _imported_names(source)
            if _within(module, "litestar") and (name in ROUTE_MAKERS or _within(module, "litestar.handlers"))]


def _scan(top: Path, check: Any, *args: Any) -> list[str]:
    return [v for path in sorted(top.rglob("*.py")) for v in check(path, path.read_text(encoding="utf-8"), *args)]


def test_the_api_imports_from_infra_only_configuration_errors_logs_metrics_and_named_types() -> None:
    found = _scan(API, api_infra_imports)
    assert not found, "\n".join(found)


def test_the_api_holds_no_connection_and_never_reaches_into_gameplay_s_store() -> None:
    """Handlers receive services (``services/api/deps.py``): no ``.pool``, ``.redis`` or ``.arq`` anywhere in
    ``services/api``, and nothing outside ``services/gameplay`` reads ``gameplay.store``."""
    found = _scan(API, reaches_for, CONNECTIONS)
    for top in ("services", "bench"):
        found += [v for v in _scan(ROOT / top, reaches_for, {"store"}, "gameplay")
                  if not v.startswith("services/gameplay/")]
    assert not found, "\n".join(found)


def test_there_is_no_sql_under_services() -> None:
    found = _scan(ROOT / "services", sql_texts)
    assert not found, "SQL belongs under infra/:\n" + "\n".join(found)


def test_no_controller_imports_another() -> None:
    found = _scan(CONTROLLERS, controller_imports)
    assert not found, "\n".join(found)


def test_nothing_in_infra_defines_a_route() -> None:
    found = _scan(ROOT / "infra", routes_defined)
    assert not found, "\n".join(found)


def test_the_platform_checks_catch_what_they_forbid() -> None:
    api, controller = API / "x.py", CONTROLLERS / "x.py"
    infra, service = ROOT / "infra" / "x.py", ROOT / "services" / "x.py"
    assert len(api_infra_imports(api, "from infra.chat import PostgresChatStore\nimport infra.queue\n")) == 2
    assert api_infra_imports(api, "from infra import metrics\nfrom infra.errors import InfraError\n"
                                  "from infra.accounts import Player, LinkUsed\n") == []
    assert len(sql_texts(service, 'Q = "SELECT seat FROM seats"\nR = "DELETE FROM x"\nS = "UPDATE t SET a = 1"\n')) == 3
    assert sql_texts(service, '"""SELECT what FROM where, in prose."""\nX = "select a seat from the list"\n') == []
    assert len(reaches_for(api, "runtime.pool.fetch()\nself.redis.publish()\n", CONNECTIONS)) == 2
    assert len(reaches_for(service, "runtime.gameplay.store.seats()\n", {"store"}, "gameplay")) == 1
    assert reaches_for(service, "chat.store.lines()\n", {"store"}, "gameplay") == []
    assert len(controller_imports(controller, "from .games import public_url\n")) == 1
    assert controller_imports(controller, "from ..pages import public_url\n") == []
    assert len(routes_defined(infra, "from litestar import Router, get\n")) == 2
    assert routes_defined(infra, "from litestar.stores.base import Store\n") == []
