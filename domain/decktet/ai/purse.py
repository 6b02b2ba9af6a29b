"""Which tokens a seat wants: how it pays, which suit it takes from a deed, which suit a deed should pay it.

A seat **needs** a suit for its deeds (first the suits a deed still lacks, R4.2c; then the room left on it) and
for the cards in its hand (their price in their suits). A supply is worth most when its tokens meet those needs;
beyond them a few tokens of each suit are still worth keeping (they pay for the next card), while a pile of one
suit is worth little more than three of it (a tax roll on that suit cuts it to one, R3.2). So it pays with the
tokens it needs least, takes the suit it needs most, and trades only to make a play possible or to get rid of a
pile that tax threatens.
"""

from __future__ import annotations

from ..board import deeds
from ..cards import info
from ..economy import Tokens, development_room, economy, payments
from ..state import DecktetState

SPARE = 3
"""Tokens of a suit beyond its needs that are still worth keeping."""


def needs(state: DecktetState, seat: int) -> Tokens:
    """How many tokens of each suit ``seat``'s deeds and hand cards could use (R4.2, R4.5)."""
    dataset = state.variant.dataset
    eco = economy(state.variant)
    held = state.seats[seat]
    need = [0] * 6
    for _, placed in deeds(held):
        card = info(dataset, placed.card)
        price = eco.price(card)
        for s in card.suits:
            need[s] += development_room(card, placed.tokens, price, s)
    for card_id in held.hand:
        card = info(dataset, card_id)
        for s in card.suits:
            need[s] += eco.price(card) // len(card.suits) + 1
    return tuple(need)


def worth(supply: Tokens, need: Tokens) -> int:
    """How much a supply is worth to a seat with ``need``: needed tokens count four times, a few spare ones once,
    a pile beyond them nothing."""
    total = 0
    for have, want in zip(supply, need, strict=True):
        met = min(have, want)
        total += 4 * met + min(have - met, SPARE)
    return total


def best_payment(state: DecktetState, seat: int, card_id: str, supply: Tokens | None = None) -> Tokens | None:
    """The payment for ``card_id`` (R4.5) that leaves the supply worth most, or None if it cannot be paid."""
    held = state.seats[seat]
    have = held.supply if supply is None else supply
    card = info(state.variant.dataset, card_id)
    ways = payments(card, have, economy(state.variant).price(card))
    if not ways:
        return None
    need = _needs_without(state, seat, card_id)
    return max(ways, key=lambda way: worth(tuple(h - p for h, p in zip(have, way, strict=True)), need))


def best_suit(options: tuple[int, ...], supply: Tokens, need: Tokens) -> int:
    """The suit among ``options`` whose token adds most to the supply's worth (fewer held breaks ties)."""
    def gain(s: int) -> tuple[int, int, int]:
        more = tuple(n + (1 if i == s else 0) for i, n in enumerate(supply))
        return worth(more, need), -supply[s], -s
    return max(options, key=gain)


def trades_for(state: DecktetState, seat: int, card_id: str, cost: Tokens | None) -> list[tuple[int, int]]:
    """At most two trades (give, take) after which ``seat`` can pay ``card_id`` (outright when ``cost`` is None,
    else ``cost`` exactly, a deed's price), giving up the suits it needs least; empty if none is needed or none
    helps."""
    held = state.seats[seat]
    card = info(state.variant.dataset, card_id)
    price = economy(state.variant).price(card)
    need = _needs_without(state, seat, card_id)

    def payable(supply: Tokens) -> bool:
        if cost is not None:
            return all(h >= c for h, c in zip(supply, cost, strict=True))
        return bool(payments(card, supply, price))

    if payable(held.supply) or sum(held.supply) < (sum(cost) if cost else price) + 2:
        return []
    best: tuple[int, list[tuple[int, int]]] | None = None
    for plan in _trade_plans(held.supply, card.suits):
        supply = list(held.supply)
        for give, take in plan:
            supply[give] -= 3
            supply[take] += 1
        if payable(tuple(supply)):
            score = worth(tuple(supply), need) - 10 * len(plan)
            if best is None or score > best[0]:
                best = (score, plan)
    return [] if best is None else best[1]


def _trade_plans(supply: Tokens, suits: tuple[int, ...]) -> list[list[tuple[int, int]]]:
    givers = [g for g in range(6) if supply[g] >= 3]
    one = [[(g, t)] for g in givers for t in suits if t != g]
    two = [[(g, t), (g2, t2)] for g in givers for t in suits if t != g
           for g2 in range(g, 6) for t2 in suits if t2 != g2 and (g2, t2) >= (g, t)
           and supply[g2] - (3 if g2 == g else 0) >= 3]
    return one + two


def surplus_trade(state: DecktetState, seat: int) -> tuple[int, int] | None:
    """A trade that turns a pile tax threatens (five or more tokens of a suit beyond its needs) into the suit the
    seat needs most, if it needs one."""
    held = state.seats[seat]
    need = needs(state, seat)
    extra = [(held.supply[s] - need[s], s) for s in range(6) if held.supply[s] >= 5 and held.supply[s] - need[s] >= 4]
    if not extra:
        return None
    give = max(extra)[1]
    short = [(need[s] - held.supply[s], s) for s in range(6) if s != give and need[s] > held.supply[s]]
    return (give, max(short)[1]) if short else None


def _needs_without(state: DecktetState, seat: int, card_id: str) -> Tokens:
    """The seat's needs once ``card_id`` has left its hand."""
    need = list(needs(state, seat))
    card = info(state.variant.dataset, card_id)
    if card_id in state.seats[seat].hand:
        for s in card.suits:
            need[s] -= economy(state.variant).price(card) // len(card.suits) + 1
    return tuple(max(0, n) for n in need)
