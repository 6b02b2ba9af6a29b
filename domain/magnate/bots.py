"""Policies for human seats in simulations and tests; they choose only from ``legal_commands``."""

from __future__ import annotations

import random

from domain.kernel import Command, CommandTemplate, Seat
from domain.kernel.bots import RandomLegal as _RandomLegal
from domain.kernel.bots import instantiate as _instantiate

from .ai.actions import bonus_arrows
from .city import catalog_of, modifier, plot_at, plot_value
from .commands import (
    Advertise,
    AttractTenants,
    Build,
    BuyLand,
    ChooseTenants,
    Consult,
    FinishAttracting,
    PassBid,
    PlaceBid,
    Sell,
    UseAdvertising,
)
from .legal import legal_commands
from .rules.actions import land_price
from .rules.attraction import room
from .state import MagnateState


class RandomDraws:
    """Draws from a ``random.Random``: the sequence Magnate's bots have always drawn (a subset is a uniform count,
    then that many distinct indices)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def below(self, n: int) -> int:
        return self.rng.randrange(n)

    def subset(self, size: int, most: int) -> tuple[int, ...]:
        return tuple(sorted(self.rng.sample(range(size), self.rng.randint(0, min(most, size)))))


def instantiate(template: CommandTemplate, rng: random.Random) -> Command:
    """A random legal command from a template: every param drawn uniformly within its range."""
    return _instantiate(template, RandomDraws(rng))


class RandomLegal(_RandomLegal[MagnateState]):
    """Picks a uniformly random legal move (then random parameters), reproducibly from its seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        super().__init__(legal_commands, RandomDraws(self.rng), by_kind=False)


class Greedy:
    """A simple heuristic player that chooses only among ``legal_commands``:

    * bids the minimum when it is cheap (at most half the land price), else passes;
    * attracts to every building, biggest vacancy first, committing up to two advertising tokens, and
      takes the engine's suggested advertising use and tenant choice;
    * in phase 3: sells its most valuable plot when the crash marker is close, builds the largest
      affordable building of the type with the best neighbour modifier on an unbuilt plot, buys the
      'for sale' plot with the most bonus arrows, takes advertising when it has none, else consults.
    """

    DANGER = 3
    """Sell when the crash marker is at or below this position."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: MagnateState, seat: Seat) -> Command:
        templates = legal_commands(state, seat)
        by_type: dict[type, list[CommandTemplate]] = {}
        for t in templates:
            by_type.setdefault(type(t.command), []).append(t)
        if PassBid in by_type:
            return self._bid(state, by_type)
        if AttractTenants in by_type or FinishAttracting in by_type:
            return self._attract(state, seat, by_type)
        if UseAdvertising in by_type or ChooseTenants in by_type:
            return templates[0].command  # the engine's suggestion
        return self._act(state, seat, by_type)

    def _bid(self, state: MagnateState, by_type: dict[type, list[CommandTemplate]]) -> Command:
        bids = by_type.get(PlaceBid, [])
        if bids and isinstance(bids[0].command, PlaceBid) and bids[0].command.amount * 2 <= land_price(state):
            return bids[0].command
        return PassBid()

    def _attract(self, state: MagnateState, seat: Seat, by_type: dict[type, list[CommandTemplate]]) -> Command:
        options = [t.command for t in by_type.get(AttractTenants, []) if isinstance(t.command, AttractTenants)]
        if not options:
            return FinishAttracting()
        target = max(options, key=lambda c: (room(state, c.plot), c.plot))
        return AttractTenants(plot=target.plot, advertising=min(2, state.seats[seat].advertising))

    def _act(self, state: MagnateState, seat: Seat, by_type: dict[type, list[CommandTemplate]]) -> Command:
        sells = [t.command for t in by_type.get(Sell, []) if isinstance(t.command, Sell)]
        if sells and state.crash <= self.DANGER:
            return max(sells, key=lambda c: (plot_value(state, c.plot), c.plot))
        builds = [t.command for t in by_type.get(Build, []) if isinstance(t.command, Build)
                  and plot_at(state, t.command.plot).building is None]
        if builds:
            return max(builds, key=lambda c: self._build_score(state, c))
        buys = [t.command for t in by_type.get(BuyLand, []) if isinstance(t.command, BuyLand)
                and plot_at(state, t.command.plot).for_sale]
        if buys:
            return max(buys, key=lambda c: (bonus_arrows(state, c.plot), self.rng.random()))
        if state.seats[seat].advertising == 0:
            return Advertise(bought=0)
        return Consult()

    @staticmethod
    def _build_score(state: MagnateState, command: Build) -> tuple[int, int, int]:
        cat = catalog_of(state)
        building = cat.buildings[command.building]
        return (modifier(state, command.plot, building.tenant_type), building.capacity, -building.cost)
