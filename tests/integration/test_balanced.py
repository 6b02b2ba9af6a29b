"""Two API processes behind HAProxy (``infra/haproxy/magnate.cfg``, as ``bench/balanced.py`` runs them): the games
play to their end through the proxy, each game's requests all reach one process, and a stream held by one process
sees the moves the other one accepted (the announcements go through Redis, not through the process)."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bench.balanced import Balanced, haproxy_binary, start
from services.simulation import Progress, SimSpec, simulate
from services.simulation.http import Connection
from services.simulation.live import LiveMetrics, create, drive, read_page, run

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]

COMMANDS = re.compile(r'^magnate_http_requests_total\{[^}]*path="/api/games/\{game_id\}/commands"[^}]*\} (\S+)$',
                      re.M)
GAMES = 12
"""Games whose (random) ids spread over both processes: all on one by chance in 2 of 4,096 runs."""


@pytest.fixture
def balanced(pg_dsn: str, redis_url: str, queue_name: str, tmp_path: Path) -> Iterator[Balanced]:
    haproxy_binary()  # fails loudly, with how to install it, when HAProxy is missing
    running = start(pg_dsn, redis_url, queue_name, apis=2, proxied=True, workers=1, work=tmp_path)
    try:
        yield running
    finally:
        running.stop()


def commands_answered(api_url: str) -> int:
    """The commands an API process answered, by its own ``/metrics``."""
    text = httpx.get(f"{api_url}/metrics", timeout=10).text
    return int(sum(float(v) for v in COMMANDS.findall(text)))


def test_each_games_requests_reach_one_process_and_the_games_end(balanced: Balanced) -> None:
    metrics = LiveMetrics()
    specs = [SimSpec(games=GAMES, seed="balanced")]
    games = simulate(specs, "service", url=balanced.url, concurrency=GAMES, metrics=metrics,
                     progress=Progress(GAMES, io.StringIO()))
    assert not metrics.errors and metrics.finished == GAMES
    assert games.games == simulate(specs, "inprocess", processes=1, progress=Progress(GAMES, io.StringIO())).games
    per_process = [commands_answered(url) for url in balanced.api_urls]
    assert sum(per_process) == len(metrics.commands)
    assert all(per_process), f"every game went to one process: {per_process}"
    played_alone = [SimSpec(games=1, seed="balanced-alone")]
    before = [commands_answered(url) for url in balanced.api_urls]
    alone = LiveMetrics()
    simulate(played_alone, "service", url=balanced.url, concurrency=1, metrics=alone,
             progress=Progress(1, io.StringIO()))
    grew = [after - b for after, b in zip((commands_answered(url) for url in balanced.api_urls), before, strict=True)]
    assert sorted(grew) == [0, len(alone.commands)], f"one game's commands were split between processes: {grew}"


def test_a_stream_on_one_process_sees_the_moves_the_other_accepted(balanced: Balanced) -> None:
    first, second = balanced.api_urls
    spec = SimSpec(games=1, seed="balanced-cross")

    async def scenario() -> tuple[int, int]:
        async with Connection(first) as mover, Connection(second) as watcher:
            created = await create(mover, spec, 0)
            seen = 0
            stream = watcher.events(f"/api/games/{created.game_id}/stream?after=0", 30)
            played = LiveMetrics()
            driving = asyncio.create_task(drive(mover, spec, 0, 0, played, key=0, existing=created))
            try:
                result = await driving
                while seen < result.events:
                    data = await anext(stream)
                    seen = max(seen, read_page(data).version)
            finally:
                await stream.aclose()
            return seen, result.events

    seen, final = run(scenario())
    assert seen == final > 0
