"""Master of Economy's own rule violations (each a :class:`~domain.kernel.RuleViolation` with a stable code)."""

from __future__ import annotations

from domain.kernel import RuleViolation


class CannotAfford(RuleViolation):
    """The corporation or player lacks the cash (ME-I-3, ME-F-2, ME-H-2/4/6, ME-X-3)."""

    code = "rule/cannot_afford"


class LimitReached(RuleViolation):
    """A per-phase or per-turn limit is used up (ME-I-2, ME-I-5, ME-T-6, ME-F-2/3, ME-H-6)."""

    code = "rule/limit_reached"


class NoSuchThing(RuleViolation):
    """An unknown or unavailable corporation, commodity, factory, packet, field or token."""

    code = "rule/no_such_thing"


class NotAllowed(RuleViolation):
    """The rules forbid this move here (own shares, an occupied field, an orphaned corporation ...)."""

    code = "rule/not_allowed"


class AlreadyChosen(RuleViolation):
    """A sealed choice is final once made (§17)."""

    code = "rule/already_chosen"


class NotTheComputers(RuleViolation):
    """The computer plays exactly the seats the game's options gave it: no person plays them, and it plays no other."""

    code = "rule/not_the_computers"
