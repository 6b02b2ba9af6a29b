"""Dice and sets (§6.4): which tenants a set of final dice can attract, and the best use of
advertising and of a tenant choice (the helpers the web page uses for its suggestions).

A requirement ``(k, t)`` is a set of ``k`` different dice each showing at least ``t``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from ..catalog import Requirement, TenantKind


def standard_sets(final: Sequence[int], requirement: Requirement) -> int:
    """Standard game: how many sets the dice form (each die in at most one set)."""
    return sum(1 for die in final if die >= requirement.at_least) // requirement.dice


def feasible(final: Sequence[int], requirements: Sequence[Requirement]) -> bool:
    """Advanced game: can the dice form all these sets at once?

    Since the sets "dice >= x" are nested, it suffices that for every threshold ``x`` in use, the sets
    needing at least ``x`` use no more dice than show ``x`` or better.
    """
    for x in {r.at_least for r in requirements}:
        needed = sum(r.dice for r in requirements if r.at_least >= x)
        if needed > sum(1 for die in final if die >= x):
            return False
    return True


def selections(available: Mapping[str, int], room: int) -> list[tuple[str, ...]]:
    """Every multiset (sorted tuple) of at most ``room`` tokens drawn from ``available`` counts."""
    kinds = sorted(k for k, n in available.items() if n > 0)
    out: list[tuple[str, ...]] = [()]

    def extend(prefix: tuple[str, ...], start: int) -> None:
        for i in range(start, len(kinds)):
            kind = kinds[i]
            if len(prefix) < room and prefix.count(kind) < available[kind]:
                chosen = (*prefix, kind)
                out.append(chosen)
                extend(chosen, i)

    extend((), 0)
    return out


def feasible_selections(
    final: Sequence[int], available: Mapping[str, int], room: int, kinds: Mapping[str, TenantKind]
) -> list[tuple[str, ...]]:
    """Advanced game: every selection the dice allow (including the empty one)."""
    return [s for s in selections(available, room) if feasible(final, [kinds[k].requirement for k in s])]


def best_selection(
    final: Sequence[int], available: Mapping[str, int], room: int, kinds: Mapping[str, TenantKind]
) -> tuple[str, ...]:
    """The suggested advanced choice: the most tenants, then the most rent, then the most population."""
    options = feasible_selections(final, available, room, kinds)
    return max(
        options,
        key=lambda s: (len(s), sum(kinds[k].rent for k in s), sum(kinds[k].population for k in s), s),
    )


def best_fives(faces: Sequence[int], advertising: int, five: int = 5) -> tuple[int, ...]:
    """The suggested advertising use: turn the lowest dice below 5 into 5s, one per token.

    Raising the lowest dice gives a final hand that is at least as high, die by die in sorted order,
    as any other use of the same tokens, and every requirement is monotone in the dice, so this is
    optimal for any tenant choice.
    """
    low = sorted((face, index) for index, face in enumerate(faces) if face < five)
    return tuple(sorted(index for _, index in low[:advertising]))


def multiset_leq(part: Sequence[str], whole: Sequence[str]) -> bool:
    """Whether ``part`` is a sub-multiset of ``whole``."""
    return not Counter(part) - Counter(whole)
