"""Card plays (R4.4-R4.7): buying outright, buying a deed, selling; one a turn (two in Mega, V2.5)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import InvalidValue
from domain.kernel.phrases import say, say_n, term

from .board import district_index, letter, played, with_column, with_seat
from .cards import CardInfo, info, suit_codes
from .catalog import catalog
from .economy import Tokens, add, covers, economy, is_payment, sub, tokens
from .errors import CannotAfford, CardPlaysUsed, IllegalPlacement, NotInHand, WrongPayment
from .events import CardSold, DeedBought, PropertyBought
from .placement import placement_error
from .state import DecktetState, Placed
from .variant import mode
from .wording import named_card


def plays_allowed(state: DecktetState) -> int:
    """R2.1, V2.5: card plays a turn."""
    return mode(catalog(state.variant.dataset), state.variant).plays


def _playable(state: DecktetState, seat: int, card: str) -> CardInfo:
    if state.plays >= plays_allowed(state):
        raise CardPlaysUsed(phrase=say("this turn's card plays have been made"))
    if card not in state.seats[seat].hand:
        raise NotInHand(phrase=say("{card} is not in your hand", card=named_card(card, state.variant.dataset)),
                       card=card)
    return info(state.variant.dataset, card)


def _district(state: DecktetState, seat: int, card: CardInfo, district: str) -> int:
    index = district_index(state, district)
    if index is None:
        raise InvalidValue(phrase=say("there is no district {district}", district=repr(district)), district=district)
    reason = placement_error(state, seat, card, index)
    if reason is not None:
        raise IllegalPlacement(phrase=say("{card} cannot go into {district}: {reason}", card=term(card.name),
                                             district=letter(index), reason=reason), district=district)
    return index


def parse_payment(state: DecktetState, payment: dict[str, int]) -> Tokens:
    """A payment {suit code: count} as six counts; InvalidValue for unknown suits or negative counts."""
    codes = suit_codes(state.variant.dataset)
    counts: dict[int, int] = {}
    for code, count in payment.items():
        if code.upper() not in codes or count < 0:
            raise InvalidValue(phrase=say("a payment counts tokens of the suits {codes}", codes=", ".join(codes)),
                               payment=payment)
        counts[codes.index(code.upper())] = counts.get(codes.index(code.upper()), 0) + count
    return tokens(counts)


def buy(state: DecktetState, seat: int, card: str, district: str, payment: dict[str, int]) -> list[PropertyBought]:
    """R4.5: the price in the card's suits, each at least once, into a legal district."""
    card_info = _playable(state, seat, card)
    index = _district(state, seat, card_info, district)
    paid = parse_payment(state, payment)
    price = economy(state.variant).price(card_info)
    if not is_payment(card_info, paid, price):
        raise WrongPayment(phrase=say_n("{card} costs {n} token of its suits, at least one of each",
                                         "{card} costs {n} tokens of its suits, at least one of each", "n",
                                         card=term(card_info.name), n=price))
    if not covers(state.seats[seat].supply, paid):
        raise CannotAfford(phrase=say("you do not hold that payment"))
    return [PropertyBought(seat=seat, card=card, district=letter(index), payment=paid)]


def deed(state: DecktetState, seat: int, card: str, district: str) -> list[DeedBought]:
    """R4.6: one token of each of the card's suits, into a legal district (D7: a rank-2 deed is legal)."""
    card_info = _playable(state, seat, card)
    index = _district(state, seat, card_info, district)
    paid = economy(state.variant).deed_price(card_info)
    if not covers(state.seats[seat].supply, paid):
        raise CannotAfford(phrase=say("a deed on {card} takes one token of each of its suits",
                                      card=term(card_info.name)))
    return [DeedBought(seat=seat, card=card, district=letter(index), payment=paid)]


def sell(state: DecktetState, seat: int, card: str) -> list[CardSold]:
    """R4.7: to the discard pile for one token of each suit (an Ace: two of its suit)."""
    card_info = _playable(state, seat, card)
    return [CardSold(seat=seat, card=card, tokens=economy(state.variant).sale(card_info))]


def _placed(state: DecktetState, seat: int, card: str, district: str, placed: Placed, paid: Tokens) -> DecktetState:
    state, hand = played(state, seat, card)
    held = state.seats[seat]
    d = ord(district) - ord("a")
    held = with_column(held, d, (*held.columns[d], placed))
    held = replace(held, hand=hand, supply=sub(held.supply, paid))
    return replace(with_seat(state, seat, held), plays=state.plays + 1)


def apply_property_bought(state: DecktetState, event: PropertyBought) -> DecktetState:
    return _placed(state, event.seat, event.card, event.district, Placed(card=event.card), event.payment)


def apply_deed_bought(state: DecktetState, event: DeedBought) -> DecktetState:
    return _placed(state, event.seat, event.card, event.district, Placed(card=event.card, deed=True), event.payment)


def apply_card_sold(state: DecktetState, event: CardSold) -> DecktetState:
    state, hand = played(state, event.seat, event.card)
    held = state.seats[event.seat]
    held = replace(held, hand=hand, supply=add(held.supply, event.tokens))
    return replace(with_seat(state, event.seat, held), plays=state.plays + 1, discard=(*state.discard, event.card))
