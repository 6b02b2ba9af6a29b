"""What an operator watches, through the real app on in-memory twins: ``GET /metrics`` in Prometheus's
text format (appends, refusals, request latency by route template, the queue sampled at the scrape, open streams)
and the JSON log line of a command, with its game and version."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from infra import logs

from .table import Table

PASS = {"type": "magnate.pass_bid"}
COMMANDS_ROUTE = "/api/games/{game_id}/commands"


async def scrape(client: httpx.AsyncClient) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of ``GET /metrics``, parsed with prometheus_client's own parser: (name, labels) -> value."""
    response = await client.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(response.text) for sample in family.samples}


def value(samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels`` (0 when there is none)."""
    wanted = set(labels.items())
    return sum(v for (n, have), v in samples.items() if n == name and wanted <= have)


async def test_a_command_shows_in_the_appends_and_the_latency_of_its_route(client: httpx.AsyncClient,
                                                                           table: Table) -> None:
    before = await scrape(client)
    game = await table.create()
    seat = await table.seat_on_turn(game)
    assert (await table.submit(game, seat, PASS)).status_code == 200

    after = await scrape(client)
    # the creation and the command: two appends at least (the worker's part, run by the table, may add more)
    assert value(after, "magnate_appends_total", game_type="magnate") >= value(
        before, "magnate_appends_total", game_type="magnate") + 2
    assert value(after, "magnate_events_appended_total", game_type="magnate") > value(
        before, "magnate_events_appended_total", game_type="magnate")
    assert value(after, "magnate_append_seconds_count", game_type="magnate") > value(
        before, "magnate_append_seconds_count", game_type="magnate")
    route = {"path": COMMANDS_ROUTE, "method": "POST", "status_code": "200"}
    assert value(after, "magnate_http_requests_total", **route) == value(
        before, "magnate_http_requests_total", **route) + 1
    assert value(after, "magnate_http_request_duration_seconds_count", **route) == value(
        before, "magnate_http_request_duration_seconds_count", **route) + 1
    # the route's template, never the game's own path; and the scrapes themselves are not counted
    assert not any(n.startswith("magnate_http") and dict(labels).get("path", "").find(game.id) >= 0
                   for n, labels in after)
    assert value(after, "magnate_http_requests_total", path="/metrics") == 0


async def test_a_refused_command_counts_by_its_code(client: httpx.AsyncClient, table: Table) -> None:
    game = await table.create()
    seat = await table.seat_on_turn(game)
    other = 1 - seat
    before = value(await scrape(client), "magnate_commands_refused_total", game_type="magnate",
                   code="rule/not_your_turn")
    response = await table.submit(game, other, PASS)
    assert response.status_code == 422 and response.json()["code"] == "rule/not_your_turn"
    assert value(await scrape(client), "magnate_commands_refused_total", game_type="magnate",
                 code="rule/not_your_turn") == before + 1


async def test_the_queue_is_sampled_when_scraped(client: httpx.AsyncClient, table: Table, queue_name: str) -> None:
    game = await table.create(seats=[{"kind": "human"}, {"kind": "ai"}], difficulty="generalised_ai")
    samples = await scrape(client)
    # nothing runs this test's queue: the game's first system job waits in it, due
    if (await table.read(game))["system_job"] is not None:
        assert value(samples, "magnate_queue_jobs", queue=queue_name, state="due") >= 1
        assert value(samples, "magnate_queue_oldest_due_seconds", queue=queue_name) >= 0
    assert ("magnate_queue_jobs", frozenset({("queue", queue_name), ("state", "scheduled")})) in samples
    assert ("magnate_open_streams", frozenset()) in samples
    assert value(samples, "magnate_open_streams_limit_per_client") == 0  # a sandbox has no limits


async def test_metrics_are_left_out_of_the_openapi_document(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/schema/openapi.json")).json()
    assert "/metrics" not in schema["paths"]


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """The lines the ``magnate`` loggers write at INFO, rendered by the formatter ``magnate serve`` uses."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logs.formatter(logs.JSON))
    logger = logging.getLogger("magnate")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield out
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


async def test_a_command_logs_a_json_line_with_its_game_and_version(table: Table, json_lines: io.StringIO) -> None:
    game = await table.create()
    seat = await table.seat_on_turn(game)
    at = (await table.read(game))["version"]
    refused = await table.submit(game, 1 - seat, PASS)  # not that seat's turn
    assert refused.status_code == 422
    response = await table.submit(game, seat, PASS)
    assert response.status_code == 200

    lines = [json.loads(line) for line in json_lines.getvalue().splitlines()]  # every line is one JSON object
    told = {line["event"]: line for line in lines if line.get("game_id") == game.id}
    line = told["command refused"]
    assert (line["code"], line["version"]) == ("rule/not_your_turn", at)
    line = told["command applied"]
    assert (line["command"], line["version"]) == ("magnate.pass_bid", response.json()["version"])
    assert line["level"] == "info" and line["logger"] == "magnate.gameplay" and line["timestamp"].endswith("Z")
