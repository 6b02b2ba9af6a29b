"""The facts of a game of Decktet Magnate. Token amounts are six counts in printed suit order (Moons, Suns, Waves,
Leaves, Wyrms, Knots); suits are codes; districts are letters (``a`` on the left).

Every random outcome is recorded (the districts' order, the Crowns dealt, the first player, each card dealt or
drawn, both d10s and the tax dice), so folding a log never draws. Three kinds of event hold what only one seat
may know while the game runs (R1.7, R9.1a): :class:`HandDealt` and :class:`CardsDrawn` (the cards; others see
how many) and :class:`PreferenceSet` (others see nothing); :mod:`.secrets` redacts them.
"""

from __future__ import annotations

from domain.kernel import Event
from domain.kernel.phrases import Phrase

from .state import Score
from .variant import Variant


class GameStarted(Event, frozen=True, tag="decktet.game_started"):
    """R1.2-R1.6: the variant, the districts (left to right), each seat's Crowns and tokens, the property
    deck (one pile, or one per seat with V8), the reshuffles allowed and the first player."""

    variant: Variant
    dataset: str
    districts: tuple[str, ...]
    builders: tuple[tuple[int, ...], ...]
    crowns: tuple[tuple[str, ...], ...]
    supplies: tuple[tuple[int, ...], ...]
    piles: tuple[tuple[str, ...], ...]
    reshuffles: int
    first: int
    seed_commitment: str


class HandDealt(Event, frozen=True, tag="decktet.hand_dealt"):
    """R1.5: ``seat``'s hand, dealt from ``pile`` (``cards`` is empty in another viewer's copy)."""

    seat: int
    cards: tuple[str, ...]
    count: int
    pile: int = 0


class TurnStarted(Event, frozen=True, tag="decktet.turn_started"):
    seat: int
    turn: int


class DiceRolled(Event, frozen=True, tag="decktet.dice_rolled"):
    """R3.1-R3.2: both d10s, the tax d6s (V3: two) and the suits they tax."""

    seat: int
    dice: tuple[int, ...]
    tax_dice: tuple[int, ...] = ()
    taxed: tuple[str, ...] = ()


class Taxed(Event, frozen=True, tag="decktet.taxed"):
    """R3.2: ``seat`` lost ``count`` tokens of ``suit`` (down to one)."""

    seat: int
    suit: str
    count: int


class IncomePaid(Event, frozen=True, tag="decktet.income_paid"):
    """R3.4: what ``seat`` collected from the roll (Crowns, properties, deeds by preference)."""

    seat: int
    tokens: tuple[int, ...]


class ChoicesDue(Event, frozen=True, tag="decktet.choices_due"):
    """R9.1c: the roller's deeds that pay and await its choice of suit."""

    seat: int
    cards: tuple[str, ...]


class IncomeChosen(Event, frozen=True, tag="decktet.income_chosen"):
    """R9.1c: the roller took ``count`` tokens of ``suit`` from its deed ``card``."""

    seat: int
    card: str
    suit: str
    count: int = 1


class PreferenceSet(Event, frozen=True, tag="decktet.preference_set"):
    """R9.1a (private to ``seat``)."""

    seat: int
    card: str
    suit: str


class Traded(Event, frozen=True, tag="decktet.traded"):
    """R4.3: ``given`` tokens of ``give`` for ``taken`` of ``take``."""

    seat: int
    give: str
    given: int
    take: str
    taken: int


class DeedDeveloped(Event, frozen=True, tag="decktet.deed_developed"):
    """R4.2: ``count`` tokens of ``suit`` moved onto the deed."""

    seat: int
    card: str
    suit: str
    count: int


class DeedCompleted(Event, frozen=True, tag="decktet.deed_completed"):
    """R4.2d: the deed is a developed property; its tokens went back to the bank."""

    seat: int
    card: str
    district: str


class PropertyBought(Event, frozen=True, tag="decktet.property_bought"):
    """R4.5: bought outright into ``district`` for ``payment``."""

    seat: int
    card: str
    district: str
    payment: tuple[int, ...]


class DeedBought(Event, frozen=True, tag="decktet.deed_bought"):
    """R4.6: a deed placed in ``district``; ``payment`` is lost."""

    seat: int
    card: str
    district: str
    payment: tuple[int, ...]


class CardSold(Event, frozen=True, tag="decktet.card_sold"):
    """R4.7: the card went to the discard pile for ``tokens``."""

    seat: int
    card: str
    tokens: tuple[int, ...]


class CardsDrawn(Event, frozen=True, tag="decktet.cards_drawn"):
    """R6.1: ``count`` cards from ``pile`` into ``seat``'s hand (``cards`` is empty in another viewer's copy)."""

    seat: int
    cards: tuple[str, ...]
    count: int
    pile: int = 0


class DiscardsReshuffled(Event, frozen=True, tag="decktet.discards_reshuffled"):
    """R6.2 (V8: with both personal piles): the discards became the draw pile; ``left`` reshuffles remain."""

    cards: int
    left: int


class FinalRoundStarted(Event, frozen=True, tag="decktet.final_round_started"):
    """R6.3-R6.5: the final exhaustion; ``turns`` more turns are played, without drawing."""

    turns: int


class TurnEnded(Event, frozen=True, tag="decktet.turn_ended"):
    """The end of ``seat``'s turn; ``turns_left`` counts the turns still to play after the final exhaustion."""

    seat: int
    turns_left: int | None = None


class GameEnded(Event, frozen=True, tag="decktet.game_ended"):
    """R7: every seat's district values, districts controlled, tie-breakers and rank, best first."""

    scores: tuple[Score, ...]
    control: tuple[int | None, ...] = ()
    """Who controls each district (None: nobody)."""


class AiTurnPlanned(Event, frozen=True, tag="decktet.ai_turn_planned"):
    """The computer's plan for ``seat``'s turn at ``level``, in words, before its actions' own events: why it
    plays as it does, naming only what every player may know (the cards it plays, never the ones it keeps)."""

    seat: int
    level: str
    explanation: str = ""
    """The plan in English words, as logs written before the reasons were phrases hold it (new logs: ``reason``)."""
    reason: Phrase | None = None
    """The plan in no language (a message key and its arguments), told in the reader's language."""


class SeedRevealed(Event, frozen=True, tag="decktet.seed_revealed"):
    seed: str


DecktetEvent = (
    GameStarted | HandDealt | TurnStarted | DiceRolled | Taxed | IncomePaid | ChoicesDue | IncomeChosen
    | PreferenceSet | Traded | DeedDeveloped | DeedCompleted | PropertyBought | DeedBought | CardSold | CardsDrawn
    | DiscardsReshuffled | FinalRoundStarted | TurnEnded | GameEnded | AiTurnPlanned | SeedRevealed
)
