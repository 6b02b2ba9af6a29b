"""Open event streams held by the Python stream and by nginx with nchan, side by side (issue #28, docs/SCALING.md).

    python -m bench.streams_nchan                                # N = 2,000, 5,000, 10,000, each server in turn
    python -m bench.streams_nchan --streams 2000 --seconds 10

For each N the two servers run alternately in one session (the Python stream first, then nchan), each as
:mod:`bench.streams` runs a case: one API process and one worker on a fresh database and a Redis server of the case's
own, G two-seat games, N public streams spread over them from C client processes, then commands at a fixed rate
through the API. *Python*: the streams are ``GET /api/games/<id>/stream`` on the API (the numbers of
:func:`bench.streams.run_case`). *nchan*: the streams are ``GET /push/games/<id>/public/en`` on one nginx box (one
worker process, nchan in Redis mode on the case's Redis), each authorised by the API (``/internal/push-auth``), and
the pusher (``services/pusher.py``) publishes each new version once per channel. The commands go to the API directly
in both runs.

Measured for each: the resident memory of the server holding the streams, per stream (the API's RSS for Python;
nginx's master and worker RSS summed for nchan: an upper bound, the shared memory counted in each process that
touches it), the API's own growth, push delay p50 / p99 / max (from a command's answer to each stream of its game
receiving that version: the version is read from the message's data), pushes never seen, and CPU time per part.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection as Pipe
from pathlib import Path

import psutil  # type: ignore[import-untyped]

from services.supervisor import PushServer, Services, free_port

from .common import busy_warning, fresh_database, load_average, own_redis, percentile, queue_name, table
from .stream_clients import OPEN_AT_ONCE, client_process, opened, raise_open_files, spawn_clients
from .streams import (
    CLIENTS,
    GAMES,
    RATE,
    SECONDS,
    SETTLE_S,
    _client,
    _cpu,
    _postgres_cpu,
    create_games,
    delays,
    drive,
    run_case,
)
from .streams_page import StreamsResult

STEPS = (2000, 5000, 10000)
VERSION = b'data: {"version":'
EVENTS = b"events"


# -- the client processes (nchan's EventSource: the version is in the data) ------------------------------------


async def _stream(url: str, path: str, seen: list[tuple[int, float]], connected: asyncio.Event,
                  gate: asyncio.Semaphore) -> None:
    host, _, port = url.removeprefix("http://").partition(":")
    async with gate:
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"GET {path}: {status!r}")
        while (await reader.readline()).strip():  # the headers
            pass
    connected.set()
    event = b""
    try:
        while line := await reader.readline():
            if line.startswith(b"event:"):
                event = line[6:].strip()
            elif event == EVENTS and line.startswith(VERSION):  # a version's last message (history, state before)
                end = line.index(b",", len(VERSION))
                seen.append((int(line[len(VERSION):end]), time.monotonic()))
    finally:
        writer.close()


async def _hold(url: str, paths: Sequence[str], pipe: Pipe) -> None:
    gate = asyncio.Semaphore(OPEN_AT_ONCE)
    seen: list[list[tuple[int, float]]] = [[] for _ in paths]
    flags = [asyncio.Event() for _ in paths]
    tasks = [asyncio.create_task(_stream(url, p, s, f, gate)) for p, s, f in zip(paths, seen, flags, strict=True)]

    async def all_connected() -> None:
        for flag in flags:
            await flag.wait()

    waiting = asyncio.create_task(all_connected())
    done, _ = await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
    if waiting not in done:
        failed = next(t for t in tasks if t.done())
        pipe.send(("failed", repr(failed.exception())))
        return
    pipe.send(("open", len(paths)))
    await asyncio.to_thread(pipe.recv)  # "stop"
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    pipe.send(("seen", [sorted(s) for s in seen]))


def client_main(url: str, paths: Sequence[str], pipe: Pipe) -> None:
    client_process()
    asyncio.run(_hold(url, paths, pipe))


# -- one nchan case --------------------------------------------------------------------------------------------


@dataclass
class NchanResult:
    run: StreamsResult
    """With the nginx box's memory as the streams' server (rss_*: nginx's)."""
    api_before_mib: float
    api_open_mib: float


def _rss_mib(processes: Sequence[psutil.Process]) -> float:
    total = 0
    for p in processes:
        with contextlib.suppress(psutil.Error):
            total += p.memory_info().rss
    return total / 2**20


def _nginx(master: psutil.Process) -> list[psutil.Process]:
    return [master, *master.children()]


async def run_nchan_case(streams: int, games: int = GAMES, rate: float = RATE, seconds: float = SECONDS,
                         clients: int = CLIENTS) -> NchanResult:
    raise_open_files()
    load_start = load_average()
    with own_redis() as own, tempfile.TemporaryDirectory(prefix="magnate-bench-nginx-") as work:
        async with fresh_database("magnate_bench_streams") as dsn:
            services = Services.start(dsn, own.url, queue_name("magnate:bench-streams"), 1)
            try:
                push = PushServer.start(services.env, [services.url.removeprefix("http://")],
                                        f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}", Path(work),
                                        own.url)
                try:
                    return await _measure(services, push, own.pid, streams, games, rate, seconds, clients,
                                          load_start)
                finally:
                    push.stop()
            finally:
                services.stop()


async def _measure(services: Services, push: PushServer, redis_pid: int, streams: int, games: int, rate: float,
                   seconds: float, clients: int, load_start: float | None) -> NchanResult:
    api = psutil.Process(services.api.pid)
    nginx = psutil.Process(push.nginx.process.pid)
    named = {"API": api, "worker": psutil.Process(services.workers[0].pid), "Redis": psutil.Process(redis_pid),
             "pusher": psutil.Process(push.pusher.pid)}
    async with _client(services.url, connections=8) as http:
        table_ = await create_games(http, games)
        await asyncio.sleep(1.0)  # the worker's first jobs (the opening dice), their messages published
        api_before = api.memory_info().rss / 2**20
        rss_before = _rss_mib(_nginx(nginx))
        paths = [f"/push/games/{table_[i % games].game_id}/public/en" for i in range(streams)]
        pipes, processes, shares = spawn_clients(client_main, push.url, paths[:streams], clients)
        began = time.monotonic()
        try:
            await opened(pipes)
            open_s = time.monotonic() - began
            await asyncio.sleep(SETTLE_S)
            rss_open = _rss_mib(_nginx(nginx))
            api_open = api.memory_info().rss / 2**20
            cpu0 = {name: _cpu(p) for name, p in named.items()} | {"PostgreSQL (all)": _postgres_cpu()}
            cpu0["nginx"] = sum(_cpu(p) for p in _nginx(nginx))
            cpu0["stream clients"] = sum(_cpu(psutil.Process(p.pid)) for p in processes)
            played = await drive(services.url, table_, rate, seconds)
            await asyncio.sleep(1.0)  # the last pushes
            cpu = {name: _cpu(p) - cpu0[name] for name, p in named.items()}
            cpu["PostgreSQL (all)"] = _postgres_cpu() - cpu0["PostgreSQL (all)"]
            cpu["nginx"] = sum(_cpu(p) for p in _nginx(nginx)) - cpu0["nginx"]
            cpu["stream clients"] = sum(_cpu(psutil.Process(p.pid)) for p in processes) - cpu0["stream clients"]
            rss_after = _rss_mib(_nginx(nginx))
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
    run = StreamsResult(
        streams=streams, games=games, clients=clients, rate=rate, seconds=seconds, rss_before_mib=rss_before,
        rss_open_mib=rss_open, rss_after_mib=rss_after, redis_clients=0, redis_clients_before=0,
        subscription_clients=0, commands=len(played.answered), pushes=len(pushed), missed=missed,
        delay_p50_ms=percentile(pushed, 0.5) * 1000, delay_p99_ms=percentile(pushed, 0.99) * 1000,
        delay_max_ms=max(pushed, default=0.0) * 1000, command_p50_ms=percentile(played.latencies, 0.5) * 1000,
        command_p99_ms=percentile(played.latencies, 0.99) * 1000, open_s=open_s, cpu_s=cpu,
        load=(load_start, load_average()), refused=played.refused, skipped=played.skipped,
    )
    return NchanResult(run, api_before, api_open)


# -- the report ------------------------------------------------------------------------------------------------


def _row(server: str, r: StreamsResult, api: str) -> list[str]:
    cpu = ", ".join(f"{name} {s:.1f} s" for name, s in r.cpu_s.items())
    return [server, f"{r.streams:,}", f"{r.rss_before_mib:.0f} → {r.rss_open_mib:.0f} ({r.rss_after_mib:.0f})",
            f"{r.kib_per_stream:.1f}",
            api, f"{r.commands_s:.0f}", f"{r.delay_p50_ms:.0f} / {r.delay_p99_ms:.0f} / {r.delay_max_ms:.0f}",
            f"{r.pushes:,} ({r.missed:,})", f"{r.command_p50_ms:.0f} / {r.command_p99_ms:.0f}", cpu,
            " → ".join("?" if x is None else f"{x:.2f}" for x in r.load)]


def report_table(pairs: Sequence[tuple[StreamsResult, NchanResult]]) -> list[str]:
    rows = []
    for python, nchan in pairs:
        rows.append(_row("Python (API)", python, "(the server)"))
        rows.append(_row("nginx + nchan", nchan.run, f"{nchan.api_before_mib:.0f} → {nchan.api_open_mib:.0f}"))
    return table(["server", "N streams", "server RSS MiB: before → open (after)", "KiB per stream",
                  "API RSS MiB (nchan run)", "commands/s", "push delay ms p50 / p99 / max", "pushes (never seen)",
                  "command ms p50 / p99", "CPU time during the commands", "load average"], rows)


BEGIN, END = "<!-- bench-streams-nchan:begin -->", "<!-- bench-streams-nchan:end -->"


def section(pairs: Sequence[tuple[StreamsResult, NchanResult]]) -> list[str]:
    now = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    first = pairs[0][0]
    return [
        BEGIN,
        f"## Open streams: the Python stream against nginx + nchan (`python -m bench.streams_nchan --write "
        f"docs/BENCHMARKS.md`, {now})",
        "",
        f"Each N twice in one session, the Python stream first, then nchan (`bench/streams_nchan.py`): one API "
        f"process and one worker, a fresh database and a Redis of the case's own, N public streams over "
        f"{first.games} two-seat games held by {first.clients} client processes, then {first.rate:g} commands/s for "
        f"{first.seconds:g} s through the API. *KiB per stream*: the RSS of the server holding the streams (the API; "
        "nginx's master and its one worker, nchan in Redis mode) with them open minus before, over N. nchan's "
        "streams are authorised by the API one by one and fed by the pusher (one message per channel per version). "
        "*(after)*: after the pushes (for nchan, the channels' kept messages too). Every process shares the "
        "machine's two cores, so the load average says how busy it was.",
        "",
        *busy_warning(first.load[0]),
        *report_table(pairs),
        END,
    ]


def update_page(page: str, pairs: Sequence[tuple[StreamsResult, NchanResult]]) -> str:
    lines = section(pairs)
    if BEGIN in page and END in page:
        head, _, rest = page.partition(BEGIN)
        _, _, tail = rest.partition(END)
        return head + "\n".join(lines) + tail
    return page.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.streams_nchan", description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, nargs="+", default=list(STEPS))
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--rate", type=float, default=RATE, help="commands per second")
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--clients", type=int, default=CLIENTS, help="client processes holding the streams")
    parser.add_argument("--only", choices=("python", "nchan"), help="run one server only (no page written)")
    parser.add_argument("--write", metavar="PATH", type=Path, help="put the section into this page")
    args = parser.parse_args(argv)
    print(f"RLIMIT_NOFILE soft limit: {raise_open_files()}", flush=True)
    pairs = []
    for n in args.streams:
        options = (n, args.games, args.rate, args.seconds, args.clients)
        python = asyncio.run(run_case(*options)) if args.only != "nchan" else None
        if python is not None:
            print(f"python: {_row('python', python, '')}", flush=True)
        nchan = asyncio.run(run_nchan_case(*options)) if args.only != "python" else None
        if nchan is not None:
            print(f"nchan: {_row('nchan', nchan.run, f'{nchan.api_before_mib:.0f} -> {nchan.api_open_mib:.0f}')}",
                  flush=True)
        if python is not None and nchan is not None:
            pairs.append((python, nchan))
    if pairs:
        print("\n".join(report_table(pairs)))
        if args.write is not None:
            args.write.write_text(update_page(args.write.read_text(encoding="utf-8"), pairs), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
