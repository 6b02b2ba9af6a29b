"""Verifiable randomness: every random outcome of a game is derived from (secret seed, stream version).

The derivation is language-neutral so that an auditor can re-implement it (docs/RANDOMNESS.md):

* block ``i`` of a decision at stream version ``v`` is ``HMAC-SHA256(key=seed, msg=ASCII(f"{v}:{i}"))``,
  for ``i = 0, 1, 2, ...`` in order; each uniform draw takes the next block;
* ``x`` is the first 8 bytes of the block as an unsigned big-endian integer;
* ``below(n)`` (uniform in ``0..n-1``, for ``1 <= n <= 2**64``) rejects ``x >= 2**64 - (2**64 mod n)``
  and takes the next block, otherwise returns ``x mod n``;
* ``roll(count, sides)`` is ``below(sides) + 1`` ``count`` times; ``pick(items)`` is
  ``items[below(len(items))]``; ``pick_weighted(weights)`` takes ``r = below(sum)`` and returns the
  first index whose running total exceeds ``r``; ``shuffle`` is Fisher-Yates from the last index down.

The seed stays secret while the game runs; its SHA-256 (:attr:`Chance.commitment`) is published in the
first event and the seed itself when the game ends, so anyone can re-derive every outcome afterwards.
Outcomes are recorded in the events, so replaying a log never draws again.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_SPACE = 1 << 64


def commitment_of(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256 as lowercase hex."""
    return hashlib.sha256(seed).hexdigest()


class Chance:
    """The random source of one decision: deterministic in (seed, version), independent across versions."""

    __slots__ = ("_counter", "_seed", "version")

    def __init__(self, seed: bytes, version: int) -> None:
        if not seed:
            raise ValueError("a chance source needs a non-empty seed")
        self._seed = seed
        self.version = version
        self._counter = 0

    @property
    def draws(self) -> int:
        """How many blocks this source has consumed (for audit tooling)."""
        return self._counter

    def _next(self) -> int:
        message = f"{self.version}:{self._counter}".encode("ascii")
        self._counter += 1
        digest = hmac.new(self._seed, message, hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        if n > _SPACE:
            # a draw has 64 bits: above 2**64 every block would be rejected and the loop never end
            raise ValueError(f"below() needs a bound of at most 2**64, got {n}")
        limit = _SPACE - (_SPACE % n)
        while True:
            x = self._next()
            if x < limit:
                return x % n

    def roll(self, count: int, sides: int = 6) -> tuple[int, ...]:
        """``count`` dice with faces ``1..sides``."""
        return tuple(self.below(sides) + 1 for _ in range(count))

    def pick(self, items: Sequence[T]) -> T:
        """One item, uniformly."""
        return items[self.below(len(items))]

    def pick_weighted(self, weights: Sequence[int]) -> int:
        """An index drawn with probability proportional to its (non-negative integer) weight."""
        r = self.below(sum(weights))
        for index, weight in enumerate(weights):
            if r < weight:
                return index
            r -= weight
        raise AssertionError("unreachable: r < sum(weights)")

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list with the items in uniformly random order (Fisher-Yates, last index first)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
