"""What the capacity run's simulated people are (:class:`Model`: arrivals, think times, visits, the page) and what
their client processes report (:class:`Records`)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

PAGES = ("one", "old")
PUSHES = ("python", "nchan")


@dataclass(frozen=True, slots=True)
class Model:
    """Who arrives and how they play."""

    think_median_s: float = 3.0
    think_sigma: float = 0.8
    """Think times are log-normal: median ``think_median_s``, the logarithm's standard deviation this."""
    moves: int = 8
    """Moves per visit, made by the people of the game between them."""
    solo_share: float = 0.75
    """Arrivals that are one person against the AI; the others are tables of 2 to 4 people (equally likely)."""
    table_sizes: tuple[int, ...] = (2, 3, 4)
    page: str = "one"
    """Which game page each person is (:data:`PAGES`). ``one``: the page of issue #28
    (``services/api/web/static/shell/live.js``): at load it reads the seat's view and the game's events (``GET
    /api/games/<id>/me``, ``/events``) and asks where its stream is (``GET .../stream/address``), then holds ONE
    stream carrying everything (the named messages ``history``, ``state``, ``events``, ``chat``, ...) and reads
    nothing after a message. ``old``: the page before #28: the game's stream, the game's chat stream and the
    player's own (``GET /api/me/stream``), and on every message of the game's stream reads of the game, the seat's
    view and the new history (``GET /api/games/<id>``, ``/me``, ``/history?after=``), merged while one such read
    runs (only the Python stream serves it)."""
    push: str = "python"
    """Whose stream the page holds (:data:`PUSHES`): ``python``, the API's (``GET /api/games/<id>/stream``);
    ``nchan``, nginx with nchan in front of the API (``MAGNATE_PUSH=nchan``): every request of the page goes through
    nginx, as a browser's would, and the stream is the channel ``GET .../stream/address`` names."""

    def __post_init__(self) -> None:
        if self.page not in PAGES or self.push not in PUSHES:
            raise ValueError(f"page must be one of {PAGES} and push one of {PUSHES}")
        if self.page == "old" and self.push != "python":
            raise ValueError("the old page holds only the Python streams")

    @property
    def streams_per_person(self) -> int:
        return 3 if self.page == "old" else 1

    @property
    def think_mean_s(self) -> float:
        return self.think_median_s * math.exp(self.think_sigma ** 2 / 2)

    @property
    def people_per_arrival(self) -> float:
        return self.solo_share + (1 - self.solo_share) * sum(self.table_sizes) / len(self.table_sizes)

    def think_s(self, rng: random.Random) -> float:
        return rng.lognormvariate(math.log(self.think_median_s), self.think_sigma)


@dataclass
class Records:
    """What a client process saw since its last report; times are ``time.time()`` (one clock for every process)."""

    commands: list[tuple[float, float]] = field(default_factory=list)
    """(answered at, round trip s) of every move."""
    pushes: list[tuple[float, float]] = field(default_factory=list)
    """(seen at, delay s): a command's events reaching the stream of a person who did not send it, from the
    server's recorded time of its append."""
    reads: int = 0
    """The pages' reads: at load (``one``), or after every message too (``old``)."""
    lags: list[float] = field(default_factory=list)
    """How late each arrival started against its schedule (this process's own saturation)."""
    opened: list[tuple[float, int]] = field(default_factory=list)
    """(when, +1 or -1): a stream opened or closed."""
    people_pushes: int = 0
    """Pushes of a move another person at the table made (the others are the AI's and the system's)."""
    errors: list[str] = field(default_factory=list)
    failures: int = 0
    conflicts: int = 0
    sign_ins: int = 0
    arrivals: int = 0
    people: int = 0
