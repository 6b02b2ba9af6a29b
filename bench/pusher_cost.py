"""What the pusher (:mod:`services.pusher`) spends per version of a game: the CPU of its process and the messages it
posts, measured in process over the real PostgreSQL and Redis (and, with ``--nchan``,
a real nginx with nchan in memory mode taking its POSTs).

``G`` Magnate games of two seats are played by random legal moves (the service's own rounds and dice included); after
each move the pusher publishes the new version, and the run records that publish's CPU time (``time.process_time``:
the pusher's own work, its PostgreSQL client's and HTTP client's included; the database server's is not) and wall
time, with the POSTs and the channels' messages counted. The moves are made through a second runtime, as the API's and
the workers' are other processes: the pusher holds none of their appends. The first publish of each game (its whole
log) is left out.

The figure is compared side by side with the code before a change by running this module from a worktree of that
commit (``git worktree add /tmp/before REV``; ``cd /tmp/before && /work/main/.venv/bin/python -m bench.pusher_cost``):
it only needs :class:`services.pusher.Pusher`'s constructor and ``publish``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import msgspec

from domain.games import GAMES
from domain.kernel import Policy, tag_of
from infra.config import load
from infra.nchan.publisher import NchanPush, Push
from services.api.page_stream import Sources
from services.gameplay.bootstrap import Runtime, build
from services.gameplay.story import Stories
from services.language.catalogs import catalogs_for
from services.pusher import Pusher
from services.supervisor import free_port

from .common import REDIS_URL, drop_queue, fresh_database, load_average, median, percentile, table


class CountingPush:
    """A :class:`Push` that counts what it is given (POSTs and bytes) and hands it on to ``inner`` when there is
    one (nginx), else drops it (the pusher's own cost alone)."""

    def __init__(self, inner: Push | None) -> None:
        self.inner = inner
        self.posts = 0
        self.bytes = 0
        self.messages = 0
        """Messages as the channels store them (a POST to several channels is one per channel)."""

    async def publish(self, channel: str, data: str, event: str) -> None:
        await self.publish_to((channel,), data, event)

    async def publish_to(self, channels: Sequence[str], data: str, event: str) -> None:
        self.posts += 1
        self.bytes += len(data)
        self.messages += len(channels)
        if self.inner is not None:
            await self.inner.publish_to(channels, data, event)

    async def aclose(self) -> None:
        if self.inner is not None:
            await self.inner.aclose()


class CostResult(msgspec.Struct, frozen=True):
    versions: int
    cpu_ms: list[float]
    wall_ms: list[float]
    posts_per_version: float
    messages_per_version: float
    kib_per_version: float
    nchan: bool


MAGNATE = GAMES["magnate"]


async def _move(runtime: Runtime, game_id: str, bot: Policy) -> int:
    gameplay = runtime.gameplay
    loaded = await gameplay.load(game_id)
    due = MAGNATE.pending(loaded.state)
    if due.finished:
        return -1
    if due.system is not None:
        await gameplay.run_system(game_id, loaded.version, tag_of(due.system))
    else:
        seat = due.seats[0]
        await gameplay.submit(game_id, int(seat), uuid.uuid4().hex, bot(loaded.state, seat))
    return (await gameplay.load(game_id)).version


@contextlib.asynccontextmanager
async def _push(nchan: bool) -> AsyncIterator[CountingPush]:
    if not nchan:
        yield CountingPush(None)
        return
    from infra.nchan.config import NchanBox  # noqa: PLC0415 (only with --nchan)
    from infra.nchan.process import NginxProcess  # noqa: PLC0415

    with tempfile.TemporaryDirectory(prefix="magnate-pusher-cost-") as work:
        box = NchanBox(listen=f"127.0.0.1:{free_port()}", publish_listen=f"127.0.0.1:{free_port()}",
                       apis=["127.0.0.1:9"], work=Path(work))
        nginx = NginxProcess.start(box)
        push = CountingPush(NchanPush(box.publish_url))
        try:
            yield push
        finally:
            await push.aclose()
            nginx.stop()


async def measure(games: int, moves: int, nchan: bool, seed: int = 1) -> CostResult:
    queue = f"magnate:bench:pusher:{uuid.uuid4().hex[:10]}"
    async with fresh_database() as dsn, _push(nchan) as push:
        settings = load({}, database_url=dsn, redis_url=REDIS_URL, queue_name=queue)
        runtime = await build(settings, run_migrations=False)
        players = await build(settings, run_migrations=False)  # the API's and workers' appends: another process
        try:
            catalogs = catalogs_for(settings.games, settings.languages, settings.pseudo_locale)
            pusher = Pusher(Sources(runtime.gameplay, Stories(), catalogs, runtime.tables), push, runtime.chat)
            ids = []
            for _ in range(games):
                assert MAGNATE.sim_options is not None
                options = MAGNATE.sim_options(("human", "human"), None, frozenset())
                created = await players.gameplay.create_game("magnate", options)
                await players.tables.created(created.game_id, options, False)
                await pusher.publish(created.game_id, (await runtime.gameplay.load(created.game_id)).version)
                ids.append(created.game_id)
            bot = MAGNATE.bots["random"](seed)
            cpu: list[float] = []
            wall: list[float] = []
            posts = sent = stored = 0
            push.posts = push.bytes = push.messages = 0
            for _ in range(moves):
                for game_id in ids:
                    version = await _move(players, game_id, bot)
                    if version < 0:
                        continue
                    before_posts, before_bytes, before_stored = push.posts, push.bytes, push.messages
                    c0, w0 = time.process_time(), time.perf_counter()
                    await pusher.publish(game_id, version)
                    cpu.append((time.process_time() - c0) * 1000)
                    wall.append((time.perf_counter() - w0) * 1000)
                    posts += push.posts - before_posts
                    sent += push.bytes - before_bytes
                    stored += push.messages - before_stored
            count = max(1, len(cpu))
            return CostResult(len(cpu), cpu, wall, posts / count, stored / count,
                              sent / count / 1024, nchan)
        finally:
            await runtime.close()
            await players.close()
            await drop_queue(REDIS_URL, queue)


def report(results: Sequence[tuple[str, CostResult]]) -> list[str]:
    rows = [[label, "nginx+nchan" if r.nchan else "dropped", str(r.versions), f"{median(r.cpu_ms):.1f}",
             f"{percentile(r.cpu_ms, 0.99):.1f}", f"{sum(r.cpu_ms) / max(1, r.versions):.1f}",
             f"{median(r.wall_ms):.1f}", f"{r.posts_per_version:.1f}",
             f"{r.messages_per_version:.1f}", f"{r.kib_per_version:.1f}"] for label, r in results]
    return table(["code", "POSTs to", "versions", "CPU ms median", "CPU ms p99", "CPU ms mean", "wall ms median",
                  "POSTs", "channel messages", "KiB posted"], rows)


BEGIN, END = "<!-- pusher-cost:begin -->", "<!-- pusher-cost:end -->"


def _measured_at(rev: str, games: int, moves: int, nchan: bool) -> CostResult:
    """This module run in a worktree of ``rev`` (its own code, this harness copied in), as a child process."""
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="magnate-pusher-cost-rev-") as work:
        tree = Path(work) / "tree"
        subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", str(tree), rev], check=True,
                       capture_output=True)
        try:
            shutil.copy(Path(__file__), tree / "bench" / "pusher_cost.py")
            args = [sys.executable, "-m", "bench.pusher_cost", "--games", str(games), "--moves", str(moves), "--json",
                    *(["--nchan"] if nchan else [])]
            out = subprocess.run(args, cwd=tree, check=True, capture_output=True, text=True).stdout
            return msgspec.json.decode(out.strip().splitlines()[-1], type=CostResult)
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(tree)], check=False,
                           capture_output=True)


def section(results: Sequence[tuple[str, CostResult]], load_at_start: float | None, games: int, moves: int
            ) -> list[str]:
    load = "unknown" if load_at_start is None else f"{load_at_start:.1f}"
    return [BEGIN, "### The pusher's cost per version", "",
            f"`python -m bench.pusher_cost --compare REV` ({games} two-seat Magnate games, {moves} moves each, random "
            "legal moves; the moves made through a second runtime as the API's and workers' are; the pusher's "
            "process CPU per published version, its POSTs, the messages the channels store "
            "(a POST to several channels is one each) and the bytes posted; \"dropped\": posted nowhere, the "
            "pusher's own work; \"nginx+nchan\": to a real nginx with nchan in memory mode). "
            f"1-minute load average at start: {load}.", "", *report(results), "", END]


def update_page(text: str, block: list[str]) -> str:
    joined = "\n".join(block)
    if BEGIN in text and END in text:
        head, _, rest = text.partition(BEGIN)
        return head + joined + rest.partition(END)[2]
    return text.rstrip("\n") + "\n\n" + joined + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pusher_cost", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--moves", type=int, default=40, help="moves per game")
    parser.add_argument("--nchan", action="store_true", help="post to a real nginx with nchan (memory mode) only")
    parser.add_argument("--compare", metavar="REV", help="also measure commit REV (a worktree), side by side")
    parser.add_argument("--json", action="store_true", help="print the result as JSON (one mode)")
    parser.add_argument("--write", metavar="PATH", help="put the section into this page (docs/BENCHMARKS.md)")
    args = parser.parse_args(argv)
    load_at_start = load_average()
    if args.json:
        print(msgspec.json.encode(asyncio.run(measure(args.games, args.moves, args.nchan))).decode())
        return 0
    modes = (True,) if args.nchan else (False, True)
    results: list[tuple[str, CostResult]] = []
    for nchan in modes:
        if args.compare:
            results.append((args.compare, _measured_at(args.compare, args.games, args.moves, nchan)))
        results.append(("this code", asyncio.run(measure(args.games, args.moves, nchan))))
    block = section(results, load_at_start, args.games, args.moves)
    print("\n".join(block))
    if args.write:
        page = Path(args.write)
        page.write_text(update_page(page.read_text(encoding="utf-8"), block), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
