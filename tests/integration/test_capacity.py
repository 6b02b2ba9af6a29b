"""The open-loop capacity run (``bench/capacity.py``) at a tiny size, with the one-stream page on each push mode (the
API's stream; nginx with nchan in front of the API, on ports 18600-18699): a step fills every column of its table,
the chart is a valid SVG and the page gets the mode's section beside the other mode's; and people at one table see
each other's moves on their one stream (a table of three signed-in players, each on their own seat's stream)."""

from __future__ import annotations

import asyncio
import socket
import time
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import asyncpg
import pytest
import redis

from bench.capacity import measure, push_server, write
from bench.capacity_chart import chart
from bench.capacity_clients import Clients
from bench.capacity_model import Model
from bench.capacity_page import BEGIN, CHARTS, END, MARKERS, page_section, step_table
from bench.common import fresh_database
from infra.nchan.process import nginx_binary
from services.supervisor import Services

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]

SVG = "{http://www.w3.org/2000/svg}"
PORTS = range(18600, 18700)


def free_ports() -> tuple[int, int]:
    """nginx's two ports (the pages', the publisher's) from this test's range."""
    found = []
    for port in PORTS:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        found.append(port)
        if len(found) == 2:
            return found[0], found[1]
    raise RuntimeError("no free ports in 18600-18699")


@pytest.mark.parametrize("push", ["python", "nchan"])
async def test_a_tiny_run_fills_every_column_and_draws_the_chart(push: str, tmp_path: Path) -> None:
    if push == "nchan":
        nginx_binary()  # fails loudly, with how to install it, when nginx or nchan is missing
    model = Model(think_median_s=0.2, think_sigma=0.3, moves=4, solo_share=0.5, push=push)
    # The window is long enough for a loaded, slow box (commands at a p50 of 450 ms beside three other test
    # processes) to see a push of another actor's move in it: 2.5 s once saw none.
    result = await measure((2.0,), warm_s=1.5, window_s=6.0, model=model, clients=1, all_steps=True,
                           push_ports=free_ports())

    [step] = result.steps
    assert step.failures == 0, step.errors
    assert step.streams_per_person == 1  # the one-stream page
    assert step.commands > 0 and step.reads > 0 and step.jobs > 0 and step.pushes > 0 and step.people > 0
    assert step.api_rss_mib > 0 and step.worker_rss_mib > 0 and step.stream_rss_mib > 0
    parts = ("API", "worker", "Redis", "clients") + (("nginx", "pusher") if push == "nchan" else ())
    assert all(step.cpu_s[part] >= 0 for part in parts)
    assert ("nginx" in step.cpu_s) == (push == "nchan")
    assert (step.stream_rss_mib == step.api_rss_mib) == (push == "python")  # nchan's: nginx's workers
    header, rule, row = step_table(result.steps)
    assert header.count("|") == rule.count("|") == row.count("|") == 16
    assert all(cell.strip() for cell in row.split("|")[1:-1])
    assert ("nginx / pusher" in header) == (push == "nchan")

    svg = ET.fromstring(chart(result))
    assert svg.tag == f"{SVG}svg"
    assert len(svg.findall(f"{SVG}polyline")) == 3

    # the run writes its own mode's section and leaves the other mode's as it was
    other = "nchan" if push == "python" else "python"
    kept = f"{MARKERS[other][0]}\nthe {other} run's\n{MARKERS[other][1]}"
    page = tmp_path / "BENCHMARKS.md"
    page.write_text(f"# Benchmarks\n\n{kept}\n\n<!-- bench-full:begin -->\n<!-- bench-full:end -->\n",
                    encoding="utf-8")
    write(page, result)
    write(page, result)  # replaced in place
    text = page.read_text(encoding="utf-8")
    begin, end = MARKERS[push]
    assert text.count(begin) == text.count(end) == 1 and kept in text
    assert text.index(BEGIN) < text.index(END) < text.index(MARKERS["nchan"][0]) \
        < text.index("<!-- bench-full:begin -->")
    assert f"]({CHARTS[push]})" in text and "people" in text and "one stream" in text
    ET.parse(tmp_path / CHARTS[push])
    carried = "\n".join(page_section(None, text))  # the full report, which measures neither, keeps both
    assert carried.count(BEGIN) == carried.count(MARKERS["nchan"][0]) == 1


@pytest.mark.parametrize("push", ["python", "nchan"])
async def test_people_at_a_table_see_each_others_moves_on_their_one_stream(push: str, redis_url: str,
                                                                            queue_name: str) -> None:
    moves = 6
    namespace = f"magnate:test-capacity:{uuid.uuid4().hex[:10]}:"
    model = Model(think_median_s=0.05, think_sigma=0.2, moves=moves, solo_share=0.0, table_sizes=(3,), push=push)
    env = {"MAGNATE_DEV_MAILBOX": "1", **({"MAGNATE_PUSH": "nchan"} if push == "nchan" else {})}
    async with fresh_database("magnate_capacity_test") as dsn:
        services = Services.start(dsn, redis_url, queue_name, 1, env=env)  # the sign-in links
        try:
            with push_server(services, redis_url, push, free_ports(), namespace) as server:
                site = server.url if server is not None else services.url
                clients = Clients(site, dsn, "table", model, seed=7)
                clients.pool = await asyncpg.create_pool(dsn, min_size=1, max_size=2)
                try:
                    await asyncio.wait_for(clients.arrive(time.time()), 60)
                finally:
                    await asyncio.gather(*(p.conn.close() for p in clients.idle))
                    await clients.pool.close()
        finally:
            services.stop()
            client = redis.Redis.from_url(redis_url)
            if keys := list(client.scan_iter(f"{namespace}*")):
                client.delete(*keys)
            client.close()
    seen = clients.records
    assert seen.failures == 0, seen.errors
    assert seen.sign_ins == seen.people == 3
    assert seen.reads == 3 * 3, "each page reads three times at load, and never after a message"
    assert len(seen.opened) == 2 * 3, "each person held one stream, opened and closed"
    assert len(seen.commands) == moves
    assert seen.people_pushes == 2 * moves, "each move reaches the two other people's streams"
