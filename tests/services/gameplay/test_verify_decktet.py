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
from infra.chain import GENESIS, event_hash, public_commitment, sealed_commitment
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


def _chained(lines: list[bytes]) -> list[bytes]:
    """The export with only its hashes recomputed from each line's commitment as it stands (not the commitments)."""
    game_id, previous, out = decoded(lines[0]).game_id, GENESIS, []
    for line in lines:
        record = decoded(line)
        if isinstance(record, EventLine):
            digest = event_hash(previous, game_id, record.version, record.type, record.actor, record.command_id,
                                record.recorded_at, bytes(record.payload), record.commitment)
            record = msgspec.structs.replace(record, prev_hash=previous, hash=digest)
            previous = digest
        out.append(msgspec.json.encode(record))
    return out


def test_every_hidden_draw_is_sealed_and_opens_with_the_seed() -> None:
    lines = export()
    seed = bytes.fromhex(decoded(lines[0]).seed)
    draws = [decoded(line) for line in lines
             if isinstance(decoded(line), EventLine) and decoded(line).type == "decktet.cards_drawn"]
    assert draws
    for draw in draws:
        assert draw.commitment == sealed_commitment(seed, draw.version, bytes(draw.payload))
        assert draw.commitment != public_commitment(bytes(draw.payload))


def test_a_hidden_card_swapped_under_its_old_commitment_is_caught() -> None:
    """The chain covers commitments, not payloads: a payload changed under its commitment keeps the chain whole,
    and only the opening of the commitment with the revealed seed tells."""
    lines = export()
    index = index_of(lines, EventLine, type="decktet.cards_drawn", nth=2)
    payload = msgspec.json.decode(bytes(decoded(lines[index]).payload))
    changed = {**payload, "cards": [*reversed(payload["cards"]), "x"]}
    verdict = verify(_chained(replaced(lines, index, payload=msgspec.Raw(msgspec.json.encode(changed)))), GAMES)
    assert not verdict.ok
    assert verdict.problems[0] == (
        f"event {decoded(lines[index]).version}: line {index + 1}: commitment does not open to its payload with the "
        "revealed seed (the hidden event shown now is not the one committed when it was written)")


def test_a_hidden_event_committed_in_the_open_is_refused() -> None:
    """A server that committed a hand in the public form (its SHA-256) let every viewer test candidates for it."""
    lines = export()
    index = index_of(lines, EventLine, type="decktet.cards_drawn", nth=1)
    opened = public_commitment(bytes(decoded(lines[index]).payload))
    verdict = verify(_chained(replaced(lines, index, commitment=opened)), GAMES)
    assert not verdict.ok
    assert verdict.problems == (
        f"event {decoded(lines[index]).version}: line {index + 1}: commitment is in the public form, but the rules "
        "hide this event while the game runs (its hash would have given it away)",)
