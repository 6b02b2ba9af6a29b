"""The shapes of the planned moves' routes (issue #29)."""

from __future__ import annotations

from typing import Any

import msgspec


class PlanRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    plan: dict[str, Any]
    """One of the game's plans (``{"type": "magnate.pass_auctions", "every_round": false}``): decoded as the game's
    plan union once the game is known."""


class FieldOut(msgspec.Struct, frozen=True):
    name: str
    label: str
    type: str
    """"int" (``minimum``..``maximum`` by ``step``) or "bool"."""
    minimum: int
    maximum: int
    step: int
    default: int


class OfferOut(msgspec.Struct, frozen=True):
    kind: str
    """The plan's type tag (the ``type`` of the plan to PUT)."""
    title: str
    """What the plan does, in the request's language."""
    fields: list[FieldOut]
    """What the seat fills in (the server fixes the plan's scope itself)."""


class PlanOut(msgspec.Struct, frozen=True):
    kind: str
    """The plan's type tag."""
    text: str
    """What it will do, in the request's language."""
    plan: dict[str, Any]
    """The plan as kept (its scope fixed when it was set: ``round``)."""
    set_at: str
    """When it was set (ISO 8601, UTC)."""


class PlansOut(msgspec.Struct, frozen=True):
    game_id: str
    seat: int
    version: int
    offered: list[OfferOut]
    """The plans the seat may set now."""
    plans: list[PlanOut]
    """The seat's plans, by kind; each is played for the seat at its turn until it is spent, it expires or the seat
    moves itself."""
