"""Notices written for people: each names the game's title, so a mail, a webhook post or a push on a lock screen
says which game it is about ("Your turn in Magnate: The First City")."""

from __future__ import annotations

from domain.kernel import Outcome
from domain.kernel.notices import GAME_OVER, YOUR_TURN
from domain.kernel.table import TableFacts

CHANNEL_DISABLED = "channel_disabled"


def notice_text(kind: str, title: str, told: str = "") -> str:
    """The sentence a player reads; ``told`` is what the game said (its own notices), the ending, or the time to
    move (:func:`time_to_move`)."""
    if kind == YOUR_TURN:
        return f"Your turn in {title} ({told})" if told else f"Your turn in {title}"
    if kind == GAME_OVER:
        return f"{title} has ended: {told}" if told else f"{title} has ended"
    if kind == "outbid":
        return f"Outbid in {title}: {told}" if told else f"You were outbid in {title}"
    if kind == "market":
        return f"{title}: {told}" if told else f"The market ran in {title}"
    return f"{title}: {told or kind.replace('_', ' ')}"


def ending(outcome: Outcome | None, seat: int) -> str:
    """How the game ended for ``seat``: "you won", "you shared the win", "you finished 2nd of 3"."""
    if outcome is None:
        return ""
    standing = next((s for s in outcome.standings if s.seat == seat), None)
    if standing is None:
        return ""
    if standing.rank == 1:
        shared = sum(1 for s in outcome.standings if s.rank == 1) > 1
        return "you shared the win" if shared else "you won"
    return f"you finished {ordinal(standing.rank)} of {len(outcome.standings)}"


def time_to_move(facts: TableFacts, seat: int) -> str:
    """What a turn's notice says of the seat's clock ("15 seconds to play", "3 days left on your clock"), or
    nothing for a table without one: the turn's one mail says how long the player has."""
    control = facts.control
    if control is None:
        return ""
    if control.kind == "per_move":
        return f"{span(control.seconds)} to play"
    return f"{span(facts.clock(seat).bank / 1000)} left on your clock"


def span(seconds: float) -> str:
    """A length of time as a person says it, rounded to its unit: "4 seconds" (under a minute and a half),
    "12 minutes" (under an hour and a half), "5 hours" (under two days), "3 days"."""
    for unit, size, below in (("second", 1, 90), ("minute", 60, 90 * 60), ("hour", 3600, 48 * 3600)):
        if seconds < below:
            return _count(max(1, int(seconds / size + 0.5)), unit)
    return _count(int(seconds / 86_400 + 0.5), "day")


def _count(n: int, unit: str) -> str:
    return f"{n} {unit}{'' if n == 1 else 's'}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def channel_disabled_text(url_host: str, failures: int) -> str:
    return (f"Your webhook to {url_host} failed {failures} times in a row and was turned off; "
            "add it again in your notification settings once it works")
