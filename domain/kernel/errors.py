"""Typed errors raised by the rules. ``code`` is a stable string for clients and tests;
the message is for humans: ``phrase`` in the reader's language (rendered by the services), ``message`` its
English for logs.

GameError                     "game/error"
├── RuleViolation             "rule/violation"      a command breaks a rule (HTTP 422)
│   ├── WrongPhase            "rule/wrong_phase"
│   ├── NotYourTurn           "rule/not_your_turn"
│   ├── GameAlreadyOver       "rule/game_over"
│   ├── ActorNotAllowed       "rule/actor_not_allowed"   a seat sent a system command or vice versa
│   ├── NothingPending        "rule/nothing_pending"     a system command that is not due
│   ├── InvalidValue          "rule/invalid_value"       a value outside its domain (negative, unknown key)
│   └── (per game: domain/<game>/errors.py)
└── ViewUnavailable           "view/unavailable"    the viewer may not see this yet (auditor while running)
"""

from __future__ import annotations

from typing import Any, ClassVar

from .phrases import Phrase, plain


class GameError(Exception):
    """Base of every error the domain raises on purpose."""

    code: ClassVar[str] = "game/error"

    def __init__(self, message: str = "", /, *, phrase: Phrase | None = None, **details: Any) -> None:
        """``phrase``: the message in no language (``raise WrongPhase(phrase=say("..."))``); ``message`` is then
        its English. An error raised with a message only is told in English to every reader."""
        message = message or (plain(phrase) if phrase is not None else "")
        super().__init__(message)
        self.message = message
        self.phrase = phrase
        self.details = details

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class RuleViolation(GameError):
    """A command breaks a rule of the game; it produced no events."""

    code = "rule/violation"


class WrongPhase(RuleViolation):
    """The command does not belong to the current phase or step."""

    code = "rule/wrong_phase"


class NotYourTurn(RuleViolation):
    """Another seat (or the system) must act now."""

    code = "rule/not_your_turn"


class GameAlreadyOver(RuleViolation):
    """The game has ended; nothing more can be done."""

    code = "rule/game_over"


class ActorNotAllowed(RuleViolation):
    """A seat sent a system command, or the system sent a seat's command."""

    code = "rule/actor_not_allowed"


class NothingPending(RuleViolation):
    """A system command arrived that the game is not waiting for."""

    code = "rule/nothing_pending"


class InvalidValue(RuleViolation):
    """A value is outside its domain (unknown key, negative count, wrong step)."""

    code = "rule/invalid_value"


class ViewUnavailable(GameError):
    """The viewer may not see this view yet (the auditor view before the game has ended)."""

    code = "view/unavailable"
