"""Every metric the service exposes for Prometheus, defined once here (prometheus_client, the official client);
the call sites only count. docs/OPERATIONS.md lists them with the alert to set on each.

Each process exposes its own: the API at ``GET /metrics`` (with Litestar's Prometheus middleware for the
requests, :mod:`services.api.metrics`), each worker on ``MAGNATE_WORKER_METRICS_PORT`` (:func:`serve_worker`).
docs/ARCHITECTURE.md ("Observability") says why one scrape target per process rather than prometheus_client's
multiprocess mode.

Labels are bounded sets: a game type, a command kind, a rule's error code, a job kind, a channel, an outcome.
Never a game id: that is what the logs are for.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram, start_http_server

FAST_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Seconds, for what takes milliseconds when all is well (an append)."""
HTTP_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds, for an HTTP request (p99 of a command is about 10 ms on a loaded 2-core machine)."""
JOB_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)
"""Seconds, from a job's due moment to its end: milliseconds normally, seconds after a worker's death."""

# -- the event store, as the gameplay service uses it (services/gameplay/handler.py) ------------------------------

APPENDS = Counter("magnate_appends", "Appends committed to a game's event stream (one per command or system job, "
                  "one per game created)", ["game_type"])
EVENTS_APPENDED = Counter("magnate_events_appended", "Events committed to the event streams", ["game_type"])
APPEND_SECONDS = Histogram("magnate_append_seconds", "Time of one append to the event store (one transaction)",
                           ["game_type"], buckets=FAST_BUCKETS)
APPEND_CONFLICTS = Counter("magnate_append_conflicts", "Appends refused because the stream had moved past the "
                           "expected version (another process appended first; the service decides again)",
                           ["game_type"])
COMMANDS_REFUSED = Counter("magnate_commands_refused", "Players' commands refused by the rules, by error code",
                           ["game_type", "code"])

# -- the worker's jobs (services/ai_worker/measure.py) ---------------------------------------------------------------

JOBS = Counter("magnate_jobs", "Job runs by kind and outcome: ok (did its work), stale (nothing left to do: a "
               "duplicate or a job the game moved past), retried (asked arq to run it again later), failed (an "
               "error, or gave up), cancelled (the worker stopped or the job timed out; arq runs it again)",
               ["kind", "outcome"])
JOB_LATENCY = Histogram("magnate_job_latency_seconds", "From the moment a job was due to the end of its run "
                        "(runs that ended the job: ok, stale, failed)", ["kind"], buckets=JOB_BUCKETS)
JOB_RUN_SECONDS = Histogram("magnate_job_run_seconds", "Time one run of a job took", ["kind"],
                            buckets=JOB_BUCKETS)

# -- the queue, sampled from Redis when the API is scraped (services/api/metrics.py) --------------------------------

QUEUE_JOBS = Gauge("magnate_queue_jobs", "Jobs in the queue: due (their moment has come; running ones included) "
                   "and scheduled (timers and back-offs due later); NaN when Redis did not answer the scrape",
                   ["queue", "state"])
QUEUE_OLDEST_DUE = Gauge("magnate_queue_oldest_due_seconds", "How long the oldest due job has been due (0 when "
                         "none is); NaN when Redis did not answer the scrape", ["queue"])

# -- event streams, counted by the API process that holds them (services/api/limits.py) -----------------------------

OPEN_STREAMS = Gauge("magnate_open_streams", "Server-Sent Event streams this API process holds open (games, chats, "
                     "My games)")
BUSIEST_CLIENT_STREAMS = Gauge("magnate_open_streams_busiest_client", "Streams held open in this API process by "
                               "the client address that holds the most (refused beyond the per-client limit)")
STREAMS_REFUSED = Counter("magnate_streams_refused", "Event streams refused (429) to a client address that holds "
                          "its limit of open streams in this API process")
STREAM_LIMIT = Gauge("magnate_open_streams_limit_per_client", "MAGNATE_MAX_STREAMS_PER_CLIENT: streams one client "
                     "address may hold open in one API process (0: no limit)")

# -- notification deliveries (services/notifications/deliver.py) ------------------------------------------------------

DELIVERIES = Counter("magnate_notification_deliveries", "Notification delivery attempts by channel and outcome: "
                     "sent, skipped (the player is at the page, turned the channel off, ...), retried (a "
                     "transient failure; tried again after a back-off), failed (for good)", ["channel", "outcome"])


def serve_worker(port: int, host: str) -> None:
    """Expose this process's metrics on ``http://host:port/metrics`` (prometheus_client's own server, in a daemon
    thread). Raises OSError when the port is taken."""
    start_http_server(port, addr=host)
