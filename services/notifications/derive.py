"""The notices a run of a game's events gives its claimed seats (pure: no I/O).

Notices are judged at every command's boundary, never inside one: a command's events may pass through states
nobody ever waits in (a bid that ends the auction at once), and the log records which events each command made
(``command_id``). So the notices of a game do not depend on how many versions the projector reads at a time: a
projector that lags and reads a hundred commands at once tells exactly what one that read them one by one would.
At each boundary: ``your_turn`` and ``game_over`` (:func:`domain.kernel.notices.turn_notices`, and one
``game_over`` per claimed seat when the game has just ended) and the game's own ``tell``.

A notice is kept in no language: its phrase (rendered in each reader's language by :mod:`.words`), with its
English text beside it for the logs.

A seat claimed inside the run (``table.seat_claimed``) is told only what comes after its claim.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import groupby
from typing import Any

import msgspec

from domain.kernel import GameModule
from domain.kernel.notices import GAME_OVER, YOUR_TURN, Notice, turn_notices
from domain.kernel.table import MovesUndone, SeatClaimed, facts_of, fold_log, undo_notices
from infra.notifications import Told

from .texts import ending, notice_phrase, time_to_move
from .words import encoded, english

__all__ = ["Logged", "Told", "derive", "notice_id"]


class Logged(msgspec.Struct, frozen=True):
    """One event of the log, decoded, with the command that made it."""

    version: int
    command_id: str
    event: Any


def undone_before(events: Sequence[Logged]) -> list[int]:
    """The versions before which :func:`derive` needs the state: where the takebacks among ``events`` begin."""
    return sorted({e.event.back_to for e in events if isinstance(e.event, MovesUndone)})


def notice_id(game_id: str, version: int, seat: int, kind: str) -> str:
    return f"{game_id}.{version}.{seat}.{kind}"


def derive(
    game: GameModule[Any], game_id: str, state: Any, events: Sequence[Logged], claimed: Mapping[int, str],
    before: Mapping[int, Any] | None = None,
) -> tuple[list[Told], Any]:
    """The notices ``events`` (folded onto ``state``) give the seats in ``claimed`` (seat → player id), in log
    order, and the state after them. ``before``: for each takeback among ``events`` (``table.moves_undone``), the
    state just before the moves it takes back (:func:`undone_before`)."""
    claimed_at = {e.event.seat: e.version for e in events if isinstance(e.event, SeatClaimed)}
    told: list[Told] = []
    for _, group in groupby(events, key=lambda e: e.command_id):
        run = list(group)
        after = fold_log(game.evolve, state, ((e.version, e.event) for e in run), run[0].version - 1, before)
        for notice in _at_boundary(game, state, run, after, claimed):
            player = claimed.get(notice.seat)
            if player is None or notice.version <= claimed_at.get(notice.seat, 0):
                continue
            said = time_to_move(facts_of(after), notice.seat) if notice.kind == YOUR_TURN else (
                notice.phrase or notice.text or None)
            phrase = notice_phrase(notice.kind, game.title or game.name, said)
            told.append(Told(notice_id(game_id, notice.version, notice.seat, notice.kind), player, game_id,
                             notice.seat, notice.version, notice.kind, english(phrase), encoded(phrase)))
        state = after
    return _unique(told), state


def _at_boundary(
    game: GameModule[Any], before: Any, run: Sequence[Logged], after: Any, claimed: Mapping[int, str]
) -> list[Notice]:
    last = run[-1].version
    was, now = game.pending(before), game.pending(after)
    notices = turn_notices(was, now, last)
    if now.finished and not was.finished:
        outcome = game.outcome(after)
        notices += [Notice(seat, GAME_OVER, last, phrase=ending(outcome, seat)) for seat in sorted(claimed)]
    pending = facts_of(before).undo
    notices += undo_notices([(e.version, e.event) for e in run], pending.seat if pending is not None else None)
    if game.tell is not None:
        notices += game.tell(before, [(e.version, e.event) for e in run], after)
    return notices


def _unique(told: list[Told]) -> list[Told]:
    """One notice per id (a game telling the same seat the same kind twice at one version says it once)."""
    seen: dict[str, Told] = {}
    for item in told:
        seen.setdefault(item.notice_id, item)
    return list(seen.values())
