"""The capacity run's results and how docs/BENCHMARKS.md shows them: each step's measurements, the table, the
capacity sentence, the chart (an SVG written by hand) and the page's section (replaced in place, or carried over by
a run that does not measure it)."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from .capacity_model import Model
from .common import busy_warning, cores, table

LATENCY_TARGET_MS = 50.0
BEGIN, END = "<!-- bench-capacity:begin -->", "<!-- bench-capacity:end -->"
"""The Python stream's section (the one ``make bench-full`` writes)."""
CHART = "images/capacity.svg"
"""The chart, relative to docs/BENCHMARKS.md."""
MARKERS = {"python": (BEGIN, END),
           "nchan": ("<!-- bench-capacity-nchan:begin -->", "<!-- bench-capacity-nchan:end -->")}
"""Each push mode's section of the page (a run writes its own and leaves the other's)."""
CHARTS = {"python": CHART, "nchan": "images/capacity-nchan.svg"}
CPU_PARTS = ("API", "worker", "PostgreSQL (all)", "Redis", "clients")
NCHAN_PARTS = ("nginx", "pusher")
"""Parts of the nchan run only."""
SERVERS = {"python": "the API's stream", "nchan": "nginx + nchan"}
FIRST_WARM = 1.5
"""The first step, which starts from nobody, settles this many times as long as the others."""


@dataclass
class Step:
    """One offered load, measured over its window (after its warm-up)."""

    arrivals_s: float
    window_s: float
    people_s: float
    """People who arrived per second in the window (a table brings several)."""
    people: float
    """People there (their game's stream open), averaged over the window."""
    people_peak: int
    streams_per_person: int
    commands: int
    reads: int
    """The pages' reads."""
    jobs: int
    notices: int
    deliveries: int
    cmd_p50_ms: float
    cmd_p99_ms: float
    push_p50_ms: float
    push_p99_ms: float
    pushes: int
    api_rss_mib: float
    worker_rss_mib: float
    api_rss_idle_mib: float
    stream_rss_mib: float
    """The peak RSS of the process holding the streams in the window: the API's (``python``), nginx's workers'
    (``nchan``)."""
    stream_rss_idle_mib: float
    """Its RSS before the first step."""
    cpu_s: dict[str, float]
    lag_p99_ms: float
    """How late the clients started arrivals (p99): when large, the load generator itself could not keep up."""
    failures: int
    conflicts: int
    sign_ins: int
    load: float | None
    errors: list[str] = field(default_factory=list)

    @property
    def commands_s(self) -> float:
        return self.commands / self.window_s

    @property
    def jobs_s(self) -> float:
        return self.jobs / self.window_s

    @property
    def streams(self) -> float:
        return self.people * self.streams_per_person

    @property
    def kib_per_stream(self) -> float:
        grown = self.stream_rss_mib - self.stream_rss_idle_mib
        return grown * 1024 / self.streams if self.streams >= 1 else 0.0

    @property
    def passed(self) -> bool:
        return (self.commands > 0 and self.cmd_p99_ms <= LATENCY_TARGET_MS and self.push_p99_ms <= LATENCY_TARGET_MS
                and not self.failures)


@dataclass
class CapacityResult:
    model: Model
    warm_s: float
    window_s: float
    clients: int
    steps: list[Step]
    load_start: float | None
    seconds: float = 0.0

    @property
    def push(self) -> str:
        return self.model.push

    @property
    def chart_path(self) -> str:
        return CHARTS[self.push]

    @property
    def last_passing(self) -> Step | None:
        passing = [s for s in self.steps if s.passed]
        return passing[-1] if passing else None


def step_table(steps: Sequence[Step]) -> list[str]:
    nchan = any("nginx" in s.cpu_s for s in steps)
    parts = CPU_PARTS + NCHAN_PARTS if nchan else CPU_PARTS
    rows = []
    for s in steps:
        cpu = " / ".join(f"{s.cpu_s.get(part, 0.0) / s.window_s * 100:.0f}" for part in parts)
        rows.append([
            f"{s.arrivals_s:g} ({s.people_s:.1f})", f"{s.people:.0f} ({s.people_peak})", f"{s.streams:.0f}",
            f"{s.commands_s:.0f} ({s.reads / s.window_s:.0f})",
            f"{s.jobs_s:.0f}", f"{s.notices / s.window_s:.0f} / {s.deliveries / s.window_s:.1f}",
            f"{s.cmd_p50_ms:.0f} / {s.cmd_p99_ms:.0f}", f"{s.push_p50_ms:.0f} / {s.push_p99_ms:.0f}",
            f"{s.api_rss_mib:.0f} / {s.worker_rss_mib:.0f}", f"{s.kib_per_stream:.0f}", cpu,
            f"{s.lag_p99_ms:.0f}", f"{s.failures} / {s.conflicts}",
            "?" if s.load is None else f"{s.load:.1f}", "passed" if s.passed else "**failed**",
        ])
    return table(["arrivals/s (people/s)", "people there: mean (peak)", "streams open", "moves/s (page reads/s)",
                  "jobs/s",
                  "notices/s / deliveries/s", "move ms p50 / p99", "push delay ms p50 / p99",
                  "RSS MiB: API / worker",
                  "KiB per open stream (nginx's workers)" if nchan else "KiB per open stream (API)",
                  "CPU % of one core: " + " / ".join(parts), "arrival lag ms p99", "failed visits / 409s",
                  "load", f"p99s ≤ {LATENCY_TARGET_MS:g} ms"], rows)


def capacity_sentence(result: CapacityResult) -> str:
    """What an operator can act on: the people one such box serves within the latency target, from the last
    passing step."""
    good = result.last_passing
    model = result.model
    if good is None:
        first = result.steps[0] if result.steps else None
        measured = "" if first is None else (f" (at {first.arrivals_s:g} arrivals/s: command p99 "
                                             f"{first.cmd_p99_ms:.0f} ms, push delay p99 {first.push_p99_ms:.0f} ms)")
        return (f"**No step stayed within {LATENCY_TARGET_MS:g} ms at p99**{measured}: rerun on an idle machine "
                "before quoting a capacity.")
    people = f"{_round(good.people):,}"
    beyond = next((s for s in result.steps if s.arrivals_s > good.arrivals_s and not s.passed), None)
    tail = f"; no step failed up to the largest measured, so {people} is a floor"
    if beyond is not None:
        worst = max(("command latency", beyond.cmd_p99_ms), ("push delay", beyond.push_p99_ms), key=lambda x: x[1])
        tail = (f"; at {_round(beyond.people):,} people ({beyond.commands_s:.0f} moves/s) p99 {worst[0]} reached "
                f"{worst[1]:.0f} ms, so beyond about {people} people add cores (another API process and worker: "
                "docs/SCALING.md)")
    box = "API, one worker, nginx with nchan, the pusher," if model.push == "nchan" else "API, one worker,"
    return (f"**One {cores()}-core box ({box} PostgreSQL and Redis together) serves about {people} people "
            f"playing at once at human pace** (a move every {model.think_mean_s:.2g} s on average, "
            f"{model.solo_share:.0%} of them alone against the AI: {good.commands_s:.0f} moves/s and "
            f"{good.jobs_s:.0f} system jobs/s) **with p99 command latency ({good.cmd_p99_ms:.0f} ms) and p99 push "
            f"delay ({good.push_p99_ms:.0f} ms) under {LATENCY_TARGET_MS:g} ms**{tail}. The simulated people ran on "
            f"the same cores (their clients used {good.cpu_s.get('clients', 0.0) / good.window_s:.0%} of one core "
            "there), so the box alone serves somewhat more.")


def _round(people: float) -> int:
    """Two significant figures: the run is one sample on a shared machine."""
    if people < 10:
        return round(people)
    digits = 10 ** (int(math.log10(people)) - 1)
    return int(round(people / digits) * digits)


def section(result: CapacityResult) -> list[str]:
    """The page's "Capacity" section of the run's push mode, between its markers."""
    now = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    m = result.model
    sizes = ", ".join(str(k) for k in m.table_sizes)
    begin, end = MARKERS[m.push]
    nchan = m.push == "nchan"
    return [
        begin,
        f"## Capacity: people at human pace, {SERVERS[m.push]} (`python -m bench.capacity --push {m.push} --write "
        f"docs/BENCHMARKS.md`{'' if nchan else ' or `make bench-full`'}, {now})",
        "",
        capacity_sentence(result),
        "",
        "`bench/capacity.py`: one API process and one worker (the supervisor's `Services`, sandbox mode, production "
        "settings: the worker's notification projector runs), a fresh database and a Redis server of the run's own"
        + (", and in front of the API one nginx box with nchan (one worker process, nchan in Redis mode on the "
           "run's Redis) and the pusher (`services/pusher.py`), the API run with `MAGNATE_PUSH=nchan`: every "
           "request of the people goes through nginx, commands included, as a browser's would" if nchan else "")
        + f"; {result.clients} client processes of simulated people on the same two cores. **Open loop**: people "
        "arrive as a Poisson process at a fixed rate per step, whatever the service answers. An arrival is "
        f"one person alone against the AI ({m.solo_share:.0%}; Magnate, the AI at its middle level) or a table of "
        f"{sizes} people (equally likely) in a game of only people. Everyone is a signed-in player (a returning "
        "player's session is reused; a new one signs in with the mailed link) who claims their seat, so the "
        "projector writes their notices. Each person is the game page for the whole visit"
        + (" as it was before issue #28: the seat's game stream (`GET /api/games/<id>/stream` with the session), the "
           "game's chat stream and the player's own (`/api/me/stream`), and after every message of the game's stream "
           "reads of the game, the seat's view and the new history (`GET /api/games/<id>`, `/me`, "
           "`/history?after=`; messages that come during those reads make one more round, as the page merged them);"
           if m.page == "old" else
           " with its one stream (`services/api/web/static/shell/live.js`): at load it reads the seat's view and the "
           "game's events (`GET /api/games/<id>/me`, `/events`) and asks where its stream is (`GET "
           ".../stream/address`), then holds that one stream with the session — "
           + ("nchan's channel of the seat in the page's language (`/push/games/<id>/seat/<n>/<lang>`, from the "
              "moment the page began loading)" if nchan else
              "the API's (`GET /api/games/<id>/stream?after=<version>&chat=0`)")
           + " — which carries everything the page shows (the named messages `history`, `state`, `events`, "
           "`chat`, ...), and reads nothing after a message;")
        + " each waits for their turn and thinks for a "
        f"log-normal time (median {m.think_median_s:g} s, σ {m.think_sigma:g}: mean {m.think_mean_s:.1f} s, one in "
        f"a hundred over {m.think_median_s * math.exp(2.326 * m.think_sigma):.0f} s; human response times are "
        "skewed with a long tail, which a log-normal models and an exponential does not), then sends the move its "
        f"game's bot chooses. A visit is {m.moves} moves made by the game's people between them (or the game's "
        "end); then they all close their streams and leave, and the game waits for them (notices tell them, as "
        "they would tell a person). The arrival rate rises step by step (by a half or a third); each step runs "
        f"{result.warm_s:g} s (the "
        f"first {result.warm_s * FIRST_WARM:g} s) for the population to settle (continuing the previous step's), "
        f"then is measured over {result.window_s:g} s: once settled, moves/s is about arrivals/s × {m.moves}. The run "
        f"stops after the first step whose p99 command latency or p99 push delay passes {LATENCY_TARGET_MS:g} ms.",
        "",
        "*Moves* (the commands): the people's moves, and their latency the HTTP round trip as the client sees it "
        "(sign-ins, creations, claims and the pages' reads are load but not counted in it). *People there*: "
        "people whose game stream was open, over the window (*streams open*: all their streams; *page reads*: "
        "the pages' reads, at load and, for the old page, after every message). *Jobs*: system "
        "commands appended (AI turns, dice, markets), *notices* and "
        "*deliveries*: rows the projector wrote, all counted in the database over the window. *Push delay*: "
        "from the server's recorded time of a command's append (stamped when the append starts) to its "
        "`events` message reaching the stream of each person at the table who did not send it (the AI's and the "
        "dice's to every stream of the game). *KiB per open stream*: the RSS of what holds the streams ("
        + ("nginx's worker processes" if nchan else "the API") + ", its largest in the window) over its RSS before "
        "the first step, per stream open (an upper bound: "
        + ("nchan's kept messages grow with the games too" if nchan else "the games' caches grow with them too")
        + "). *CPU*: "
        "each part's CPU time over the window (PostgreSQL over all its processes, other users of the server "
        "included). *Arrival lag*: how late the clients started an arrival against its schedule; large values "
        "mean the load generator could not keep up on the shared cores.",
        "",
        *busy_warning(result.load_start),
        *step_table(result.steps),
        "",
        f"![Command latency p50 and p99 and push delay p99 against the offered load, {SERVERS[m.push]}]"
        f"({result.chart_path})",
        end,
        "",
    ]


def update_page(text: str, result: CapacityResult) -> str:
    """``text`` (docs/BENCHMARKS.md) with the section of the run's push mode replaced or added (the Python stream's
    before the full run's section, nchan's after the Python stream's); the other mode's section is left as it is."""
    block = "\n".join(section(result)).rstrip("\n")
    begin, end = MARKERS[result.push]
    if begin in text and end in text:
        head, _, rest = text.partition(begin)
        return head + block + rest.partition(end)[2]
    if result.push != "python" and END in text:
        head, _, rest = text.partition(END)
        return head + END + "\n\n" + block + rest
    nchan = MARKERS["nchan"][0]
    if result.push == "python" and nchan in text:
        head, _, rest = text.partition(nchan)
        return head + block + "\n\n" + nchan + rest
    if "<!-- bench-full:begin -->" in text:
        head, _, rest = text.partition("<!-- bench-full:begin -->")
        return head + block + "\n\n<!-- bench-full:begin -->" + rest
    return text.rstrip("\n") + "\n\n" + block + "\n"


def page_section(result: CapacityResult | None, previous_page: str | None) -> list[str]:
    """The Python stream's section of ``result``, or the one ``previous_page`` holds (a run that does not measure
    capacity); then nchan's section as ``previous_page`` holds it (``make bench-full`` measures the Python stream
    only)."""
    lines = section(result) if result is not None else []
    if result is None and (block := carried_over(previous_page)):
        lines = [block, ""]
    if (nchan := carried_over(previous_page, "nchan")):
        lines += [nchan, ""]
    return lines


def carried_over(text: str | None, push: str = "python") -> str | None:
    """The section of ``push`` an earlier page holds (for a run that does not measure it)."""
    begin, end = MARKERS[push]
    if not text or begin not in text or end not in text:
        return None
    return begin + text.partition(begin)[2].partition(end)[0] + end
