"""Decktet Magnate's story in Russian and German: a finished seeded game (a person's seat and the computer's at
two levels, so the plans and their reasons are told too) rendered line by line from the game's catalogs leaves no
line in English and no placeholder unfilled; a refused move is told in the reader's language as well."""

from __future__ import annotations

import re

import pytest
from babel.support import NullTranslations

from domain.decktet import GAME
from domain.decktet.bots import RandomLegal
from domain.decktet.commands import Sell
from domain.decktet.errors import NotInHand
from domain.decktet.events import AiTurnPlanned
from domain.decktet.variant import GameOptions, SeatSpec
from domain.kernel import Chance, Seat, tag_of
from domain.kernel.driver import play
from domain.kernel.narration import Told
from services.language.catalogs import Catalogs
from services.language.domains import all_domains
from services.language.render import Renderer

from .builders import started

CATALOGS = Catalogs(all_domains({"decktet": GAME}, {}), ("en", "ru", "de"))
NAMES = {0: "Ada", 1: "Bea", 2: "Cid"}.__getitem__
WORD = re.compile(r"[^\W\d_]{2,}")


def story(options: GameOptions, seed: bytes) -> list[Told]:
    played = play(GAME, GAME.start(options, "c"), seed, RandomLegal(3))
    assert GAME.outcome(played.state) is not None
    assert GAME.narrator is not None
    narrator = GAME.narrator({})
    lines: list[Told] = []
    for version, event in enumerate(played.events, start=1):
        lines += narrator.tell(version, tag_of(event), event)
    assert any(isinstance(event, AiTurnPlanned) for event in played.events)
    return lines


GAMES = {
    "two": story(GameOptions(seats=(SeatSpec(), SeatSpec(kind="ai", level="easy"))), b"languages"),
    "three": story(GameOptions(three=True, courtpawns=True, seats=(
        SeatSpec(kind="ai", level="medium"), SeatSpec(), SeatSpec(kind="ai", level="easy"))), b"y"),
}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("language", ["ru", "de"])
def test_no_line_of_a_finished_game_is_left_in_english(game: str, language: str) -> None:
    english = Renderer(NullTranslations(), "en", NAMES)
    reader = Renderer(CATALOGS.translations("decktet", language), language, NAMES)
    lines = GAMES[game]
    assert lines and all(line.phrase is not None and not line.text for line in lines)
    for line in lines:
        assert line.phrase is not None
        said, seats = reader.render(line.phrase)
        assert "{" not in said and "}" not in said, said
        if WORD.search(re.sub(r"Ada|Bea|Cid", "", english.text(line.phrase))):
            assert said != english.text(line.phrase), said
        for named in seats:
            assert said[named.start:named.end] in ("Ada", "Bea", "Cid")


def test_the_story_reads_in_each_language_with_its_own_words() -> None:
    lines = GAMES["two"]
    told = {language: [Renderer(CATALOGS.translations("decktet", language), language, NAMES).text(line.phrase)
                       for line in lines if line.phrase is not None] for language in ("en", "ru", "de")}
    assert told["en"][0].startswith("Decktet Magnate begins")
    assert told["ru"][0].startswith("Начинается Decktet Magnate")  # the title stays as it is
    assert told["de"][0].startswith("Decktet Magnate beginnt")
    assert "Игра окончена." in told["ru"] and "Das Spiel endet." in told["de"]
    plans = [i for i, line in enumerate(lines) if line.event == "decktet.ai_turn_planned"]
    assert plans and all(told["ru"][i].startswith("Bea планирует ход: ") for i in plans)


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "The Author is not in your hand"),
    ("ru", "карты «Автор» нет у вас на руке"),
    ("de", "„Der Autor“ ist nicht auf deiner Hand"),
])
def test_a_refused_move_is_told_in_the_readers_language(language: str, expected: str) -> None:
    _, state = started(b"refused")
    seat = state.active
    missing = "2MK"
    assert missing not in state.seats[seat].hand
    with pytest.raises(NotInHand) as refused:
        GAME.decide(state, Seat(seat), Sell(card=missing), Chance(b"x", 2))
    assert refused.value.phrase is not None
    reader = Renderer(CATALOGS.translations("decktet", language), language, NAMES)
    assert reader.text(refused.value.phrase) == expected
