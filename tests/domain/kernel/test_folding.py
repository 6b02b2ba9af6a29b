"""The kernel's fold helpers: ``evolve`` as a lookup of the event's type, ``replay`` from the initial state."""

from __future__ import annotations

from typing import Any

import pytest

from domain.kernel.decider import evolve_by_type, replay_of, unchanged


class Added:
    def __init__(self, n: int) -> None:
        self.n = n


class Noted:
    pass


evolve = evolve_by_type({Added: lambda state, e: state + e.n, Noted: unchanged})


def test_each_event_is_applied_by_its_type_and_replay_folds_from_the_initial_state() -> None:
    replay = replay_of(evolve, lambda: 100)
    assert evolve(1, Added(2)) == 3
    assert evolve(1, Noted()) == 1
    assert replay([Added(1), Noted(), Added(5)]) == 106
    assert replay([]) == 100


def test_an_event_without_an_evolve_half_is_a_key_error() -> None:
    stranger: Any = object()
    with pytest.raises(KeyError):
        evolve(0, stranger)
