"""Which games a process serves: the registry named by the ``MAGNATE_GAMES`` setting (:attr:`Settings.games`),
resolved here and nowhere else.

The setting is ``"package.module:attribute"`` (default :data:`DEFAULT`, ``domain.games:GAMES``, the games offered
to players). The attribute is either a mapping of game modules by type name, or a :class:`Registry` that also says
where some games' web bundles live (a game's bundle is otherwise ``services/api/web/static/games/<name>/``). The
composition root (:mod:`.bootstrap`), the app's OpenAPI document, the worker's job functions, the command line
(``export``, ``verify``, ``simulate``) and the web router all take their games from here, so a process started with
another registry (the tests' tiny game: ``tests/games``) serves it everywhere with no code changed.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from domain.kernel import GameModule
from infra.config import Settings

DEFAULT = "domain.games:GAMES"
"""The games offered to players."""


@dataclass(frozen=True, slots=True)
class Registry:
    """The games of a process by type name, and the web bundles that do not live in the default place."""

    games: Mapping[str, GameModule[Any]]
    bundles: Mapping[str, Path] = field(default_factory=dict)
    """A game's bundle directory (its ``index.js`` and what it imports), where it is not the page's own
    ``static/games/<name>/``."""


class RegistryError(ValueError):
    """The setting does not name a registry (a module that does not import, a missing attribute, a wrong type)."""


@cache
def registry(spec: str = DEFAULT) -> Registry:
    """The registry ``spec`` names (``"module:attribute"``), imported once per process."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise RegistryError(f"MAGNATE_GAMES: {spec!r} is not 'package.module:attribute'")
    try:
        found: object = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise RegistryError(f"MAGNATE_GAMES: cannot load {spec!r}: {exc}") from exc
    if not isinstance(found, Registry):
        found = Registry(games=found) if isinstance(found, Mapping) else found
    if not isinstance(found, Registry) or not all(isinstance(g, GameModule) for g in found.games.values()):
        raise RegistryError(f"MAGNATE_GAMES: {spec!r} is neither a Registry nor a mapping of game modules")
    if unknown := set(found.bundles) - set(found.games):
        raise RegistryError(f"MAGNATE_GAMES: {spec!r} has bundles of games it does not register: {sorted(unknown)}")
    return found


def registry_of(settings: Settings) -> Registry:
    """The registry a process with ``settings`` serves."""
    return registry(settings.games)


def games_of(settings: Settings) -> Mapping[str, GameModule[Any]]:
    """The games a process with ``settings`` serves, by type name."""
    return registry(settings.games).games
