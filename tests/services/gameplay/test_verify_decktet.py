"""An auditor re-derives a finished game of Decktet Magnate from its export: every shuffle, draw and roll, and the
computer's every turn, come out of the revealed seed exactly as the log recorded them; a dishonest server that
changes a drawn card, a die or the computer's plan and rewrites the whole hash chain is caught at the command that
gave it. The export is real: a person (the random bot) against the computer, played through the gameplay service."""

from __future__ import annotations

import asyncio
import functools
import uuid

import msgspec

from domain.decktet import GAME, GameOptions, SeatSpec
from domain.decktet.bots import RandomLegal
from domain.kernel import tag_of
from infra.eventstore.memory import InMemoryEventStore
from infra.notify import RecordingNotifier
from infra.queue import RecordingJobQueue
from services.gameplay import Gameplay
from services.gameplay.audit import CommandLine, EventLine, export_lines, verify

from .test_verify import decoded, index_of, replaced, resigned

GAMES = {"decktet": GAME}
SEED = b"verify-decktet"


async def _play() -> list[bytes]:
    gameplay = Gameplay(InMemoryEventStore(), RecordingJobQueue(), RecordingNotifier(), GAMES)
    options = GameOptions(seats=(SeatSpec(), SeatSpec(kind="ai", level="easy")))
    game_id = (await gameplay.create_game("decktet", options, seed=SEED)).game_id
    policy = RandomLegal(5)
    while True:
        loaded = await gameplay.load(game_id)
        due = GAME.pending(loaded.state)
        if due.finished:
            return await export_lines(gameplay, game_id)
        if due.system is not None:
            assert await gameplay.run_system(game_id, loaded.version, tag_of(due.system))
        else:
            await gameplay.submit(game_id, int(due.seats[0]), uuid.uuid4().hex, policy(loaded.state, due.seats[0]))


@functools.cache
def export() -> tuple[bytes, ...]:
    return tuple(asyncio.run(_play()))


def _caught_at_its_command(lines: tuple[bytes, ...], index: int, forged: list[bytes]) -> None:
    verdict = verify(forged, GAMES)
    assert not verdict.ok
    command = max(i for i in range(index) if isinstance(decoded(lines[i]), CommandLine))
    event = decoded(lines[index])
    assert verdict.problems == (
        f"command {decoded(lines[command]).command_id}: line {command + 1}: command gives other events by the rules "
        f"with the header's seed: event {event.version}: line {index + 1} differs",)


def test_the_finished_export_replays_from_its_seed() -> None:
    verdict = verify(export(), GAMES)
    assert verdict.ok, verdict.problems
    assert verdict.replayed == verdict.commands > 20
    types = {decoded(line).type for line in export() if isinstance(decoded(line), EventLine)}
    assert {"decktet.cards_drawn", "decktet.dice_rolled", "decktet.ai_turn_planned"} <= types


def test_a_drawn_card_changed_under_a_rewritten_chain_is_caught() -> None:
    lines = export()
    index = index_of(lines, EventLine, type="decktet.cards_drawn", nth=3)
    payload = msgspec.json.decode(bytes(decoded(lines[index]).payload))
    assert payload["cards"], "a draw's export names the card (the game is over)"
    other = sorted({c for line in lines if isinstance(d := decoded(line), EventLine) and d.type == "decktet.cards_drawn"
                    for c in msgspec.json.decode(bytes(d.payload))["cards"]} - set(payload["cards"]))[0]
    changed = {**payload, "cards": [other, *payload["cards"][1:]]}
    _caught_at_its_command(lines, index, resigned(replaced(lines, index, payload=msgspec.Raw(
        msgspec.json.encode(changed)))))


def test_a_die_changed_under_a_rewritten_chain_is_caught() -> None:
    lines = export()
    index = index_of(lines, EventLine, type="decktet.dice_rolled", nth=5)
    payload = msgspec.json.decode(bytes(decoded(lines[index]).payload))
    dice = payload["dice"]
    changed = {**payload, "dice": [dice[0] % 10 + 1, *dice[1:]]}
    _caught_at_its_command(lines, index, resigned(replaced(lines, index, payload=msgspec.Raw(
        msgspec.json.encode(changed)))))


def test_the_computers_plan_is_rederived_too() -> None:
    lines = export()
    index = index_of(lines, EventLine, type="decktet.ai_turn_planned", nth=2)
    payload = msgspec.json.decode(bytes(decoded(lines[index]).payload))
    changed = {**payload, "explanation": payload["explanation"] + " (edited)"}
    _caught_at_its_command(lines, index, resigned(replaced(lines, index, payload=msgspec.Raw(
        msgspec.json.encode(changed)))))
