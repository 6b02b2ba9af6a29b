"""schemathesis against the live API (after the fault test, on the same service): no 5xx, whatever it
sends. Only :data:`.fuzz.ENFORCED` fails the test; the other checks' failures are printed and reported."""

from __future__ import annotations

import time
import uuid

import pytest

from services.simulation.live import create, run
from services.simulation.spec import SimSpec

from .exercise import Rig
from .faults import Size
from .fuzz import ENFORCED, fuzz
from .players import PatientConnection, Traffic, play
from .report import Findings

pytestmark = pytest.mark.chaos
SETUP_S = 60.0


async def games_to_fuzz(url: str) -> tuple[list[str], str]:
    """A finished game and a running one (ids), and the running one's seat token."""
    traffic = Traffic()
    spec = SimSpec(games=2, seed="chaos-fuzz")
    deadline = time.monotonic() + SETUP_S
    run_id = uuid.uuid4().hex[:12]
    await play(url, spec, 0, run_id, traffic, 0.0, deadline)
    assert not traffic.failures, traffic.failures
    conn = PatientConnection(url, traffic, deadline, creation_key=f"chaos-{run_id}-fuzz")
    try:
        running = await create(conn, spec, 1)
    finally:
        await conn.close()
    return [traffic.creations[0], running.game_id], running.tokens[0]


@pytest.mark.timeout(600)
def test_no_server_error_under_fuzzing(findings: Findings, rig: Rig, size: Size) -> None:
    rig.fleet.wait_healthy()
    game_ids, token = run(games_to_fuzz(rig.fleet.url))
    fuzzed = fuzz(rig.fleet.url, rig.root / "fuzz", game_ids, token, size.fuzz_examples, size.fuzz_seconds)
    findings.fuzzed = fuzzed
    findings.seconds["schemathesis"] = fuzzed.seconds
    print(f"schemathesis: {fuzzed.requests} test cases, statuses {dict(sorted(fuzzed.statuses.items()))}")
    for check, found in sorted(fuzzed.reported.items()):
        print(f"  reported, not enforced: {check}: {'; '.join(sorted(found))}")
    assert fuzzed.requests > 0, f"schemathesis sent nothing:\n{fuzzed.output_tail}"
    assert fuzzed.five_xx == 0, f"{fuzzed.five_xx} answers were 5xx: {fuzzed.server_errors[:10]}"
    failed = {check: sorted(fuzzed.failures.get(check, ())) for check in ENFORCED if fuzzed.failed(check)}
    assert not failed, f"enforced checks failed: {failed}"
