"""A cheap random stream for the computer's searches, seeded from the decision's own chance source.

A search draws thousands of dice and cards per turn. The game's :class:`~domain.kernel.Chance` derives each draw
with an HMAC (verifiable, but about 2 µs a draw); the futures a search imagines are never recorded, so they only
need to be reproducible: :class:`Stream` is SplitMix64 (Steele, Lea and Flood, 2014) over integers, seeded by one
draw of the decision's chance. It is a ``Chance`` so the rules' own roll and draw functions accept it.
"""

from __future__ import annotations

from domain.kernel import Chance

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Stream(Chance):
    """A reproducible stream of uniform integers (SplitMix64); ``below`` has the kernel's contract."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        super().__init__(b"decktet-ai", 0)
        self._state = seed & _MASK

    def next64(self) -> int:
        self._state = (self._state + _GOLDEN) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in ``0..n-1`` (the modulo bias of a 64-bit draw is below 2**-50 for the bounds used here)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        return self.next64() % n

    def fork(self) -> Stream:
        """An independent stream (for one sampled future), advancing this one by a draw."""
        return Stream(self.next64())

    @classmethod
    def of(cls, chance: Chance) -> Stream:
        """The stream of a decision: one draw of its chance source seeds it."""
        return cls(chance.below(1 << 62))
