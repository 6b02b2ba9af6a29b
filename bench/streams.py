"""Open event streams: what N Server-Sent Events streams cost one API process, and how fast a move reaches them.

    python -m bench.streams                                  # N = 1,000, 5,000, 10,000 (about 4 minutes)
    python -m bench.streams --streams 2000 --games 1 --seconds 10

Each case starts, with the supervisor (:class:`services.supervisor.Services`), one API process and one worker on a
fresh database and a Redis server of the case's own (so its client count is exact), creates G two-seat games with
two human seats, and opens N public streams spread evenly over them from C client processes (raw asyncio
connections: a stream costs the client a socket and a small buffer; ``RLIMIT_NOFILE`` is raised to its hard limit
here, and the servers inherit it). Then a driver in this process plays the games through the API at a fixed rate
(100 commands/s for 30 s by default, round-robin over the games: the seat on turn's first legal command, from
``GET /me``), and records for each command its version and the moment its answer arrived; each client records the
moment each stream received each version. The **push delay** of a command on a stream is from the command's answer
to the stream's first message reaching that version (0 when the stream heard it before the answer).

Measured: the API's resident memory before the streams, with them open, and after the run (KiB per stream: the
difference over N); Redis clients (all, and the API's named stream subscription); push delay p50 / p99 / max over
every (command, stream on its game) pair, and pushes never seen; the API's CPU time during the commands (and the
other processes', which share the two cores).
"""
from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil  # type: ignore[import-untyped]
import redis.asyncio

from infra.notify import STREAMS_CLIENT
from services.supervisor import Services

from .common import fresh_database, load_average, own_redis, percentile, queue_name
from .stream_clients import client_main, opened, raise_open_files, spawn_clients
from .streams_page import StreamsResult, describe, report_table, update_page

STEPS = (1000, 5000, 10000)
GAMES = 100
RATE = 100.0
SECONDS = 30.0
CLIENTS = 2
SETTLE_S = 3.0
"""Wait after the last stream connected (its first read, its subscription), before the memory is sampled."""


# -- the driver: games, commands at a fixed rate ---------------------------------------------------------------


@dataclass
class Game:
    game_id: str
    tokens: dict[int, str]
    version: int
    busy: bool = False
    seat: int = 0


@dataclass
class Played:
    answered: list[tuple[int, int, float]] = field(default_factory=list)
    """(game index, version, when the answer arrived)."""
    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    """Commands answered with an error status, or not answered (the connection failed)."""
    skipped: int = 0
    """Ticks that found their game busy or waiting for a system job."""


async def create_games(http: httpx.AsyncClient, count: int) -> list[Game]:
    body = {"game": "magnate", "options": {"seats": [{"kind": "human"}, {"kind": "human"}]}}
    games = []
    for _ in range(count):
        response = await http.post("/api/games", json=body)
        response.raise_for_status()
        created = response.json()
        games.append(Game(created["game_id"], {s["seat"]: s["token"] for s in created["seats"] if s["token"]},
                          created["version"]))
    return games


async def _move(http: httpx.AsyncClient, index: int, game: Game, played: Played) -> None:
    try:
        for seat in (game.seat, 1 - game.seat):
            auth = {"Authorization": f"Bearer {game.tokens[seat]}"}
            me = (await http.get(f"/api/games/{game.game_id}/me", headers=auth)).json()
            if me["legal"]:
                break
        else:
            played.skipped += 1  # a system job is due: the worker's turn
            return
        game.seat = seat
        body = {"command_id": f"bench-{index}-{me['version']}", "command": me["legal"][0]["command"],
                "expected_version": me["version"]}
        sent = time.monotonic()
        response = await http.post(f"/api/games/{game.game_id}/commands", json=body, headers=auth)
        answered = time.monotonic()
        if response.status_code != 200:
            played.refused += 1
            return
        played.answered.append((index, int(response.json()["version"]), answered))
        played.latencies.append(answered - sent)
    except httpx.HTTPError:
        played.refused += 1
    finally:
        game.busy = False


async def drive(url: str, games: Sequence[Game], rate: float, seconds: float) -> Played:
    """A command every ``1/rate`` s on the next game that is not busy, for ``seconds``. Each game has an HTTP
    client of its own (one connection: its moves are one at a time): with one client for all, httpcore's pool
    spent a whole core managing its connections (every request scans them all), and the commands' latency
    measured the driver's queue rather than the service (commands answered in 911 ms at 10,000 streams)."""
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(_client(url, connections=1)) for _ in games]
        return await _drive(clients, games, rate, seconds)


def _client(url: str, connections: int) -> httpx.AsyncClient:
    # idle connections dropped before uvicorn's 5 s keep-alive timeout closes them under a request
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections, keepalive_expiry=4.0)
    return httpx.AsyncClient(base_url=url, timeout=60, limits=limits, trust_env=False)


async def _drive(clients: Sequence[httpx.AsyncClient], games: Sequence[Game], rate: float, seconds: float
                 ) -> Played:
    played, tasks = Played(), set()
    began, tick, turn = time.monotonic(), 0, 0
    while (due := began + tick / rate) < began + seconds:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        tick += 1
        for _ in range(len(games)):
            index, turn = turn % len(games), turn + 1
            if not games[index].busy:
                games[index].busy = True
                task = asyncio.create_task(_move(clients[index], index, games[index], played))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                break
        else:
            played.skipped += 1
    await asyncio.gather(*tasks)
    return played


# -- one case -------------------------------------------------------------------------------------------------


def _cpu(process: psutil.Process) -> float:
    with contextlib.suppress(psutil.Error):
        times = process.cpu_times()
        return float(times.user + times.system + times.children_user + times.children_system)
    return 0.0


def _postgres_cpu() -> float:
    return sum(_cpu(p) for p in psutil.process_iter(["name"]) if (p.info["name"] or "").startswith("postgres"))


async def _clients_of(url: str) -> tuple[int, int]:
    client = redis.asyncio.Redis.from_url(url)
    try:
        listed = await client.client_list()
    finally:
        await client.aclose()
    named = sum(1 for c in listed if str(c.get("name", "")).startswith(STREAMS_CLIENT))
    return len(listed) - 1, named  # not counting this one


def delays(played: Played, streams_of: dict[int, list[list[tuple[int, float]]]]) -> tuple[list[float], int]:
    """Every (command, stream on its game) push delay, and the pushes never seen."""
    out, missed = [], 0
    for index, version, answered in played.answered:
        for seen in streams_of.get(index, []):
            at = bisect.bisect_left(seen, (version, 0.0))
            if at == len(seen):
                missed += 1
            else:
                out.append(max(0.0, seen[at][1] - answered))
    return out, missed


async def run_case(streams: int, games: int = GAMES, rate: float = RATE, seconds: float = SECONDS,
                   clients: int = CLIENTS) -> StreamsResult:
    raise_open_files()
    load_start = load_average()
    with own_redis() as own:
        async with fresh_database("magnate_bench_streams") as dsn:
            services = Services.start(dsn, own.url, queue_name("magnate:bench-streams"), 1)
            try:
                return await _measure(services, own.url, own.pid, streams, games, rate, seconds, clients,
                                      load_start)
            finally:
                services.stop()


async def _measure(services: Services, redis_url: str, redis_pid: int, streams: int, games: int, rate: float,
                   seconds: float, clients: int, load_start: float | None) -> StreamsResult:
    api = psutil.Process(services.api.pid)
    named = {"API": api, "worker": psutil.Process(services.workers[0].pid), "Redis": psutil.Process(redis_pid)}
    async with _client(services.url, connections=8) as http:
        table_ = await create_games(http, games)
        await asyncio.sleep(1.0)  # the worker's first jobs (the opening dice)
        redis_before, _ = await _clients_of(redis_url)
        rss_before = api.memory_info().rss / 2**20
        paths = [f"/api/games/{table_[i % games].game_id}/stream?after={table_[i % games].version}"
                 for i in range(streams)]
        pipes, processes, shares = spawn_clients(client_main, services.url, paths[:streams], clients)
        began = time.monotonic()
        try:
            await opened(pipes)
            open_s = time.monotonic() - began
            await asyncio.sleep(SETTLE_S)
            rss_open = api.memory_info().rss / 2**20
            redis_clients, subscription = await _clients_of(redis_url)
            cpu0 = {name: _cpu(p) for name, p in named.items()} | {"PostgreSQL (all)": _postgres_cpu()}
            cpu0["stream clients"] = sum(_cpu(psutil.Process(p.pid)) for p in processes)
            played = await drive(services.url, table_, rate, seconds)
            await asyncio.sleep(1.0)  # the last pushes
            cpu = {name: _cpu(p) - cpu0[name] for name, p in named.items()}
            cpu["PostgreSQL (all)"] = _postgres_cpu() - cpu0["PostgreSQL (all)"]
            cpu["stream clients"] = sum(_cpu(psutil.Process(p.pid)) for p in processes) - cpu0["stream clients"]
            rss_after = api.memory_info().rss / 2**20
            streams_of: dict[int, list[list[tuple[int, float]]]] = {}
            for pipe, share in zip(pipes, shares, strict=True):
                pipe.send("stop")
                _kind, seen = await asyncio.to_thread(pipe.recv)
                for i, records in zip(share, seen, strict=True):
                    streams_of.setdefault(i % games, []).append(records)
        finally:
            for process in processes:
                process.join(timeout=30)
                if process.is_alive():
                    process.kill()
    pushed, missed = delays(played, streams_of)
    return StreamsResult(
        streams=streams, games=games, clients=clients, rate=rate, seconds=seconds, rss_before_mib=rss_before,
        rss_open_mib=rss_open, rss_after_mib=rss_after, redis_clients=redis_clients,
        redis_clients_before=redis_before, subscription_clients=subscription, commands=len(played.answered),
        pushes=len(pushed), missed=missed, delay_p50_ms=percentile(pushed, 0.5) * 1000,
        delay_p99_ms=percentile(pushed, 0.99) * 1000, delay_max_ms=max(pushed, default=0.0) * 1000,
        command_p50_ms=percentile(played.latencies, 0.5) * 1000,
        command_p99_ms=percentile(played.latencies, 0.99) * 1000, open_s=open_s, cpu_s=cpu,
        load=(load_start, load_average()), refused=played.refused, skipped=played.skipped,
    )


async def measure(steps: Sequence[int] = STEPS, **options: Any) -> list[StreamsResult]:
    return [await run_case(n, **options) for n in steps]


# -- the report -----------------------------------------------------------------------------------------------



def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.streams", description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, nargs="+", default=list(STEPS))
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--rate", type=float, default=RATE, help="commands per second")
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--clients", type=int, default=CLIENTS, help="client processes holding the streams")
    parser.add_argument("--write", metavar="PATH", type=Path,
                        help="put the section and the goal's target row into this page (docs/BENCHMARKS.md)")
    args = parser.parse_args(argv)
    print(f"RLIMIT_NOFILE soft limit: {raise_open_files()}", flush=True)
    runs = []
    for n in args.streams:
        run = asyncio.run(run_case(n, args.games, args.rate, args.seconds, args.clients))
        print(describe(run), flush=True)
        runs.append(run)
    print("\n".join(report_table(runs)))
    if args.write is not None:
        args.write.write_text(update_page(args.write.read_text(encoding="utf-8"), runs), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
