"""Magnate's story in Russian and German: finished seeded games (against the computer, so its cards, decisions,
dice and levels are told too; an advanced game with subtypes; a crash and the final standings) rendered line by line
from the game's catalogs leave no line in English and no placeholder unfilled; the money, the plural forms, a refused
move, a notice and the advice read in the reader's language as well."""

from __future__ import annotations

import re

import pytest
from babel.support import NullTranslations

from domain.kernel import SYSTEM, Chance, Seat, commitment_of, tag_of
from domain.kernel.driver import play
from domain.kernel.narration import Told
from domain.kernel.phrases import Phrase
from domain.magnate import GAME, GameOptions, SeatSpec, StartGame
from domain.magnate.bots import Greedy, RandomLegal
from domain.magnate.commands import PlaceBid
from domain.magnate.errors import BidTooLow
from domain.magnate.events import AiDecided, AiDieRolled, AiLevelRaised, GameEnded, MarketCrashed
from domain.magnate.money import cash
from domain.magnate.notices import tell
from services.language.catalogs import Catalogs
from services.language.domains import all_domains
from services.language.render import Renderer

from .builders import in_bidding, run, started_as

CATALOGS = Catalogs(all_domains({"magnate": GAME}, {}), ("en", "ru", "de"))
NAMES = ("Ada", "Bea", "Cid")
WORD = re.compile(r"[^\W\d_]{2,}")
ENGLISH = Renderer(NullTranslations(), "en", NAMES.__getitem__)


def reader(language: str) -> Renderer:
    return Renderer(CATALOGS.translations("magnate", language), language, NAMES.__getitem__)


def story(options: GameOptions, seed: bytes, bot: object) -> list[Told]:
    played = play(GAME, StartGame(options=options, seed_commitment=commitment_of(seed)), seed, bot)  # type: ignore[arg-type]
    reveal = GAME.decide(played.state, SYSTEM, GAME.reveal(seed.hex()), Chance(seed, len(played.events) + 1))
    assert GAME.outcome(played.state) is not None
    narrator = GAME.narrator({}) if GAME.narrator is not None else None
    assert narrator is not None
    lines: list[Told] = []
    for version, event in enumerate([*played.events, *reveal], start=1):
        lines += narrator.tell(version, tag_of(event), event)
    return lines


GAMES = {
    "against the computer": story(GameOptions(seats=(SeatSpec(), SeatSpec(kind="ai")), difficulty="the_singularity"),
                                  b"languages", Greedy(1)),
    "advanced, three seats": story(GameOptions(seats=(SeatSpec(), SeatSpec(), SeatSpec()), advanced=True),
                                   b"languages-3", RandomLegal(5)),
}


def test_the_games_tell_what_the_languages_must_cover() -> None:
    events = {line.event for lines in GAMES.values() for line in lines}
    for kind in (AiDecided, AiDieRolled, AiLevelRaised, MarketCrashed, GameEnded):
        assert kind.__struct_config__.tag in events, kind.__name__


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("language", ["ru", "de"])
def test_no_line_of_a_finished_game_is_left_in_english(game: str, language: str) -> None:
    words = reader(language)
    lines = GAMES[game]
    assert lines and all(line.phrase is not None and not line.text for line in lines)
    for line in lines:
        assert line.phrase is not None
        said, seats = words.render(line.phrase)
        english = ENGLISH.text(line.phrase)
        assert "{" not in said and "}" not in said, said
        if WORD.search(re.sub("|".join(NAMES), "", english)):
            assert said != english, said
        for named in seats:
            assert said[named.start:named.end] in NAMES


def told(language: str, event: str) -> list[str]:
    words = reader(language)
    return [words.text(line.phrase) for line in GAMES["against the computer"]
            if line.event == event and line.phrase is not None]


def test_the_story_reads_with_the_editions_words_and_the_computers_reasons() -> None:
    start = "magnate.game_started"
    assert told("ru", start)[0].startswith("Magnate: The First City — стандартная игра на 2 места")
    assert told("de", start)[0].startswith("Magnate: The First City — Standardspiel mit 2 Plätzen")
    assert "Итоговые результаты" in told("ru", "magnate.game_ended")
    assert "Endstand" in told("de", "magnate.game_ended")
    assert any(line.startswith("КРАХ: цена земли падает") for line in told("ru", "magnate.market_crashed"))
    decided = told("ru", "magnate.ai_decided")
    assert decided and all(line.startswith("Bea решает: ") for line in decided)
    assert any("цена земли" in line or "маркер краха" in line for line in decided)
    assert all(line.startswith("Bea entscheidet: ") for line in told("de", "magnate.ai_decided"))


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "1,200K"), ("ru", "1\N{NO-BREAK SPACE}200 тыс. $"), ("de", "1.200K $"),
])
def test_money_is_written_as_each_edition_suggests(language: str, expected: str) -> None:
    assert reader(language).text(cash(1200)) == expected


@pytest.mark.parametrize(("n", "russian"), [(1, "деление"), (2, "деления"), (5, "делений"), (11, "делений"),
                                            (21, "деление"), (22, "деления")])
def test_the_land_price_counts_its_positions_in_russian_plural_forms(n: int, russian: str) -> None:
    from domain.magnate.narrate import land_price_moved

    said = reader("ru").text(land_price_moved("plots_sold", n, cash(500)))
    assert said.startswith(f"Цена земли растёт на {n} {russian}, до 500 тыс. $")


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "a bid must beat the highest bid of 300K"),
    ("ru", "ставка должна быть выше самой высокой ставки 300 тыс. $"),
    ("de", "ein Gebot muss das Höchstgebot von 300K $ übertreffen"),
])
def test_a_refused_move_is_told_in_the_readers_language(language: str, expected: str) -> None:
    state = in_bidding(started_as("vector_properties", "greyfield"), opener=0)
    _, state = run(state, 0, PlaceBid(amount=300))
    with pytest.raises(BidTooLow) as refused:
        GAME.decide(state, Seat(1), PlaceBid(amount=200), Chance(b"x", 2))
    assert refused.value.phrase is not None
    assert reader(language).text(refused.value.phrase) == expected


def test_an_outbid_notice_reads_in_russian_and_german() -> None:
    state = in_bidding(started_as("vector_properties", "greyfield"), opener=0)
    before = state
    events, state = run(state, 0, PlaceBid(amount=100))
    more, state = run(state, 1, PlaceBid(amount=300))
    [notice] = tell(before, list(enumerate([*events, *more], start=1)), state)
    assert isinstance(notice.phrase, Phrase)
    assert reader("ru").text(notice.phrase) == "Bea: ставка 300 тыс. $ перебила вашу ставку 100 тыс. $"
    assert reader("de").text(notice.phrase) == "Bea hat 300K $ geboten und dein Gebot von 100K $ überboten"


def test_the_advice_gives_its_reasons_in_the_readers_language() -> None:
    state = in_bidding(started_as("vector_properties", "greyfield"), opener=0)
    advice = GAME.advise(state, Seat(0)) if GAME.advise is not None else None
    assert advice is not None and advice.options
    for option in advice.options:
        assert option.why.phrase is not None
        for language in ("ru", "de"):
            said = reader(language).text(option.why.phrase)
            assert said != ENGLISH.text(option.why.phrase) and "{" not in said
