"""Wire formats of one game: canonical JSON for events and commands, msgpack for snapshots.

The canonical bytes of an event are ``msgspec.json.encode(event)`` (fields in declaration order, tag
first); they are stored as they were hashed, so the hash chain never depends on re-encoding.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from domain.kernel import GameModule, tag_of


class GameCodec:
    """Encoders and decoders for one game module's messages and state."""

    def __init__(self, game: GameModule[Any]) -> None:
        self.game = game
        self._events = msgspec.json.Decoder(game.event_type)
        self._player = msgspec.json.Decoder(game.player_command_type)
        self._system = msgspec.json.Decoder(game.system_command_type)
        self._state = msgspec.msgpack.Decoder(game.state_type)
        self.state_schema = _schema_id(game.state_type)
        """Identifies the state layout; a snapshot written under another layout is ignored."""

    @staticmethod
    def encode(message: Any) -> bytes:
        return msgspec.json.encode(message)

    @staticmethod
    def tag(message: Any) -> str:
        return tag_of(message)

    def decode_event(self, payload: bytes) -> Any:
        return self._events.decode(payload)

    def decode_player_command(self, payload: bytes) -> Any:
        return self._player.decode(payload)

    def decode_command(self, payload: bytes, system: bool) -> Any:
        return (self._system if system else self._player).decode(payload)

    def encode_state(self, state: Any) -> bytes:
        return msgspec.msgpack.encode(state)

    def decode_state(self, data: bytes) -> Any:
        return self._state.decode(data)


def _schema_id(state_type: Any) -> str:
    schema = msgspec.json.encode(msgspec.json.schema(state_type), order="sorted")
    return hashlib.sha256(schema).hexdigest()[:16]
