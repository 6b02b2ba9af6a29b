"""Tenant token pools (the supply and the available area) as count tuples.

A pool is a tuple of counts aligned with ``catalog.kind_keys(advanced)``: one count per tenant type
in the standard game, per subtype in the advanced game.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from .catalog import catalog
from .state import MagnateState

Pool = tuple[int, ...]


@cache
def _index(dataset: str, advanced: bool) -> dict[str, int]:
    return {kind: i for i, kind in enumerate(catalog(dataset).kind_keys(advanced))}


def kinds_in_play(state: MagnateState) -> tuple[str, ...]:
    return catalog(state.dataset).kind_keys(state.advanced)


def empty_pool(state: MagnateState) -> Pool:
    return (0,) * len(kinds_in_play(state))


def count(state: MagnateState, pool: Pool, kind: str) -> int:
    return pool[_index(state.dataset, state.advanced)[kind]]


def add(state: MagnateState, pool: Pool, kinds: Iterable[str]) -> Pool:
    out = list(pool)
    index = _index(state.dataset, state.advanced)
    for kind in kinds:
        out[index[kind]] += 1
    return tuple(out)


def take(state: MagnateState, pool: Pool, kinds: Iterable[str]) -> Pool:
    out = list(pool)
    index = _index(state.dataset, state.advanced)
    for kind in kinds:
        out[index[kind]] -= 1
        assert out[index[kind]] >= 0, f"no {kind} token left to take"
    return tuple(out)


def as_dict(state: MagnateState, pool: Pool) -> dict[str, int]:
    return dict(zip(kinds_in_play(state), pool, strict=True))


def of_type(state: MagnateState, pool: Pool, tenant_type: str) -> dict[str, int]:
    """The counts of every kind of one tenant type."""
    cat = catalog(state.dataset)
    return {k: n for k, n in as_dict(state, pool).items() if cat.kinds[k].tenant_type == tenant_type}
