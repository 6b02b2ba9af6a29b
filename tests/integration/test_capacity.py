"""The open-loop capacity run (``bench/capacity.py``) at a tiny size: a step fills every column of its table, the
chart is a valid SVG and the page gets its section; and people at one table see each other's moves on their
streams (a table of three signed-in players, each on their own seat's stream)."""

from __future__ import annotations

import asyncio
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import asyncpg
import pytest

from bench.capacity import measure, write
from bench.capacity_chart import chart
from bench.capacity_clients import Clients
from bench.capacity_model import Model
from bench.capacity_page import BEGIN, CHART, END, step_table
from bench.common import fresh_database
from services.supervisor import Services

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]

SVG = "{http://www.w3.org/2000/svg}"


async def test_a_tiny_run_fills_every_column_and_draws_the_chart(tmp_path: Path) -> None:
    model = Model(think_median_s=0.2, think_sigma=0.3, moves=4, solo_share=0.5)
    result = await measure((2.0,), warm_s=2.0, window_s=3.0, model=model, clients=1, all_steps=True)

    [step] = result.steps
    assert step.failures == 0, step.errors
    assert step.commands > 0 and step.reads > 0 and step.jobs > 0 and step.pushes > 0 and step.people > 0
    assert step.api_rss_mib > 0 and step.worker_rss_mib > 0
    assert all(step.cpu_s[part] >= 0 for part in ("API", "worker", "Redis", "clients"))
    header, rule, row = step_table(result.steps)
    assert header.count("|") == rule.count("|") == row.count("|") == 16
    assert all(cell.strip() for cell in row.split("|")[1:-1])

    svg = ET.fromstring(chart(result))
    assert svg.tag == f"{SVG}svg"
    assert len(svg.findall(f"{SVG}polyline")) == 3

    page = tmp_path / "BENCHMARKS.md"
    page.write_text("# Benchmarks\n\n<!-- bench-full:begin -->\n<!-- bench-full:end -->\n", encoding="utf-8")
    write(page, result)
    text = page.read_text(encoding="utf-8")
    assert text.index(BEGIN) < text.index(END) < text.index("<!-- bench-full:begin -->")
    assert f"]({CHART})" in text and "people" in text
    ET.parse(tmp_path / CHART)


async def test_people_at_a_table_see_each_others_moves_on_their_streams(redis_url: str, queue_name: str) -> None:
    moves = 6
    async with fresh_database("magnate_capacity_test") as dsn:
        services = Services.start(dsn, redis_url, queue_name, 1, env={"MAGNATE_DEV_MAILBOX": "1"})  # sign-in links
        clients = Clients(services.url, dsn, "table", Model(think_median_s=0.05, think_sigma=0.2, moves=moves,
                                                            solo_share=0.0, table_sizes=(3,)), seed=7)
        clients.pool = await asyncpg.create_pool(dsn, min_size=1, max_size=2)
        try:
            await asyncio.wait_for(clients.arrive(time.time()), 60)
        finally:
            await asyncio.gather(*(p.conn.close() for p in clients.idle))
            await clients.pool.close()
            services.stop()
    seen = clients.records
    assert seen.failures == 0, seen.errors
    assert seen.sign_ins == seen.people == 3
    assert len(seen.commands) == moves
    assert seen.people_pushes == 2 * moves, "each move reaches the two other people's streams"
