"""Developing deeds (R4.2): where the computer puts its tokens.

Deeds nearest completion go first. On each, one token of every suit it still lacks goes on first (R4.2c: a deed
completes only with each of its suits), then the suits the seat holds most of, as far as the room left allows
(R4.2b). :func:`developed` works on a column and a supply alone, so a planner can rate a development without
building the state; :func:`develop` plays it through the rules' own actions.
"""

from __future__ import annotations

from ..cards import info, suit_codes
from ..commands import Develop
from ..economy import Tokens, development_room, economy
from ..state import Placed
from ..variant import Variant
from .candidate import Candidate

Columns = tuple[tuple[Placed, ...], ...]
Step = tuple[str, int, int]
"""A development: the deed's card, the suit, the count."""


def developed(variant: Variant, columns: Columns, supply: Tokens, complete_only: bool = False
              ) -> tuple[Columns, Tokens, list[Step]]:
    """The columns and supply after developing every deed the supply allows (with ``complete_only``, only the
    deeds it can complete now), and the steps that do it."""
    found = [(d, i) for d, column in enumerate(columns) for i, p in enumerate(column) if p.deed]
    if not found:
        return columns, supply, []
    eco = economy(variant)
    dataset = variant.dataset
    work = []
    for d, i in found:
        placed = columns[d][i]
        card = info(dataset, placed.card)
        price = eco.price(card)
        work.append((price - sum(placed.tokens), d, i, placed, card, price))
    work.sort(key=lambda t: t[:3])
    left = list(supply)
    new_columns = list(columns)
    steps: list[Step] = []
    for _, d, i, placed, card, price in work:
        on = list(placed.tokens)
        have = list(left)
        put: dict[int, int] = {}
        suits = card.suits
        lacking = [s for s in suits if on[s] == 0]
        for s in sorted(lacking, key=lambda s: -have[s]):  # one of each suit it lacks first (R4.2c)
            if have[s] and development_room(card, tuple(on), price, s):
                on[s] += 1
                have[s] -= 1
                put[s] = 1
        for s in sorted(suits, key=lambda s: -have[s]) if len(suits) > 1 else suits:
            count = min(have[s], development_room(card, tuple(on), price, s))
            if count:
                on[s] += count
                have[s] -= count
                put[s] = put.get(s, 0) + count
        if not put or (complete_only and sum(on) < price):
            continue
        left = have
        column = list(new_columns[d])
        column[i] = Placed(card=placed.card) if sum(on) == price else Placed(
            card=placed.card, deed=True, tokens=tuple(on), preference=placed.preference)
        new_columns[d] = tuple(column)
        steps += [(placed.card, s, n) for s, n in put.items()]
    return tuple(new_columns), tuple(left), steps


def develop(plan: Candidate, seat: int, complete_only: bool = False) -> Candidate:
    """``plan`` followed by the developments of :func:`developed`, as the rules' ``Develop`` actions."""
    state = plan.state
    held = state.seats[seat]
    _, _, steps = developed(state.variant, held.columns, held.supply, complete_only)
    if not steps:
        return plan
    codes = suit_codes(state.variant.dataset)
    return plan.then(seat, *(Develop(card=card, suit=codes[s], count=n) for card, s, n in steps)) or plan
