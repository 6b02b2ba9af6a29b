"""After the end: publishing the secret seed so every random outcome can be re-derived (docs/RANDOMNESS.md)."""

from __future__ import annotations

import hashlib

from msgspec.structs import replace

from domain.kernel import InvalidValue, WrongPhase

from .events import SeedRevealed
from .state import State, Step


def reveal(state: State, seed: str) -> list[SeedRevealed]:
    """Accept the seed only once the game is over and only if it matches the commitment."""
    if state.step != Step.ENDED:
        raise WrongPhase("the seed stays secret until the game is over")
    if state.seed is not None:
        raise WrongPhase("the seed has already been revealed")
    try:
        raw = bytes.fromhex(seed)
    except ValueError:
        raise InvalidValue("the seed must be hex", seed=seed) from None
    if hashlib.sha256(raw).hexdigest() != state.seed_commitment:
        raise InvalidValue("the seed does not match the commitment published at the start")
    return [SeedRevealed(seed=seed)]


def apply_seed_revealed(state: State, event: SeedRevealed) -> State:
    return replace(state, seed=event.seed)
