"""Master of Economy in Russian and German: a finished seeded game (the computer at both levels, the additional
corporation, the sealed auction) told line by line from the catalogs has no English sentence left and no
placeholder unfilled; the page's words, the rule errors and the advice come from the same catalogs."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest
from babel.support import NullTranslations

from domain.kernel import SYSTEM, Chance, GameError, Seat, tag_of
from domain.kernel.narration import Told
from domain.kernel.phrases import Phrase
from domain.master_of_economy import GAME, GameOptions, SeatSpec
from domain.master_of_economy.ai.advice import advise
from domain.master_of_economy.bots import Greedy
from domain.master_of_economy.catalog import DEFAULT_DATASET, catalog
from domain.master_of_economy.commands import BidForOrder
from domain.master_of_economy.state import State
from services.language.catalogs import Catalogs
from services.language.domains import all_domains
from services.language.render import Renderer

NAMES = {0: "Ada", 1: "Bob", 2: "Cy"}
BRANDS = tuple(c.name for c in catalog(DEFAULT_DATASET).corporations)
"""The corporations' names are names: the same in every language (the glossary)."""
CATALOGS = Catalogs(all_domains({"master_of_economy": GAME}, {}), ("en", "ru", "de"))


def finished_game() -> tuple[State, list[Told]]:
    """A whole game of three seats, two of them the computer (shrewd and basic), the first played by a greedy bot;
    every event told."""
    seats = (SeatSpec(), SeatSpec(kind="ai", level="shrewd"), SeatSpec(kind="ai", level="basic"))
    options = GameOptions(players=3, additional_corporation=True, start_order="auction", seats=seats)
    state = GAME.initial_state()
    actor: Any = SYSTEM
    command: Any = GAME.start(options, "c")
    narrator = GAME.narrator(NAMES) if GAME.narrator else None
    assert narrator is not None
    told: list[Told] = []
    bot = Greedy(0)
    for n in range(20_000):
        events, state = GAME.step(state, actor, command, Chance(b"languages", n + 1))
        told += [line for e in events for line in narrator.tell(n, tag_of(e), e)]
        due = GAME.pending(state)
        if due.finished:
            return state, told
        actor, command = (SYSTEM, due.system) if due.system is not None else (due.seats[0], bot(state, Seat(0)))
    raise AssertionError("the game did not finish")


GAME_STATE, TOLD = finished_game()


def render(phrase: Phrase, language: str) -> str:
    translations = CATALOGS.translations("master_of_economy", language) if language != "en" else NullTranslations()
    return Renderer(translations, language, lambda s: NAMES[s]).text(phrase)


def has_words(text: str) -> bool:
    """Whether anything but names, numbers and signs is left."""
    for name in (*NAMES.values(), *BRANDS, "Master of Economy"):
        text = text.replace(name, "")
    return re.search(r"[^\W\d_]", text) is not None


def test_the_game_is_finished_and_tells_every_kind_of_line() -> None:
    kinds = {line.event for line in TOLD}
    assert GAME.outcome(GAME_STATE) is not None
    assert {"master_of_economy.ai_decided", "master_of_economy.game_ended", "master_of_economy.ac_scored",
            "master_of_economy.exported", "master_of_economy.dividend_counted"} <= kinds
    assert all(line.phrase is not None and line.text == "" for line in TOLD)


@pytest.mark.parametrize("language", ["ru", "de"])
def test_every_line_of_a_finished_game_is_told_in_the_language(language: str) -> None:
    english_left = []
    for line in TOLD:
        assert line.phrase is not None
        english, said = render(line.phrase, "en"), render(line.phrase, language)
        assert "{" not in said and "}" not in said, said
        if said == english and has_words(english):
            english_left.append(said)
    assert not english_left, english_left[:5]


def test_the_russian_story_takes_the_plural_forms_and_the_german_its_own_words() -> None:
    ru = [render(line.phrase, "ru") for line in TOLD if line.phrase is not None]
    de = [render(line.phrase, "de") for line in TOLD if line.phrase is not None]
    assert any(text.startswith("Master of Economy начинается: 3 игрока") for text in ru)
    assert any(text.startswith("Master of Economy beginnt: 3 Spieler") for text in de)
    assert any(re.search(r"\b(Ada|Bob|Cy) (выдвигается|не выдвигается) в управляющие", text) for text in ru)
    assert any(re.search(r"\b(Побеждает|Побеждают) ", text) for text in ru)
    assert any(re.search(r" (gewinnt|gewinnen)\.$", text) for text in de)


@pytest.mark.parametrize("language", ["ru", "de"])
def test_a_refused_move_and_the_advice_are_told_in_the_language(language: str) -> None:
    options = GameOptions(players=3, start_order="auction")
    state = GAME.step(GAME.initial_state(), SYSTEM, GAME.start(options, "c"), Chance(b"refused", 1))[1]
    while GAME.pending(state).system is not None:
        state = GAME.step(state, SYSTEM, GAME.pending(state).system, Chance(b"refused", 2))[1]
    seat = GAME.pending(state).seats[0]
    for option in advise(state, Seat(seat)).options:
        assert option.why.phrase is not None
        assert render(option.why.phrase, language) != render(option.why.phrase, "en")
    with pytest.raises(GameError) as refused:
        GAME.decide(state, Seat(seat), BidForOrder(amount=10_000), Chance(b"refused", 3))
    phrase = getattr(refused.value, "phrase", None)
    assert isinstance(phrase, Phrase)
    assert render(phrase, language) != render(phrase, "en") and "{" not in render(phrase, language)


def test_every_word_of_the_page_is_in_the_page_catalogs() -> None:
    """The bundle's words and the data's names reach the page's JSON in both languages."""
    for language in ("ru", "de"):
        page = msgspec.json.decode(CATALOGS.page("master_of_economy", language))
        messages = page["messages"]
        assert messages["Coal mine"] != "Coal mine" and messages["Your shortfall preferences"]
        assert len(messages["Place {n} receipt"]) == (3 if language == "ru" else 2)


def test_a_computer_seat_is_named_in_the_language() -> None:
    """The story names a computer seat by its label, "Computer 2 (shrewd)", in the reader's words."""
    seats = GAME.seats(GAME_STATE)
    assert [s.label for s in seats] == ["Player 1", "Computer 2 (shrewd)", "Computer 3 (basic)"]
    named = [render(s.phrase, language) if s.phrase else None for s in seats for language in ("ru", "de")]
    assert named == [None, None, "Компьютер 2 (хитрый)", "Computer 2 (gerissen)", "Компьютер 3 (базовый)",
                     "Computer 3 (einfach)"]
