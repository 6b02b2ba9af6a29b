"""Who acts and who looks: seats, the system actor and viewers."""

from __future__ import annotations

from typing import Literal, NewType

Seat = NewType("Seat", int)
"""A seat index, 0-based, in clockwise order."""

SYSTEM: Literal["system"] = "system"
Actor = Seat | Literal["system"]
"""Who issues a command: a seat, or the service on nobody's behalf."""

PUBLIC: Literal["public"] = "public"
AUDITOR: Literal["auditor"] = "auditor"
Viewer = Seat | Literal["public", "auditor"]
"""Who looks at a view: a seat (its own secrets visible), the public, or an auditor (after the end)."""


def clockwise(first: int, count: int) -> tuple[Seat, ...]:
    """The seats in turn order starting with ``first``."""
    return tuple(Seat((first + i) % count) for i in range(count))
