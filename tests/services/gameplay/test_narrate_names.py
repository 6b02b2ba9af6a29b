"""The history names a seat where its text names it, so the page can name each seat as its headers do
("Ada (Vector Properties)"); given the players' names, the narrator names them that way itself."""

from __future__ import annotations

import re

from domain.kernel import SYSTEM, Chance, Named, Told, commitment_of
from domain.kernel.driver import play
from domain.magnate import GAME, GameOptions, MagnateEvent, SeatSpec, StartGame
from domain.magnate.bots import Greedy
from domain.magnate.events import GameEnded
from domain.magnate.narrate import history, narrate

SEED = b"names"


def solo_game() -> list[MagnateEvent]:
    options = GameOptions(seats=(SeatSpec(), SeatSpec(kind="ai")), difficulty="generalised_ai")
    played = play(GAME, StartGame(options=options, seed_commitment=commitment_of(SEED)), SEED, Greedy(1))
    reveal = GAME.decide(played.state, SYSTEM, GAME.reveal(SEED.hex()), Chance(SEED, len(played.events) + 1))
    return [*played.events, *reveal]


def told(names: dict[int, str] | None = None) -> list[Told]:
    return history(((v, type(e).__name__, e) for v, e in enumerate(solo_game(), start=1)), names=names)


def utf16(text: str) -> bytes:
    return text.encode("utf-16-le")


def named_text(line: Told, named: Named) -> str:
    """The part of ``line.text`` a span covers, counted in UTF-16 code units as the page counts them."""
    return utf16(line.text)[2 * named.start:2 * named.end].decode("utf-16-le")


def test_each_line_says_where_it_names_which_seat() -> None:
    lines = told()
    spans = [(line, n) for line in lines for n in line.seats]
    assert {n.seat for _, n in spans} == {0, 1}
    for line, n in spans:
        assert named_text(line, n) == ("Vector Properties", "AI")[n.seat]
    for line in lines:  # no seat's company is named anywhere a span does not say so
        rest = utf16(line.text)
        for n in reversed(line.seats):
            rest = rest[:2 * n.start] + rest[2 * n.end:]
        assert "Vector Properties" not in rest.decode("utf-16-le")
    sells = next(line for line in lines if line.text.startswith("Vector Properties buys"))
    assert sells.seats == (Named(0, 0, len("Vector Properties")),)


def test_the_text_without_names_is_the_story_as_it_was() -> None:
    events = solo_game()
    texts = [line.lstrip() for line in narrate(events) if line]
    assert [line.text for line in told()] == texts
    assert "\x02" not in "".join(texts) and "\x03" not in "".join(texts)


def test_given_the_players_names_the_story_names_the_seats_as_the_page_headers_do() -> None:
    lines = told({0: "Ada", 1: "ai"})  # the AI's name defaults to its company's key
    standings = [line.text for line in lines if line.event == GameEnded.__name__]
    ranked = [re.fullmatch(r"\d\. (.+) -?[\d,]+K(  \(winner\))?", t) for t in standings if t[0].isdigit()]
    assert sorted(m.group(1) for m in ranked if m) == ["AI", "Ada (Vector Properties)"]
    for line in lines:
        for n in line.seats:
            assert named_text(line, n) == ("Ada (Vector Properties)", "AI")[n.seat]
    # a name that is the company's key (the default) or its name names the company alone
    for name in ("vector_properties", "Vector Properties", ""):
        assert list(narrate(solo_game()[:1], {0: name}))[1].startswith("  Seats, clockwise: Vector Properties (2,")


def test_offsets_count_utf16_code_units_as_javascript_does() -> None:
    lines = told({0: "\U0001F3D9 Ada"})  # a cityscape emoji: one code point, two UTF-16 code units
    line = next(line for line in lines if line.text.startswith("\U0001F3D9 Ada (Vector Properties) buys"))
    assert line.seats[0] == Named(0, 0, len(utf16("\U0001F3D9 Ada (Vector Properties)")) // 2)
    assert named_text(line, line.seats[0]) == "\U0001F3D9 Ada (Vector Properties)"
