"""The log of a game of Decktet Magnate told in sentences (§3.5), one event at a time.

A narrator tells the events a viewer may see (:func:`~.secrets.redact`): a card drawn into another seat's hand is
told as "draws a card", and another seat's preferences are not in its log at all. Seats are named with the
players' names when given ("Player 2" otherwise), and each line says where it names which seat
(:class:`~domain.kernel.Named`), so a page can name them its own way.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.kernel.narration import LineNarrator, Part

from .board import letter
from .cards import info
from .catalog import DEFAULT_DATASET, catalog
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
    TurnEnded,
    TurnStarted,
)


def listing(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


class Narrator(LineNarrator):
    """Turns events into lines of text, in log order."""

    def __init__(self, names: Mapping[int, str] | None = None) -> None:
        super().__init__(names)
        self.dataset = DEFAULT_DATASET
        self.tellers = {
            GameStarted: self._started, HandDealt: self._dealt, TurnStarted: self._turn, DiceRolled: self._rolled,
            Taxed: lambda e: [(1, [(e.seat,), f" loses {self._count(e.count, e.suit)} to tax."])],
            IncomePaid: lambda e: [(1, [(e.seat,), f" collects {self._tokens(e.tokens)}."])],
            ChoicesDue: lambda e: [(1, [(e.seat,), f" is to choose the income of {self._cards(e.cards)}."])],
            IncomeChosen: lambda e: [(1, [(e.seat,), f" takes {self._count(e.count, e.suit)} from "
                                              f"{self._card(e.card)}."])],
            PreferenceSet: lambda e: [(1, [(e.seat,), f" prefers {self._suit(e.suit)} from {self._card(e.card)}."])],
            Traded: lambda e: [(1, [(e.seat,), f" trades {self._count(e.given, e.give)} for "
                                        f"{self._count(e.taken, e.take)}."])],
            DeedDeveloped: lambda e: [(1, [(e.seat,), f" puts {self._count(e.count, e.suit)} on "
                                               f"{self._card(e.card)}."])],
            DeedCompleted: lambda e: [(1, [(e.seat,), f" completes {self._card(e.card)} in district {e.district}."])],
            PropertyBought: lambda e: [(1, [(e.seat,), f" buys {self._card(e.card)} into district {e.district} "
                                                f"for {self._tokens(e.payment)}."])],
            DeedBought: lambda e: [(1, [(e.seat,), f" takes a deed on {self._card(e.card)} in district "
                                            f"{e.district} for {self._tokens(e.payment)}."])],
            CardSold: lambda e: [(1, [(e.seat,), f" sells {self._card(e.card)} for {self._tokens(e.tokens)}."])],
            CardsDrawn: self._drawn,
            DiscardsReshuffled: lambda e: [(1, [f"The discards are shuffled into a new draw pile ({e.cards} cards); "
                                                f"{self._plural(e.left, 'reshuffle')} left."])],
            FinalRoundStarted: lambda e: [(1, [f"The draw pile is exhausted: the final round begins, "
                                               f"{self._plural(e.turns, 'more turn')} without drawing."])],
            TurnEnded: lambda e: [],
            GameEnded: self._ended,
            AiTurnPlanned: lambda e: [(1, [(e.seat,), f" plans its turn: {e.explanation}"])],
            SeedRevealed: lambda e: [(0, [f"The game's seed is revealed: {e.seed}."])],
        }

    def _suit(self, code: str) -> str:
        return next(s.name for s in catalog(self.dataset).suits if s.code == code)

    def _count(self, count: int, code: str) -> str:
        return f"{count} {self._suit(code)}"

    def _tokens(self, tokens: tuple[int, ...]) -> str:
        suits = catalog(self.dataset).suits
        parts = [f"{n} {suits[i].name}" for i, n in enumerate(tokens) if n]
        return listing(parts) if parts else "nothing"

    def _card(self, card: str) -> str:
        return info(self.dataset, card).name

    def _cards(self, cards: tuple[str, ...]) -> str:
        return listing([self._card(c) for c in cards])

    @staticmethod
    def _plural(n: int, word: str) -> str:
        return f"{n} {word}" + ("" if n == 1 else "s")

    def _started(self, e: GameStarted) -> list[tuple[int, list[Part]]]:
        self.dataset = e.dataset
        v = e.variant
        on = [name for name, flag in (("Courts", v.courts), ("Mega", v.mega), ("double taxation", v.taxtax),
                                      ("three players", v.three), ("original Aces", v.original_aces),
                                      ("Acey deucey", v.deucey), ("Courts for Pawns", v.courtpawns),
                                      ("stacked deck", v.stacked)) if flag]
        lines: list[tuple[int, list[Part]]] = [
            (0, [f"Decktet Magnate begins ({listing(on) if on else 'the base game'})."]),
            (1, ["Districts: " + ", ".join(f"{letter(d)} {self._card(c)}" for d, c in enumerate(e.districts)) + "."]),
        ]
        lines += [(1, [(s,), f" holds {self._cards(c)} and starts with {self._tokens(e.supplies[s])}."])
                  for s, c in enumerate(e.crowns)]
        lines.append((1, [(e.first,), " plays first."]))
        return lines

    def _dealt(self, e: HandDealt) -> list[tuple[int, list[Part]]]:
        cards = f": {self._cards(e.cards)}" if e.cards else ""
        return [(1, [(e.seat,), f" is dealt {self._plural(e.count, 'card')}{cards}."])]

    def _turn(self, e: TurnStarted) -> list[tuple[int, list[Part]]]:
        return [(0, [f"Turn {e.turn}: ", (e.seat,), "."])]

    def _rolled(self, e: DiceRolled) -> list[tuple[int, list[Part]]]:
        text = f" rolls {e.dice[0]} and {e.dice[1]}: income {max(e.dice)}"
        if e.taxed:
            text += f"; tax on {listing([self._suit(s) for s in e.taxed])}"
        return [(1, [(e.seat,), text + "."])]

    def _drawn(self, e: CardsDrawn) -> list[tuple[int, list[Part]]]:
        what = self._cards(e.cards) if e.cards else ("a card" if e.count == 1 else f"{e.count} cards")
        return [(1, [(e.seat,), f" draws {what}."])]

    def _ended(self, e: GameEnded) -> list[tuple[int, list[Part]]]:
        lines: list[tuple[int, list[Part]]] = [(0, ["The game ends."])]
        for s in e.scores:
            lines.append((1, [(s.seat,), f" controls {self._plural(s.districts, 'district')} (development value "
                                         f"{s.total}, {self._plural(s.tokens, 'token')} left): rank {s.rank}."]))
        winners: list[Part] = []
        for i, s in enumerate(w for w in e.scores if w.rank == 1):
            winners += ([" and "] if i else []) + [(s.seat,)]
        verb = " win." if len(winners) > 1 else " wins."
        return [*lines, (0, [*winners, verb])]
