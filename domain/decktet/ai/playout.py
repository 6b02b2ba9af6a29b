"""The quick player of the search's imagined futures: the easy computer's judgement on fewer plans.

A search plays thousands of imagined turns for each real one, so they must be cheap. Each imagined turn: the
paying deeds' suits the seat needs most; the deeds it can complete now, completed (R5.4: that frees their
districts); one card play, the one :class:`~.evaluation.Position` rates best from a single reading of the state
(selling each card; buying each card outright, paid as :mod:`.purse` prefers, or as a deed, in each district that
takes it); then every token its deeds can take. No trades, and no choice of how far to develop. Only the chosen
play is built, through the rules' ``decide_action`` like every real plan.
"""

from __future__ import annotations

from ..cards import info, suit_codes
from ..commands import Buy, Deed, Sell, TurnAction
from ..economy import Tokens, add, covers, economy, sub
from ..placement import legal_districts
from ..state import DecktetState, Placed
from ..turn import plays_required
from .candidate import Candidate
from .development import Columns, develop, developed
from .evaluation import Position
from .plans import choices
from .purse import best_payment


def playout_turn(state: DecktetState, seat: int) -> Candidate:
    """``seat``'s imagined turn on ``state``."""
    plan = develop(choices(Candidate((), state), seat), seat, complete_only=True)
    for _ in range(plays_required(plan.state) - plan.state.plays):
        plan = plan.then(seat, *best_play(plan.state, seat)) or plan
    return develop(plan, seat)


def best_play(state: DecktetState, seat: int) -> tuple[TurnAction, ...]:
    """The card play (R4.5-R4.7) that the evaluation rates best for ``seat`` once its deeds are developed, judged
    without building states."""
    dataset = state.variant.dataset
    codes = suit_codes(dataset)
    eco = economy(state.variant)
    held = state.seats[seat]
    where = {card: legal_districts(state, seat, info(dataset, card)) for card in held.hand}
    position = Position(state, seat, played=True, placeable={card: bool(ds) for card, ds in where.items()})
    after: dict[Tokens, tuple[Columns, Tokens]] = {}

    def kept(supply: Tokens) -> tuple[Columns, Tokens]:
        """The columns and supply once the deeds already held are developed (a card bought outright never goes
        where a deed is, R5.4, so it changes nothing of this)."""
        if supply not in after:
            columns, left, _ = developed(state.variant, held.columns, supply)
            after[supply] = columns, left
        return after[supply]

    best_rating = -1
    best: tuple[TurnAction, ...] = ()
    for card_id in held.hand:
        card = info(dataset, card_id)
        rest = tuple(c for c in held.hand if c != card_id)
        columns, supply = kept(add(held.supply, eco.sale(card)))
        value = position.rating_after(supply, rest, columns)
        if value > best_rating:
            best_rating, best = value, (Sell(card=card_id),)
        if not where[card_id]:
            continue
        payment = best_payment(state, seat, card_id)
        deed_price = eco.deed_price(card)
        can_deed = covers(held.supply, deed_price)
        for d in where[card_id]:
            if payment is not None:
                columns, supply = kept(sub(held.supply, payment))
                value = position.rating_after(supply, rest, _placed(columns, d, Placed(card=card_id)))
                if value > best_rating:
                    paid = {codes[s]: n for s, n in enumerate(payment) if n}
                    best_rating, best = value, (Buy(card=card_id, district=chr(97 + d), payment=paid),)
            if can_deed:
                columns, supply, _ = developed(state.variant, _placed(held.columns, d, Placed(card=card_id, deed=True)),
                                               sub(held.supply, deed_price))
                value = position.rating_after(supply, rest, columns)
                if value > best_rating:
                    best_rating, best = value, (Deed(card=card_id, district=chr(97 + d)),)
    return best


def _placed(columns: Columns, d: int, placed: Placed) -> Columns:
    return (*columns[:d], (*columns[d], placed), *columns[d + 1:])
