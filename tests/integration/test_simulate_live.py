"""``magnate simulate --mode service``: a few games through the real API, PostgreSQL, Redis and a worker
process give exactly the results of the same games in-process (the same code path, the same seeds); and the
supervisor that starts and stops those processes."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import msgspec
import pytest

from services.simulation import Progress, SimSpec, simulate
from services.simulation.live import LiveMetrics, run
from services.supervisor import NotReady, Services, free_port, stop, wait_healthy

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]

ROOT = Path(__file__).resolve().parents[2]


def test_live_games_are_the_in_process_games(services: Services, pg_dsn: str) -> None:
    specs = [SimSpec(games=2, seed="live"), SimSpec(games=1, seed="live", bot="random", difficulty=None)]
    metrics = LiveMetrics()
    live = simulate(specs, "service", url=services.url, concurrency=3, metrics=metrics,
                    progress=Progress(3, io.StringIO()))
    local = simulate(specs, "inprocess", processes=1, progress=Progress(3, io.StringIO()))
    assert live.games == local.games
    assert live.summary == local.summary
    assert live.run.mode == "service" and live.run.url == services.url
    assert not metrics.errors and metrics.finished == 3
    assert len(metrics.commands) == sum(g.player_commands for g in live.games)
    assert len(metrics.jobs) == sum(g.system_jobs for g in live.games)

    async def stored() -> list[asyncpg.Record]:
        conn = await asyncpg.connect(pg_dsn)
        try:
            return await conn.fetch("SELECT game_id, status, version FROM games WHERE game_id = ANY($1::text[])",
                                    list(metrics.game_ids.values()))
        finally:
            await conn.close()

    rows = run(stored())
    assert sorted(r["version"] for r in rows) == sorted(g.events for g in live.games)
    assert {r["status"] for r in rows} == {"finished"}


def test_live_games_with_hidden_hands_are_the_in_process_games(services: Services) -> None:
    """Decktet Magnate redacts hands: each seat's bot decides on the copy its own token reads, the computer's
    turns run in the worker, and the games are still exactly the in-process ones."""
    specs = [SimSpec(game="decktet", games=2, seed="live-hands", difficulty="easy"),
             SimSpec(game="decktet", games=1, seats=3, seed="live-hands", bot="random", difficulty=None,
                     flags=frozenset({"mega"}))]
    metrics = LiveMetrics()
    live = simulate(specs, "service", url=services.url, concurrency=3, metrics=metrics,
                    progress=Progress(3, io.StringIO()))
    local = simulate(specs, "inprocess", processes=1, progress=Progress(3, io.StringIO()))
    assert live.games == local.games
    assert not metrics.errors and metrics.finished == 3
    assert len(metrics.commands) == sum(g.player_commands for g in live.games)


def test_the_cli_starts_the_service_itself(pg_dsn: str, redis_url: str, tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": pg_dsn, "REDIS_URL": redis_url}
    out = tmp_path / "live.json"
    done = subprocess.run(
        [sys.executable, "-m", "services.cli", "simulate", "--mode", "service", "-n", "2", "--seed", "cli-live",
         "--no-progress", "-o", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240, check=False,
    )
    assert done.returncode == 0, done.stderr
    live = json.loads(out.read_text())
    local = simulate([SimSpec(games=2, seed="cli-live")], "inprocess", progress=Progress(2, io.StringIO()))
    assert live["games"] == json.loads(msgspec.json.encode(local.games))
    assert out.with_suffix(".svg").exists()


def test_starting_fails_fast_when_a_child_exits_and_stop_kills_what_ignores_sigterm() -> None:
    """The one supervisor: waiting for /health gives up as soon as a child has exited, saying which; stopping
    sends SIGTERM and kills a child that ignores it."""
    exited = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    exited.wait()
    with pytest.raises(NotReady, match="exited with code 3 while starting"):
        wait_healthy(f"http://127.0.0.1:{free_port()}/health", [exited], timeout_s=30)
    stubborn = subprocess.Popen([sys.executable, "-c", "import signal, time; signal.signal(signal.SIGTERM, "
                                 "signal.SIG_IGN); print('ready', flush=True); time.sleep(60)"],
                                stdout=subprocess.PIPE)
    with stubborn, stubborn.stdout as out:  # type: ignore[union-attr]
        assert out.readline() == b"ready\n"
        began = time.monotonic()
        stop([stubborn], timeout_s=0.5)
    assert stubborn.returncode == -signal.SIGKILL and time.monotonic() - began < 10
