"""verify: every field of every line of an export is checked, every problem names its line and field, and no
input makes it raise. The exports are real: a 2-seat game (a random human and the AI) played in memory
through the gameplay service, once to its end and once stopped while it runs."""

from __future__ import annotations

import asyncio
import functools
import io
import re
import uuid
from typing import Any

import msgspec
import pytest

from domain.games import GAMES as EVERY_GAME
from domain.kernel import tag_of
from domain.magnate import GAME, GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from infra.chain import GENESIS, commitment, event_hash
from infra.codec import GameCodec
from infra.eventstore.memory import InMemoryEventStore
from infra.notify import RecordingNotifier
from infra.queue import RecordingJobQueue
from services.gameplay import Gameplay
from services.gameplay.audit import CommandLine, EventLine, GameLine, Verdict, export_lines, verify
from services.gameplay.commitments import is_hidden

GAMES = {"magnate": GAME}
SEED = b"verify-test"
RUNNING_UNTIL = 60
"""The version at which the running game's export is taken (after the AI, the market and the human acted)."""

WHERE = re.compile(r"^(?:(?:game header|command .+|event -?\d+): )?line \d+: \S")
"""What starts every problem: the line's subject (when the line could be read) and its number."""


async def _play(finish: bool) -> list[bytes]:
    gameplay = Gameplay(InMemoryEventStore(), RecordingJobQueue(), RecordingNotifier(), GAMES)
    options = GameOptions(seats=(SeatSpec(), SeatSpec(kind="ai")), difficulty="generalised_ai")
    game_id = (await gameplay.create_game("magnate", options, seed=SEED)).game_id
    policy = RandomLegal(3)
    while True:
        loaded = await gameplay.load(game_id)
        due = GAME.pending(loaded.state)
        if due.finished or (not finish and loaded.version >= RUNNING_UNTIL):
            return await export_lines(gameplay, game_id)
        if due.system is not None:
            assert await gameplay.run_system(game_id, loaded.version, tag_of(due.system))
        else:
            await gameplay.submit(game_id, int(due.seats[0]), uuid.uuid4().hex, policy(loaded.state, due.seats[0]))


@functools.cache
def finished_export() -> tuple[bytes, ...]:
    return tuple(asyncio.run(_play(finish=True)))


@functools.cache
def running_export() -> tuple[bytes, ...]:
    return tuple(asyncio.run(_play(finish=False)))


def decoded(line: bytes) -> Any:
    return msgspec.json.decode(line, type=GameLine | CommandLine | EventLine)


def index_of(lines: tuple[bytes, ...], kind: type, nth: int = 0, **fields: object) -> int:
    """The index of the ``nth`` line of ``kind`` whose fields have the given values."""
    found = [i for i, line in enumerate(lines) if isinstance(d := decoded(line), kind)
             and all(getattr(d, k) == v for k, v in fields.items())]
    return found[nth]


def replaced(lines: tuple[bytes, ...], index: int, **changes: object) -> list[bytes]:
    """The export with line ``index`` re-encoded (canonically, as the export writes it) with ``changes``."""
    line = msgspec.structs.replace(decoded(lines[index]), **changes)
    return [*lines[:index], msgspec.json.encode(line), *lines[index + 1:]]


def resigned(lines: list[bytes]) -> list[bytes]:
    """The export with its hash chain and its commitments recomputed, as a dishonest server (which holds the seed)
    would write it: only the checks beyond the chain can catch what was changed."""
    header = decoded(lines[0])
    game_id, game = header.game_id, EVERY_GAME[header.game_type]
    seed, codec = bytes.fromhex(header.seed or ""), GameCodec(game)
    out, previous = [], GENESIS
    for line in lines:
        record = decoded(line)
        if isinstance(record, EventLine):
            payload = bytes(record.payload)
            committed = None if record.commitment is None else commitment(
                seed, record.version, payload, is_hidden(game, codec.decode_event(payload)))
            digest = event_hash(previous, game_id, record.version, record.type, record.actor, record.command_id,
                                record.recorded_at, payload, committed)
            record = msgspec.structs.replace(record, prev_hash=previous, hash=digest, commitment=committed)
            previous = digest
        out.append(msgspec.json.encode(record))
    return out


def flipped(text: str) -> str:
    """``text`` with the lowest bit of its last character flipped (one bit of the file)."""
    return text[:-1] + chr(ord(text[-1]) ^ 1)


def problems_of(lines: list[bytes] | tuple[bytes, ...]) -> tuple[str, ...]:
    verdict = verify(lines, GAMES)
    assert isinstance(verdict, Verdict)
    assert not verdict.ok, "the tampered export verifies"
    assert verdict.problems
    assert all(WHERE.match(p) for p in verdict.problems), verdict.problems
    return verdict.problems


def test_the_real_exports_verify() -> None:
    finished = verify(finished_export(), GAMES)
    assert finished.ok, finished.problems
    assert finished.replayed == finished.commands > 50
    assert finished.notes == ()
    running = verify(running_export(), GAMES)
    assert running.ok, running.problems
    assert decoded(running_export()[0]).seed is None
    assert 0 < running.replayed < running.commands, "player commands replay without the seed, draws cannot"
    assert running.notes and "the seed is not revealed yet" in running.notes[0]


def test_lines_may_come_with_their_terminators() -> None:
    data = b"\r\n".join(finished_export()) + b"\r\n"
    verdict = verify(io.BytesIO(data).readlines(), GAMES)
    assert verdict.ok, verdict.problems
    assert verify(data.splitlines(), GAMES).ok


# -- 1. every field of the header and of command lines ------------------------------------------------------


@pytest.mark.parametrize("export", [finished_export, running_export], ids=["finished", "running"])
@pytest.mark.parametrize("field", ["command_id", "recorded_at", "type", "actor"])
def test_one_bit_of_any_command_field_is_caught_and_named(export: Any, field: str) -> None:
    lines = export()
    index = index_of(lines, CommandLine, actor="seat:0")  # a player command: "seat:0" flips to "seat:1"
    command = decoded(lines[index])
    problems = problems_of(replaced(lines, index, **{field: flipped(getattr(command, field))}))
    assert any(f": line {index + 1}: {field} " in p for p in problems), problems


@pytest.mark.parametrize("field", ["command_id", "recorded_at", "type", "actor"])
def test_one_bit_of_a_system_command_field_is_caught(field: str) -> None:
    lines = finished_export()
    index = index_of(lines, CommandLine, type="magnate.ai_turn")
    command = decoded(lines[index])
    problems = problems_of(replaced(lines, index, **{field: flipped(getattr(command, field))}))
    assert any(f": line {index + 1}: {field} " in p for p in problems), problems


def test_recorded_at_is_named_with_the_line_of_the_command() -> None:
    lines = finished_export()
    index = index_of(lines, CommandLine, nth=3)
    command = decoded(lines[index])
    problems = problems_of(replaced(lines, index, recorded_at=flipped(command.recorded_at)))
    assert problems == (f"command {command.command_id}: line {index + 1}: recorded_at differs from its events' "
                        f"({command.recorded_at})",)


@pytest.mark.parametrize("export", [finished_export, running_export], ids=["finished", "running"])
@pytest.mark.parametrize("field", ["first_version", "last_version"])
def test_a_command_must_cover_exactly_the_events_that_follow_it(export: Any, field: str) -> None:
    lines = export()
    index = index_of(lines, CommandLine, nth=4)
    problems = problems_of(replaced(lines, index, **{field: getattr(decoded(lines[index]), field) ^ 1}))
    assert any(f": line {index + 1}: {field} is " in p for p in problems), problems


@pytest.mark.parametrize("export", [finished_export, running_export], ids=["finished", "running"])
def test_the_header_version_is_the_last_events(export: Any) -> None:
    lines = export()
    version = decoded(lines[0]).version
    for wrong in (version ^ 1, version + 1, 0):
        assert problems_of(replaced(lines, 0, version=wrong)) == (
            f"game header: line 1: version is {wrong}, but the last event is version {version}",)


def test_the_header_status_must_match_the_end_of_the_log() -> None:
    finished, running = finished_export(), running_export()
    assert "game header: line 1: status is running, but the log reaches the end of the game" in problems_of(
        replaced(finished, 0, status="running"))
    assert problems_of(replaced(finished, 0, status="running", seed=None)) == (
        "game header: line 1: seed is missing, but the log reaches the end of the game",)
    assert problems_of(replaced(running, 0, status="finished")) == (
        "game header: line 1: seed is missing, but the status is finished (a finished game's export reveals it)",)
    assert "game header: line 1: status is finished, but the log stops before the end of the game" in problems_of(
        replaced(running, 0, status="finished", seed=SEED.hex()))
    assert problems_of(replaced(finished, 0, status=flipped("finished"))) == (
        "game header: line 1: status finishee is neither running nor finished",)


def test_the_header_game_id_is_the_one_in_every_hash() -> None:
    lines = finished_export()
    header = decoded(lines[0])
    problems = problems_of(replaced(lines, 0, game_id=flipped(header.game_id)))
    assert problems[0].startswith("event 1: line 3: hash is not the SHA-256 of its fields and the header's game_id")


def test_every_event_field_is_covered() -> None:
    lines = finished_export()
    index = index_of(lines, EventLine, nth=10)
    event = decoded(lines[index])
    for field in ("command_id", "actor", "recorded_at", "type", "prev_hash", "hash"):
        problems = problems_of(replaced(lines, index, **{field: flipped(getattr(event, field))}))
        assert any(p.startswith(f"event {event.version}: line {index + 1}: ") for p in problems), (field, problems)
    assert f"event {event.version + 1}: line {index + 1}: version is {event.version + 1}, expected {event.version} " \
        "(events are numbered 1, 2, 3, ... in file order: a gap, a duplicate or a reordering)" in problems_of(
            replaced(lines, index, version=event.version + 1))


def test_lines_out_of_place_are_caught() -> None:
    lines = finished_export()
    command = index_of(lines, CommandLine, nth=5)
    assert any("command_id is already the id of the command on line" in p
               for p in problems_of([*lines[:command + 1], *lines[command:]]))  # a duplicated command line
    event = index_of(lines, EventLine, nth=7)
    assert problems_of([*lines[:event], *lines[event + 1:]])  # a deleted event line
    assert problems_of([*lines[:event], lines[event + 1], lines[event], *lines[event + 2:]])  # swapped lines
    assert problems_of([lines[0], lines[2], lines[1], *lines[3:]])[0] == (
        "event 1: line 2: comes before any command line (an event follows its command)")
    assert any("is a second game header" in p for p in problems_of([*lines, lines[0]]))
    assert problems_of(lines[1:])[0] == "command start: line 1: comes first, but an export starts with its game header"


def test_a_finished_export_must_end_with_the_reveal() -> None:
    lines = finished_export()
    version = decoded(lines[-1]).version
    cut = replaced(lines[:-2], 0, version=version - 1)  # the reveal dropped, the header made to agree
    assert problems_of(cut) == ("game header: line 1: seed is given, but the log has no reveal of it after the end "
                                "of the game",)


def test_a_system_command_must_be_the_one_the_rules_call_for() -> None:
    lines = finished_export()
    index = index_of(lines, CommandLine, type="magnate.ai_turn")
    problems = problems_of(replaced(lines, index, type="magnate.process_market",
                                    command=msgspec.Raw(b'{"type":"magnate.process_market"}')))
    assert any(f"line {index + 1}: command is not what the rules call for here (magnate.ai_turn)" in p
               for p in problems), problems


def test_the_system_cannot_act_for_a_seat_even_with_a_consistent_chain() -> None:
    lines = finished_export()
    index = index_of(lines, CommandLine, actor="seat:0")
    forged = replaced(lines, index, actor="system", type="magnate.ai_turn",
                      command=msgspec.Raw(b'{"type":"magnate.ai_turn"}'))
    at = index + 1
    while isinstance(decoded(forged[at]), EventLine):
        forged = replaced(tuple(forged), at, actor="system")
        at += 1
    command = decoded(lines[index])
    assert problems_of(resigned(forged)) == (
        f"command {command.command_id}: line {index + 1}: actor is system, but the rules wait for a seat here",)


def test_nothing_but_the_reveal_follows_the_end() -> None:
    lines = finished_export()
    reveal = decoded(lines[-2])
    again = replaced(lines[-2:], 0, command_id="again")  # a second reveal, with its event, made to fit
    event = msgspec.structs.replace(decoded(again[1]), version=reveal.last_version + 1, command_id="again")
    forged = [*replaced(lines, 0, version=reveal.last_version + 1),
              msgspec.json.encode(msgspec.structs.replace(decoded(again[0]), first_version=event.version,
                                                          last_version=event.version)),
              msgspec.json.encode(event)]
    assert problems_of(resigned(forged)) == (
        f"command again: line {len(lines) + 1}: command is refused by the rules: the seed has already been revealed",)
    forged[-2] = msgspec.json.encode(msgspec.structs.replace(
        decoded(forged[-2]), type="magnate.ai_turn", command=msgspec.Raw(b'{"type":"magnate.ai_turn"}')))
    assert problems_of(resigned(forged)) == (
        f"command again: line {len(lines) + 1}: command follows the end of the game, where only the reveal of the "
        "header's seed may",)


def test_a_command_payload_must_be_canonical() -> None:
    lines = finished_export()
    index = index_of(lines, CommandLine, actor="seat:0")
    raw = bytes(decoded(lines[index]).command)
    problems = problems_of(replaced(lines, index, command=msgspec.Raw(raw.replace(b":", b": ", 1))))
    assert any(f"line {index + 1}: command is not in the canonical form" in p for p in problems), problems


def test_a_player_command_of_a_running_game_is_replayed_without_the_seed() -> None:
    lines = running_export()
    index = index_of(lines, CommandLine, type="magnate.buy_land")
    raw = bytes(decoded(lines[index]).command)
    other = raw.replace(b'"plot":"', b'"plot":"X')
    problems = problems_of(replaced(lines, index, command=msgspec.Raw(other)))
    assert any(f": line {index + 1}: command " in p for p in problems), problems


def test_a_dishonest_server_cannot_change_a_drawn_outcome_by_rewriting_the_chain() -> None:
    lines = finished_export()
    index = index_of(lines, EventLine, type="magnate.ai_card_drawn")
    event = decoded(lines[index])
    payload = bytes(event.payload)
    card = msgspec.json.decode(payload)["card"]
    other = msgspec.Raw(payload.replace(card.encode(), flipped(card).encode()))
    forged = resigned(replaced(lines, index, payload=other))  # a new chain over the altered card
    command = max(i for i in range(index) if isinstance(decoded(lines[i]), CommandLine))
    problems = problems_of(forged)
    assert problems == (f"command {decoded(lines[command]).command_id}: line {command + 1}: command gives other events "
                        f"by the rules with the header's seed: event {event.version}: line {index + 1} differs",)


def test_an_event_type_must_be_its_payloads_even_while_the_seed_is_secret() -> None:
    lines = running_export()
    index = index_of(lines, EventLine, type="magnate.ai_card_drawn")
    event = decoded(lines[index])
    problems = problems_of(resigned(replaced(lines, index, type="magnate.dice_rolled")))
    assert problems == (f"event {event.version}: line {index + 1}: type magnate.dice_rolled is not its payload's",)


def test_events_the_rules_cannot_apply_are_reported_while_the_seed_is_secret() -> None:
    lines = running_export()
    index = index_of(lines, EventLine, type="magnate.game_started")
    payload = bytes(decoded(lines[index]).payload)
    broken = msgspec.Raw(payload.replace(b'"seats":[', b'"seats":[],"was":[', 1))
    verdict = verify(resigned(replaced(lines, index, payload=broken)), GAMES)
    assert not verdict.ok and verdict.notes == ()
    assert len(verdict.problems) == 1
    assert verdict.problems[0].startswith("command start: line 2: command breaks the rules (")


# -- 2. unknown keys, and the seed ----------------------------------------------------------------------------


def test_a_renamed_seed_key_is_refused() -> None:
    lines = finished_export()
    renamed = lines[0].replace(b'"seed":', b'"sees":')
    assert problems_of([renamed, *lines[1:]]) == (
        "line 1: is not a valid export line: Object contains unknown field `sees`",)


@pytest.mark.parametrize("kind", [GameLine, CommandLine, EventLine])
def test_an_unknown_key_is_refused_in_every_line_type(kind: type) -> None:
    lines = finished_export()
    index = index_of(lines, kind)
    extended = lines[index][:-1] + b',"note":"x"}'
    assert problems_of([*lines[:index], extended, *lines[index + 1:]]) == (
        f"line {index + 1}: is not a valid export line: Object contains unknown field `note`",)


def test_a_finished_game_must_reveal_its_seed() -> None:
    assert problems_of(replaced(finished_export(), 0, seed=None)) == (
        "game header: line 1: seed is missing, but the status is finished (a finished game's export reveals it)",)


def test_a_running_game_must_not_show_a_seed() -> None:
    assert problems_of(replaced(running_export(), 0, seed=SEED.hex())) == (
        "game header: line 1: seed is revealed, but the game has not ended (the seed stays secret until then)",)


@pytest.mark.parametrize("seed", ["zz", "abc", "", SEED.hex().upper(), " " + SEED.hex(), "00" + SEED.hex()])
def test_a_seed_must_be_the_lowercase_hex_of_the_committed_seed(seed: str) -> None:
    problems = problems_of(replaced(finished_export(), 0, seed=seed))
    assert problems[0].startswith("game header: line 1: seed ")


# -- 3. nothing raises ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("actor", ["seat:99", "nobody", "seat:", "seat:01", "seat:-1", "seat:1:2", "SYSTEM", ""])
def test_an_unknown_actor_is_reported(actor: str) -> None:
    lines = finished_export()
    index = index_of(lines, CommandLine, actor="seat:0")
    problems = problems_of(replaced(lines, index, actor=actor))
    assert any(f"line {index + 1}: actor" in p for p in problems), problems


def test_an_unknown_seat_is_reported_by_the_rules_even_with_a_consistent_chain() -> None:
    lines = finished_export()
    index = index_of(lines, CommandLine, actor="seat:0")
    moved = replaced(lines, index, actor="seat:99")
    at = index + 1
    while at < len(moved) and isinstance(decoded(moved[at]), EventLine):  # its events too, and a new chain
        moved = replaced(tuple(moved), at, actor="seat:99")
        at += 1
    command = decoded(lines[index])
    assert problems_of(resigned(moved)) == (
        f"command {command.command_id}: line {index + 1}: actor seat:99 is not a seat of this game (2 seats)",)


GARBAGE: list[list[Any]] = [
    [b"\xff\xfe"],
    [b'{"kind":"game","game_id":"\xff","game_type":"magnate","version":0,"status":"running","seed":null}'],
    [b'{"kind":"game","game_id":"a","game_type":"magnate","version":' + b"9" * 5000 + b',"status":"running",'
     b'"seed":null}'],
    [b'{"kind":"game","game_id":"a","game_type":"magnate","version":99999999999999999999,"status":"running",'
     b'"seed":null}'],
    [b'{"kind":"game","game_id":"a","game_type":"magnate","version":-1,"status":"running","seed":null}'],
    [b'{"kind":"game","game_id":"\\ud800","game_type":"magnate","version":0,"status":"running","seed":null}'],
    [b"[" * 100_000 + b"]" * 100_000],
    [b'{"kind":"event","payload":' + b"[" * 100_000 + b"]" * 100_000 + b"}"],
    [b'{"kind":"game"'],
    [b"null", b"1", b'"x"', b"[]", b"{}"],
    ["a str line", 42, None, bytearray(b"x"), memoryview(b"y")],
    [b'{"kind":"game","game_id":"a","game_type":"chess","version":0,"status":"running","seed":null}'],
    [],
    [b"", b"   ", b"\t"],
]


@pytest.mark.parametrize("lines", GARBAGE, ids=range(len(GARBAGE)))
def test_garbage_is_reported_not_raised(lines: list[Any]) -> None:
    verdict = verify(lines, GAMES)
    assert isinstance(verdict, Verdict) and not verdict.ok and verdict.problems
    assert not any(p.startswith("the export could not be checked") for p in verdict.problems), verdict.problems


def test_a_huge_number_in_a_real_export_is_out_of_range() -> None:
    lines = finished_export()
    index = index_of(lines, EventLine, nth=3)
    huge = replaced(lines, index, version=10**30)
    assert problems_of(huge) == (f"line {index + 1}: version is out of range (0 to 2147483647)",)


def test_an_iterable_that_fails_is_reported() -> None:
    def lines() -> Any:
        yield finished_export()[0]
        raise OSError("disk gone")

    verdict = verify(lines(), GAMES)
    assert not verdict.ok and verdict.problems == ("the export could not be checked: OSError: disk gone",)


# -- 4. every problem names its line and field -------------------------------------------------------------------


def test_a_broken_json_line_is_named() -> None:
    lines = finished_export()
    index = index_of(lines, CommandLine, nth=2)
    problems = problems_of([*lines[:index], lines[index][:-1], *lines[index + 1:]])
    assert problems[0] == f"line {index + 1}: is not a valid export line: Input data was truncated"


def test_line_numbers_are_those_of_the_file_blank_lines_included() -> None:
    lines = finished_export()
    index = index_of(lines, CommandLine, nth=2)
    spaced = [lines[0], b"", *lines[1:index], lines[index][:-1], *lines[index + 1:]]
    assert problems_of(spaced)[0] == f"line {index + 2}: is not a valid export line: Input data was truncated"


def test_whitespace_names_the_field_it_is_in() -> None:
    lines = finished_export()
    index = index_of(lines, CommandLine, nth=2)
    spaced = lines[index].replace(b'"actor":', b'"actor": ')
    command = decoded(lines[index])
    assert problems_of([*lines[:index], spaced, *lines[index + 1:]]) == (
        f"command {command.command_id}: line {index + 1}: actor is not written as the export writes it (from "
        f"byte {spaced.index(b' ') + 1}: whitespace, key order, escapes and repeated keys are refused)",)


def test_a_repeated_key_is_refused() -> None:
    lines = finished_export()
    repeated = lines[0].replace(b'"status":', b'"status":"running","status":')
    assert problems_of([repeated, *lines[1:]])[0].startswith("game header: line 1: status is not written as")
