"""A plan in the making: the actions of a turn so far and the state they lead to."""

from __future__ import annotations

from domain.kernel import RuleViolation

from ..commands import TurnAction
from ..folding import evolve
from ..playing import decide_action
from ..state import DecktetState


class Candidate:
    """A plan in the making: its actions so far and the state they lead to."""

    __slots__ = ("actions", "state")

    def __init__(self, actions: tuple[TurnAction, ...], state: DecktetState) -> None:
        self.actions = actions
        self.state = state

    def then(self, seat: int, *actions: TurnAction) -> Candidate | None:
        """This plan followed by ``actions``, or None if the rules refuse one."""
        state = self.state
        try:
            for action in actions:
                for event in decide_action(state, seat, action):
                    state = evolve(state, event)
        except RuleViolation:
            return None
        return Candidate(self.actions + actions, state)
