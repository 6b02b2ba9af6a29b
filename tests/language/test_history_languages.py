"""The history of a finished game of each game, read in English, Russian and German (issue #27: "no message key and
no English sentence in the Russian and German ones").

Each game is played to its end in process (its bots, its AI, the seed revealed), the table's own events are added
(a clock, a timeout, a stand-in, a resignation, a vacation), and every line its narrator tells is rendered in each
language. In Russian and German no line may be its English rendering (unless it has no words but names), hold a
message key's placeholder (``{name}``), or keep three English words in a row of its English line. Proper names are
not English words: player names, the literal arguments of a phrase (card ids, plot ids, company names) and the
words the catalogs keep as they are (the Latin names an edition keeps, the games' titles).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from babel.support import NullTranslations

from domain.games import GAMES
from domain.kernel import SYSTEM, Chance, Told, tag_of
from domain.kernel.driver import play
from domain.kernel.phrases import Arg, Listing, Phrase, SeatRef, Term
from domain.kernel.table import (
    CameBack,
    LeftTable,
    MovesUndone,
    PilotLeft,
    Resigned,
    SeatClaimed,
    StoodIn,
    TableOpened,
    TableOptions,
    TimeControl,
    TimedOut,
    TookBack,
    UndoAnswered,
    UndoAsked,
    UndoCancelled,
    WentAway,
)
from services.gameplay.story import rendered, renderer
from services.language.catalogs import Catalogs
from services.language.domains import all_domains
from services.simulation.spec import SimSpec

CATALOGS = Catalogs(all_domains(GAMES, {}), ("en", "ru", "de"))
NAMES = {0: "Ada"}
"""The first seat's player chose a name; the others are "Player 2", ... in each language."""
TITLES = ("Magnate: The First City", "Decktet Magnate", "Master of Economy")
WORD = re.compile(r"[^\W\d_]+")
KEY = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
MOMENT = 1_795_000_000_000
TABLE_EVENTS: tuple[Any, ...] = (
    TableOpened(options=TableOptions(clock=TimeControl("bank", 3 * 86_400, increment=3_600, cap=5 * 86_400)),
                seats=2, level="x"),
    TableOpened(options=TableOptions(clock=TimeControl("per_move", 90), on_timeout="stand_in_move"), seats=2,
                level="x"),
    TableOpened(options=TableOptions(), seats=2, level="x"),
    SeatClaimed(seat=0, name="Ada"),
    TimedOut(seat=1, at=MOMENT, policy="forfeit", level="x"),
    StoodIn(seat=1, level="x", command="x"),
    PilotLeft(seat=1),
    TookBack(seat=1),
    WentAway(seat=0, at=MOMENT, until=MOMENT + 86_400_000),
    CameBack(seat=0, at=MOMENT + 3_600_000),
    Resigned(seat=1, level="x"),
    LeftTable(seat=0, level="x"),
    UndoAsked(seat=0, back_to=7, waiting=(1,)),
    UndoAsked(seat=0, back_to=7, waiting=()),
    UndoAnswered(seat=1, accept=True),
    UndoAnswered(seat=1, accept=False),
    UndoCancelled(seat=0),
    MovesUndone(seat=0, back_to=7),
)


@cache
def story(name: str) -> tuple[Told, ...]:
    """The whole story of a seeded game of ``name`` played to its end, then the table's events, in no language."""
    spec = SimSpec(games=1, game=name, seed="languages")
    module = spec.module
    seed = spec.game_seed(0)
    played = play(module, spec.start(seed), seed, spec.bots(0))
    revealed, _ = module.step(played.state, SYSTEM, module.reveal(seed.hex()), Chance(seed, len(played.events) + 1))
    assert module.narrator is not None
    narrator = module.narrator(NAMES)
    events = [*played.events, *revealed, *TABLE_EVENTS]
    return tuple(line for version, event in enumerate(events, start=1)
                 for line in narrator.tell(version, tag_of(event), event))


def kept(phrase: Phrase | None, words: NullTranslations) -> Iterator[str]:
    """The words of a phrase that are names, not English: its literal arguments, and the terms the catalog keeps
    as they are."""
    if phrase is None:
        return

    def walk(value: Arg) -> Iterator[str]:
        if isinstance(value, Phrase):
            for arg in value.args.values():
                yield from walk(arg)
        elif isinstance(value, str):
            yield value
        elif isinstance(value, Term):
            said = str(words.pgettext(value.ctx, value.key)) if value.ctx else words.gettext(value.key)
            if said == value.key:
                yield value.key
        elif isinstance(value, Listing):
            for item in value.items:
                yield from walk(item)
        elif isinstance(value, SeatRef | int):
            return

    yield from walk(phrase)


def segments(text: str, names: set[str]) -> list[list[str]]:
    """The words of ``text`` between its names (a name breaks a run of words), lower case."""
    if names:
        pattern = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        parts = re.split(rf"(?<!\w)(?:{pattern})(?!\w)", text)
    else:
        parts = [text]
    return [[word.lower() for word in WORD.findall(part)] for part in parts]


def runs(text: str, names: set[str]) -> set[tuple[str, str, str]]:
    """Three words in a row, none of them part of a name."""
    return {(a, b, c) for words in segments(text, names)
            for a, b, c in zip(words, words[1:], words[2:], strict=False)}


def problems(name: str, language: str) -> list[str]:
    told = story(name)
    english = rendered(told, renderer(CATALOGS, name, "en", NAMES))
    local = rendered(told, renderer(CATALOGS, name, language, NAMES))
    words = CATALOGS.translations(name, language)
    found = []
    for line, en, there in zip(told, english, local, strict=True):
        names = {text for text in (*kept(line.phrase, words), *NAMES.values(), *TITLES) if text.strip()}
        where = f"{line.event} v{line.version}: {there.text!r}"
        if not there.text.strip():
            found.append(f"{where}: an empty line")
        if KEY.search(there.text):
            found.append(f"{where}: a message key's placeholder")
        if there.text == en.text and any(segments(there.text, names)):
            found.append(f"{where}: the English line")
        elif shared := runs(en.text, names) & runs(there.text, names):
            found.append(f"{where}: English words {' '.join(sorted(shared)[0])!r}")
    return found


@pytest.mark.parametrize("language", ["ru", "de"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_finished_games_history_has_no_key_and_no_english_in_russian_and_german(name: str, language: str) -> None:
    told = story(name)
    assert len(told) > 50 and all(line.phrase is not None or line.text for line in told)
    found = problems(name, language)
    assert not found, f"{len(found)} of {len(told)} lines of {name} in {language}:\n" + "\n".join(found[:25])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_line_reads_in_english_with_the_seats_named(name: str) -> None:
    english = rendered(story(name), renderer(CATALOGS, name, "en", NAMES))
    assert all(line.text.strip() and not KEY.search(line.text) for line in english)
    named = [line for line in english if line.seats and line.phrase is not None]
    assert named and all(line.text[s.start:s.end] in ("Ada", f"Player {s.seat + 1}")
                         for line in named for s in line.seats)


def test_the_tables_own_lines_read_in_each_language() -> None:
    """The kernel's lines alone (every game's table tells them): no English left in Russian or German."""
    for language in ("ru", "de"):
        table = [p for p in problems("decktet", language) if p.startswith("table.")]
        assert not table, "\n".join(table)
