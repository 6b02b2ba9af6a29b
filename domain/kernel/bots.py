"""Bots that choose only among a game's ``legal_commands``: a random legal command from a template, and the random
legal bot every game offers (``bots["random"]``) for simulations and tests.

A bot draws from a :class:`Draws` made from its seed, so it plays the same way every time it is given the same
seed. :class:`ChanceDraws` draws from the kernel's :class:`~domain.kernel.Chance` (the domain draws from nothing
else); a game may bring its own source (Magnate's bots keep their ``random.Random`` sequence).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

import msgspec

from .chance import Chance
from .game import CommandTemplate, IntParam, SubsetParam
from .messages import Command
from .seats import Seat

S = TypeVar("S")


class Draws(Protocol):
    """A bot's source of random choices."""

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1``."""
        ...

    def subset(self, size: int, most: int) -> tuple[int, ...]:
        """Distinct indices of ``0..size-1``, at most ``most`` of them, ascending."""
        ...


class ChanceDraws:
    """Draws from a :class:`Chance`: a subset takes each index on a fair coin, the first ``most`` taken."""

    __slots__ = ("chance",)

    def __init__(self, chance: Chance) -> None:
        self.chance = chance

    @classmethod
    def seeded(cls, label: str) -> ChanceDraws:
        """Draws from ``Chance(label, 0)``: a bot's ``label`` names the game, the bot and its seed
        (``moe-random:7``)."""
        return cls(Chance(label.encode(), 0))

    def below(self, n: int) -> int:
        return self.chance.below(n)

    def subset(self, size: int, most: int) -> tuple[int, ...]:
        return tuple([i for i in range(size) if self.chance.below(2)][:most])


def instantiate(template: CommandTemplate, draws: Draws) -> Command:
    """A random legal command from a template: every parameter drawn uniformly within its range."""
    changes: dict[str, object] = {}
    for param in template.params:
        if isinstance(param, IntParam):
            changes[param.field] = param.minimum + param.step * draws.below(
                (param.maximum - param.minimum) // param.step + 1)
        elif isinstance(param, SubsetParam):
            changes[param.field] = draws.subset(param.size, param.max_count)
    return msgspec.structs.replace(template.command, **changes) if changes else template.command


class RandomLegal(Generic[S]):
    """A random legal command of the seat, then random parameters.

    ``by_kind``: first a kind of command uniformly (buy, sell, end the turn ...; kinds in the order of their class
    names), then one template of that kind, so that the many variants of one kind do not crowd out the rest;
    otherwise one template uniformly among all.
    """

    def __init__(self, legal: Callable[[S, Seat], list[CommandTemplate]], draws: Draws, by_kind: bool = True) -> None:
        self.legal = legal
        self.draws = draws
        self.by_kind = by_kind

    def __call__(self, state: S, seat: Seat) -> Command:
        templates = self.legal(state, seat)
        if self.by_kind:
            by_kind: dict[type, list[CommandTemplate]] = {}
            for template in templates:
                by_kind.setdefault(type(template.command), []).append(template)
            kinds = sorted(by_kind, key=lambda k: k.__name__)
            templates = by_kind[kinds[self.draws.below(len(kinds))]]
        return instantiate(templates[self.draws.below(len(templates))], self.draws)
