"""Notices written for people, as phrases (rendered in each reader's language by :mod:`.words`): each names the
game's title, so a mail, a webhook post or a push on a lock screen says which game it is about ("Your turn in
Magnate: The First City"). Game titles are names: they stay as they are in every language."""

from __future__ import annotations

from datetime import UTC, datetime

from domain.kernel import Outcome
from domain.kernel.notices import GAME_OVER, YOUR_TURN
from domain.kernel.phrases import Arg, Phrase, say, say_n
from domain.kernel.table import UNDO_ANSWERED, UNDO_ASKED, TableFacts

CHANNEL_DISABLED = "channel_disabled"


def notice_phrase(kind: str, title: str, told: Arg | None = None) -> Phrase:
    """The sentence a player reads; ``told`` is what the game said (its own notice's phrase, or the English text of
    a game whose notices have no phrase yet), the ending, or the time to move (:func:`time_to_move`)."""
    if kind == YOUR_TURN:
        return say("Your turn in {game} ({told})", game=title, told=told) if told else say(
            "Your turn in {game}", game=title)
    if kind == GAME_OVER:
        return say("{game} has ended: {told}", game=title, told=told) if told else say(
            "{game} has ended", game=title)
    if kind == "outbid":
        return say("Outbid in {game}: {told}", game=title, told=told) if told else say(
            "You were outbid in {game}", game=title)
    if kind in (UNDO_ASKED, UNDO_ANSWERED):  # "Player 2 asks to take back their last move" (the game's title)
        return say("{game}: {told}", game=title, told=told) if told else say("A takeback in {game}", game=title)
    if kind == "market":
        return say("{game}: {told}", game=title, told=told) if told else say("The market ran in {game}", game=title)
    return say("{game}: {told}", game=title, told=told or kind.replace("_", " "))


def ending(outcome: Outcome | None, seat: int) -> Phrase | None:
    """How the game ended for ``seat``: "you won", "you shared the win", "you finished 2nd of 3"."""
    if outcome is None:
        return None
    standing = next((s for s in outcome.standings if s.seat == seat), None)
    if standing is None:
        return None
    if standing.rank == 1:
        shared = sum(1 for s in outcome.standings if s.rank == 1) > 1
        return say("you shared the win") if shared else say("you won")
    return finished(standing.rank, len(outcome.standings))


def finished(rank: int, of: int) -> Phrase:
    """"you finished 2nd of 3": one sentence per English ordinal ending (the other languages say it once)."""
    if 10 <= rank % 100 <= 20 or rank % 10 not in (1, 2, 3):
        return say("you finished {rank}th of {count}", rank=rank, count=of)
    if rank % 10 == 1:
        return say("you finished {rank}st of {count}", rank=rank, count=of)
    if rank % 10 == 2:
        return say("you finished {rank}nd of {count}", rank=rank, count=of)
    return say("you finished {rank}rd of {count}", rank=rank, count=of)


def time_to_move(facts: TableFacts, seat: int) -> Phrase | None:
    """What a turn's notice says of the seat's clock ("15 seconds to play", "3 days left on your clock"), or
    nothing for a table without one: the turn's one mail says how long the player has."""
    control = facts.control
    if control is None:
        return None
    if control.kind == "per_move":
        return say("{time} to play", time=span(control.seconds))
    return say("{time} left on your clock", time=span(facts.clock(seat).bank / 1000))


def span(seconds: float) -> Phrase:
    """A length of time as a person says it, rounded to its unit: "4 seconds" (under a minute and a half),
    "12 minutes" (under an hour and a half), "5 hours" (under two days), "3 days"."""
    if seconds < 90:
        return say_n("{n} second", "{n} seconds", "n", n=_units(seconds, 1))
    if seconds < 90 * 60:
        return say_n("{n} minute", "{n} minutes", "n", n=_units(seconds, 60))
    if seconds < 48 * 3600:
        return say_n("{n} hour", "{n} hours", "n", n=_units(seconds, 3600))
    return say_n("{n} day", "{n} days", "n", n=int(seconds / 86_400 + 0.5))


def _units(seconds: float, size: int) -> int:
    return max(1, int(seconds / size + 0.5))


def left_phrase(deadline: int, now: datetime) -> Phrase:
    """"your time runs out at 14:05 UTC on 24 Nov (in 3 hours)"; on a short clock "at 14:05:07 UTC (in 4
    seconds)": the time left as it is, in seconds under a minute and a half (``deadline``: milliseconds since the
    epoch, written in the reader's language)."""
    left = (datetime.fromtimestamp(deadline / 1000, UTC) - now).total_seconds()
    if left < 90:
        return say("your time runs out at {clock} UTC (in {left})", clock=deadline, left=span(left))
    return say("your time runs out at {time} UTC on {date} (in {left})", time=deadline, date=deadline,
               left=span(left))


def channel_disabled_phrase(url_host: str, failures: int) -> Phrase:
    return say_n("Your webhook to {host} failed {n} time in a row and was turned off; add it again in your "
                 "notification settings once it works",
                 "Your webhook to {host} failed {n} times in a row and was turned off; add it again in your "
                 "notification settings once it works", "n", host=url_host, n=failures)
