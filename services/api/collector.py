"""The cyclic garbage collector in an API process that holds many open event streams (issue #16).

Each open stream keeps a few hundred Python objects alive for as long as its page is open (the connection and its
protocol, the request, the response's generators, the fan-out's waiter): at 10,000 streams about two and a half
million. CPython's full collection walks every live object, so with them each took 0.7 s and came every ten seconds
or so at 100 commands/s (the objects a push leaves behind pile up in the oldest generation until it runs): every
command and every push waited behind it (bench/streams.py, docs/BENCHMARKS.md).

:class:`FreezingCollector` keeps those walks short with the standard library's own means for a large, long-lived heap
(``gc.freeze``, added for such servers): every ``freeze_every_s`` it moves every object alive into the permanent
generation, which automatic collections skip, so they walk only what was made since. A frozen object is still freed
by reference counting when its stream ends; only garbage in reference cycles among frozen objects waits, for a
*sweep* (``gc.unfreeze``, one full collection, ``gc.freeze``) once the frozen set has doubled since the last sweep, or
after ``sweep_every_s`` at the latest. A sweep pauses the process as one full collection did, but only as often as
the heap doubles (or hourly), not every few seconds. ``magnate serve`` runs it; tests and embedding processes don't.

A doubling sweep also waits until ``min_gap_s`` (ten minutes) have passed since the last sweep (or the start): a
process that is filling its caches doubles its heap several times in its first minutes, and each sweep then stalled
every command and push in flight for a few hundred milliseconds (306 ms at about 400,000 objects in the capacity run,
docs/BENCHMARKS.md). The cycles that die among frozen objects meanwhile wait at most those ten minutes.
"""

from __future__ import annotations

import gc
import threading
import time

from infra.logs import get_logger

log = get_logger("magnate.api.collector")

FREEZE_EVERY_S = 10.0
SWEEP_EVERY_S = 3600.0
MIN_GAP_S = 600.0
"""The least time between two sweeps for a doubled heap (an hour's sweep comes regardless)."""
SWEEP_FROM = 200_000
"""A sweep waits at least until this many objects are frozen (a small heap gains nothing from freezing)."""


class FreezingCollector:
    def __init__(self, freeze_every_s: float = FREEZE_EVERY_S, sweep_every_s: float = SWEEP_EVERY_S,
                 sweep_from: int = SWEEP_FROM, min_gap_s: float = MIN_GAP_S, started: float | None = None) -> None:
        """``started``: the ``time.monotonic()`` the gaps count from (now)."""
        self.freeze_every_s, self.sweep_every_s, self.sweep_from = freeze_every_s, sweep_every_s, sweep_from
        self.min_gap_s = min_gap_s
        self._swept_at = time.monotonic() if started is None else started
        self._kept = 0
        """Objects frozen right after the last sweep (what was alive then)."""

    def tick(self, now: float) -> bool:
        """Freeze what is alive; first sweep if the frozen set has doubled (and the last sweep is ``min_gap_s`` old)
        or the last sweep is ``sweep_every_s`` old. True: swept."""
        frozen = gc.get_freeze_count()
        since = now - self._swept_at
        doubled = frozen >= max(self.sweep_from, 2 * self._kept)
        due = (doubled and since >= self.min_gap_s) or since >= self.sweep_every_s
        if due:
            started = time.perf_counter()
            gc.unfreeze()
            freed = gc.collect()
            gc.freeze()
            self._kept, self._swept_at = gc.get_freeze_count(), now
            log.info("garbage collector swept", frozen_before=frozen, kept=self._kept, freed=freed,
                     pause_ms=round(1000 * (time.perf_counter() - started)))
            return True
        gc.freeze()
        return False

    def start(self) -> threading.Thread:
        """Tick every ``freeze_every_s`` on a daemon thread, for the life of the process."""
        thread = threading.Thread(target=self._run, name="magnate-gc-freeze", daemon=True)
        thread.start()
        return thread

    def _run(self) -> None:
        while True:
            time.sleep(self.freeze_every_s)
            self.tick(time.monotonic())
