"""The ``magnate`` command: run the server, a worker, migrations and the audit tools.

    magnate run [--dev-mailbox]     everything in one process tree (embedded PostgreSQL/Redis if unset)
    magnate serve [--dev-mailbox]   the HTTP API (uvicorn) on HOST:PORT
    magnate worker              one arq worker (system jobs: dice, market, AI turns)
    magnate migrate             apply the SQL migrations
    magnate export GAME_ID [-o FILE] [--story] [--lang L]   a game's history as JSON Lines (or its story, read)
    magnate verify FILE [--receipt R]  check an export (and a player's receipt); exit code 0 if it verifies
    magnate story FILE [--lang L]   an export's story in sentences, in English, Russian or German (en, ru, de)
    magnate simulate -n N ...   N seeded games, in-process or through the live service; JSON + SVG summary

``--dev-mailbox`` (or ``MAGNATE_DEV_MAILBOX=1``; ``make run`` passes it) keeps mail at /dev/mail when no SMTP_URL
is set: a development machine only, since whoever reads it can sign in as anyone. Without it and without SMTP_URL
the server sends no mail and refuses sign-in links.

Settings come from the environment (:mod:`infra.config`): DATABASE_URL, REDIS_URL, HOST, PORT,
MAGNATE_DATA_DIR, ... MAGNATE_GAMES names the registry of games every subcommand serves, exports, verifies and
simulates (default ``domain.games:GAMES``; :mod:`services.gameplay.registry`).

Each subcommand imports what it needs when it runs (hence the ruff exemption below): ``run`` starts
quickly and ``verify`` works without the server's packages.
"""
# ruff: noqa: PLC0415

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import msgspec

from infra.config import Settings, load
from services.supervisor import die_with_parent, migrate_database, store_urls

log = logging.getLogger("magnate")



def _logging(settings: Settings) -> None:
    """Structured logs for the whole process (:mod:`infra.logs`): JSON lines, or the console on a terminal."""
    from infra import logs

    try:
        logs.configure(settings.log_format, settings.log_level)
    except ValueError as exc:
        print(f"magnate: {exc}", file=sys.stderr)
        sys.exit(2)


# -- serve / worker / migrate ---------------------------------------------------------------------


def cmd_serve(settings: Settings) -> int:
    import uvicorn

    try:
        from services.api.app import create_app
    except ImportError as exc:
        print(f"magnate serve: the API is not available ({exc})", file=sys.stderr)
        return 2
    from services.api.collector import FreezingCollector

    die_with_parent()
    FreezingCollector().start()  # short collections with many streams open (its module says why)
    # log_config=None: uvicorn's lines go through the process's logging (infra.logs), not handlers of its own.
    # proxy_headers=False: uvicorn would trust X-Forwarded-For from 127.0.0.1 (FORWARDED_ALLOW_IPS); the app takes
    # the client's address only from MAGNATE_TRUSTED_PROXIES (services/api/limits.py)
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_level="info",
                log_config=None, lifespan="on", proxy_headers=False)
    return 0


def cmd_worker(settings: Settings) -> int:
    from collections.abc import Callable

    from services.ai_worker.worker import serve

    die_with_parent()
    if not settings.redis_url or not settings.database_url:
        print("magnate worker: DATABASE_URL and REDIS_URL must be set (or use `magnate run`)", file=sys.stderr)
        return 2
    new_loop: Callable[[], asyncio.AbstractEventLoop] = asyncio.new_event_loop
    with contextlib.suppress(ImportError):  # uvloop: a faster event loop (arq uses the running one)
        import uvloop

        new_loop = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=new_loop) as runner:
        runner.run(serve(settings))
    return 0


def cmd_migrate(settings: Settings) -> int:
    if not settings.database_url:
        print("magnate migrate: DATABASE_URL is not set and no `magnate run` is running here", file=sys.stderr)
        return 2
    applied = asyncio.run(migrate_database(settings.database_url))
    print(f"applied {len(applied)} migration(s){': ' + ', '.join(applied) if applied else ''}")
    return 0


# -- export / verify ------------------------------------------------------------------------------


async def _export(settings: Settings, game_id: str) -> tuple[list[bytes], dict[int, str]]:
    """The export reads the store only (the log, the chat, and the seats' names for its story), so it needs
    PostgreSQL but not Redis."""
    from infra.chat import ChatStore
    from services.gameplay.audit import export_lines
    from services.gameplay.bootstrap import create_pool, reading

    async with reading(settings) as gameplay:
        pool = await create_pool(settings.database_url or "", 1)
        try:
            lines = await export_lines(gameplay, game_id, ChatStore(pool))
            return lines, {s.seat: s.name for s in await gameplay.queries.seats(game_id)}
        finally:
            await pool.close()


def _story(settings: Settings, lines: list[bytes], language: str, seats: dict[int, str] | None = None) -> bytes:
    """An export's story in ``language`` (:mod:`services.gameplay.audit_story`), as text (``seats``: the seats
    table's names, when told by the service: the log records none)."""
    from services.gameplay.audit_story import story_of_export
    from services.gameplay.registry import games_of
    from services.language.catalogs import catalogs_for

    catalogs = catalogs_for(settings.games, settings.languages, settings.pseudo_locale)
    told = story_of_export(lines, games_of(settings), catalogs, language, seats)
    return "".join(line + "\n" for line in told).encode()


def _language(settings: Settings, language: str | None, command: str) -> str | None:
    """The language asked for, if the service speaks it (None, and a message, otherwise)."""
    chosen = language or "en"
    if chosen not in settings.languages:
        print(f"magnate {command}: no language {chosen!r} here (one of {', '.join(settings.languages)})",
              file=sys.stderr)
        return None
    return chosen


def cmd_story(settings: Settings, path: str, language: str | None) -> int:
    from services.gameplay.audit_story import NoStory

    chosen = _language(settings, language, "story")
    if chosen is None:
        return 2
    data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    try:
        sys.stdout.buffer.write(_story(settings, data.splitlines(), chosen))
    except NoStory as exc:
        print(f"magnate story: {exc}", file=sys.stderr)
        return 1
    sys.stdout.flush()
    return 0


def cmd_export(settings: Settings, game_id: str, output: str | None, story: bool = False,
               language: str | None = None) -> int:
    from infra.errors import StreamNotFound

    if not settings.database_url:
        print("magnate export: DATABASE_URL is not set and no `magnate run` (`make run`) is running here; start "
              "one, or set DATABASE_URL (or use GET /api/games/GAME_ID/export)", file=sys.stderr)
        return 2
    try:
        lines, seats = asyncio.run(_export(settings, game_id))
    except StreamNotFound:
        print(f"magnate export: no game {game_id}", file=sys.stderr)
        return 1
    data = b"".join(line + b"\n" for line in lines)
    if story or language is not None:
        chosen = _language(settings, language, "export")
        if chosen is None:
            return 2
        data = _story(settings, lines, chosen, seats)
    if output and output != "-":
        Path(output).write_bytes(data)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    return 0


def cmd_verify(settings: Settings, path: str, receipt: str | None = None) -> int:
    import msgspec

    from services.gameplay.audit import verify
    from services.gameplay.receipt import check_receipt
    from services.gameplay.registry import games_of

    data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    verdict = verify(data.splitlines(), dict(games_of(settings)))
    print(msgspec.json.format(msgspec.json.encode(verdict).decode(), indent=2))
    print("OK: the export verifies" if verdict.ok else "FAILED: the export does not verify", file=sys.stderr)
    if receipt is None:
        return 0 if verdict.ok else 1
    checked = check_receipt(Path(receipt).read_bytes(), data.splitlines(), verdict.ok)
    print(msgspec.json.format(msgspec.json.encode(checked).decode(), indent=2))
    print(f"OK: the receipt's {checked.heads} chain heads are the export's; {checked.hidden_opened} hidden events up "
          "to your last move opened to the commitments made when they happened" if checked.ok
          else "FAILED: the receipt does not match the export", file=sys.stderr)
    return 0 if verdict.ok and checked.ok else 1


# -- simulate ---------------------------------------------------------------------------------------


def cmd_simulate(settings: Settings, args: argparse.Namespace) -> int:
    import uuid

    from services.simulation import Progress, arms, simulate, write
    from services.simulation.live import LiveError
    from services.supervisor import NotReady, Services

    def refuse(message: str) -> int:
        print(f"magnate simulate: {message}", file=sys.stderr)
        return 2

    if args.games < 1 or args.seats < 2 or args.processes < 1 or args.concurrency < 1 or args.workers < 1:
        return refuse("--games, --processes, --concurrency and --workers must be at least 1, --seats at least 2")
    try:
        specs = arms(args.games, game=args.game, seats=args.seats, difficulty=args.difficulty, bot=args.bot,
                     flags=frozenset(args.flags or ()), seed=args.seed, registry=settings.games)
    except ValueError as exc:
        return refuse(str(exc))
    progress = Progress(sum(s.games for s in specs), enabled=not args.no_progress)
    services: Services | None = None
    queue = f"magnate:simulate:{uuid.uuid4().hex[:10]}"
    url = args.url
    try:
        if args.mode == "service" and url is None:
            if not settings.database_url or not settings.redis_url:
                return refuse("--mode service needs --url of a server in sandbox mode (MAGNATE_SANDBOX=true), or "
                              "DATABASE_URL and REDIS_URL to start one")
            print(f"magnate simulate: starting the API and {args.workers} worker(s)", file=sys.stderr, flush=True)
            services = Services.start(settings.database_url, settings.redis_url, queue, workers=args.workers)
            url = services.url
        simulation = simulate(specs, args.mode, processes=args.processes, url=url, concurrency=args.concurrency,
                              progress=progress)
    except (LiveError, NotReady) as exc:
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


# -- entry point ----------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="magnate", description="Magnate: The First City — play-by-web server")
    sub = p.add_subparsers(dest="command", required=True)
    for name, text in (("run", "API, one worker and (unless DATABASE_URL/REDIS_URL are set) embedded stores"),
                       ("serve", "the HTTP API on HOST:PORT")):
        sub.add_parser(name, help=text).add_argument(
            "--dev-mailbox", action="store_true",
            help="with no SMTP_URL, keep mail (sign-in links included) at /dev/mail for anyone to read: a development "
                 "machine only (the same as MAGNATE_DEV_MAILBOX=1; `make run` asks for it)")
    sub.add_parser("worker", help="an arq worker for system jobs")
    sub.add_parser("migrate", help="apply the database migrations")
    export = sub.add_parser("export", help="a game's history as JSON Lines")
    export.add_argument("game_id")
    export.add_argument("-o", "--output", help="file to write (default: standard output)")
    export.add_argument("--story", action="store_true",
                        help="write the game's story in sentences instead of the JSON Lines (in --lang)")
    export.add_argument("--lang", help="the story's language: en, ru or de (default en; implies --story)")
    check = sub.add_parser("verify", help="verify an export; exit code 0 if it verifies, else 1")
    check.add_argument("file", help="the export (JSON Lines), or - for standard input")
    check.add_argument("--receipt", help="a player's receipt (the JSON the game page saves): its chain heads must be "
                                         "the export's, so what the end reveals is what was committed before")
    told = sub.add_parser("story", help="an export's story in sentences, in the language asked for")
    told.add_argument("file", help="the export (JSON Lines), or - for standard input")
    told.add_argument("--lang", help="en, ru or de (default en)")
    _simulate_parser(sub)
    return p


def _simulate_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sim = sub.add_parser(
        "simulate", help="N seeded games, in-process or through the live service, with a summary and a chart",
        description="Play N seeded games of a registered game (bots in the human seats, the game's AI in the last "
                    "seat) and summarise them: win rates, rounds played, final scores. The same --seed gives the "
                    "same games and results in either mode. Writes a JSON result and an SVG chart beside it.")
    sim.add_argument("--game", help="the game to play, by its type name (default: the first registered)")
    sim.add_argument("-n", "--games", type=int, default=100, help="games per difficulty (default 100)")
    sim.add_argument("--seats", type=int, default=2, help="seats, the AI's included (default 2)")
    sim.add_argument("--difficulty",
                     help="one of the game's AI levels, 'all' (the same games at every level) or 'none' (no AI "
                          "seat) (default: the game's middle level)")
    sim.add_argument("--bot", help="the policy of the human seats, one of the game's bots (default: its first)")
    sim.add_argument("--flag", dest="flags", action="append", metavar="NAME",
                     help="switch on one of the game's variants (repeat for several)")
    sim.add_argument("--advanced", dest="flags", action="append_const", const="advanced",
                     help="the same as --flag advanced")
    sim.add_argument("--seed", help="seed text every game derives from (default: the game's name)")
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
    if args.command in ("export", "migrate", "simulate"):  # reach the stores of a running `magnate run`
        settings = store_urls(settings)
    if args.command in ("run", "serve", "worker", "migrate"):
        _logging(settings)
    if getattr(args, "dev_mailbox", False):  # asked for: the children of `run` inherit it through the environment
        os.environ["MAGNATE_DEV_MAILBOX"] = "1"
        settings = msgspec.structs.replace(settings, dev_mailbox=True)
    match args.command:
        case "run":
            from services.supervisor import run

            return run(settings)
        case "serve":
            return cmd_serve(settings)
        case "worker":
            return cmd_worker(settings)
        case "migrate":
            return cmd_migrate(settings)
        case "export":
            return cmd_export(settings, args.game_id, args.output, args.story, args.lang)
        case "story":
            return cmd_story(settings, args.file, args.lang)
        case "verify":
            return cmd_verify(settings, args.file, args.receipt)
        case "simulate":
            return cmd_simulate(settings, args)
    raise AssertionError(args.command)


if __name__ == "__main__":
    sys.exit(main())
