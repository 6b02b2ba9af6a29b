"""Games played through the API while workers are killed and Redis and PostgreSQL go away: nothing lost,
nothing doubled, every game finished and verifiable, no stall over its limit (:mod:`.verdict`).

``make test`` runs the bounded size (about a minute); ``make chaos`` the full one, which also writes
``docs/RELIABILITY.md``."""

from __future__ import annotations

import time

import pytest

from services.simulation.live import run

from .exercise import AUDIT_DEADLINE_S, Rig, exercise
from .faults import Size, chosen_size
from .ledger import cli_verifies
from .report import Findings, summary
from .tally import late_timeouts
from .verdict import violations

pytestmark = pytest.mark.chaos


@pytest.mark.timeout(chosen_size().play_deadline_s + AUDIT_DEADLINE_S + 60)
def test_games_survive_faults(findings: Findings, rig: Rig, size: Size) -> None:
    began = time.monotonic()
    result = run(exercise(rig, size))
    findings.exercise = result
    findings.postgres_version = rig.postgres.version()
    problems = violations(result) + late_timeouts(result)
    finished = [g for g in result.ledger.game_ids if g in result.traffic.creations.values()]
    if finished:
        problem = cli_verifies(rig.postgres.url, finished[0], rig.root)
        if problem:
            problems.append(problem)
    findings.violations = problems
    findings.seconds["games and faults"] = result.play_s
    findings.seconds["audit"] = time.monotonic() - began - result.play_s  # the CLI's export and verify included
    print(summary(findings))
    assert not problems, "\n".join(problems)

