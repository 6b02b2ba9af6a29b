"""Which language a reader gets: the account's, else the switch's cookie, else Accept-Language, else the default."""

from __future__ import annotations

from services.language.choice import choose

SPOKEN = ("en", "ru", "de")


def test_accept_language_picks_the_best_spoken_language_by_weight_and_primary_tag() -> None:
    assert choose(SPOKEN, accept="ru-RU,ru;q=0.9,en;q=0.8") == "ru"
    assert choose(SPOKEN, accept="de-AT") == "de"
    assert choose(SPOKEN, accept="fr, de;q=0.5, en;q=0.4") == "de"
    assert choose(SPOKEN, accept="fr, ja") == "en"
    assert choose(SPOKEN, accept="en-XA") == "en"  # the pseudo-locale is chosen by the switch only
    assert choose(SPOKEN, accept="garbage;;q=x,,") == "en"


def test_the_account_beats_the_cookie_which_beats_the_browser() -> None:
    assert choose(SPOKEN, account="ru", cookie="de", accept="en") == "ru"
    assert choose(SPOKEN, cookie="de", accept="ru") == "de"
    assert choose(SPOKEN, account="xx", cookie="zz", accept="ru") == "ru"  # what is not spoken is ignored
