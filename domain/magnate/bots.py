"""Policies for human seats in simulations and tests; they choose only from ``legal_commands``."""

from __future__ import annotations

import random

import msgspec

from domain.kernel import Command, CommandTemplate, IntParam, Seat, SubsetParam

from .legal import legal_commands
from .state import MagnateState


def instantiate(template: CommandTemplate, rng: random.Random) -> Command:
    """A random legal command from a template: every param drawn uniformly within its range."""
    changes: dict[str, object] = {}
    for param in template.params:
        match param:
            case IntParam(field=field, minimum=lo, maximum=hi, step=step):
                changes[field] = rng.randrange(lo, hi + 1, step)
            case SubsetParam(field=field, size=size, max_count=most):
                changes[field] = tuple(sorted(rng.sample(range(size), rng.randint(0, min(most, size)))))
    return msgspec.structs.replace(template.command, **changes) if changes else template.command


class RandomLegal:
    """Picks a uniformly random legal move (then random parameters), reproducibly from its seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: MagnateState, seat: Seat) -> Command:
        templates = legal_commands(state, seat)
        return instantiate(self.rng.choice(templates), self.rng)
