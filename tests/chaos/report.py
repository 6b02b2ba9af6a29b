"""``docs/RELIABILITY.md``: what the full fault run did and what held, written by the run itself so the
figures on the page are the figures of a run (the date and the machine say which)."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from .exercise import Exercise
from .faults import Size
from .fuzz import ENFORCED, Fuzzed
from .tally import tallies
from .verdict import (
    RECONCILE_EVERY_S,
    RECONNECT_S,
    SLACK_S,
    WORKER_RESUME_S,
    Judged,
    describe,
    judge_stall,
    longest_away_from_stores,
)

TOP_STALLS = 10


@dataclass
class Findings:
    """What the tests of one run found, for the report (filled in as they run)."""

    size: Size
    exercise: Exercise | None = None
    violations: list[str] = field(default_factory=list)
    fuzzed: Fuzzed | None = None
    postgres_version: str = ""
    seconds: dict[str, float] = field(default_factory=dict)
    """The parts of the run that are timed separately."""
    long_outage: list[str] = field(default_factory=list)
    """What the two-minute Redis outage (``test_redis_outage``) found, a line per figure."""
    began: float = field(default_factory=time.monotonic)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{platform.node()}: {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}")


def commit() -> str:
    """The commit the run tested, and whether the tree had changes on top of it."""
    here = Path(__file__).parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False,
                              cwd=here, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True, check=False, cwd=here, timeout=30).stdout.strip()
    except OSError:
        return "?"
    if not head:
        return "?"
    return f"`{head}` with uncommitted changes" if dirty else f"`{head}`"


def summary(found: Findings) -> str:
    """A few lines for the terminal."""
    ex = found.exercise
    assert ex is not None
    ledger, traffic = ex.ledger, ex.traffic
    longest = judge_stall(ledger.stalls[0], ex.timeline) if ledger.stalls else None
    kinds = ", ".join(f"{k} x{sum(1 for f in ex.timeline if f.kind == k)}"
                      for k in dict.fromkeys(f.kind for f in ex.timeline))
    return "\n".join([
        f"chaos ({found.size.name}): {ex.started_games} games in {ex.play_s:.0f} s; faults: {kinds or 'none'}",
        f"  store: {ledger.games} games, {ledger.finished} finished, {ledger.verified} verified, "
        f"{ledger.same_as_in_process} as in-process; {ledger.events} events, {ledger.commands} commands",
        f"  lost {len(ledger.lost)}, duplicated {len(ledger.duplicated)}, orphans {len(ledger.orphans)}, "
        f"unfinished {len(ledger.unfinished)}, broken invariants {len(ledger.problems)}",
        f"  requests {traffic.requests}, statuses {dict(sorted(traffic.statuses.items()))}, connection errors "
        f"{traffic.transport_errors}, 503 without Retry-After {traffic.unavailable_without_retry_after}",
        f"  workers: {ex.worker_kills} killed, {len(ex.exits)} exited on their own; longest stall "
        f"{_stall(longest)}; away from store faults {_stall(longest_away_from_stores(ex))}",
        *(f"  {t.game}: {t.played} played, {t.stored} stored, {t.finished} finished, {t.verified} verified, "
          f"{t.same} as in-process, lost {t.lost}, duplicated {t.duplicated}, clocks run out in the outage "
          f"{t.clocked} (timed out after it: {t.timed_out_after})" for t in tallies(ex)),
    ])


def write_report(found: Findings, path: Path) -> None:
    path.write_text(render(found), encoding="utf-8")


def render(found: Findings) -> str:
    ex = found.exercise
    assert ex is not None
    size, ledger, traffic = found.size, ex.ledger, ex.traffic
    today = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    kinds = {k: sum(1 for f in ex.timeline if f.kind == k) for k in
             ("worker_kill", "redis_flush", "redis_restart", "pg_stop", "pg_crash")}
    longest = judge_stall(ledger.stalls[0], ex.timeline) if ledger.stalls else None
    away = longest_away_from_stores(ex)
    statuses = ", ".join(f"{status}: {n:,}" for status, n in sorted(traffic.statuses.items()))
    verdict = "**Passed**: every promise below held." if not found.violations else (
        "**Failed**: " + str(len(found.violations)) + " promise(s) broken:\n\n"
        + "\n".join(f"- {v}" for v in found.violations))
    lines = [
        "# Reliability",
        "",
        f"Written by `make chaos` (`tests/chaos/`, size `{size.name}`) on {today}, commit {commit()}, on "
        f"{machine()}; PostgreSQL {found.postgres_version or '?'} and Redis of the suite's own, on the same machine. "
        f"The run took {time.monotonic() - found.began:.0f} s in all, start-up and shut-down included "
        f"({', '.join(f'{k} {v:.0f} s' for k, v in found.seconds.items())}).",
        "",
        "## What the run did",
        "",
        f"- **{ex.started_games} games** of every registered game in turn ("
        + ", ".join(f"`{s.game}`: a `{s.bot}` bot against the computer at `{s.difficulty}`" for s in ex.specs)
        + f"; two seats; the seeds of `magnate simulate --game G --seed chaos`), played through the API over HTTP "
        f"and Server-Sent Events, {size.concurrency} at a time, by clients that retry on connection errors, 5xx "
        f"and 429 answers (honouring `Retry-After`) with the same command id, and re-open broken streams; a seat of "
        f"a game that hides events decides on what its own token reads.",
        f"- **{len(ex.clocked.games)} clocked games** (one of each game, 10 s a move, a stand-in for the rest of "
        f"the game on a timeout), created just before Redis went away and never played by anyone: their clocks ran "
        f"out during the outage, and their timeouts were due to happen once Redis was back.",
        f"- One API process and two workers, supervised: **{kinds['worker_kill']} workers killed** with "
        f"`kill -9`, each replaced at once ({ex.workers_started} workers started in all).",
        f"- Redis: **{kinds['redis_flush']} FLUSHALL**, **{kinds['redis_restart']} restart** (`kill -9`, down "
        f"{size.redis_down_s:.0f} s, back empty: no persistence).",
        f"- PostgreSQL: **{kinds['pg_stop']} stop** (fast shutdown, down {size.pg_down_s:.0f} s) and "
        f"**{kinds['pg_crash']} crash** (`kill -9` of every PostgreSQL process, down {size.pg_crash_down_s:.0f} s, "
        f"crash recovery at restart).",
        f"- Faults {size.spacing_s:.1f} s apart, the store faults spread among the kills; play went on "
        f"throughout ({ex.play_s:.0f} s).",
        "- Then every game was read back from the store and exported through the API; every export verified "
        "with `services.gameplay.audit.verify`, and every result compared with the same seeds played "
        "in-process.",
        "",
        "## Verdict",
        "",
        verdict,
        "",
        "## Figures",
        "",
        "| | |",
        "|---|---|",
        f"| games started / in the store / finished | {ex.started_games} / {ledger.games} / {ledger.finished} |",
        f"| exports verified (hash chain, seed, replay) | {ledger.verified} of {ledger.games} "
        f"({ledger.replayed_commands:,} commands replayed) |",
        f"| results identical to the in-process play | {ledger.same_as_in_process} of {ex.started_games} |",
        f"| events / commands / system jobs in the store | {ledger.events:,} / {ledger.commands:,} / "
        f"{ledger.system_jobs:,} |",
        f"| commands acknowledged to clients | {ledger.acknowledged:,} "
        f"({traffic.duplicates_answered} retries answered with their first result) |",
        f"| **lost** (acknowledged, not stored) | **{len(ledger.lost)}** |",
        f"| **duplicated** (applied twice) | **{len(ledger.duplicated)}** |",
        f"| orphan games (a creation applied twice) | {len(ledger.orphans)} |",
        f"| broken invariants (versions, chain, command ranges) | {len(ledger.problems)} |",
        f"| worker kills / Redis flushes / Redis restarts / PostgreSQL stops + crashes | {kinds['worker_kill']} / "
        f"{kinds['redis_flush']} / {kinds['redis_restart']} / {kinds['pg_stop'] + kinds['pg_crash']} |",
        f"| workers that exited on their own (restarted by the supervisor) | {len(ex.exits)} |",
        f"| client HTTP requests (streams included) | {traffic.requests:,} |",
        f"| answers by status | {statuses} |",
        f"| connection errors / retries / streams broken / streams re-opened | {traffic.transport_errors:,} / "
        f"{traffic.retries:,} / {traffic.stream_breaks:,} / {traffic.stream_opens - ex.started_games:,} |",
        f"| 503 answers with / without `Retry-After` | {traffic.unavailable_with_retry_after:,} / "
        f"{traffic.unavailable_without_retry_after:,} |",
        f"| 5xx other than 503 | {traffic.server_error_count} |",
        f"| **longest stall** (a system job due, nothing appended) | **{_stall(longest)}** |",
        f"| longest stall no store fault caught | {_stall(away)} |",
        f"| system jobs that waited over 1 s / 5 s / 30 s | {_over(ex, 1)} / {_over(ex, 5)} / {_over(ex, 30)} |",
    ]
    lines += _fuzz_rows(found.fuzzed)
    lines += _per_game(ex)
    lines += ["", "## Limits the run is held to", "",
              f"A job caught by a worker's death must be appended within {WORKER_RESUME_S:.0f} s of the kill; a job "
              f"caught by a store fault, within the reconciler's period ({RECONCILE_EVERY_S:.0f} s) after the store "
              f"is back (after a Redis restart also the worker's longest wait between two reconnection attempts, "
              f"{RECONNECT_S:.0f} s); each with {SLACK_S:.0f} s of slack for a loaded 2-core machine (a fault that "
              f"comes after a job is already late excuses nothing). Nothing may be lost or applied twice, every game "
              f"must finish and verify with the result of its seeds played in-process, the API must answer 503 (with "
              f"`Retry-After`) and never another 5xx, and no worker may die of a store outage. A clocked game's "
              f"clock must have run out during the Redis outage and its timeout must be recorded after Redis is back, "
              f"within the same limit as a job caught by the outage.", ""]
    if found.long_outage:
        lines += ["## Redis away for two minutes", "",
                  "After the run above, on the same service: games of every game played through a 120 s Redis outage "
                  "(`kill -9`, back empty), with a clocked game of each game whose clock ran out in it "
                  "(`tests/chaos/test_redis_outage.py`).", "", *(f"- {line}" for line in found.long_outage), ""]
    lines += _stall_table(ex)
    lines += _timeline(ex)
    return "\n".join(lines) + "\n"


def _per_game(ex: Exercise) -> list[str]:
    lines = ["", "## Per game", "",
             "| game | played | in the store (clocked included) | finished | exports verified | as in-process "
             "| **lost** | **duplicated** | clocks run out in the outage / timed out after it |",
             "|---|---|---|---|---|---|---|---|---|"]
    lines += [f"| `{t.game}` | {t.played} | {t.stored} | {t.finished} | {t.verified} of {t.stored} | {t.same} of "
              f"{t.played} | **{t.lost}** | **{t.duplicated}** | {t.clocked} / {t.timed_out_after} |"
              for t in tallies(ex)]
    return lines


def _stall(judged: Judged | None) -> str:
    if judged is None:
        return "none"
    return f"{judged.stall.seconds:.1f} s ({_caught(judged)})"


def _caught(judged: Judged) -> str:
    return ", ".join(sorted({f.kind for f in judged.faults})) or "no fault"


def _over(ex: Exercise, seconds: float) -> int:
    return sum(1 for s in ex.ledger.stalls if s.seconds > seconds)


def _fuzz_rows(fuzzed: Fuzzed | None) -> list[str]:
    if fuzzed is None:
        return ["| schemathesis | not run |"]
    enforced = ", ".join(f"`{c}`" for c in ENFORCED)
    rows = [f"| schemathesis test cases (requests) / 5xx | {fuzzed.requests:,} / {fuzzed.five_xx} |",
            f"| schemathesis checks enforced | {enforced}: {sum(fuzzed.failed(c) for c in ENFORCED)} failures |"]
    reported = fuzzed.reported
    if reported:
        found = "; ".join(f"`{check}`: {', '.join(sorted(items))}" for check, items in sorted(reported.items()))
        rows.append(f"| schemathesis checks reported, not enforced | {found} |")
    else:
        rows.append("| schemathesis checks reported, not enforced | every other check passed |")
    return rows


def _stall_table(ex: Exercise) -> list[str]:
    if not ex.ledger.stalls:
        return []
    lines = ["## The longest stalls", "", "| game | job | due from (UTC) | waited | limit | caught by |",
             "|---|---|---|---|---|---|"]
    for stall in ex.ledger.stalls[:TOP_STALLS]:
        j = judge_stall(stall, ex.timeline)
        lines.append(f"| `{stall.game_id[:12]}` | `{stall.command_id}` | {_clock(stall.began)} | {stall.seconds:.1f} s"
                     f"{' (ongoing)' if stall.ongoing else ''} | {j.limit_s:.1f} s | {_caught(j)} |")
    over = [describe(j) for j in (judge_stall(s, ex.timeline) for s in ex.ledger.stalls) if j.over]
    if over:
        lines += ["", f"{len(over)} stall(s) over their limit."]
    return [*lines, ""]


def _clock(moment: float) -> str:
    return datetime.datetime.fromtimestamp(moment, datetime.UTC).strftime("%H:%M:%S.%f")[:-3]


def _timeline(ex: Exercise) -> list[str]:
    if not ex.timeline:
        return []
    start = ex.timeline[0].began
    lines = ["## Fault timeline", "", "| at | UTC | fault | |", "|---|---|---|---|"]
    lines += [f"| {f.began - start:6.1f} s | {_clock(f.began)} | {f.kind} | {f.detail} |" for f in ex.timeline]
    return lines
