"""A player's receipt: the chain heads its moves were answered with, checked after the end against the export
(``magnate verify --receipt``), so the hands and draws the end reveals are the ones committed when they happened."""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import msgspec

from domain.decktet import GAME, GameOptions, SeatSpec
from domain.decktet.bots import RandomLegal
from domain.kernel import tag_of
from infra.eventstore.memory import InMemoryEventStore
from infra.notify import RecordingNotifier
from infra.queue import RecordingJobQueue
from services.gameplay import Gameplay
from services.gameplay.audit import export_lines, verify
from services.gameplay.receipt import Head, Receipt, check_receipt

GAMES = {"decktet": GAME}


async def _played() -> tuple[list[bytes], Receipt]:
    gameplay = Gameplay(InMemoryEventStore(), RecordingJobQueue(), RecordingNotifier(), GAMES)
    options = GameOptions(seats=(SeatSpec(), SeatSpec(kind="ai", level="easy")))
    game_id = (await gameplay.create_game("decktet", options, seed=b"receipt")).game_id
    policy, heads = RandomLegal(4), []
    while not GAME.pending((loaded := await gameplay.load(game_id)).state).finished:
        due = GAME.pending(loaded.state)
        if due.system is not None:
            assert await gameplay.run_system(game_id, loaded.version, tag_of(due.system))
            continue
        seat = due.seats[0]
        applied = await gameplay.submit(game_id, int(seat), uuid.uuid4().hex, policy(loaded.state, seat))
        heads.append(Head(applied.events[-1].version, applied.events[-1].hash))
    return await export_lines(gameplay, game_id), Receipt(game_id, 0, tuple(heads))


async def test_a_receipt_matches_the_export_and_a_changed_history_does_not(tmp_path: Path) -> None:
    lines, receipt = await _played()
    assert verify(lines, GAMES).ok
    checked = check_receipt(msgspec.json.encode(receipt), lines, True)
    assert checked.ok, checked.problems
    assert checked.heads == len(receipt.heads) > 5 and checked.hidden_opened > 0

    moved = msgspec.structs.replace(receipt, heads=(*receipt.heads[:-1], Head(receipt.heads[-1].version, "f" * 64)))
    assert check_receipt(msgspec.json.encode(moved), lines, True).problems == (
        f"head at version {receipt.heads[-1].version}: the export's hash there is not the one you were shown (the "
        "history was changed after your move)",)
    assert not check_receipt(msgspec.json.encode(receipt), lines, False).ok  # an export that fails proves nothing
    assert not check_receipt(b'{"game_id": 1}', lines, True).ok

    export, good, bad = tmp_path / "game.jsonl", tmp_path / "receipt.json", tmp_path / "moved.json"
    export.write_bytes(b"\n".join(lines) + b"\n")
    good.write_bytes(msgspec.json.encode(receipt))
    bad.write_bytes(msgspec.json.encode(moved))
    command = [sys.executable, "-m", "services.cli", "verify", str(export), "--receipt"]
    ran = subprocess.run([*command, str(good)], capture_output=True, text=True, check=False)
    assert ran.returncode == 0 and "OK: the receipt's" in ran.stderr, ran.stderr
    assert subprocess.run([*command, str(bad)], capture_output=True, check=False).returncode == 1
