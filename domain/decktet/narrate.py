"""The log of a game of Decktet Magnate told in sentences (§3.5), one event at a time, as phrases in no language.

A narrator tells the events a viewer may see (:func:`~.secrets.redact`): a card drawn into another seat's hand is
told as "draws a card", and another seat's preferences are not in its log at all. Each line is a
:class:`~domain.kernel.phrases.Phrase` (a message key and its arguments: seats, the catalog's cards and suits,
token amounts); the services render it in the reader's language and name the seats their own way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.kernel.narration import Told
from domain.kernel.phrases import Arg, Listing, Phrase, say, say_n, seat, term

from .board import letter
from .catalog import DEFAULT_DATASET
from .events import (
    AiTurnPlanned,
    CardsDrawn,
    CardSold,
    ChoicesDue,
    DeedBought,
    DeedCompleted,
    DeedDeveloped,
    DiceRolled,
    DiscardsReshuffled,
    FinalRoundStarted,
    GameEnded,
    GameStarted,
    HandDealt,
    IncomeChosen,
    IncomePaid,
    PreferenceSet,
    PropertyBought,
    SeedRevealed,
    Taxed,
    Traded,
    TurnStarted,
)
from .variant import Variant
from .wording import amount, card, cards, suit, suits, tokens

Lines = list[tuple[int, Phrase]]


def options(v: Variant) -> Arg:
    """The variants a game plays, as a list of their names ("the base game" when none)."""
    on = [name for name, flag in ((term("Courts", "variant"), v.courts), (term("Mega", "variant"), v.mega),
                                  (term("double taxation", "variant"), v.taxtax),
                                  (term("three players", "variant"), v.three),
                                  (term("original Aces", "variant"), v.original_aces),
                                  (term("Acey deucey", "variant"), v.deucey),
                                  (term("Courts for Pawns", "variant"), v.courtpawns),
                                  (term("stacked deck", "variant"), v.stacked)) if flag]
    return Listing(tuple(on)) if on else say("the base game")


class Narrator:
    """Turns events into phrases, in log order (it remembers the game's dataset from its start).

    ``names`` is accepted for the services' narrator factory; the services name the seats when they render."""

    def __init__(self, names: Mapping[int, str] | None = None) -> None:
        self.names = dict(names or {})
        self.dataset = DEFAULT_DATASET
        self.tellers: dict[type, Callable[[Any], Lines]] = {
            GameStarted: self._started, HandDealt: self._dealt, TurnStarted: self._turn, DiceRolled: self._rolled,
            Taxed: lambda e: [(1, say("{seat} loses {amount} to tax.", seat=seat(e.seat),
                                      amount=amount(e.suit, e.count, self.dataset)))],
            IncomePaid: self._paid,
            ChoicesDue: lambda e: [(1, say("{seat} is to choose the income of {cards}.", seat=seat(e.seat),
                                           cards=cards(e.cards, self.dataset)))],
            IncomeChosen: lambda e: [(1, say("{seat} takes {amount} from {card}.", seat=seat(e.seat),
                                             amount=amount(e.suit, e.count, self.dataset),
                                             card=card(e.card, self.dataset)))],
            PreferenceSet: lambda e: [(1, say("{seat} prefers {suit} from {card}.", seat=seat(e.seat),
                                              suit=suit(e.suit, self.dataset), card=card(e.card, self.dataset)))],
            Traded: lambda e: [(1, say("{seat} trades {given} for {taken}.", seat=seat(e.seat),
                                       given=amount(e.give, e.given, self.dataset),
                                       taken=amount(e.take, e.taken, self.dataset)))],
            DeedDeveloped: lambda e: [(1, say("{seat} puts {amount} on {card}.", seat=seat(e.seat),
                                              amount=amount(e.suit, e.count, self.dataset),
                                              card=card(e.card, self.dataset)))],
            DeedCompleted: lambda e: [(1, say("{seat} completes {card} in district {district}.", seat=seat(e.seat),
                                              card=card(e.card, self.dataset), district=e.district))],
            PropertyBought: lambda e: [(1, say("{seat} buys {card} into district {district} for {tokens}.",
                                               seat=seat(e.seat), card=card(e.card, self.dataset),
                                               district=e.district, tokens=tokens(e.payment, self.dataset)))],
            DeedBought: lambda e: [(1, say("{seat} takes a deed on {card} in district {district} for {tokens}.",
                                           seat=seat(e.seat), card=card(e.card, self.dataset),
                                           district=e.district, tokens=tokens(e.payment, self.dataset)))],
            CardSold: lambda e: [(1, say("{seat} sells {card} for {tokens}.", seat=seat(e.seat),
                                         card=card(e.card, self.dataset), tokens=tokens(e.tokens, self.dataset)))],
            CardsDrawn: self._drawn,
            DiscardsReshuffled: lambda e: [(1, say(
                "The discards are shuffled into a new draw pile ({cards}); {left}.",
                cards=say_n("{n} card", "{n} cards", "n", n=e.cards),
                left=say_n("{n} reshuffle left", "{n} reshuffles left", "n", n=e.left)))],
            FinalRoundStarted: lambda e: [(1, say_n(
                "The draw pile is exhausted: the final round begins, {n} more turn without drawing.",
                "The draw pile is exhausted: the final round begins, {n} more turns without drawing.", "n",
                n=e.turns))],
            GameEnded: self._ended,
            AiTurnPlanned: self._planned,
            SeedRevealed: lambda e: [(0, say("The game's seed is revealed: {seed}.", seed=e.seed))],
        }

    def tell(self, version: int, tag: str, event: Any) -> list[Told]:
        teller = self.tellers.get(type(event))
        if teller is None:
            return []
        return [Told(version, tag, depth, "", (), phrase) for depth, phrase in teller(event)]

    def _started(self, e: GameStarted) -> Lines:
        self.dataset = e.dataset
        districts = Listing(tuple(say("{letter} {card}", letter=letter(d), card=card(c, self.dataset))
                                  for d, c in enumerate(e.districts)))
        lines: Lines = [
            (0, say("Decktet Magnate begins ({options}).", options=options(e.variant))),
            (1, say("Districts: {districts}.", districts=districts)),
        ]
        lines += [(1, say("{seat} holds {cards} and starts with {tokens}.", seat=seat(s),
                          cards=cards(c, self.dataset), tokens=tokens(e.supplies[s], self.dataset)))
                  for s, c in enumerate(e.crowns)]
        lines.append((1, say("{seat} plays first.", seat=seat(e.first))))
        return lines

    def _dealt(self, e: HandDealt) -> Lines:
        if e.cards:
            return [(1, say_n("{seat} is dealt {n} card: {cards}.", "{seat} is dealt {n} cards: {cards}.", "n",
                              seat=seat(e.seat), n=e.count, cards=cards(e.cards, self.dataset)))]
        return [(1, say_n("{seat} is dealt {n} card.", "{seat} is dealt {n} cards.", "n", seat=seat(e.seat),
                          n=e.count))]

    def _turn(self, e: TurnStarted) -> Lines:
        return [(0, say("Turn {turn}: {seat}.", turn=e.turn, seat=seat(e.seat)))]

    def _rolled(self, e: DiceRolled) -> Lines:
        first, second = e.dice[0], e.dice[1]
        if e.taxed:
            return [(1, say("{seat} rolls {first} and {second}: income {income}; tax on {suits}.",
                            seat=seat(e.seat), first=first, second=second, income=max(e.dice),
                            suits=suits(e.taxed, self.dataset)))]
        return [(1, say("{seat} rolls {first} and {second}: income {income}.", seat=seat(e.seat), first=first,
                        second=second, income=max(e.dice)))]

    def _paid(self, e: IncomePaid) -> Lines:
        if not any(e.tokens):
            return [(1, say("{seat} collects nothing.", seat=seat(e.seat)))]
        return [(1, say("{seat} collects {tokens}.", seat=seat(e.seat), tokens=tokens(e.tokens, self.dataset)))]

    def _drawn(self, e: CardsDrawn) -> Lines:
        if e.cards:
            return [(1, say("{seat} draws {cards}.", seat=seat(e.seat), cards=cards(e.cards, self.dataset)))]
        return [(1, say_n("{seat} draws a card.", "{seat} draws {n} cards.", "n", seat=seat(e.seat), n=e.count))]

    def _planned(self, e: AiTurnPlanned) -> Lines:
        explanation: Arg = e.reason if e.reason is not None else e.explanation
        return [(1, say("{seat} plans its turn: {explanation}", seat=seat(e.seat), explanation=explanation))]

    def _ended(self, e: GameEnded) -> Lines:
        lines: Lines = [(0, say("The game ends."))]
        for s in e.scores:
            lines.append((1, say("{seat} controls {districts} (development value {total}, {tokens} left): rank "
                                 "{rank}.", seat=seat(s.seat),
                                 districts=say_n("{n} district", "{n} districts", "n", n=s.districts),
                                 total=s.total, tokens=say_n("{n} token", "{n} tokens", "n", n=s.tokens),
                                 rank=s.rank)))
        winners = [seat(w.seat) for w in e.scores if w.rank == 1]
        if len(winners) == 1:
            lines.append((0, say("{seat} wins.", seat=winners[0])))
        elif winners:
            lines.append((0, say("{seats} win.", seats=Listing(tuple(winners)))))
        return lines
