"""The computer player of Decktet Magnate: ``plan_turn`` decides a whole turn for a seat the options gave it.

It decides from what that seat may know (its hand, the public board, the sizes of the other hands); the decider
records its plan (``AiTurnPlanned``) and then applies each action as the seat's own.
"""

from __future__ import annotations

import msgspec

from domain.kernel import Chance, Seat

from ..bots import Greedy
from ..commands import EndTurn, TurnAction
from ..folding import evolve
from ..playing import decide_action
from ..state import DecktetState


class Plan(msgspec.Struct, frozen=True):
    """A turn's actions in order (the end of the turn follows them) and why, in words."""

    actions: tuple[TurnAction, ...]
    explanation: str


def plan_turn(state: DecktetState, seat: int, level: str, chance: Chance) -> Plan:
    """The turn the computer plays for ``seat`` at ``level``."""
    policy = Greedy(chance.below(1 << 30))
    actions: list[TurnAction] = []
    working = state
    while True:
        command = policy(working, Seat(seat))
        if isinstance(command, EndTurn):
            break
        assert not isinstance(command, EndTurn)
        actions.append(command)  # type: ignore[arg-type]
        for event in decide_action(working, seat, command):  # type: ignore[arg-type]
            working = evolve(working, event)
    return Plan(tuple(actions), "It follows its rules of thumb.")
