"""The API process's garbage-collector policy: what is alive is kept out of automatic collections, and a sweep
still frees the cycles that died among the frozen objects."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from services.api.collector import FreezingCollector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> tuple[Node, weakref.ref[Node]]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a, weakref.ref(a)


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    gc.collect()
    yield
    gc.unfreeze()
    gc.collect()


def test_a_tick_freezes_what_is_alive_so_collections_skip_it() -> None:
    collector = FreezingCollector(sweep_from=10**9, sweep_every_s=10**9, min_gap_s=0.0, started=0.0)
    kept, dead = cycle()
    before = gc.get_freeze_count()
    assert collector.tick(now=0.0) is False
    assert gc.get_freeze_count() > before
    del kept
    gc.collect()  # a full automatic-style collection does not look at frozen objects
    assert dead() is not None


def test_a_sweep_frees_cycles_that_died_while_frozen() -> None:
    collector = FreezingCollector(sweep_from=10**9, sweep_every_s=10**9, min_gap_s=0.0, started=0.0)
    kept, dead = cycle()
    collector.tick(now=0.0)
    del kept
    collector.sweep_from = 0  # the frozen set is "large enough": the next tick sweeps
    assert collector.tick(now=1.0) is True
    assert dead() is None
    assert gc.get_freeze_count() > 0  # what is still alive is frozen again


def test_a_sweep_comes_when_the_frozen_set_doubles_or_the_hour_is_up() -> None:
    collector = FreezingCollector(sweep_from=0, sweep_every_s=100.0, min_gap_s=0.0, started=0.0)
    assert collector.tick(now=0.0) is True  # nothing kept yet: the first tick sweeps and remembers what it kept
    assert collector.tick(now=1.0) is False  # the heap has not doubled
    assert collector.tick(now=101.0) is True  # but a sweep is at most sweep_every_s apart
    hoard = [cycle() for _ in range(gc.get_freeze_count())]  # as many new objects as were frozen (and more)
    assert collector.tick(now=102.0) is False  # frozen now: the set has doubled, which the next tick sees
    assert collector.tick(now=103.0) is True
    del hoard


def test_a_doubled_heap_waits_for_the_gap_since_the_last_sweep_but_not_past_the_hour() -> None:
    """A process filling its caches doubles its heap several times in its first minutes: it sweeps once per gap,
    not at each doubling (each sweep stalls every request in flight)."""
    collector = FreezingCollector(sweep_from=0, sweep_every_s=1000.0, min_gap_s=100.0, started=0.0)
    assert collector.tick(now=10.0) is False  # the heap is "doubled" (nothing kept yet), but the gap is not over
    hoard = [cycle() for _ in range(gc.get_freeze_count())]
    assert collector.tick(now=50.0) is False
    assert collector.tick(now=100.0) is True  # the gap is over: the doubled heap is swept
    assert collector.tick(now=150.0) is False  # not doubled since, and the hour is not up
    assert collector.tick(now=1100.0) is True  # the hour is up
    del hoard
