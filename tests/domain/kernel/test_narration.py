"""The kernel's line builder: seats named by the players' names, and where each is named in UTF-16 code units."""

from __future__ import annotations

from typing import Any

from domain.kernel import Named, Told
from domain.kernel.narration import LineNarrator, seat_phrase, spell
from domain.kernel.phrases import plain, say, seat


def test_a_line_says_where_it_names_each_seat_in_utf16_code_units() -> None:
    text, named = spell([(0,), " pays ", (1,), "."], {0: "😀 Ada", 1: "Bo"}.__getitem__)
    assert text == "😀 Ada pays Bo."
    assert named == (Named(0, 0, 6), Named(1, 12, 14))  # the emoji is two code units, as JavaScript counts


class _Said:
    seat = 1


class _Narrator(LineNarrator):
    def __init__(self, names: dict[int, str]) -> None:
        super().__init__(names)
        self.tellers = {_Said: lambda e: [(0, ["Now ", (e.seat,), " speaks."]), (1, [(0,), " listens."])]}

    def join(self, text: str, piece: str) -> str:
        return text + piece.upper()


def test_the_narrator_tells_each_event_by_its_teller_and_names_unnamed_seats_by_number() -> None:
    narrator = _Narrator({0: "Ada"})
    assert narrator.tell(7, "toy.said", _Said()) == [
        Told(7, "toy.said", 0, "NOW Player 2 SPEAKS.", (Named(1, 4, 12),)),
        Told(7, "toy.said", 1, "Ada LISTENS.", (Named(0, 0, 3),)),
    ]
    unknown: Any = object()
    assert narrator.tell(8, "toy.other", unknown) == []


class _Phrased(LineNarrator):
    def __init__(self) -> None:
        super().__init__({0: "Ada"})
        self.tellers = {_Said: lambda e: [(1, say("{seat} speaks.", seat=seat(e.seat)))]}


def test_a_teller_s_phrase_is_kept_in_no_language_for_the_services_to_render() -> None:
    assert _Phrased().tell(3, "toy.said", _Said()) == [
        Told(3, "toy.said", 1, "", (), say("{seat} speaks.", seat=seat(1)))]
    assert plain(seat_phrase(1)) == "Player 2"
