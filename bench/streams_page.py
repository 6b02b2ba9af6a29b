"""The open-streams benchmark's results and how docs/BENCHMARKS.md shows them: a case's measurements, the table, the
goal's target row, and the page's section (replaced in place, or carried over by a short run)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from .common import busy_warning, cores, table

DELAY_TARGET_MS = 50.0


@dataclass
class StreamsResult:
    streams: int
    games: int
    clients: int
    rate: float
    seconds: float
    rss_before_mib: float
    rss_open_mib: float
    rss_after_mib: float
    redis_clients: int
    redis_clients_before: int
    subscription_clients: int
    commands: int
    pushes: int
    missed: int
    delay_p50_ms: float
    delay_p99_ms: float
    delay_max_ms: float
    command_p50_ms: float
    command_p99_ms: float
    open_s: float
    cpu_s: dict[str, float]
    load: tuple[float | None, float | None]
    refused: int = 0
    skipped: int = 0

    @property
    def kib_per_stream(self) -> float:
        return (self.rss_open_mib - self.rss_before_mib) * 1024 / self.streams if self.streams else 0.0

    @property
    def commands_s(self) -> float:
        return self.commands / self.seconds if self.seconds else 0.0



def report_table(runs: Sequence[StreamsResult]) -> list[str]:
    rows = []
    for r in runs:
        cpu = ", ".join(f"{name} {s:.1f} s" for name, s in r.cpu_s.items())
        rows.append([
            f"{r.streams:,}", f"{r.games:,}", f"{r.rss_before_mib:.0f} → {r.rss_open_mib:.0f} ({r.rss_after_mib:.0f})",
            f"{r.kib_per_stream:.1f}", f"{r.redis_clients_before} → {r.redis_clients} ({r.subscription_clients})",
            f"{r.commands_s:.0f}",
            f"{r.delay_p50_ms:.0f} / {r.delay_p99_ms:.0f} / {r.delay_max_ms:.0f}", f"{r.pushes:,} ({r.missed:,})",
            f"{r.command_p50_ms:.0f} / {r.command_p99_ms:.0f}",
            f"{r.cpu_s.get('API', 0.0) / r.seconds * 100:.0f}%", cpu,
            " → ".join("?" if x is None else f"{x:.2f}" for x in r.load),
        ])
    return table(["N streams", "games", "API RSS MiB: before → open (after)", "KiB per stream",
                  "Redis clients: before → open (stream subscription)", "commands/s",
                  "push delay ms p50 / p99 / max", "pushes (never seen)", "command ms p50 / p99",
                  "API CPU (of one core)", "CPU time during the commands", "load average"], rows)


def met(r: StreamsResult) -> bool:
    return r.delay_p99_ms <= DELAY_TARGET_MS and r.missed == 0 and r.commands_s >= 0.9 * r.rate


def describe(r: StreamsResult) -> str:
    return (f"N={r.streams} over {r.games} games: API RSS {r.rss_before_mib:.0f} -> {r.rss_open_mib:.0f} MiB "
            f"({r.kib_per_stream:.1f} KiB/stream; {r.rss_after_mib:.0f} after), opened in {r.open_s:.1f} s; Redis "
            f"clients {r.redis_clients_before} -> {r.redis_clients} ({r.subscription_clients} stream subscription); "
            f"{r.commands_s:.0f} commands/s (refused {r.refused}, skipped ticks {r.skipped}); push delay p50 "
            f"{r.delay_p50_ms:.1f} ms p99 {r.delay_p99_ms:.1f} ms max {r.delay_max_ms:.1f} ms over {r.pushes} "
            f"pushes, {r.missed} never seen; command p50 {r.command_p50_ms:.1f} ms p99 {r.command_p99_ms:.1f} ms; "
            "CPU s " + ", ".join(f"{k} {v:.1f}" for k, v in r.cpu_s.items())
            + f"; load {r.load[0]} -> {r.load[1]}")


BEGIN, END = "<!-- bench-streams:begin -->", "<!-- bench-streams:end -->"
TARGET = "10,000 open streams held by one API process at a few MB per 1,000 streams"
MIB_PER_1000_TARGET = 5.0
"""“A few MB per thousand streams”, read as at most 5 MiB."""


def target_row(runs: Sequence[StreamsResult]) -> list[str] | None:
    """The Targets table's row for the goal of issue #16, from the largest N measured."""
    if not runs:
        return None
    r = max(runs, key=lambda run: run.streams)
    per_1000 = r.kib_per_stream * 1000 / 1024
    reasons = []
    if r.streams < 10_000:
        reasons.append(f"only {r.streams:,} streams measured")
    if per_1000 > MIB_PER_1000_TARGET:
        reasons.append(f"{per_1000:.0f} MiB per 1,000 streams: the memory is the HTTP connection and its stream "
                       "(uvicorn's protocol, Litestar's response and task group, the generators), not Redis; a few "
                       "KiB a stream needs a push server outside the Python stack (docs/ARCHITECTURE.md)")
    if r.delay_p99_ms > DELAY_TARGET_MS:
        reasons.append(f"push delay p99 {r.delay_p99_ms:.0f} ms: one process writes every push of a move to its "
                       f"{r.streams // r.games:,} streams on the shared 2 cores")
    if r.missed:
        reasons.append(f"{r.missed:,} pushes never seen")
    if r.commands_s < 0.9 * r.rate:
        reasons.append(f"only {r.commands_s:.0f} commands/s reached (commands answered in {r.command_p50_ms:.0f} ms "
                       "at the median)")
    if reasons and (r.load[0] or 0.0) >= cores():
        reasons.append(f"the machine was busy (load {r.load[0]:.1f} on {cores()} cores): rerun on an idle one")
    measured = (f"{r.streams:,} streams over {r.games} games: {per_1000:.1f} MiB per 1,000 streams, "
                f"{r.redis_clients} Redis clients ({r.subscription_clients} for the streams); push delay p99 "
                f"{r.delay_p99_ms:.0f} ms (p50 {r.delay_p50_ms:.0f}) at {r.commands_s:.0f} commands/s; load "
                f"{r.load[0] or 0:.1f}")
    return [f"{TARGET}, push delay p99 ≤ {DELAY_TARGET_MS:g} ms at {r.rate:g} commands/s (issue #16)", measured,
            "met" if not reasons else "**not met**: " + "; ".join(reasons)]


def section(runs: Sequence[StreamsResult]) -> list[str]:
    """The page's "Open streams" section, between markers (a run that does not measure it carries it over)."""
    now = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    first = runs[0]
    return [
        BEGIN,
        f"## Open streams (`make bench-full` or `python -m bench.streams --write docs/BENCHMARKS.md`, {now})",
        "",
        f"One API process and one worker (the supervisor's `Services`, sandbox mode, a fresh database and a Redis "
        f"server of the run's own); N public event streams spread evenly over {first.games} two-seat games (two "
        f"human seats), held by {first.clients} client processes; then {first.rate:g} commands/s for "
        f"{first.seconds:g} s through the API (the seat on turn's first legal command, round-robin over the "
        "games). *Push delay*: from a command's answer to each stream of its game receiving that version, over "
        "every (command, stream) pair. *KiB per stream*: the API's RSS with the streams open minus before them, "
        "over N. Every process shares the machine's two cores (the client processes and the driver included), so "
        "the load average says how busy it was (another benchmark may have been running).",
        "",
        *busy_warning(first.load[0]),
        *report_table(runs),
        END,
        "",
    ]


def update_page(text: str, runs: Sequence[StreamsResult]) -> str:
    """``text`` (docs/BENCHMARKS.md) with this section and the goal's target row replaced or added."""
    block = "\n".join(section(runs)).rstrip("\n")
    if BEGIN in text and END in text:
        head, _, rest = text.partition(BEGIN)
        text = head + block + rest.partition(END)[2]
    elif "<!-- bench-full:begin -->" in text:
        head, _, rest = text.partition("<!-- bench-full:begin -->")
        text = head + block + "\n\n<!-- bench-full:begin -->" + rest
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    row = target_row(runs)
    if row is None:
        return text
    return with_target_row(text, "| " + " | ".join(row) + " |")


def with_target_row(text: str, line: str) -> str:
    """The Targets table of ``text`` with ``line`` as its row for this goal (replacing an earlier one)."""
    lines = [x for x in text.split("\n") if not x.startswith(f"| {TARGET}")]
    try:
        at = lines.index("## Targets")
    except ValueError:
        return "\n".join(lines)
    end = at + 1
    while end < len(lines) and (not lines[end].startswith("|") if end <= at + 1 else lines[end].startswith("|")):
        end += 1
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    lines.insert(end, line)
    return "\n".join(lines)


def carried_over(text: str | None) -> tuple[str | None, str | None]:
    """The section and target row an earlier page holds (for a run that does not measure streams)."""
    if not text or BEGIN not in text or END not in text:
        return None, None
    block = BEGIN + text.partition(BEGIN)[2].partition(END)[0] + END
    row = next((x for x in text.split("\n") if x.startswith(f"| {TARGET}")), None)
    return block, row


