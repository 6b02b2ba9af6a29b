"""What an operator watches, from real workers over the real PostgreSQL and Redis: each job run counted by kind and
outcome (an arq worker in this process), and the processes as ``magnate run`` starts them — an API and a worker
whose every log line is one JSON object (a game's lines carrying its game id and version), the worker's metrics on
its own port."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from infra.config import Settings
from services.gameplay.bootstrap import Runtime
from services.supervisor import free_port, spawn, stop, wait_healthy

from .test_worker import burst, until_system_job

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Call to deprecated close:DeprecationWarning"),  # arq's pool
]


@pytest.fixture
def settings(own_dsn: str, redis_url: str, queue_name: str) -> Settings:
    return Settings(database_url=own_dsn, redis_url=redis_url, queue_name=queue_name)


def jobs_counted(kind: str, outcome: str) -> float:
    return REGISTRY.get_sample_value("magnate_jobs_total", {"kind": kind, "outcome": outcome}) or 0.0


def latencies_counted(kind: str) -> float:
    return REGISTRY.get_sample_value("magnate_job_latency_seconds_count", {"kind": kind}) or 0.0


async def test_a_worker_counts_its_jobs_by_kind_and_outcome(runtime: Runtime, settings: Settings) -> None:
    job = await until_system_job(runtime, seed=5)
    ok, stale, latency = jobs_counted(job.kind, "ok"), jobs_counted(job.kind, "stale"), latencies_counted(job.kind)

    await burst(settings)
    assert jobs_counted(job.kind, "ok") == ok + 1
    assert latencies_counted(job.kind) >= latency + 1

    # delivered again (at least once): the game has moved on, the run is stale
    await runtime.arq.enqueue_job(job.kind, job.game_id, job.version, _job_id=job.job_id)
    await burst(settings)
    assert jobs_counted(job.kind, "stale") == stale + 1


# -- the processes -----------------------------------------------------------------------------------------------


class Processes:
    def __init__(self, url: str, worker_metrics: str, logs: dict[str, Path]) -> None:
        self.url, self.worker_metrics, self.logs = url, worker_metrics, logs

    def lines(self, name: str) -> list[dict[str, Any]]:
        """Every line the process wrote to its standard error, each parsed as JSON (it fails if one is not)."""
        return [json.loads(line) for line in self.logs[name].read_text().splitlines()]


@pytest.fixture
def processes(settings: Settings, tmp_path: Path) -> Iterator[Processes]:
    """``magnate serve`` and ``magnate worker`` as ``magnate run`` starts them (JSON logs: their standard error is a
    file), the worker's metrics on a port of its own."""
    assert settings.database_url and settings.redis_url
    port, metrics_port = free_port(), free_port()
    env = {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
           "MAGNATE_QUEUE_NAME": settings.queue_name, "MAGNATE_SANDBOX": "true", "HOST": "127.0.0.1",
           "PORT": str(port), "MAGNATE_WORKER_METRICS_PORT": str(metrics_port)}
    env.pop("MAGNATE_LOG_FORMAT", None)  # the default: JSON, standard error being no terminal
    logs = {name: tmp_path / f"{name}.log" for name in ("serve", "worker")}
    started: list[subprocess.Popen[bytes]] = []
    try:
        for name, path in logs.items():
            with path.open("wb") as out:
                started.append(spawn(name, env, output=out))
        wait_healthy(f"http://127.0.0.1:{port}/health", started)
        yield Processes(f"http://127.0.0.1:{port}", f"http://127.0.0.1:{metrics_port}/metrics", logs)
    finally:
        stop(started)


def scrape(url: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    with urllib.request.urlopen(url, timeout=5) as response:
        text = response.read().decode()
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


async def until_the_human_moves(http: httpx.AsyncClient, game_id: str, token: str) -> dict[str, Any]:
    """The human seat's view once the worker has played every system job before its turn."""
    deadline = time.monotonic() + 30
    while True:
        me = (await http.get(f"/api/games/{game_id}/me", headers={"Authorization": f"Bearer {token}"})).json()
        if me["legal"]:
            return dict(me)
        assert time.monotonic() < deadline, "the worker did not play the AI's turn"
        await asyncio.sleep(0.1)


async def until_jobs_ran(url: str) -> set[str]:
    """The kinds of the jobs the worker at ``url`` ran with outcome ok, once there is one."""
    deadline = time.monotonic() + 30
    while True:
        ran = {dict(labels)["kind"] for (name, labels), v in scrape(url).items()
               if name == "magnate_jobs_total" and dict(labels)["outcome"] == "ok" and v >= 1}
        if ran:
            return ran
        assert time.monotonic() < deadline, "the worker ran no job"
        await asyncio.sleep(0.1)


async def test_the_processes_log_json_with_the_game_and_serve_the_workers_metrics(processes: Processes) -> None:
    async with httpx.AsyncClient(base_url=processes.url, timeout=10) as http:
        created = await http.post("/api/games", json={
            "game": "magnate", "seed": "0b5e7e",
            "options": {"difficulty": "generalised_ai", "seats": [{"kind": "ai"}, {"kind": "human"}]}})
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        token = next(s["token"] for s in created.json()["seats"] if s["token"])
        me = await until_the_human_moves(http, game_id, token)
        moved = await http.post(f"/api/games/{game_id}/commands", headers={"Authorization": f"Bearer {token}"},
                                json={"command_id": uuid.uuid4().hex, "command": me["legal"][0]["command"]})
        assert moved.status_code == 200, moved.text
        version = moved.json()["version"]
        api_metrics = (await http.get("/metrics")).text

    # the worker runs the AI's jobs, and says so on its own port; the API counted the command's append
    ran = await until_jobs_ran(processes.worker_metrics)
    assert any(name == "process_resident_memory_bytes" for name, _ in scrape(processes.worker_metrics))
    assert 'magnate_appends_total{game_type="magnate"}' in api_metrics

    # every line of both processes is one JSON object; the game's lines name it and its version
    api, jobs = processes.lines("serve"), processes.lines("worker")
    assert all({"timestamp", "level", "logger", "event"} <= line.keys() for line in api + jobs)
    applied = [line for line in api if line["event"] == "command applied" and line.get("game_id") == game_id]
    assert [line["version"] for line in applied] == [version]
    access = [line for line in api if line["logger"] == "uvicorn.access" and f"/api/games/{game_id}/commands"
              in line["event"]]
    assert access and access[-1]["game_id"] == game_id and access[-1]["version"] == version
    deadline = time.monotonic() + 10  # a job's line is written just after it is counted
    while not (runs := [line for line in jobs if line["event"] == "job run" and line.get("game_id") == game_id]):
        assert time.monotonic() < deadline, "no job of the game was logged"
        await asyncio.sleep(0.1)
        jobs = processes.lines("worker")
    assert all(isinstance(line["version"], int) and line["job_id"].startswith(game_id) for line in runs)
    assert {line["job"] for line in runs if line["outcome"] == "ok"} <= ran
