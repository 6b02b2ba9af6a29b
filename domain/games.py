"""The games this server offers: one line each. Services and infra know games only through this registry and the
contract in :mod:`domain.kernel.game` (docs/ARCHITECTURE.md, "How to add a game")."""

from __future__ import annotations

from typing import Any

from domain.decktet import GAME as DECKTET
from domain.kernel import GameModule
from domain.kernel.table import seated
from domain.magnate import GAME as MAGNATE
from domain.master_of_economy import GAME as MASTER_OF_ECONOMY

GAMES: dict[str, GameModule[Any]] = {game.name: seated(game) for game in (MAGNATE, DECKTET, MASTER_OF_ECONOMY)}
"""Every game by its type name, served with the table's own messages (:mod:`domain.kernel.table`: who claimed a
seat) (the ``game`` of a create request, the ``game_type`` stored with a game)."""
