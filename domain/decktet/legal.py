"""``legal_commands``: the one source of legality for the web page, the bots and the AI.

It lists the next single action of the turn in progress (a whole-turn :class:`~.commands.PlayTurn` is legal
exactly when each of its actions is legal in turn and the turn may then end). While income choices are due only
:class:`~.commands.Choose` is offered (R9.1c). Buying lists every payment the supply affords (a few per card:
they differ in which tokens are kept); developing offers one suit at a time with its count as a parameter (every
count up to the room left is legal, R4.2b-c, and any split of tokens is a sequence of such steps). Trades and
preferences are free actions; :class:`~.commands.EndTurn` appears once the turn's card plays are made.
"""

from __future__ import annotations

from domain.kernel import CommandTemplate, IntParam, Seat

from .board import deeds, letter
from .cards import info, suit_codes
from .catalog import catalog
from .commands import Buy, Choose, Deed, Develop, EndTurn, Prefer, Sell, Trade
from .economy import covers, development_room, economy, payments
from .placement import legal_districts
from .state import DecktetState, Phase
from .turn import plays_required


def legal_commands(state: DecktetState, seat: Seat) -> list[CommandTemplate]:
    """Everything ``seat`` may do now (empty unless it is that seat's turn)."""
    if state.phase != Phase.PLAYING or seat != state.active:
        return []
    codes = suit_codes(state.variant.dataset)
    if state.choices:
        return [CommandTemplate(Choose(card=card, suit=codes[s]))
                for card in state.choices for s in info(state.variant.dataset, card).suits]
    out: list[CommandTemplate] = []
    if state.plays >= plays_required(state):
        out.append(CommandTemplate(EndTurn()))
    else:
        out += _card_plays(state, seat)
    out += _developments(state, seat)
    held = state.seats[seat]
    give = catalog(state.variant.dataset).rules.trade.give
    out += [CommandTemplate(Trade(give=codes[g], take=codes[t]))
            for g in range(6) if held.supply[g] >= give for t in range(6) if t != g]
    for _, placed in deeds(held):
        suits = info(state.variant.dataset, placed.card).suits
        if len(suits) > 1:
            out += [CommandTemplate(Prefer(card=placed.card, suit=codes[s]))
                    for s in suits if codes[s] != placed.preference]
    return out


def _card_plays(state: DecktetState, seat: int) -> list[CommandTemplate]:
    dataset = state.variant.dataset
    eco = economy(state.variant)
    held = state.seats[seat]
    codes = suit_codes(dataset)
    out: list[CommandTemplate] = []
    for card in held.hand:
        card_info = info(dataset, card)
        districts = legal_districts(state, seat, card_info)
        ways = payments(card_info, held.supply, eco.price(card_info)) if districts else []
        deed_ok = covers(held.supply, eco.deed_price(card_info))
        for d in districts:
            out += [CommandTemplate(Buy(card=card, district=letter(d),
                                        payment={codes[s]: n for s, n in enumerate(way) if n}))
                    for way in ways]
            if deed_ok:
                out.append(CommandTemplate(Deed(card=card, district=letter(d))))
        out.append(CommandTemplate(Sell(card=card)))
    return out


def _developments(state: DecktetState, seat: int) -> list[CommandTemplate]:
    dataset = state.variant.dataset
    eco = economy(state.variant)
    held = state.seats[seat]
    codes = suit_codes(dataset)
    out: list[CommandTemplate] = []
    for _, placed in deeds(held):
        card_info = info(dataset, placed.card)
        price = eco.price(card_info)
        for s in card_info.suits:
            room = min(held.supply[s], development_room(card_info, placed.tokens, price, s))
            if room >= 1:
                params = (IntParam("count", 1, room),) if room > 1 else ()
                out.append(CommandTemplate(Develop(card=placed.card, suit=codes[s], count=1), params))
    return out
