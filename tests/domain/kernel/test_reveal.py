"""The kernel's seed-reveal check: only after the end, only once, only the committed seed."""

from __future__ import annotations

import hashlib

import msgspec
import pytest

from domain.kernel import InvalidValue, WrongPhase
from domain.kernel.reveal import apply_seed_revealed, reveal_seed

SEED = "00ff10"


class _State(msgspec.Struct, frozen=True):
    seed_commitment: str = hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    seed: str | None = None


class _Revealed(msgspec.Struct, frozen=True, kw_only=True):
    seed: str


def test_the_committed_seed_is_revealed_once_the_game_is_over() -> None:
    events = reveal_seed(_State(), True, SEED, _Revealed)
    assert events == [_Revealed(seed=SEED)]
    assert apply_seed_revealed(_State(), events[0]).seed == SEED


def test_a_wrong_seed_is_refused() -> None:
    with pytest.raises(InvalidValue, match="does not match the commitment"):
        reveal_seed(_State(), True, "00ff11", _Revealed)


def test_a_seed_that_is_not_hex_is_refused() -> None:
    with pytest.raises(InvalidValue, match="hex"):
        reveal_seed(_State(), True, "xyz", _Revealed)


def test_the_seed_stays_secret_while_the_game_runs() -> None:
    with pytest.raises(WrongPhase, match="until the game is over"):
        reveal_seed(_State(), False, SEED, _Revealed)


def test_the_seed_is_revealed_only_once() -> None:
    with pytest.raises(WrongPhase, match="already been revealed"):
        reveal_seed(_State(seed=SEED), True, SEED, _Revealed)
