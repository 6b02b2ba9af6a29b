"""Rolling for resources (R3): both d10s, taxation before income, then income for every seat (R3.4).

The roller's own deeds that pay ask for its choice of suit (R9.1c, :class:`~.events.ChoicesDue`); every other
seat's deeds pay their owner's standing preference, or the default of R9.1b. The first roll of the game follows
the same rules (R9.3, D11).
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import Chance

from .board import with_seat
from .cards import info, suit_codes
from .catalog import catalog
from .economy import Tokens, add, economy, sub, tokens
from .events import ChoicesDue, DiceRolled, IncomeChosen, IncomePaid, Taxed
from .recorder import Recorder
from .state import DecktetState, Placed, Roll, SeatState


def roll(rec: Recorder, seat: int, chance: Chance) -> None:
    """R3.1-R3.5 for the roll that opens ``seat``'s turn."""
    state = rec.state
    dice_rules = catalog(state.variant.dataset).rules.dice
    dice = chance.roll(2, dice_rules.income_sides)
    tax_dice: tuple[int, ...] = ()
    if dice_rules.tax_on in dice:
        tax_dice = chance.roll(dice_rules.taxtax_dice if state.variant.taxtax else dice_rules.tax_dice,
                               dice_rules.tax_sides)
    codes = suit_codes(state.variant.dataset)
    taxed = tuple(dict.fromkeys(codes[face - 1] for face in tax_dice))
    rec.emit(DiceRolled(seat=seat, dice=dice, tax_dice=tax_dice, taxed=taxed))
    for s, held in enumerate(rec.state.seats):
        for code in taxed:
            extra = held.supply[codes.index(code)] - dice_rules.tax_keep
            if extra > 0:
                rec.emit(Taxed(seat=s, suit=code, count=extra))
    income = max(dice)
    for s, held in enumerate(rec.state.seats):
        paid = seat_income(rec.state, s, held, income)
        if any(paid):
            rec.emit(IncomePaid(seat=s, tokens=paid))
    due = tuple(p.card for p in _paying_deeds(rec.state, rec.state.seats[seat], income)
                if len(info(state.variant.dataset, p.card).suits) > 1)
    if due:
        rec.emit(ChoicesDue(seat=seat, cards=due))


def seat_income(state: DecktetState, seat: int, held: SeatState, income: int) -> Tokens:
    """R3.4: what ``seat`` collects on ``income``, its choices aside when it is the roller."""
    dataset = state.variant.dataset
    dice_rules = catalog(dataset).rules.dice
    if income == dice_rules.crown_income:
        counts: dict[int, int] = {}
        for crown in held.crowns:
            suit = info(dataset, crown).suits[0]
            counts[suit] = counts.get(suit, 0) + 1
        return tokens(counts)
    eco = economy(state.variant)
    counts = {}
    for column in held.columns:
        for placed in column:
            card = info(dataset, placed.card)
            if not eco.pays_income(card, income):
                continue
            if not placed.deed or card.ace:
                for suit in card.suits:
                    counts[suit] = counts.get(suit, 0) + eco.number.income_per_suit
            elif seat != state.active:
                suit = preferred_suit(state, held, placed.card, placed.preference)
                counts[suit] = counts.get(suit, 0) + eco.number.deed_income
    return tokens(counts)


def preferred_suit(state: DecktetState, held: SeatState, card: str, preference: str | None) -> int:
    """R9.1b: the deed's preference, else the suit its owner has no Crown of if exactly one is such, else the suit
    it holds fewer tokens of (counted before this roll's income), else the card's second suit."""
    dataset = state.variant.dataset
    suits = info(dataset, card).suits
    if preference is not None:
        return suit_codes(dataset).index(preference)
    crowned = {info(dataset, c).suits[0] for c in held.crowns}
    uncrowned = [s for s in suits if s not in crowned]
    if len(uncrowned) == 1:
        return uncrowned[0]
    first, second = suits[0], suits[-1]
    return first if held.supply[first] < held.supply[second] else second


def _paying_deeds(state: DecktetState, held: SeatState, income: int) -> list[Placed]:
    eco = economy(state.variant)
    return [p for column in held.columns for p in column
            if p.deed and eco.pays_income(info(state.variant.dataset, p.card), income)]


def apply_dice_rolled(state: DecktetState, event: DiceRolled) -> DecktetState:
    return replace(state, roll=Roll(seat=event.seat, dice=event.dice, tax_dice=event.tax_dice, taxed=event.taxed))


def apply_taxed(state: DecktetState, event: Taxed) -> DecktetState:
    held = state.seats[event.seat]
    lost = tokens({suit_codes(state.variant.dataset).index(event.suit): event.count})
    return with_seat(state, event.seat, replace(held, supply=sub(held.supply, lost)))


def apply_income_paid(state: DecktetState, event: IncomePaid) -> DecktetState:
    held = state.seats[event.seat]
    return with_seat(state, event.seat, replace(held, supply=add(held.supply, event.tokens)))


def apply_choices_due(state: DecktetState, event: ChoicesDue) -> DecktetState:
    return replace(state, choices=event.cards)


def apply_income_chosen(state: DecktetState, event: IncomeChosen) -> DecktetState:
    held = state.seats[event.seat]
    gained = tokens({suit_codes(state.variant.dataset).index(event.suit): event.count})
    choices = list(state.choices)
    choices.remove(event.card)
    state = with_seat(state, event.seat, replace(held, supply=add(held.supply, gained)))
    return replace(state, choices=tuple(choices))
