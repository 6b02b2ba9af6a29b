"""Situations for the AI tests (spec §11): the board, the AI's rows and cards, and running its turns.

Most situations use a board with known tiles and no 'for sale' markers (:func:`solo`), with the human in
seat 0 and the AI in seat 1. A particular AI card is forced by making it the only card of the current
level's deck (:func:`with_card`). The AI explains itself in ``AiDecided`` events: :func:`card_decision` is
the one naming the card drawn (the branch and fallbacks taken), :func:`detail` the one saying how an action
was carried out; the tests assert their reasons word for word, so the log keeps explaining the AI the same way.

Tile positions used throughout (``TILES``), with the plots that matter:

* 1 Train Station: features on D and E (Home +1, Office +1); 1A and 1G touch them.
* 2 Municipal Airport: airport on C and F (Office +1, Home -1), airport car park on G (Retail +1,
  Industry +1); 2B touches only the airport, 2E touches the airport and the car park.
* 3 Ridgeway: woods on C (Home +1), car park on D (Retail +1); 3A touches only the car park; 3I, 3G and 3H
  touch no feature.
* 4 Halestown: woods on F, industrial car park on G; 4D touches only the industrial car park.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from msgspec.structs import replace

from domain.kernel import SYSTEM
from domain.magnate import MagnateState
from domain.magnate.catalog import catalog
from domain.magnate.commands import TakeAiTurn
from domain.magnate.events import AiDecided

from .builders import in_actions, in_attracting, run, set_plot, started_with_tiles

CAT = catalog("v1")
E = TypeVar("E")

HUMAN, AI = 0, 1
TILES = ("train_station", "municipal_airport", "ridgeway", "halestown", "lyndal", "matthews_yard")


def of(events: Sequence[object], kind: type[E]) -> list[E]:
    """The events of one kind, in order."""
    return [e for e in events if isinstance(e, kind)]


def solo(**kwargs: Any) -> MagnateState:
    """Human (seat 0) against the AI (seat 1) on the known tiles, no 'for sale' plot anywhere."""
    return started_with_tiles(TILES, 2, ai=True, **kwargs)


def ai_board(state: MagnateState, **changes: Any) -> MagnateState:
    """The state with these fields of the AI board changed (its level, decks, rows, discard pile, last card)."""
    assert state.ai is not None
    return replace(state, ai=replace(state.ai, **changes))


def with_card(state: MagnateState, card: str) -> MagnateState:
    """The AI at the card's level with that card the only one in the level's deck (so it is drawn next)."""
    assert state.ai is not None
    level = CAT.ai_cards[card].level
    decks = tuple(
        (card,) if i == level - 1 else tuple(c for c in deck if c != card) for i, deck in enumerate(state.ai.decks)
    )
    return ai_board(state, decks=decks, level=level)


def unbuilt(state: MagnateState, *plots: str | None) -> MagnateState:
    """AI-owned unbuilt plots in the AI's bottom row, slot by slot (None = an empty slot)."""
    for name in plots:
        if name is not None:
            state = set_plot(state, name, owner=AI, building=None, tenants=(), for_sale=False)
    return ai_board(state, bottom_row=tuple(plots))


def built(state: MagnateState, *plots: tuple[str, str, tuple[str, ...]]) -> MagnateState:
    """AI-owned buildings ``(plot, building, tenants)`` in the AI's top row, left to right."""
    for name, building, tenants in plots:
        state = set_plot(state, name, owner=AI, building=building, tenants=tenants, for_sale=False)
    return ai_board(state, top_row=tuple(name for name, _, _ in plots))


def for_sale(state: MagnateState, *plots: str) -> MagnateState:
    for name in plots:
        state = set_plot(state, name, for_sale=True)
    return state


def ai_action(state: MagnateState, card: str, version: int = 100) -> tuple[list[Any], MagnateState]:
    """One AI action turn in phase 3 with ``card`` drawn."""
    return run(in_actions(with_card(state, card), first_player=AI), SYSTEM, TakeAiTurn(), version=version)


def ai_attracts(state: MagnateState) -> tuple[list[Any], MagnateState]:
    """The AI's phase 2 turn (it is first player)."""
    return run(in_attracting(state, first_player=AI), SYSTEM, TakeAiTurn())


def recorded(decided: AiDecided) -> AiDecided:
    """The decision as an older game recorded it (its English reason; the phrase checked on its own)."""
    assert decided.why is not None, "a new game's decision carries its reason as a phrase"
    return replace(decided, why=None)


def card_decision(events: Sequence[object]) -> AiDecided:
    """The AiDecided that names the card (the branch and fallbacks taken)."""
    [decided] = [e for e in of(events, AiDecided) if e.card is not None]
    return decided


def detail(events: Sequence[object], action: str) -> AiDecided:
    """The AiDecided explaining how an action was carried out (which plot, which building)."""
    [decided] = [e for e in of(events, AiDecided) if e.card is None and e.action == action]
    return decided


def ready(state: MagnateState) -> MagnateState:
    """Every AI action possible: a 'for sale' plot (3I), an unbuilt AI plot (3G), an AI building (3H)."""
    state = for_sale(state, "3I")
    state = unbuilt(state, "3G")
    return built(state, ("3H", "house", ("home",)))
