"""The computer's reasons in words, for the log (``AiTurnPlanned``).

An explanation names only what every player may know once the turn is played: the card it plays and where, the
tokens it trades, pays and puts on its deeds, the districts' values (R7.2) before and after, and how the plan
was chosen. It never names a card that stays in its hand, and never a deed's preference (R9.1a: private), so the
plan's own ``Prefer`` actions go unmentioned.
"""

from __future__ import annotations

from ..board import district_index
from ..cards import info
from ..catalog import catalog
from ..commands import Buy, Choose, Deed, Develop, Sell, Trade, TurnAction
from ..economy import Tokens, economy, tokens
from ..narrate import listing
from ..scoring import district_value
from ..state import DecktetState


def explain(before: DecktetState, after: DecktetState, seat: int, actions: tuple[TurnAction, ...],
            reason: str) -> str:
    """What the plan does, in the order it does it (its trades, card plays and developments, with their effect on
    the districts they touch), then ``reason`` (how it was chosen)."""
    parts: list[str] = []
    trades: list[str] = []
    developed: set[str] = set()
    for action in actions:
        if isinstance(action, Trade):
            trades.append(f"3 {_suit(before, action.give)} for 1 {_suit(before, action.take)}")
            continue
        if trades:
            parts.append("trades " + listing(trades))
            trades = []
        if isinstance(action, Buy):
            parts.append(f"buys {_card(before, action.card)} into district {action.district} for "
                         f"{_tokens(before, _payment(before, action.payment))}"
                         + _effect(before, after, seat, action.district))
        elif isinstance(action, Deed):
            parts.append(f"takes a deed on {_card(before, action.card)} in district {action.district}"
                         + ("" if _completed(after, seat, action.card) else _deed_note(before, action.card)))
        elif isinstance(action, Sell):
            sale = economy(before.variant).sale(info(before.variant.dataset, action.card))
            parts.append(f"sells {_card(before, action.card)} for {_tokens(before, sale)}, no placement being "
                         "worth more now")
        elif isinstance(action, Develop) and action.card not in developed:
            developed.add(action.card)
            parts.append(_development(before, after, seat, actions, action.card))
    if trades:
        parts.append("trades " + listing(trades))
    if not parts and any(isinstance(a, Choose) for a in actions):
        parts.append("takes the income its deeds' suits allow")
    text = "; ".join(parts) if parts else "nothing to do but end its turn"
    return f"{text[0].upper()}{text[1:]}. {reason}"


def _development(before: DecktetState, after: DecktetState, seat: int, actions: tuple[TurnAction, ...],
                 card: str) -> str:
    """The tokens put on one deed this turn, and whether they complete it (and what that does)."""
    count = sum(a.count for a in actions if isinstance(a, Develop) and a.card == card)
    tokens_text = f"{count} token{'s' if count != 1 else ''}"
    where = _where(after, seat, card)
    if where is None or where[1]:
        return f"puts {tokens_text} on its deed on {_card(before, card)}"
    name = "it" if any(isinstance(a, Deed) and a.card == card for a in actions) else _card(before, card)
    return f"completes {name} with {tokens_text}" + _effect(before, after, seat, chr(ord("a") + where[0]))


def _effect(before: DecktetState, after: DecktetState, seat: int, district: str) -> str:
    """How the seat's standing in ``district`` changed: taking control, widening a lead, closing a gap."""
    d = district_index(after, district)
    if d is None:
        return ""
    mine_before, mine = district_value(before, seat, d), district_value(after, seat, d)
    rivals = [(district_value(after, s, d), s) for s in after.builders[d] if s != seat]
    if mine == mine_before or not rivals:
        return ""
    theirs, rival = max(rivals)
    led_before = mine_before > theirs
    name = "its opponent" if len(after.seats) == 2 else f"Player {rival + 1}"
    score = f"({mine} to {theirs})"
    if mine > theirs and not led_before and mine_before < theirs:
        return f": it takes control of {district} from {name} {score}"
    if mine > theirs and not led_before:
        return f": it takes control of {district} {score}"
    if mine > theirs:
        return f": it widens its lead in {district} {score}"
    if mine == theirs:
        return f": it draws level with {name} in {district} {score}"
    return f": it closes in on {name} in {district} {score}"


def _where(state: DecktetState, seat: int, card: str) -> tuple[int, bool] | None:
    for d, column in enumerate(state.seats[seat].columns):
        for placed in column:
            if placed.card == card:
                return d, placed.deed
    return None


def _card(state: DecktetState, card_id: str) -> str:
    """A card as the log names it, with its rank and suits (``The Pact (9, Moons and Suns)``)."""
    card = info(state.variant.dataset, card_id)
    if card.ace:
        return card.name
    suits = listing([catalog(state.variant.dataset).suits[s].name for s in card.suits])
    return f"{card.name} ({card.number}, {suits})" if card.number else f"{card.name} ({suits})"


def _deed_note(state: DecktetState, card_id: str) -> str:
    """What a new deed is for: its value once complete (an Ace's depends on its column), its tokens' safety."""
    value = economy(state.variant).fixed_value(info(state.variant.dataset, card_id))
    worth = f"worth {value} once complete; " if value else ""
    return f" ({worth}tokens on it are safe from tax)"


def _completed(state: DecktetState, seat: int, card: str) -> bool:
    where = _where(state, seat, card)
    return where is not None and not where[1]


def _suit(state: DecktetState, code: str) -> str:
    return next(s.name for s in catalog(state.variant.dataset).suits if s.code == code.upper())


def _payment(state: DecktetState, payment: dict[str, int]) -> Tokens:
    codes = catalog(state.variant.dataset).suit_codes
    return tokens({codes.index(c.upper()): n for c, n in payment.items()})


def _tokens(state: DecktetState, amounts: Tokens) -> str:
    suits = catalog(state.variant.dataset).suits
    return listing([f"{n} {suits[i].name}" for i, n in enumerate(amounts) if n]) or "nothing"


def percent(score: int, scale: int) -> int:
    """``score`` out of ``scale`` as a whole percentage (rounded half up)."""
    return (200 * score + scale) // (2 * scale) if scale else 0
