"""The free actions of the action phase (R4.1): income choices (R9.1c), preferences (R9.1a), trades (R4.3) and
developing deeds (R4.2); each rule's decide half beside its evolve half."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import InvalidValue
from domain.kernel.phrases import Phrase, say, say_n, term

from . import wording
from .board import find_placed, letter, replace_placed, with_seat
from .cards import info, suit_codes
from .catalog import catalog
from .economy import add, complete, development_room, economy, sub, tokens
from .errors import CannotAfford, DevelopmentBlocked, NotADeed, SameSuitTrade
from .events import DeedCompleted, DeedDeveloped, IncomeChosen, PreferenceSet, Traded
from .state import DecktetState, Placed
from .wording import amount, named_card


def suit_of(state: DecktetState, code: str) -> int:
    """The index of a suit code, or InvalidValue."""
    codes = suit_codes(state.variant.dataset)
    if code.upper() not in codes:
        raise InvalidValue(phrase=say("{code} is not a suit; one of {codes}", code=repr(code), codes=", ".join(codes)),
                           suit=code)
    return codes.index(code.upper())


def _no_suit(state: DecktetState, card: str, suit: str) -> Phrase:
    return say("{card} has no {suit}", card=named_card(card, state.variant.dataset),
               suit=wording.suit(suit, state.variant.dataset))


def choose(state: DecktetState, seat: int, card: str, suit: str) -> list[IncomeChosen]:
    """R9.1c: the roller takes one of its paying deed's suits."""
    index = suit_of(state, suit)
    if card not in state.choices:
        raise NotADeed(phrase=say("{card} does not await an income choice",
                                  card=named_card(card, state.variant.dataset)), card=card)
    if index not in info(state.variant.dataset, card).suits:
        raise InvalidValue(phrase=_no_suit(state, card, suit), card=card, suit=suit)
    count = economy(state.variant).number.deed_income
    return [IncomeChosen(seat=seat, card=card, suit=suit_codes(state.variant.dataset)[index], count=count)]


def _own_deed(state: DecktetState, seat: int, card: str) -> tuple[int, int, Placed]:
    where = find_placed(state.seats[seat], card)
    if where is None or not state.seats[seat].columns[where[0]][where[1]].deed:
        raise NotADeed(phrase=say("{card} is not one of your deeds", card=named_card(card, state.variant.dataset)),
                       card=card)
    return where[0], where[1], state.seats[seat].columns[where[0]][where[1]]


def prefer(state: DecktetState, seat: int, card: str, suit: str) -> list[PreferenceSet]:
    """R9.1a: a deed's standing preference for the opponents' rolls (a suit of the card)."""
    index = suit_of(state, suit)
    _own_deed(state, seat, card)
    if index not in info(state.variant.dataset, card).suits:
        raise InvalidValue(phrase=_no_suit(state, card, suit), card=card, suit=suit)
    return [PreferenceSet(seat=seat, card=card, suit=suit_codes(state.variant.dataset)[index])]


def trade(state: DecktetState, seat: int, give: str, take: str) -> list[Traded]:
    """R4.3: three of one suit for one of another (D9: never the same suit)."""
    given, taken = suit_of(state, give), suit_of(state, take)
    rule = catalog(state.variant.dataset).rules.trade
    if given == taken:
        raise SameSuitTrade(phrase=say("a trade takes a different suit"))
    if state.seats[seat].supply[given] < rule.give:
        raise CannotAfford(phrase=say_n("a trade gives {n} token of one suit", "a trade gives {n} tokens of one suit",
                                          "n", n=rule.give), suit=give)
    codes = suit_codes(state.variant.dataset)
    return [Traded(seat=seat, give=codes[given], given=rule.give, take=codes[taken], taken=rule.take)]


def develop(state: DecktetState, seat: int, card: str, suit: str, count: int) -> list[DeedDeveloped | DeedCompleted]:
    """R4.2: tokens of the card's suits onto one's own deed, never past what completion allows; completing it."""
    index = suit_of(state, suit)
    district, _, placed = _own_deed(state, seat, card)
    if count < 1:
        raise InvalidValue(phrase=say("develop at least one token"), count=count)
    if state.seats[seat].supply[index] < count:
        held = amount(suit, count, state.variant.dataset)
        raise CannotAfford(phrase=say("you hold fewer than {amount}", amount=held), suit=suit)
    card_info = info(state.variant.dataset, card)
    price = economy(state.variant).price(card_info)
    if count > development_room(card_info, placed.tokens, price, index):
        raise DevelopmentBlocked(phrase=say("{amount} on {card} would exceed its cost or leave no room for its suits",
                                            amount=amount(suit, count, state.variant.dataset),
                                            card=term(card_info.name)))
    code = suit_codes(state.variant.dataset)[index]
    out: list[DeedDeveloped | DeedCompleted] = [DeedDeveloped(seat=seat, card=card, suit=code, count=count)]
    if complete(card_info, add(placed.tokens, tokens({index: count})), price):
        out.append(DeedCompleted(seat=seat, card=card, district=letter(district)))
    return out


def apply_preference_set(state: DecktetState, event: PreferenceSet) -> DecktetState:
    held = state.seats[event.seat]
    where = find_placed(held, event.card)
    assert where is not None
    placed = held.columns[where[0]][where[1]]
    return with_seat(state, event.seat, replace_placed(held, *where, replace(placed, preference=event.suit)))


def apply_traded(state: DecktetState, event: Traded) -> DecktetState:
    codes = suit_codes(state.variant.dataset)
    held = state.seats[event.seat]
    supply = add(sub(held.supply, tokens({codes.index(event.give): event.given})),
                 tokens({codes.index(event.take): event.taken}))
    return with_seat(state, event.seat, replace(held, supply=supply))


def apply_deed_developed(state: DecktetState, event: DeedDeveloped) -> DecktetState:
    moved = tokens({suit_codes(state.variant.dataset).index(event.suit): event.count})
    held = state.seats[event.seat]
    where = find_placed(held, event.card)
    assert where is not None
    placed = held.columns[where[0]][where[1]]
    held = replace_placed(held, *where, replace(placed, tokens=add(placed.tokens, moved)))
    return with_seat(state, event.seat, replace(held, supply=sub(held.supply, moved)))


def apply_deed_completed(state: DecktetState, event: DeedCompleted) -> DecktetState:
    """R4.2d: the tokens go back to the bank; the card stays where it is, developed."""
    held = state.seats[event.seat]
    where = find_placed(held, event.card)
    assert where is not None
    return with_seat(state, event.seat, replace_placed(held, *where, Placed(card=event.card)))
