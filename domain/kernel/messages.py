"""Base types for the messages a game speaks: player commands, system commands and events.

Every concrete message is a frozen msgspec Struct with an explicit, namespaced tag
(``tag="magnate.plot_bought"``) so that stored events never depend on a class or module name.
Subclasses must repeat ``frozen=True`` (mypy --strict rejects a non-frozen subclass of a frozen
Struct even though msgspec inherits the flag at runtime).

Schema evolution of stored events: only add fields with defaults; never change a field's type;
for anything bigger add a new event type and keep the old one decodable. Events therefore do not
forbid unknown fields, while commands (which come from clients) do.
"""

from __future__ import annotations

import msgspec


class Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    """Something a seat asks to do; validated by ``decide``."""


class SystemCommand(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    """Something the service asks the rules to do on nobody's behalf (setup, dice, market, AI turns)."""


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """A fact that happened; applied by ``evolve`` and never validated again."""


Message = Command | SystemCommand | Event


def tag_of(message: Command | SystemCommand | Event) -> str:
    """The stored tag of a message (its ``type`` field on the wire)."""
    return tag_of_type(type(message))


def tag_of_type(kind: type[msgspec.Struct]) -> str:
    """The stored tag of a message type."""
    tag = kind.__struct_config__.tag
    if not isinstance(tag, str):
        raise TypeError(f"{kind.__name__} has no string tag")
    return tag
