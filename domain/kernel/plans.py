"""Planned moves (issue #29): a standing instruction a seat leaves with the server ("pass on the auction this round",
"bid up to 800K"), played for the seat when its turn comes, through the game's own rules.

A game offers its plans as one :class:`PlanKinds` record (:attr:`GameModule.plans`): the tagged union of its plan
structs (what a client may ask for), which of them the seat may set now, the plan as kept (its scope fixed from the
state: "this round" becomes the round's number), the command a plan makes now, and whether its scope is over.
Everything here is pure: the services keep the plans beside the log, private to the seat, and submit the command a
plan makes as the seat (docs/ARCHITECTURE.md, "Planned moves").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import msgspec

from .errors import RuleViolation
from .phrases import Phrase
from .seats import Seat

S = TypeVar("S")


class Plan(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    """A standing instruction of one seat; each game's plans subclass it with a namespaced tag
    (``tag="magnate.pass_auctions"``). A seat holds at most one plan of each kind."""


class PlanField(msgspec.Struct, frozen=True, kw_only=True):
    """A field of a plan the seat fills in (its scope is the server's): a whole number within bounds, or a yes/no."""

    name: str
    label: Phrase
    type: str = "int"
    """"int" or "bool"."""
    minimum: int = 0
    maximum: int = 0
    step: int = 1
    default: int = 0
    """The value the form starts with (0/1 for a yes/no)."""


class PlanOffer(msgspec.Struct, frozen=True, kw_only=True):
    """A plan the seat may set now, as a page offers it: its tag, what it does, and the fields the seat fills in."""

    kind: str
    title: Phrase
    fields: tuple[PlanField, ...] = ()


class PlanRefused(RuleViolation):
    """The plan cannot be set now (not a plan of this game's offer at this moment, or a value outside its domain)."""

    code = "plan/refused"


@dataclass(frozen=True, slots=True)
class PlanKinds(Generic[S]):
    """The plans one game offers, as pure functions of its state."""

    plan_type: Any
    """The tagged union of the game's :class:`Plan` structs (what a client may submit)."""
    offered: Callable[[S, Seat], tuple[PlanOffer, ...]]
    """``offered(state, seat)``: the plans ``seat`` may set now, with their words and fields (the page offers only
    these)."""
    fix: Callable[[S, Seat, Any], Any]
    """``fix(state, seat, plan)``: the plan as kept, its scope fixed from ``state`` ("this round": the round the plan
    covers); raises :class:`PlanRefused` (or another RuleViolation) for a plan that cannot be set now."""
    planned: Callable[[S, Seat, Any], Any | None]
    """``planned(state, seat, plan)``: the player command the plan makes for ``seat`` now, one of the seat's legal
    commands, or None when the plan does not apply now (not its step, or not the seat's turn)."""
    expired: Callable[[S, Any], bool]
    """``expired(state, plan)``: the plan's scope is over (its round has passed, the game has ended): it is dropped."""
    describe: Callable[[Any], Phrase]
    """``describe(plan)``: what a kept plan will do, in words ("Pass in the auction of round 2")."""


def plan_tag(plan_type: type[msgspec.Struct]) -> str:
    """The tag a plan struct is stored and submitted under."""
    tag = plan_type.__struct_config__.tag
    if not isinstance(tag, str):
        raise TypeError(f"{plan_type.__name__} has no string tag")
    return tag
