"""``magnate simulate --mode service`` finishes games with simultaneous choices at concurrency 20 (issue #24, item 11).

In Master of Economy a person's sealed choice (a bid, an AC token, a ballot) and the computer's are due at once:
the bot client sends its seat's choice while the worker appends the computer's, and whichever comes second finds
the game moved on (``409 conflict/version``). The play page then reads the game again and sends the same choice
once more; the bot clients must too, or they give the game up (16 of 20 games were given up at concurrency 20)."""

from __future__ import annotations

import io

import pytest

from services.simulation import Progress, SimSpec, simulate
from services.simulation.live import LiveMetrics
from services.supervisor import Services

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


def test_games_with_sealed_choices_finish_through_the_service_at_concurrency_20(services: Services) -> None:
    specs = [SimSpec(game="master_of_economy", games=14, seed="sealed-race"),
             SimSpec(game="decktet", games=6, seed="sealed-race")]
    metrics = LiveMetrics()
    live = simulate(specs, "service", url=services.url, concurrency=20, metrics=metrics,
                    progress=Progress(20, io.StringIO()))
    assert metrics.errors == []
    assert metrics.finished == 20
    assert sorted((g.arm, g.game) for g in live.games) == [(0, i) for i in range(14)] + [(1, i) for i in range(6)]
