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
import multiprocessing
import resource
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection as Pipe
from pathlib import Path
from typing import Any

import httpx
import psutil  # type: ignore[import-untyped]
import redis.asyncio

from infra.notify import STREAMS_CLIENT
from services.supervisor import Services

from .common import busy_warning, cores, fresh_database, load_average, own_redis, percentile, queue_name, table

STEPS = (1000, 5000, 10000)
GAMES = 100
RATE = 100.0
SECONDS = 30.0
CLIENTS = 2
OPEN_AT_ONCE = 100
"""Streams each client process has connecting at the same moment."""
SETTLE_S = 3.0
"""Wait after the last stream connected (its first read, its subscription), before the memory is sampled."""
DELAY_TARGET_MS = 50.0


def raise_open_files() -> int:
    """The soft ``RLIMIT_NOFILE`` raised to the hard one (children inherit it); returns the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# -- the client processes: hold streams, record when each version arrives ------------------------------------


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
        while b"connected" not in await reader.readline():
            pass
    connected.set()
    try:
        while line := await reader.readline():
            if line.startswith(b"id:"):  # one per message; chunk sizes and data are other lines
                seen.append((int(line[3:]), time.monotonic()))
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
    pipe.send(("seen", seen))


def client_main(url: str, paths: Sequence[str], pipe: Pipe) -> None:
    """A client process: open ``paths`` as streams, say so, hold them until told to stop, send what they saw."""
    raise_open_files()
    asyncio.run(_hold(url, paths, pipe))


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


async def drive(http: httpx.AsyncClient, games: Sequence[Game], rate: float, seconds: float) -> Played:
    """A command every ``1/rate`` s on the next game that is not busy, for ``seconds``."""
    played, tasks = Played(), set()
    began, tick, turn = time.monotonic(), 0, 0
    while (due := began + tick / rate) < began + seconds:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        tick += 1
        for _ in range(len(games)):
            index, turn = turn % len(games), turn + 1
            if not games[index].busy:
                games[index].busy = True
                task = asyncio.create_task(_move(http, index, games[index], played))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                break
        else:
            played.skipped += 1
    await asyncio.gather(*tasks)
    return played


# -- one case -------------------------------------------------------------------------------------------------


@dataclass
class StreamsResult:
    streams: int
    games: int
    clients: int
    rate: float
    seconds: float
    rss_before_mib: float
    rss_open_mib: float
    rss_after_mib: float
    redis_clients: int
    redis_clients_before: int
    subscription_clients: int
    commands: int
    pushes: int
    missed: int
    delay_p50_ms: float
    delay_p99_ms: float
    delay_max_ms: float
    command_p50_ms: float
    command_p99_ms: float
    open_s: float
    cpu_s: dict[str, float]
    load: tuple[float | None, float | None]
    refused: int = 0
    skipped: int = 0

    @property
    def kib_per_stream(self) -> float:
        return (self.rss_open_mib - self.rss_before_mib) * 1024 / self.streams if self.streams else 0.0

    @property
    def commands_s(self) -> float:
        return self.commands / self.seconds if self.seconds else 0.0


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
    # idle connections dropped before uvicorn's 5 s keep-alive timeout closes them under a request
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64, keepalive_expiry=4.0)
    async with httpx.AsyncClient(base_url=services.url, timeout=60, limits=limits, trust_env=False) as http:
        table_ = await create_games(http, games)
        await asyncio.sleep(1.0)  # the worker's first jobs (the opening dice)
        redis_before, _ = await _clients_of(redis_url)
        rss_before = api.memory_info().rss / 2**20
        paths = [f"/api/games/{table_[i % games].game_id}/stream?after={table_[i % games].version}"
                 for i in range(streams)]
        context = multiprocessing.get_context("spawn")
        pipes, processes, shares = [], [], []
        for c in range(clients):
            share = list(range(c, streams, clients))
            ours, theirs = context.Pipe()
            process = context.Process(target=client_main, args=(services.url, [paths[i] for i in share], theirs),
                                      daemon=True)
            process.start()
            pipes.append(ours)
            processes.append(process)
            shares.append(share)
        began = time.monotonic()
        try:
            for pipe in pipes:
                kind, detail = await asyncio.to_thread(pipe.recv)
                if kind != "open":
                    raise RuntimeError(f"a client could not open its streams: {detail}")
            open_s = time.monotonic() - began
            await asyncio.sleep(SETTLE_S)
            rss_open = api.memory_info().rss / 2**20
            redis_clients, subscription = await _clients_of(redis_url)
            cpu0 = {name: _cpu(p) for name, p in named.items()} | {"PostgreSQL (all)": _postgres_cpu()}
            cpu0["stream clients"] = sum(_cpu(psutil.Process(p.pid)) for p in processes)
            played = await drive(http, table_, rate, seconds)
            await asyncio.sleep(1.0)  # the last pushes
            cpu = {name: _cpu(p) - cpu0[name] for name, p in named.items()}
            cpu["PostgreSQL (all)"] = _postgres_cpu() - cpu0["PostgreSQL (all)"]
            cpu["stream clients"] = sum(_cpu(psutil.Process(p.pid)) for p in processes) - cpu0["stream clients"]
            rss_after = api.memory_info().rss / 2**20
            streams_of: dict[int, list[list[tuple[int, float]]]] = {}
            for pipe, share in zip(pipes, shares, strict=True):
                pipe.send("stop")
                kind, seen = await asyncio.to_thread(pipe.recv)
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


def report_table(runs: Sequence[StreamsResult]) -> list[str]:
    rows = []
    for r in runs:
        cpu = ", ".join(f"{name} {s:.1f} s" for name, s in r.cpu_s.items())
        rows.append([
            f"{r.streams:,}", f"{r.games:,}", f"{r.rss_before_mib:.0f} → {r.rss_open_mib:.0f} ({r.rss_after_mib:.0f})",
            f"{r.kib_per_stream:.1f}", f"{r.redis_clients_before} → {r.redis_clients} ({r.subscription_clients})",
            f"{r.commands_s:.0f}",
            f"{r.delay_p50_ms:.0f} / {r.delay_p99_ms:.0f} / {r.delay_max_ms:.0f}", f"{r.pushes:,} ({r.missed:,})",
            f"{r.command_p50_ms:.0f} / {r.command_p99_ms:.0f}",
            f"{r.cpu_s.get('API', 0.0) / r.seconds * 100:.0f}%", cpu,
            " → ".join("?" if x is None else f"{x:.2f}" for x in r.load),
        ])
    return table(["N streams", "games", "API RSS MiB: before → open (after)", "KiB per stream",
                  "Redis clients: before → open (stream subscription)", "commands/s",
                  "push delay ms p50 / p99 / max", "pushes (never seen)", "command ms p50 / p99",
                  "API CPU (of one core)", "CPU time during the commands", "load average"], rows)


def met(r: StreamsResult) -> bool:
    return r.delay_p99_ms <= DELAY_TARGET_MS and r.missed == 0 and r.commands_s >= 0.9 * r.rate


def describe(r: StreamsResult) -> str:
    return (f"N={r.streams} over {r.games} games: API RSS {r.rss_before_mib:.0f} -> {r.rss_open_mib:.0f} MiB "
            f"({r.kib_per_stream:.1f} KiB/stream; {r.rss_after_mib:.0f} after), opened in {r.open_s:.1f} s; Redis "
            f"clients {r.redis_clients_before} -> {r.redis_clients} ({r.subscription_clients} stream subscription); "
            f"{r.commands_s:.0f} commands/s (refused {r.refused}, skipped ticks {r.skipped}); push delay p50 "
            f"{r.delay_p50_ms:.1f} ms p99 {r.delay_p99_ms:.1f} ms max {r.delay_max_ms:.1f} ms over {r.pushes} "
            f"pushes, {r.missed} never seen; command p50 {r.command_p50_ms:.1f} ms p99 {r.command_p99_ms:.1f} ms; "
            "CPU s " + ", ".join(f"{k} {v:.1f}" for k, v in r.cpu_s.items())
            + f"; load {r.load[0]} -> {r.load[1]}")


BEGIN, END = "<!-- bench-streams:begin -->", "<!-- bench-streams:end -->"
TARGET = "10,000 open streams held by one API process at a few MB per 1,000 streams"
MIB_PER_1000_TARGET = 5.0
"""“A few MB per thousand streams”, read as at most 5 MiB."""


def target_row(runs: Sequence[StreamsResult]) -> list[str] | None:
    """The Targets table's row for the goal of issue #16, from the largest N measured."""
    if not runs:
        return None
    r = max(runs, key=lambda run: run.streams)
    per_1000 = r.kib_per_stream * 1000 / 1024
    reasons = []
    if r.streams < 10_000:
        reasons.append(f"only {r.streams:,} streams measured")
    if per_1000 > MIB_PER_1000_TARGET:
        reasons.append(f"{per_1000:.0f} MiB per 1,000 streams: the memory is the HTTP connection and its stream "
                       "(uvicorn, Litestar's response, the generator), not Redis")
    if r.delay_p99_ms > DELAY_TARGET_MS:
        reasons.append(f"push delay p99 {r.delay_p99_ms:.0f} ms: one process writes every push of a move to its "
                       f"{r.streams // r.games:,} streams on the shared 2 cores")
    if r.missed:
        reasons.append(f"{r.missed:,} pushes never seen")
    if r.commands_s < 0.9 * r.rate:
        reasons.append(f"only {r.commands_s:.0f} commands/s reached (commands answered in {r.command_p50_ms:.0f} ms "
                       "at the median)")
    if reasons and (r.load[0] or 0.0) >= cores():
        reasons.append(f"the machine was busy (load {r.load[0]:.1f} on {cores()} cores): rerun on an idle one")
    measured = (f"{r.streams:,} streams over {r.games} games: {per_1000:.1f} MiB per 1,000 streams, "
                f"{r.redis_clients} Redis clients ({r.subscription_clients} for the streams); push delay p99 "
                f"{r.delay_p99_ms:.0f} ms (p50 {r.delay_p50_ms:.0f}) at {r.commands_s:.0f} commands/s; load "
                f"{r.load[0] or 0:.1f}")
    return [f"{TARGET}, push delay p99 ≤ {DELAY_TARGET_MS:g} ms at {r.rate:g} commands/s (issue #16)", measured,
            "met" if not reasons else "**not met**: " + "; ".join(reasons)]


def section(runs: Sequence[StreamsResult]) -> list[str]:
    """The page's "Open streams" section, between markers (a run that does not measure it carries it over)."""
    now = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    first = runs[0]
    return [
        BEGIN,
        f"## Open streams (`make bench-full` or `python -m bench.streams --write docs/BENCHMARKS.md`, {now})",
        "",
        f"One API process and one worker (the supervisor's `Services`, sandbox mode, a fresh database and a Redis "
        f"server of the run's own); N public event streams spread evenly over {first.games} two-seat games (two "
        f"human seats), held by {first.clients} client processes; then {first.rate:g} commands/s for "
        f"{first.seconds:g} s through the API (the seat on turn's first legal command, round-robin over the "
        "games). *Push delay*: from a command's answer to each stream of its game receiving that version, over "
        "every (command, stream) pair. *KiB per stream*: the API's RSS with the streams open minus before them, "
        "over N. Every process shares the machine's two cores (the client processes and the driver included), so "
        "the load average says how busy it was (another benchmark may have been running).",
        "",
        *busy_warning(first.load[0]),
        *report_table(runs),
        END,
        "",
    ]


def update_page(text: str, runs: Sequence[StreamsResult]) -> str:
    """``text`` (docs/BENCHMARKS.md) with this section and the goal's target row replaced or added."""
    block = "\n".join(section(runs)).rstrip("\n")
    if BEGIN in text and END in text:
        head, _, rest = text.partition(BEGIN)
        text = head + block + rest.partition(END)[2]
    elif "<!-- bench-full:begin -->" in text:
        head, _, rest = text.partition("<!-- bench-full:begin -->")
        text = head + block + "\n\n<!-- bench-full:begin -->" + rest
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    row = target_row(runs)
    if row is None:
        return text
    return with_target_row(text, "| " + " | ".join(row) + " |")


def with_target_row(text: str, line: str) -> str:
    """The Targets table of ``text`` with ``line`` as its row for this goal (replacing an earlier one)."""
    lines = [x for x in text.split("\n") if not x.startswith(f"| {TARGET}")]
    try:
        at = lines.index("## Targets")
    except ValueError:
        return "\n".join(lines)
    end = at + 1
    while end < len(lines) and (not lines[end].startswith("|") if end <= at + 1 else lines[end].startswith("|")):
        end += 1
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    lines.insert(end, line)
    return "\n".join(lines)


def carried_over(text: str | None) -> tuple[str | None, str | None]:
    """The section and target row an earlier page holds (for a run that does not measure streams)."""
    if not text or BEGIN not in text or END not in text:
        return None, None
    block = BEGIN + text.partition(BEGIN)[2].partition(END)[0] + END
    row = next((x for x in text.split("\n") if x.startswith(f"| {TARGET}")), None)
    return block, row


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
