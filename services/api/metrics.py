"""``GET /metrics``: the API process's Prometheus metrics, with Litestar's own Prometheus integration.

* :data:`PROMETHEUS` is Litestar's ``PrometheusConfig``: its middleware counts and times every request by method,
  **route template** (``/api/games/{game_id}/commands``, never a raw path: ``group_path``) and status
  (``magnate_http_requests_total``, ``magnate_http_request_duration_seconds``, ...). Scrapes are left out.
* :class:`MetricsController` is Litestar's ``PrometheusController`` (prometheus_client's exposition of the
  process's registry), left out of the OpenAPI document; before each scrape it samples the job queue from Redis
  (:func:`sample_queue`), so the queue's depth and the age of its oldest due job are read when asked, even when no
  worker runs — the moment they matter most.

The counters the services keep (appends, jobs, deliveries ...) are defined in :mod:`infra.metrics`; the paths under
``/metrics`` are not rate-limited (only ``/api`` is).
"""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.plugins.prometheus import PrometheusConfig, PrometheusController

from infra import metrics
from infra.errors import StoreUnavailable
from infra.logs import get_logger
from services.gameplay.health import Health

from .limits import StreamSlots

log = get_logger("magnate.api")

PROMETHEUS = PrometheusConfig(app_name="magnate", prefix="magnate_http", group_path=True,
                              buckets=list(metrics.HTTP_BUCKETS), exclude=r"^/metrics|/stream$")
"""Request rates and latencies by route template (Litestar's middleware; ``PROMETHEUS.middleware``). Not for the event
streams: their "latency" is how long a page stayed open, and the middleware's wrapper of ``send`` ran for every
message of every stream (a tenth of the API's time at 10,000 streams); ``magnate_open_streams`` counts them and
``magnate_streams_refused_total`` their refusals."""


async def sample_queue(health: Health, queue: str) -> None:
    """Set the queue's gauges from Redis (:meth:`Health.queue_depth`). NaN when Redis does not answer (a stale depth
    would look healthy)."""
    try:
        depth = await health.queue_depth()
    except StoreUnavailable as exc:
        log.warning("cannot sample the job queue for /metrics", error=str(exc))
        due = scheduled = oldest = float("nan")
    else:
        due, scheduled, oldest = float(depth.due), float(depth.scheduled), depth.oldest_due_s
    metrics.QUEUE_JOBS.labels(queue, "due").set(due)
    metrics.QUEUE_JOBS.labels(queue, "scheduled").set(scheduled)
    metrics.QUEUE_OLDEST_DUE.labels(queue).set(oldest)


async def sample_before_scrape(request: Request[Any, Any, Any]) -> None:
    """``before_request`` of the scrape: the gauges read from Redis now."""
    await sample_queue(request.app.state.runtime.health, request.app.state.settings.queue_name)


class MetricsController(PrometheusController):
    """``GET /metrics`` in Prometheus's text format (prometheus_client's exposition, through Litestar's controller)."""

    path = "/metrics"
    include_in_schema = False
    before_request = staticmethod(sample_before_scrape)


def watch_streams(slots: StreamSlots) -> None:
    """The stream gauges read ``slots`` (this process's open streams) when scraped."""
    metrics.OPEN_STREAMS.set_function(slots.total)
    metrics.BUSIEST_CLIENT_STREAMS.set_function(slots.busiest)
    metrics.STREAM_LIMIT.set(slots.per_client)
