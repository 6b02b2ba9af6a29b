"""The fault suite's fixtures: its own PostgreSQL and Redis, the API and workers on them (one set for the
package: the fault test runs first, the schema fuzzing after it on the same service), and the findings the
full run writes to ``docs/RELIABILITY.md``.

``MAGNATE_CHAOS=full`` (``make chaos``) runs the full size; otherwise (``pytest tests/chaos -m chaos``) the bounded
size runs, in about two minutes. ``make test`` leaves the suite out (``-m "not chaos"``): it keeps the worker's own
fault tests (``tests/integration/test_worker_*.py``). The run directory (data, every process's log) is removed
when every test passed, else kept and named in the output.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from .exercise import Rig
from .faults import Size, chosen_size
from .fleet import Fleet
from .report import Findings, write_report
from .stores import Postgres, Redis

ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / "docs" / "RELIABILITY.md"


@pytest.fixture(scope="package")
def size() -> Size:
    return chosen_size()


@pytest.fixture(scope="package")
def findings(size: Size) -> Iterator[Findings]:
    found = Findings(size)
    yield found
    if size.writes_report and found.exercise is not None:
        write_report(found, REPORT)
        print(f"\nwrote {REPORT}")


@pytest.fixture(scope="package")
def rig(request: pytest.FixtureRequest) -> Iterator[Rig]:
    root = Path(tempfile.mkdtemp(prefix="magnate-chaos-"))
    failed_before = request.session.testsfailed
    postgres, redis = Postgres(root), Redis(root)
    fleet = Fleet(root, postgres.url, redis.url)
    try:
        postgres.start()
        redis.start()
        fleet.start()
        yield Rig(root, postgres, redis, fleet)
    finally:
        fleet.close()
        redis.close()
        postgres.close()
        if request.session.testsfailed == failed_before:
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"\nthe fault suite's data and logs are kept in {root}")
