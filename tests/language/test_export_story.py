"""An export stays language-neutral (events only); its story reads in English, Russian or German: ``magnate story
FILE --lang ru`` and ``magnate export GAME_ID --story --lang de`` tell it in the language asked for, from the same
bytes, and refuse a language the service does not speak."""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import msgspec
import pytest

from domain.decktet import GameOptions, SeatSpec
from domain.decktet.bots import RandomLegal
from domain.games import GAMES
from domain.kernel import tag_of
from domain.kernel.table import ClaimSeat, SeatClaimed, TableOptions, TimeControl
from infra.codec import GameCodec
from infra.config import Settings
from infra.eventstore.memory import InMemoryEventStore
from infra.notify import RecordingNotifier
from infra.queue import RecordingJobQueue
from services import cli
from services.gameplay import Gameplay
from services.gameplay.audit import export_lines
from services.gameplay.audit_story import NoStory, story_of_export
from services.gameplay.seating import Seating
from services.language.catalogs import Catalogs
from services.language.domains import all_domains

CATALOGS = Catalogs(all_domains(GAMES, {}), ("en", "ru", "de"))
DECKTET = {"decktet": GAMES["decktet"]}
OPENED = {"en": "The table is open: 1 hour per move; on a timeout the computer takes the seat over.",
          "ru": "Стол открыт: 1 час на ход; если время выйдет, место занимает компьютер.",
          "de": "Der Tisch ist eröffnet: 1 Stunde pro Zug; bei Zeitüberschreitung gilt: der Computer übernimmt den "
                "Platz."}


async def exported() -> list[bytes]:
    """A Decktet game against the computer on a table with a clock, played to its end (the seed revealed)."""
    game = DECKTET["decktet"]
    gameplay = Gameplay(InMemoryEventStore(), RecordingJobQueue(), RecordingNotifier(), DECKTET)
    options = GameOptions(seats=(SeatSpec(), SeatSpec(kind="ai", level="easy")))
    table = TableOptions(clock=TimeControl("per_move", 3_600))
    game_id = (await gameplay.create_game("decktet", options, seed=b"story", table=table)).game_id
    policy = RandomLegal(4)
    while not game.pending((loaded := await gameplay.load(game_id)).state).finished:
        due = game.pending(loaded.state)
        if due.system is not None:
            assert await gameplay.run_system(game_id, loaded.version, tag_of(due.system))
            continue
        await gameplay.submit(game_id, int(due.seats[0]), uuid.uuid4().hex, policy(loaded.state, due.seats[0]))
    return await export_lines(gameplay, game_id)


@pytest.fixture(scope="module")
def export_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import asyncio

    path = tmp_path_factory.mktemp("export") / "game.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in asyncio.run(exported())))
    return path


def test_the_same_export_tells_its_story_in_each_language(export_file: Path) -> None:
    lines = export_file.read_bytes().splitlines()
    stories = {language: story_of_export(lines, DECKTET, CATALOGS, language) for language in ("en", "ru", "de")}
    for language, story in stories.items():
        assert OPENED[language] in story
        assert len(story) == len(stories["en"]) > 20  # the same lines, each in its language
        assert all(line.strip() for line in story)
    assert stories["ru"] != stories["en"] != stories["de"]


def test_an_export_without_its_game_line_tells_no_story(export_file: Path) -> None:
    lines = export_file.read_bytes().splitlines()
    with pytest.raises(NoStory, match="no game line"):
        story_of_export(lines[1:2], DECKTET, CATALOGS, "en")
    with pytest.raises(NoStory, match="line 1"):
        story_of_export([b"{not json"], DECKTET, CATALOGS, "en")


def magnate(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "services.cli", *args], input=stdin, capture_output=True,
                          check=False, timeout=120)


def test_magnate_story_prints_an_export_in_the_language_asked_for(export_file: Path) -> None:
    german = magnate("story", str(export_file), "--lang", "de")
    assert german.returncode == 0, german.stderr
    assert OPENED["de"] in german.stdout.decode().splitlines()
    english = magnate("story", "-", stdin=export_file.read_bytes())  # English unless asked
    assert OPENED["en"] in english.stdout.decode().splitlines()
    refused = magnate("story", str(export_file), "--lang", "fr")
    assert refused.returncode == 2 and b"no language 'fr'" in refused.stderr


def test_magnate_export_writes_the_story_instead_of_the_lines_when_asked(
    export_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = export_file.read_bytes().splitlines()

    async def from_the_store(settings: Settings, game_id: str) -> tuple[list[bytes], dict[int, str]]:
        return lines, {}

    monkeypatch.setattr(cli, "_export", from_the_store)
    settings = Settings(database_url="postgresql://nowhere/x")
    out = tmp_path / "story.txt"
    assert cli.cmd_export(settings, "g", str(out), story=False, language="ru") == 0
    assert OPENED["ru"] in out.read_text().splitlines()
    assert cli.cmd_export(settings, "g", str(out)) == 0
    assert out.read_bytes().splitlines() == lines  # without --story or --lang: the export itself


async def claimed_export() -> tuple[list[bytes], list[bytes]]:
    """A Decktet game whose person's seat Wilma claimed: its export, and its claim's command and event as a
    service before claims recorded no name wrote them."""
    gameplay = Gameplay(InMemoryEventStore(), RecordingJobQueue(), RecordingNotifier(), DECKTET)
    options = GameOptions(seats=(SeatSpec(), SeatSpec(kind="ai", level="easy")))
    created = await gameplay.create_game("decktet", options, seed=b"claimed")
    await Seating(gameplay).claim(created.game_id, 0, created.seats[0].token, "p-wilma", "Wilma")
    assert (await gameplay.store.seats(created.game_id))[0].name == "Wilma"
    older = [msgspec.json.encode(SeatClaimed(seat=0, name="Wilma")), msgspec.json.encode(ClaimSeat(seat=0, name="W"))]
    return await export_lines(gameplay, created.game_id), older


def test_a_claim_records_no_name_and_the_story_names_the_seat_by_the_seats_table() -> None:
    import asyncio

    lines, older = asyncio.run(claimed_export())
    assert not any(b"Wilma" in line for line in lines), "the log records which seat was claimed, not by whom"
    assert "Player 1 claimed seat 1." in story_of_export(lines, DECKTET, CATALOGS, "en")  # from the file alone
    assert "Игрок 1 занимает место 1." in story_of_export(lines, DECKTET, CATALOGS, "ru")
    told = story_of_export(lines, DECKTET, CATALOGS, "en", {0: "Wilma", 1: "whatever"})  # told by the service
    assert "Wilma claimed seat 1." in told
    # an older log's claim, which recorded the name, still decodes (its name is kept: the chain commits to it)
    codec = GameCodec(DECKTET["decktet"])
    assert codec.decode_event(older[0]) == SeatClaimed(seat=0, name="Wilma")
    assert msgspec.json.decode(older[1], type=ClaimSeat) == ClaimSeat(seat=0, name="W")
