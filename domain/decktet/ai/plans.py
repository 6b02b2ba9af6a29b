"""The whole-turn plans the computer considers: its income choices, then a card play (with any trades that make it
affordable), with its deeds developed in a few ways around it.

Every plan is built by applying its actions with the rules' own ``decide_action``, so every plan is legal by
construction and carries the state it leads to (before the end of the turn). The card plays are those of
``legal_commands`` (R4.4-R4.7, R5): each card may be sold; for each district that takes it, bought as a deed or
outright, paying with the tokens the seat needs least (:mod:`.purse`). Deeds are developed not at all, only where
that completes them, or as far as the supply allows (R4.2), before the card play too when completing a deed opens
its district again (R5.4). With two card plays a turn (Mega, V2.5) the best few first plays are each followed by
every second play.
"""

from __future__ import annotations

from collections.abc import Callable

from ..board import deeds
from ..cards import info, suit_codes
from ..commands import Buy, Choose, Deed, Sell, Trade
from ..economy import economy
from ..placement import legal_districts
from ..state import DecktetState
from ..turn import plays_required
from .candidate import Candidate
from .development import develop
from .purse import best_payment, best_suit, needs, trades_for

Scorer = Callable[[DecktetState], int]


def choices(start: Candidate, seat: int) -> Candidate:
    """R9.1c: each paying deed's suit, the one the seat needs most."""
    plan = start
    codes = suit_codes(plan.state.variant.dataset)
    while plan.state.choices:
        card = plan.state.choices[0]
        suit = best_suit(info(plan.state.variant.dataset, card).suits, plan.state.seats[seat].supply,
                         needs(plan.state, seat))
        plan = plan.then(seat, Choose(card=card, suit=codes[suit])) or plan
    return plan


def plans(state: DecktetState, seat: int, score: Scorer, first_plays: int = 3) -> list[Candidate]:
    """Every plan considered for ``seat``'s turn on ``state`` (at least one: selling is always possible). With
    several card plays to make, the best ``first_plays`` first plays are followed by every second play, and the
    deeds are developed as far as they may go (the plans are many already)."""
    start = choices(Candidate((), state), seat)
    plays = plays_required(start.state) - start.state.plays
    bases = [start]
    early = develop(start, seat, complete_only=True)
    if early is not start and _opens_a_district(start.state, early.state, seat):
        bases.append(early)
    out: list[Candidate] = []
    seen: set[object] = set()
    for base in bases:
        for plan in _with_plays(base, seat, plays, score, first_plays):
            for final in _developments(plan, seat) if plays <= 1 else [develop(plan, seat)]:
                key = _key(final.state, seat)
                if key not in seen:
                    seen.add(key)
                    out.append(final)
    return out or [start]


def _with_plays(base: Candidate, seat: int, plays: int, score: Scorer, keep: int) -> list[Candidate]:
    if plays <= 0:
        return [base]
    firsts = card_plays(base, seat)
    if plays == 1:
        return firsts
    firsts.sort(key=lambda c: score(develop(c, seat).state), reverse=True)
    return [plan for first in firsts[:keep] for plan in _with_plays(first, seat, plays - 1, score, keep)]


def card_plays(base: Candidate, seat: int) -> list[Candidate]:
    """One card play after ``base`` (R4.5-R4.7), each card and district in turn."""
    state = base.state
    dataset = state.variant.dataset
    codes = suit_codes(dataset)
    eco = economy(state.variant)
    out: list[Candidate] = []
    done: set[str] = set()
    for card_id in state.seats[seat].hand:
        card = info(dataset, card_id)
        if card.code in done:  # two copies of a card (two Decktets) play alike
            continue
        done.add(card.code)
        sold = base.then(seat, Sell(card=card_id))
        if sold is not None:
            out.append(sold)
        for d in legal_districts(state, seat, card):
            district = chr(ord("a") + d)
            trades = [Trade(give=codes[g], take=codes[t])
                      for g, t in trades_for(state, seat, card_id, eco.deed_price(card))]
            deeded = base.then(seat, *trades, Deed(card=card_id, district=district))
            if deeded is not None:
                out.append(deeded)
            bought = _buy(base, seat, card_id, district)
            if bought is not None:
                out.append(bought)
    return out


def _buy(base: Candidate, seat: int, card_id: str, district: str) -> Candidate | None:
    state = base.state
    codes = suit_codes(state.variant.dataset)
    plan: Candidate | None = base
    if best_payment(state, seat, card_id) is None:
        trades = trades_for(state, seat, card_id, None)
        if not trades:
            return None
        plan = base.then(seat, *(Trade(give=codes[g], take=codes[t]) for g, t in trades))
    if plan is None:
        return None
    payment = best_payment(plan.state, seat, card_id)
    if payment is None:
        return None
    paid = {codes[s]: n for s, n in enumerate(payment) if n}
    return plan.then(seat, Buy(card=card_id, district=district, payment=paid))


def _developments(plan: Candidate, seat: int) -> list[Candidate]:
    if not deeds(plan.state.seats[seat]):
        return [plan]
    out = [plan]
    for complete_only in (True, False):
        developed = develop(plan, seat, complete_only=complete_only)
        if developed is not plan and all(developed.state != o.state for o in out):
            out.append(developed)
    return out


def _opens_a_district(before: DecktetState, after: DecktetState, seat: int) -> bool:
    return len(deeds(after.seats[seat])) < len(deeds(before.seats[seat]))


def _key(state: DecktetState, seat: int) -> object:
    held = state.seats[seat]
    return held.supply, held.hand, held.columns
