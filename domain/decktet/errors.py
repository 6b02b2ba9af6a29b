"""Decktet Magnate's own rule violations (each a :class:`~domain.kernel.RuleViolation` with a stable code)."""

from __future__ import annotations

from domain.kernel import RuleViolation


class NotInHand(RuleViolation):
    """The card is not in the player's hand."""

    code = "rule/not_in_hand"


class IllegalPlacement(RuleViolation):
    """R5: no suit matches, a deed blocks the district, or the seat may not build there."""

    code = "rule/illegal_placement"


class WrongPayment(RuleViolation):
    """R4.5: the payment is not the price in the card's suits with each suit at least once."""

    code = "rule/wrong_payment"


class CannotAfford(RuleViolation):
    """The supply does not hold the tokens the action takes."""

    code = "rule/cannot_afford"


class ChoicesFirst(RuleViolation):
    """R9.1c: the income choices of the turn's own roll come before any other action."""

    code = "rule/choices_first"


class CardPlaysUsed(RuleViolation):
    """R2.1, V2.5: the turn's card plays have all been made."""

    code = "rule/card_plays_used"


class CardPlayMissing(RuleViolation):
    """R2.3: the turn cannot end before its card plays."""

    code = "rule/card_play_missing"


class NotADeed(RuleViolation):
    """The card is not one of the player's deeds (or, for a choice, not one awaiting it)."""

    code = "rule/not_a_deed"


class DevelopmentBlocked(RuleViolation):
    """R4.2b-c: the tokens would exceed the completion cost or leave no room for a missing suit."""

    code = "rule/development_blocked"


class SameSuitTrade(RuleViolation):
    """R4.3, D9: a trade must take another suit."""

    code = "rule/same_suit_trade"


class NotTheComputers(RuleViolation):
    """The computer plays exactly the seats the game's options gave it: no person plays them, and it plays no other."""

    code = "rule/not_the_computers"
