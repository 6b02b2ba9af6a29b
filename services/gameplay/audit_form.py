"""What "the same message" means to ``verify`` when the game's message types have grown since a log was written.

Commands and events are stored as their canonical JSON (msgspec's encoding of the struct: its fields in order, every
field written). A field added to a type later, with a default (``TableOptions.undo``, ``rated``), is absent from the
lines of games recorded before it: decoding such a line gives the default, and encoding it again writes the new
field, so the bytes no longer match although nothing was changed. :func:`as_recorded` accepts exactly that and
nothing more: the recorded line must mean the same as the canonical one (decoded with today's types, it encodes to the
canonical bytes: a field it lacks holds its default there) and be the canonical bytes with only such absent fields
left out (same order, same spacing, same escapes). A line that drops a field whose value is not its default means
something else, and one written in any other form is not canonical: both are refused as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec


def _without_absent(canonical: Any, recorded: Any) -> Any:
    """``canonical`` with every object key that ``recorded`` lacks (at the same place) left out."""
    if isinstance(canonical, dict) and isinstance(recorded, dict):
        return {k: _without_absent(v, recorded[k]) for k, v in canonical.items() if k in recorded}
    if isinstance(canonical, list) and isinstance(recorded, list) and len(canonical) == len(recorded):
        return [_without_absent(c, r) for c, r in zip(canonical, recorded, strict=True)]
    return canonical


def as_recorded(canonical: bytes, recorded: bytes, decode: Callable[[bytes], Any],
                encode: Callable[[Any], bytes]) -> bool:
    """Whether ``recorded`` is the message whose canonical JSON is ``canonical``, written before fields that hold
    their defaults in it were added to its type (``decode``/``encode``: the game's codec for its kind of message)."""
    if canonical == recorded:
        return True
    try:
        if encode(decode(recorded)) != canonical:
            return False  # another meaning (or not a message of this type at all)
        return msgspec.json.encode(_without_absent(msgspec.json.decode(canonical), msgspec.json.decode(recorded))) \
            == recorded
    except (ValueError, RecursionError):
        return False
