"""Request and response bodies of a game's chat."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from infra.chat import ChatLine

from .schemas import NO_NUL

TEXT_MAX = 500
"""Characters a line may hold once trimmed (more: 422 chat/too_long)."""


class ChatRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    text: Annotated[str, Meta(pattern=NO_NUL, description=f"1 to {TEXT_MAX} characters once trimmed; stored and "
                                                          "shown as plain text.")]


class ChatOut(msgspec.Struct, frozen=True):
    game_id: str
    lines: list[ChatLine]
    """In order; the lines of a muted seat only for the host (marked ``hidden``)."""
    muted: list[int]
    """The seats the host muted."""
    host_seat: int | None
    """The seat that may mute the others."""
