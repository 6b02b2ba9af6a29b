"""After the end: publishing a game's secret seed so every random outcome can be re-derived (docs/RANDOMNESS.md).

Every game's state carries ``seed_commitment`` (the SHA-256 published in its first event) and ``seed`` (None until
revealed). :func:`reveal_seed` is the check every game's reveal command runs; :func:`apply_seed_revealed` is the
evolve half of the game's own ``SeedRevealed`` event (whose tag stays the game's).
"""

from __future__ import annotations

import hashlib
from typing import Protocol, TypeVar

import msgspec

from .errors import InvalidValue, WrongPhase
from .phrases import Phrase, say

E_co = TypeVar("E_co", covariant=True)
S = TypeVar("S", bound=msgspec.Struct)


class Sealed(Protocol):
    """A state that holds a seed's commitment and, once revealed, the seed."""

    @property
    def seed_commitment(self) -> str: ...

    @property
    def seed(self) -> str | None: ...


class SeedEvent(Protocol[E_co]):
    """A game's ``SeedRevealed`` event type: made from the seed (keyword ``seed``)."""

    def __call__(self, *, seed: str) -> E_co: ...


class HasSeed(Protocol):
    """A game's ``SeedRevealed`` event."""

    @property
    def seed(self) -> str: ...


def reveal_seed(state: Sealed, ended: bool, seed: str, event: SeedEvent[E_co]) -> list[E_co]:
    """The game's ``SeedRevealed`` event for ``seed``: accepted only once the game is over (``ended``), only once,
    and only if ``seed`` (hex) matches the commitment (WrongPhase, InvalidValue otherwise)."""
    if not ended:
        raise WrongPhase(phrase=say("the seed stays secret until the game is over"))
    if state.seed is not None:
        raise WrongPhase(phrase=say("the seed has already been revealed"))
    try:
        raw = bytes.fromhex(seed)
    except ValueError:
        raise InvalidValue(phrase=say("the seed must be hex"), seed=seed) from None
    if hashlib.sha256(raw).hexdigest() != state.seed_commitment:
        raise InvalidValue(phrase=say("the seed does not match the commitment published at the start"))
    return [event(seed=seed)]


def seed_revealed(seed: str) -> Phrase:
    """The story's line for a game's ``SeedRevealed`` event (the seed is hex: no words to translate in it)."""
    return say("The game's seed is revealed: {seed}.", seed=seed)


def apply_seed_revealed(state: S, event: HasSeed) -> S:
    """The state with its seed published."""
    return msgspec.structs.replace(state, seed=event.seed)
