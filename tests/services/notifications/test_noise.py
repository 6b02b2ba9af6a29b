"""Notification noise (issue #26, point 7), over the twins: no unread notice for the turn a player is making on
screen (the seat's page is open), while an away player's is unread and mailed once as before; one mail per turn
on a short clock (the reminder, seconds after the turn's mail, is not mailed again; the turn's mail says how long the
player has), and a reminder mailed when the turn's mail was not; the reminder says the real time left, whatever the
time control."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from domain.kernel.phrases import Phrase
from domain.kernel.table import SeatClock, TableFacts, TableOptions, TimeControl, facts_of
from infra.presence import seat_key
from services.notifications.reminders import left_text, remind
from services.notifications.texts import span, time_to_move
from services.notifications.words import english

from .test_service_over_twins import deliver_all
from .twins import TWO_HUMANS, Twins


def told(phrase: Phrase | None) -> str:
    assert phrase is not None
    return english(phrase)

FIFTEEN_SECONDS = TableOptions(clock=TimeControl(kind="per_move", seconds=15))


async def timed_turn(twins: Twins, player: str, *, at_the_page: bool = False) -> tuple[str, int, int]:
    """A new game on a 15-second clock whose seat held by ``player`` has just come on turn, projected (with the
    seat's page open if ``at_the_page``): (game id, seat, deadline)."""
    game_id = (await twins.gameplay.create_game("magnate", TWO_HUMANS, table=FIFTEEN_SECONDS)).game_id
    seat = 1 if 1 not in (await twins.events.head(game_id)).on_turn else 0
    await twins.claim(game_id, seat, player)
    if at_the_page:
        twins.here.keys.add(seat_key(game_id, seat))
    await twins.play_until_turn_of(game_id, seat)
    await twins.notifications.projector.run_once()
    deadline = facts_of((await twins.gameplay.load(game_id)).state).clock(seat).deadline
    assert deadline is not None
    return game_id, seat, deadline


async def test_the_turn_on_screen_is_no_unread_notice_and_an_away_players_still_is() -> None:
    twins = Twins()
    service, bea = twins.notifications, twins.player()
    looking = await twins.game()
    seat = 1 if 1 not in (await twins.events.head(looking)).on_turn else 0
    await twins.claim(looking, seat, bea)
    twins.here.keys.add(seat_key(looking, seat))
    await twins.play_until_turn_of(looking, seat)
    await service.projector.run_once()

    [seen] = await service.notices(bea)
    assert (seen.game_id, seen.kind, seen.read) == (looking, "your_turn", True)
    assert await service.unread(bea) == 0
    await deliver_all(twins)
    assert twins.mail.sent == []  # and no mail: she is at the page
    assert [(e.channel, e.status, e.detail) for e in await service.deliveries(bea)] == [
        ("email", "skipped", "at the page")]

    # another game of hers, whose page is not open: unread, and mailed once
    away, _ = await twins.waiting_for(bea)
    assert await service.unread(bea) == 1
    [unread] = [n for n in await service.notices(bea) if not n.read]
    assert unread.game_id == away
    await deliver_all(twins)
    [mail] = twins.mail.sent
    assert mail.subject == "Your turn in Magnate: The First City"


async def test_one_mail_per_turn_on_a_short_clock() -> None:
    twins = Twins()
    service, bea = twins.notifications, twins.player()
    game_id, seat, deadline = await timed_turn(twins, bea)
    await deliver_all(twins)
    assert [m.subject for m in twins.mail.sent] == ["Your turn in Magnate: The First City (15 seconds to play)"]

    assert await remind(service, twins.gameplay, game_id, seat, deadline) is True
    await deliver_all(twins)
    assert len(twins.mail.sent) == 1, [m.subject for m in twins.mail.sent]  # the reminder is not mailed again
    reminder = next(n for n in await service.notices(bea) if n.kind == "deadline")
    assert re.fullmatch(r"Magnate: The First City: your time runs out at \d\d:\d\d:\d\d UTC \(in 1[0-5] seconds\)",
                        reminder.text), reminder.text
    assert not any(e.notice_id == reminder.notice_id and e.channel == "email"
                   for e in await service.deliveries(bea))


async def test_a_reminder_is_mailed_when_the_turns_mail_was_not() -> None:
    twins = Twins()
    service, bea = twins.notifications, twins.player()
    game_id, seat, deadline = await timed_turn(twins, bea, at_the_page=True)
    await deliver_all(twins)
    assert twins.mail.sent == []  # she was looking when her turn came
    twins.here.keys.clear()  # then she closed the page

    assert await remind(service, twins.gameplay, game_id, seat, deadline) is True
    await deliver_all(twins)
    [mail] = twins.mail.sent
    assert "your time runs out at" in mail.subject
    assert await service.unread(bea) == 1  # the reminder; the turn she saw stays read


def test_the_reminder_says_the_time_left_whatever_the_clock() -> None:
    now = datetime(2026, 11, 24, 14, 0, 0, tzinfo=UTC)

    def left(seconds: float) -> str:
        return left_text(int((now + timedelta(seconds=seconds)).timestamp() * 1000), now)

    assert left(3.75) == "your time runs out at 14:00:03 UTC (in 4 seconds)"
    assert left(1) == "your time runs out at 14:00:01 UTC (in 1 second)"
    assert left(0.2) == "your time runs out at 14:00:00 UTC (in 1 second)"
    assert left(75) == "your time runs out at 14:01:15 UTC (in 75 seconds)"
    assert left(15 * 60) == "your time runs out at 14:15 UTC on Nov 24 (in 15 minutes)"
    assert left(3 * 3600) == "your time runs out at 17:00 UTC on Nov 24 (in 3 hours)"
    assert left(12 * 3600) == "your time runs out at 02:00 UTC on Nov 25 (in 12 hours)"
    per_move = TableFacts(options=TableOptions(clock=TimeControl(kind="per_move", seconds=3 * 86_400)))
    assert told(time_to_move(per_move, 0)) == "3 days to play"
    bank = TableFacts(options=TableOptions(clock=TimeControl(kind="bank", seconds=7 * 86_400)),
                      clocks=(SeatClock(bank=5 * 3_600_000), SeatClock()))
    assert told(time_to_move(bank, 0)) == "5 hours left on your clock"
    assert time_to_move(TableFacts(), 0) is None  # no clock: "Your turn in ..." as ever
    assert [english(span(s)) for s in (89, 90, 150, 5399, 5400, 86_400, 3 * 86_400)] == [
        "89 seconds", "2 minutes", "3 minutes", "90 minutes", "2 hours", "24 hours", "3 days"]
