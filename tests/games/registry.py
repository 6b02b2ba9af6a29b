"""The tests' game registry: the games offered to players plus Dice Race, the tiny test-only game, whose web bundle
lives in its own package. A server, worker or command started with ``MAGNATE_GAMES=tests.games.registry:GAMES``
serves it (:mod:`services.gameplay.registry`)."""

from __future__ import annotations

from pathlib import Path

from domain.games import GAMES as OFFERED
from domain.kernel.table import seated
from services.gameplay.registry import Registry

from .dice_race import GAME as DICE_RACE

SETTING = f"{__name__}:GAMES"
"""The value of ``MAGNATE_GAMES`` that names this registry."""

GAMES = Registry(games={**OFFERED, DICE_RACE.name: seated(DICE_RACE)},
                 bundles={DICE_RACE.name: Path(__file__).resolve().parent / "dice_race" / "web"})
