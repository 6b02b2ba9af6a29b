"""The computer's reasons as phrases, for the log (``AiTurnPlanned``), told in the reader's language.

An explanation names only what every player may know once the turn is played: the card it plays and where, the
tokens it trades, pays and puts on its deeds, the districts' values (R7.2) before and after, and how the plan
was chosen. It never names a card that stays in its hand, and never a deed's preference (R9.1a: private), so the
plan's own ``Prefer`` actions go unmentioned.

Each step is a whole clause (its own message key), listed as the language lists ("trades …, buys … and
completes …"); how a step changes a district is a clause of its own after a colon.
"""

from __future__ import annotations

from domain.kernel.phrases import Arg, Listing, Phrase, say, say_n, seat

from ..board import district_index
from ..cards import info
from ..catalog import catalog
from ..commands import Buy, Choose, Deed, Develop, Sell, Trade, TurnAction
from ..economy import Tokens, economy
from ..economy import tokens as token_counts
from ..scoring import district_value
from ..state import DecktetState
from ..wording import amount, suits, tokens
from ..wording import card as card_term


def explain(before: DecktetState, after: DecktetState, seat_: int, actions: tuple[TurnAction, ...],
            reason: Phrase) -> Phrase:
    """What the plan does, in the order it does it (its trades, card plays and developments, with their effect on
    the districts they touch), then ``reason`` (how it was chosen)."""
    dataset = before.variant.dataset
    steps: list[Arg] = []
    trades: list[Arg] = []
    developed: set[str] = set()
    for action in actions:
        if isinstance(action, Trade):
            trades.append(say("{given} for {taken}", given=amount(action.give, 3, dataset),
                              taken=amount(action.take, 1, dataset)))
            continue
        if trades:
            steps.append(say("trades {trades}", trades=Listing(tuple(trades))))
            trades = []
        if isinstance(action, Buy):
            steps.append(_with_effect(
                say("buys {card} into district {district} for {tokens}", card=_card(before, action.card),
                    district=action.district, tokens=tokens(_payment(before, action.payment), dataset)),
                _effect(before, after, seat_, action.district)))
        elif isinstance(action, Deed):
            steps.append(say("takes a deed on {card} in district {district}", card=_card(before, action.card),
                             district=action.district) if _completed(after, seat_, action.card)
                         else _deed(before, action.card, action.district))
        elif isinstance(action, Sell):
            sale = economy(before.variant).sale(info(dataset, action.card))
            steps.append(say("sells {card} for {tokens}, no placement being worth more now",
                             card=_card(before, action.card), tokens=tokens(sale, dataset)))
        elif isinstance(action, Develop) and action.card not in developed:
            developed.add(action.card)
            steps.append(_development(before, after, seat_, actions, action.card))
    if trades:
        steps.append(say("trades {trades}", trades=Listing(tuple(trades))))
    if not steps and any(isinstance(a, Choose) for a in actions):
        steps.append(say("takes the income its deeds' suits allow"))
    if not steps:
        return say("It has nothing to do but end its turn. {reason}", reason=reason)
    return say("It {steps}. {reason}", steps=Listing(tuple(steps)), reason=reason)


def _with_effect(step: Phrase, effect: Phrase | None) -> Phrase:
    return step if effect is None else say("{step}: {effect}", step=step, effect=effect)


def _deed(state: DecktetState, card_id: str, district: str) -> Phrase:
    """A new deed, and what it is for: its value once complete (an Ace's depends on its column), its tokens'
    safety."""
    value = economy(state.variant).fixed_value(info(state.variant.dataset, card_id))
    if value:
        return say("takes a deed on {card} in district {district} (worth {value} once complete; tokens on it "
                   "are safe from tax)", card=_card(state, card_id), district=district, value=value)
    return say("takes a deed on {card} in district {district} (tokens on it are safe from tax)",
               card=_card(state, card_id), district=district)


def _development(before: DecktetState, after: DecktetState, seat_: int, actions: tuple[TurnAction, ...],
                 card: str) -> Phrase:
    """The tokens put on one deed this turn, and whether they complete it (and what that does)."""
    count = sum(a.count for a in actions if isinstance(a, Develop) and a.card == card)
    counted = say_n("{n} token", "{n} tokens", "n", n=count)
    where = _where(after, seat_, card)
    if where is None or where[1]:
        return say("puts {tokens} on its deed on {card}", tokens=counted, card=_card(before, card))
    if any(isinstance(a, Deed) and a.card == card for a in actions):
        step = say("completes it with {tokens}", tokens=counted)
    else:
        step = say("completes {card} with {tokens}", card=_card(before, card), tokens=counted)
    return _with_effect(step, _effect(before, after, seat_, chr(ord("a") + where[0])))


def _effect(before: DecktetState, after: DecktetState, seat_: int, district: str) -> Phrase | None:
    """How the seat's standing in ``district`` changed: taking control, widening a lead, closing a gap."""
    d = district_index(after, district)
    if d is None:
        return None
    mine_before, mine = district_value(before, seat_, d), district_value(after, seat_, d)
    rivals = [(district_value(after, s, d), s) for s in after.builders[d] if s != seat_]
    if mine == mine_before or not rivals:
        return None
    theirs, rival = max(rivals)
    led_before = mine_before > theirs
    name: Arg = say("its opponent") if len(after.seats) == 2 else seat(rival)
    if mine > theirs and not led_before and mine_before < theirs:
        return say("it takes control of {district} from {rival} ({mine} to {theirs})", district=district,
                   rival=name, mine=mine, theirs=theirs)
    if mine > theirs and not led_before:
        return say("it takes control of {district} ({mine} to {theirs})", district=district, mine=mine,
                   theirs=theirs)
    if mine > theirs:
        return say("it widens its lead in {district} ({mine} to {theirs})", district=district, mine=mine,
                   theirs=theirs)
    if mine == theirs:
        return say("it draws level with {rival} in {district} ({mine} to {theirs})", rival=name,
                   district=district, mine=mine, theirs=theirs)
    return say("it closes in on {rival} in {district} ({mine} to {theirs})", rival=name, district=district,
               mine=mine, theirs=theirs)


def _where(state: DecktetState, seat_: int, card: str) -> tuple[int, bool] | None:
    for d, column in enumerate(state.seats[seat_].columns):
        for placed in column:
            if placed.card == card:
                return d, placed.deed
    return None


def _card(state: DecktetState, card_id: str) -> Arg:
    """A card as the log names it, with its rank and suits (``The Pact (9, Moons and Suns)``)."""
    dataset = state.variant.dataset
    card = info(dataset, card_id)
    if card.ace:
        return card_term(card_id, dataset)
    codes = catalog(dataset).suit_codes
    listed = suits((codes[s] for s in card.suits), dataset)
    if card.number:
        return say("{card} ({rank}, {suits})", card=card_term(card_id, dataset), rank=card.number, suits=listed)
    return say("{card} ({suits})", card=card_term(card_id, dataset), suits=listed)


def _completed(state: DecktetState, seat_: int, card: str) -> bool:
    where = _where(state, seat_, card)
    return where is not None and not where[1]


def _payment(state: DecktetState, payment: dict[str, int]) -> Tokens:
    codes = catalog(state.variant.dataset).suit_codes
    return token_counts({codes.index(c.upper()): n for c, n in payment.items()})


def percent(score: int, scale: int) -> int:
    """``score`` out of ``scale`` as a whole percentage (rounded half up)."""
    return (200 * score + scale) // (2 * scale) if scale else 0
