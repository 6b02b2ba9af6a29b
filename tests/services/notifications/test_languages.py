"""Notices in the recipient's language, over the twins: kept as phrases, rendered for each reader (the account's
language, else the service's default), with Russian plural forms, dates the language's way, and a notice kept
before phrases still read in its English."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from domain.kernel import Outcome, Standing
from domain.kernel.phrases import say
from infra.notifications import Told
from services.language.catalogs import Catalogs
from services.language.domains import KERNEL, SERVER, Domain
from services.notifications.preferences import Preferences
from services.notifications.texts import ending, finished, left_phrase, notice_phrase, span
from services.notifications.words import english, words_for

from .test_service_over_twins import deliver_all
from .twins import Twins

TITLE = "Magnate: The First City"


async def test_a_russian_player_is_mailed_in_russian_and_a_player_without_a_choice_in_the_default() -> None:
    twins = Twins()
    ivan, bea = twins.player("ivan", language="ru"), twins.player("bea")
    await twins.waiting_for(ivan)
    await twins.waiting_for(bea)

    await deliver_all(twins)

    subjects = {m.to.split("-")[0]: m for m in twins.mail.sent}
    assert subjects["ivan"].subject == f"Ваш ход в {TITLE}"
    assert "Открыть игру: http://magnate.test/play/" in subjects["ivan"].text
    assert "Отписаться от этих писем" in subjects["ivan"].html and "Stop these mails" not in subjects["ivan"].html
    assert subjects["bea"].subject == f"Your turn in {TITLE}"  # no choice: the first of MAGNATE_LANGUAGES
    [notice] = await twins.notifications.notices(ivan)
    assert notice.text == f"Ваш ход в {TITLE}"  # the list, in the player's own language when none is asked
    [asked] = await twins.notifications.notices(ivan, "de")
    assert asked.text == f"Du bist am Zug in {TITLE}"


async def test_the_digest_speaks_the_player_s_language_with_its_plural() -> None:
    twins = Twins()
    ivan = twins.player("ivan", language="ru")
    await twins.notifications.choose(ivan, Preferences(email_mode="digest", digest_hours=24))
    await twins.waiting_for(ivan)
    await twins.waiting_for(ivan)
    twins.skew = timedelta(days=1)  # the period is over

    await deliver_all(twins)

    [mail] = twins.mail.sent
    assert mail.subject == f"Ваш ход в 2 играх: {TITLE}"
    assert mail.text.startswith("Эти игры ждут вас:") and "(как " in mail.text


async def test_a_notice_kept_before_phrases_reads_its_english_text() -> None:
    twins = Twins()
    ivan = twins.player("ivan", language="ru")
    game_id = await twins.game()
    await twins.sync(game_id)
    await twins.store.write_notices([Told(f"{game_id}.1.0.market", ivan, game_id, 0, 1, "market",
                                          f"{TITLE}: the market ran")])
    [notice] = await twins.notifications.notices(ivan)
    assert notice.text == f"{TITLE}: the market ran"


@pytest.mark.parametrize(("language", "n", "said"), [
    ("ru", 1, "1 секунда"), ("ru", 2, "2 секунды"), ("ru", 5, "5 секунд"), ("ru", 11, "11 секунд"),
    ("ru", 21, "21 секунда"), ("ru", 22, "22 секунды"), ("de", 1, "1 Sekunde"), ("de", 22, "22 Sekunden")])
def test_times_left_take_the_language_s_plural_forms(language: str, n: int, said: str) -> None:
    twins = Twins()
    assert twins.notifications.words(language).text(span(n)) == said


def test_the_deadline_s_date_and_time_are_written_the_language_s_way() -> None:
    now = datetime(2026, 11, 24, 14, 0, tzinfo=UTC)
    deadline = int((now + timedelta(minutes=15)).timestamp() * 1000)
    phrase = notice_phrase("deadline", TITLE, left_phrase(deadline, now))
    catalogs = Twins().notifications.catalogs
    assert words_for(catalogs, "de").text(phrase) == (
        f"{TITLE}: deine Zeit läuft am 24. Nov. um 14:15 UTC ab (noch 15 Minuten)")
    assert words_for(catalogs, "ru").text(phrase) == (
        f"{TITLE}: ваше время истекает 24 нояб. в 14:15 UTC (осталось: 15 минут)")
    assert english(phrase) == f"{TITLE}: your time runs out at 14:15 UTC on Nov 24 (in 15 minutes)"
    assert words_for(catalogs, "xx").text(phrase) == english(phrase)  # a language not spoken: the default


def test_how_a_game_ended_is_told_in_each_language() -> None:
    outcome = Outcome((Standing(1, 1, 900), Standing(0, 2, 500), Standing(2, 3, 100)), rounds=9)
    over = ending(outcome, 0)
    assert over is not None
    catalogs = Twins().notifications.catalogs
    phrase = notice_phrase("game_over", TITLE, over)
    assert english(phrase) == f"{TITLE} has ended: you finished 2nd of 3"
    assert words_for(catalogs, "ru").text(phrase) == f"Игра {TITLE} окончена: вы заняли 2-е место из 3"
    assert words_for(catalogs, "de").text(phrase) == f"{TITLE} ist zu Ende: du hast Platz 2 von 3 belegt"
    assert [english(finished(rank, 30)) for rank in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23)] == [
        f"you finished {r} of 30" for r in ("1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd",
                                            "23rd")]


def test_a_game_s_own_notice_is_told_with_the_game_s_words_inside_the_server_s(tmp_path: Path) -> None:
    game = Domain("harbour", tmp_path / "locale", (), fallback="kernel")
    made = Catalog(locale="ru", domain="harbour")
    made.add("the harbour opened", "гавань открылась")
    game.po("ru").parent.mkdir(parents=True)
    with game.po("ru").open("wb") as handle:
        write_po(handle, made)
    catalogs = Catalogs((SERVER, KERNEL, game), ("en", "ru"))
    phrase = notice_phrase("market", "Harbour", say("the harbour opened"))

    assert words_for(catalogs, "ru", "harbour").text(phrase) == "Harbour: гавань открылась"
    assert words_for(catalogs, "ru", "harbour").text(notice_phrase("market", "Harbour")) == (
        "В Harbour прошёл рынок недвижимости")  # the server's words, through the game's fallbacks
    assert words_for(catalogs, "ru", "no-such-game").text(phrase) == "Harbour: the harbour opened"
    assert words_for(catalogs, "en", "harbour").text(phrase) == "Harbour: the harbour opened"
