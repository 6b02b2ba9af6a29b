"""The commitments of the events an append writes (:mod:`infra.chain`): what the hash chain covers in place of
each payload, so a hash handed to a viewer never tells them an event hidden from them.

An event is *hidden* when the public (the least a viewer may see) is shown less of it while the game runs than was
stored: its commitment is then a MAC under a key derived from the game's secret seed, revealed when the game ends.
Every other event's commitment is the SHA-256 of its payload, so a running game's public events stay checkable by
anyone.
"""

from __future__ import annotations

from typing import Any

from domain.kernel import PUBLIC, GameModule
from infra.chain import commitment


def is_hidden(game: GameModule[Any], event: Any) -> bool:
    """True when the public may not see ``event`` whole while the game runs."""
    return not game.events_public and game.redact(event, PUBLIC, False) != event


class Sealer:
    """Commits the events of one append in version order, from the version after ``after``."""

    __slots__ = ("game", "seed", "version")

    def __init__(self, game: GameModule[Any], seed: bytes, after: int) -> None:
        self.game, self.seed, self.version = game, seed, after

    def commit(self, event: Any, payload: bytes) -> str:
        """The commitment of ``event`` (encoded as ``payload``), the next event of the append."""
        self.version += 1
        return commitment(self.seed, self.version, payload, is_hidden(self.game, event))
