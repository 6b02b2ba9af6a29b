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
    """What the plan does and why: its card plays and developments (with their effect on the districts they
    touch), then ``reason`` (how it was chosen)."""
    parts: list[str] = []
    trades = [a for a in actions if isinstance(a, Trade)]
    if trades:
        parts.append("trades " + listing([f"3 {_suit(before, t.give)} for 1 {_suit(before, t.take)}"
                                          for t in trades]))
    for action in actions:
        if isinstance(action, Buy):
            parts.append(f"buys {_card(before, action.card)} into district {action.district} for "
                         f"{_tokens(before, _payment(before, action.payment))}"
                         + _effect(before, after, seat, action.district))
        elif isinstance(action, Deed):
            value = _card_value(before, action.card)
            parts.append(f"takes a deed on {_card(before, action.card)} in district {action.district} "
                         f"(worth {value} once complete; tokens on it are safe from tax)")
        elif isinstance(action, Sell):
            parts.append(f"sells {_card(before, action.card)} for tokens, no placement being worth more now")
    parts += _developments(before, after, seat, actions)
    if not any(isinstance(a, Buy | Deed | Sell | Develop) for a in actions) and any(
            isinstance(a, Choose) for a in actions):
        parts.append("takes the income its deeds' suits allow")
    text = "; ".join(parts) if parts else "nothing to do but end its turn"
    return f"{text[0].upper()}{text[1:]}. {reason}"


def _developments(before: DecktetState, after: DecktetState, seat: int,
                  actions: tuple[TurnAction, ...]) -> list[str]:
    put: dict[str, int] = {}
    for action in actions:
        if isinstance(action, Develop):
            put[action.card] = put.get(action.card, 0) + action.count
    out = []
    for card, count in put.items():
        where = _where(after, seat, card)
        if where is not None and not where[1]:
            district = chr(ord("a") + where[0])
            out.append(f"completes {_card(before, card)} with {count} token{'s' if count != 1 else ''}"
                       + _effect(before, after, seat, district))
        else:
            out.append(f"puts {count} token{'s' if count != 1 else ''} on its deed on {_card(before, card)}")
    return out


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
    name = f"Player {rival + 1}"
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
    card = info(state.variant.dataset, card_id)
    if card.ace:
        return card.name
    suits = listing([catalog(state.variant.dataset).suits[s].name for s in card.suits])
    return f"{card.name} ({card.number or 'Court'}, {suits})" if card.number else f"{card.name} ({suits})"


def _card_value(state: DecktetState, card_id: str) -> int:
    card = info(state.variant.dataset, card_id)
    return economy(state.variant).fixed_value(card) or 1


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
