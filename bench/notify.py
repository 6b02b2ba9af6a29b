"""Notification fan-out: deliveries per second from running ``magnate worker`` processes into a local SMTP server
and a local webhook receiver (:mod:`bench.receivers`, in the benchmark process), beside the arq no-op baseline.

For each channel and worker count: a fresh database holds one game, N players and one notice per player, written
with the projector's own statements (the notification store's ``write_notices`` and ``write_deliveries``), each
with one delivery on the channel (an email to the player's address, or a webhook POST signed as Standard Webhooks).
W workers are started and warmed up (one delivery each way goes through first); then all N jobs are queued at once
(:meth:`infra.notifications.dispatch.RedisDispatch.enqueue`) and the rate is N over the time until the receiver has
every delivery's id and the database says every delivery is ``sent``. Each delivery is
the real one: claim under a lease, a presence check (mail: the player is away), the message rendered, sent (a new
SMTP connection per mail; the webhook's address resolved and checked, an HTTP POST), ``sent`` recorded.

    python -m bench.notify                # prints the table (1,000 deliveries per run)
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import asyncpg
import psutil  # type: ignore[import-untyped]
from arq.connections import ArqRedis

from infra.channels.webhooks import new_secret
from infra.notifications.dispatch import RedisDispatch
from infra.notifications.postgres import PostgresNotificationStore
from infra.queue import arq_pool
from services.notifications.derive import Told
from services.notifications.outbox import EMAIL, WEBHOOK, Delivery
from services.supervisor import spawn

from .common import REDIS_URL, drop_queue, fresh_database, queue_name, table
from .receivers import MailInbox, Tally, WebhookReceiver, http_serving, smtp_serving

CHANNELS = (EMAIL, WEBHOOK)
DEADLINE_S = 300.0


@dataclass(frozen=True, slots=True)
class FanOut:
    channel: str
    workers: int
    deliveries: int
    seconds: float
    repeats: int
    """Messages the receiver accepted more than once (none expected without faults)."""
    worker_cpu_s: float

    @property
    def deliveries_s(self) -> float:
        return self.deliveries / self.seconds if self.seconds else 0.0


async def _seed(dsn: str, count: int, channel: str, hook_url: str) -> list[tuple[str, datetime]]:
    """One game, ``count`` players with one notice and one delivery on ``channel`` each (nothing queued)."""
    conn = await asyncpg.connect(dsn)
    try:
        game_id = uuid.uuid4().hex
        await conn.execute("INSERT INTO games (game_id, game_type, status, version, last_hash)"
                           " VALUES ($1, 'magnate', 'running', 1, '')", game_id)
        now = datetime.now(UTC)
        told, deliveries = [], []
        for i in range(count):
            player = uuid.uuid4().hex
            await conn.execute("INSERT INTO players (player_id, email) VALUES ($1, $2)", player,
                               f"{player[:12]}@example.test")
            target = f"{player[:12]}@example.test"
            if channel == WEBHOOK:
                target = player[:16]
                await conn.execute("INSERT INTO webhooks (webhook_id, player_id, url, shape, secret)"
                                   " VALUES ($1, $2, $3, 'json', $4)", target, player, f"{hook_url}/hook",
                                   new_secret())
            notice = Told(f"{game_id}.{i + 2}.0.your_turn", player, game_id, 0, i + 2, "your_turn",
                          "Your turn in Magnate: The First City")
            told.append(notice)
            deliveries.append(Delivery(f"{notice.notice_id}.{channel}", player, channel, target, notice.notice_id,
                                       now))
        async with conn.transaction():
            store = PostgresNotificationStore(conn)
            await store.write_notices(told)
            return await store.write_deliveries(deliveries)
    finally:
        await conn.close()


def _cpu(processes: Sequence[subprocess.Popen[bytes]]) -> float:
    total = 0.0
    for process in processes:
        with contextlib.suppress(psutil.Error):
            times = psutil.Process(process.pid).cpu_times()
            total += times.user + times.system
    return total


async def _until(tally: Tally, pool: asyncpg.Pool, count: int) -> None:
    await tally.wait_for(count, DEADLINE_S)
    while await pool.fetchval("SELECT count(*) FROM deliveries WHERE status <> 'sent'"):
        await asyncio.sleep(0.02)


async def run_case(channel: str, workers: int, count: int) -> FanOut:
    inbox, hooks = MailInbox(), WebhookReceiver()
    tally: Tally = inbox if channel == EMAIL else hooks
    queue = queue_name("magnate:bench-notify")
    async with fresh_database("magnate_bench_notify") as dsn, smtp_serving(inbox) as smtp_url, \
            http_serving(hooks) as hook_url:
        env = {**os.environ, "DATABASE_URL": dsn, "REDIS_URL": REDIS_URL, "MAGNATE_QUEUE_NAME": queue,
               "SMTP_URL": smtp_url, "MAGNATE_ALLOW_PRIVATE_WEBHOOKS": "true", "PUBLIC_URL": "http://bench.test"}
        warm_up = await _seed(dsn, workers, channel, hook_url)
        processes = [spawn("worker", env) for _ in range(workers)]
        pool = await asyncpg.create_pool(dsn, min_size=1, max_size=2)
        arq: ArqRedis = await arq_pool(REDIS_URL, queue)
        try:
            await RedisDispatch(arq, arq).enqueue(warm_up)
            await _until(tally, pool, workers)
            due = await _seed(dsn, count, channel, hook_url)
            cpu_before, began = _cpu(processes), time.perf_counter()
            await RedisDispatch(arq, arq).enqueue(due)
            await _until(tally, pool, workers + count)
            seconds = time.perf_counter() - began
            return FanOut(channel, workers, count, seconds, tally.repeats, _cpu(processes) - cpu_before)
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=20)
            await arq.aclose()
            await pool.close()
            await drop_queue(REDIS_URL, queue)


async def measure(count: int = 1000, worker_counts: Sequence[int] = (1, 2)) -> list[FanOut]:
    return [await run_case(channel, workers, count) for channel in CHANNELS for workers in worker_counts]


def report_table(runs: Sequence[FanOut], noop_jobs_s: dict[int, float]) -> list[str]:
    names = {EMAIL: "email (SMTP, a connection per mail)", WEBHOOK: "webhook (signed HTTP POST)"}
    rows = []
    for r in runs:
        baseline = noop_jobs_s.get(r.workers)
        beside = f"{baseline:.0f} ({r.deliveries_s / baseline:.2f}×)" if baseline else "–"
        rows.append([names[r.channel], str(r.workers), f"{r.deliveries:,}", f"{r.seconds:.1f}",
                     f"{r.deliveries_s:.0f}", beside, f"{r.worker_cpu_s / r.deliveries * 1000:.2f} ms",
                     str(r.repeats)])
    return table(["channel", "workers", "deliveries", "seconds", "deliveries/s", "arq no-op jobs/s (ratio)",
                  "worker CPU per delivery", "repeats"], rows)


def main() -> int:
    runs = asyncio.run(measure())
    print("\n".join(report_table(runs, {})))
    return 0


if __name__ == "__main__":
    sys.exit(main())
