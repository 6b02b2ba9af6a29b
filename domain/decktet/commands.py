"""What seats (player commands) and the service (system commands) can ask of a game of Decktet Magnate.

A turn can be played one action at a time (each command below is applied on its own, which is what the page's
step-by-step feedback and an AI search use) or as one atomic submission (:class:`PlayTurn`, R9.4): the actions in
order, then the end of the turn, all applied or none. Either way each action is checked by the same rule.
Suits are written with their codes (``M``, ``S``, ``V``, ``L``, ``Y``, ``K``), districts with their letters
(``a`` on the left), cards with their ids (``8MS``, or ``8MS1`` with two Decktets).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.kernel import Command, SystemCommand

from .variant import GameOptions

CardId = Annotated[str, msgspec.Meta(min_length=1, max_length=8)]
SuitCode = Annotated[str, msgspec.Meta(min_length=1, max_length=1)]
District = Annotated[str, msgspec.Meta(min_length=1, max_length=1)]


class Choose(Command, frozen=True, tag="decktet.choose"):
    """R9.1c: on your own roll, take this deed's income in ``suit`` (required before any other action)."""

    card: CardId
    suit: SuitCode


class Prefer(Command, frozen=True, tag="decktet.prefer"):
    """R9.1a: set the suit this deed pays on the opponents' rolls (private; a free action on your turn)."""

    card: CardId
    suit: SuitCode


class Trade(Command, frozen=True, tag="decktet.trade"):
    """R4.3: give three tokens of ``give`` to the bank and take one of ``take`` (another suit)."""

    give: SuitCode
    take: SuitCode


class Develop(Command, frozen=True, tag="decktet.develop"):
    """R4.2: move ``count`` tokens of ``suit`` from your supply onto your deed ``card``."""

    card: CardId
    suit: SuitCode
    count: int = 1


class Buy(Command, frozen=True, tag="decktet.buy"):
    """R4.5: buy ``card`` outright into ``district``, paying ``payment`` (suit code -> count)."""

    card: CardId
    district: District
    payment: dict[str, int]


class Deed(Command, frozen=True, tag="decktet.deed"):
    """R4.6: buy ``card`` as a deed in ``district`` (one token of each of its suits is paid automatically)."""

    card: CardId
    district: District


class Sell(Command, frozen=True, tag="decktet.sell"):
    """R4.7: sell ``card`` from your hand to the discard pile."""

    card: CardId


class EndTurn(Command, frozen=True, tag="decktet.end_turn"):
    """End the action phase (after the turn's card plays): draw, and the next player rolls (R2.1, R9.2)."""


TurnAction = Choose | Prefer | Trade | Develop | Buy | Deed | Sell


class PlayTurn(Command, frozen=True, tag="decktet.play_turn"):
    """R9.4: a whole turn in one submission: ``actions`` in order, then the end of the turn; all or nothing."""

    actions: tuple[TurnAction, ...]


PlayerCommand = Choose | Prefer | Trade | Develop | Buy | Deed | Sell | EndTurn | PlayTurn


class StartGame(SystemCommand, frozen=True, tag="decktet.start_game"):
    """Set the game up (R1): districts, Crowns, the shuffled deck and hands, the first player and first roll."""

    options: GameOptions
    seed_commitment: str


class TakeAiTurn(SystemCommand, frozen=True, tag="decktet.take_ai_turn"):
    """The computer plays the turn of the seat on turn (a seat the options gave it): its actions, then the end of
    the turn, decided from what that seat may know (domain/decktet/ai)."""


class RevealSeed(SystemCommand, frozen=True, tag="decktet.reveal_seed"):
    """After the end, publish the seed (hex); it must match the commitment in GameStarted."""

    seed: str


DecktetSystemCommand = StartGame | TakeAiTurn | RevealSeed
DecktetCommand = PlayerCommand | DecktetSystemCommand
