"""The history names a seat by reference, so each reader's page names it as its headers do ("Ada", or "Player 2" in
the reader's language), and says where in each line it named which seat; the companies are the catalog's names."""

from __future__ import annotations

from babel.support import NullTranslations

from domain.kernel import SYSTEM, Chance, Named, Told, commitment_of
from domain.kernel.driver import play
from domain.kernel.phrases import SeatRef
from domain.magnate import GAME, GameOptions, MagnateEvent, SeatSpec, StartGame
from domain.magnate.bots import Greedy
from domain.magnate.events import GameEnded
from domain.magnate.narrate import history, narrate
from services.language.render import Renderer

SEED = b"names"


def solo_game() -> list[MagnateEvent]:
    options = GameOptions(seats=(SeatSpec(), SeatSpec(kind="ai")), difficulty="generalised_ai")
    played = play(GAME, StartGame(options=options, seed_commitment=commitment_of(SEED)), SEED, Greedy(1))
    reveal = GAME.decide(played.state, SYSTEM, GAME.reveal(SEED.hex()), Chance(SEED, len(played.events) + 1))
    return [*played.events, *reveal]


def told() -> list[Told]:
    return history((v, type(e).__name__, e) for v, e in enumerate(solo_game(), start=1))


def utf16(text: str) -> bytes:
    return text.encode("utf-16-le")


def named_text(text: str, named: Named) -> str:
    """The part of ``text`` a span covers, counted in UTF-16 code units as the page counts them."""
    return utf16(text)[2 * named.start:2 * named.end].decode("utf-16-le")


def test_each_line_is_a_phrase_naming_seats_by_reference() -> None:
    lines = told()
    assert lines and all(line.phrase is not None and line.text == "" for line in lines)
    names = ("Ada", "The computer")
    english = Renderer(NullTranslations(), "en", names.__getitem__)
    spans = 0
    for line in lines:
        assert line.phrase is not None
        text, seats = english.render(line.phrase)
        for named in seats:
            assert named_text(text, named) == names[named.seat]
            spans += 1
        rest = utf16(text)
        for named in reversed(seats):  # no seat is named anywhere a span does not say so
            rest = rest[:2 * named.start] + rest[2 * named.end:]
        assert "Ada" not in rest.decode("utf-16-le")
    assert spans > 50
    buys = next(english.render(line.phrase)[1] for line in lines
                if line.phrase is not None and english.text(line.phrase).startswith("Ada buys"))
    assert buys == (Named(0, 0, 3),)


def test_the_english_story_names_the_seats() -> None:
    texts = list(narrate(solo_game(), {0: "Ada", 1: "AI"}))
    assert texts[1] == "  Seats, clockwise: Ada (2,000K, 4 advertising tokens) and AI (2,000K, 0 advertising tokens)"
    assert "\x02" not in "".join(texts) and "{" not in "".join(texts)
    unnamed = list(narrate(solo_game()[:1]))
    assert unnamed[1].startswith("  Seats, clockwise: Player 1 (2,000K, 4 advertising tokens)")


def test_the_final_standings_name_each_seat_once_with_its_cash() -> None:
    lines = [line for line in told() if line.event == GameEnded.__name__]
    ranked = [line.phrase for line in lines if line.phrase is not None and line.phrase.args.get("rank")]
    seats = [phrase.args["seat"] for phrase in ranked]
    assert len(seats) == 2 and set(seats) == {SeatRef(0), SeatRef(1)}
    english = Renderer(NullTranslations(), "en", ("Ada", "AI").__getitem__)
    assert any(english.text(phrase).endswith("K (winner)") for phrase in ranked)


def test_offsets_count_utf16_code_units_as_javascript_does() -> None:
    name = "\U0001F3D9 Ada"  # a cityscape emoji: one code point, two UTF-16 code units
    english = Renderer(NullTranslations(), "en", {0: name, 1: "AI"}.__getitem__)
    for line in told():
        assert line.phrase is not None
        text, seats = english.render(line.phrase)
        if text.startswith(f"{name} buys"):
            assert seats[0] == Named(0, 0, len(utf16(name)) // 2)
            assert named_text(text, seats[0]) == name
            return
    raise AssertionError("the seat never bought a plot")
