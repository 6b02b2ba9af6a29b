"""A game recorded before its message types grew still verifies (services/gameplay/audit_form.py): its table's options
were written without the fields added since (``undo``, ``rated``), which hold their defaults; a line that leaves out
a field whose value is not its default, or is written in another form, is still refused."""

from __future__ import annotations

import asyncio
import functools
import uuid

import msgspec

from domain.games import GAMES as EVERY_GAME
from domain.kernel import tag_of
from domain.kernel.table.facts import TableOptions
from domain.magnate import GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from infra.eventstore.memory import InMemoryEventStore
from infra.notify import RecordingNotifier
from infra.queue import RecordingJobQueue
from services.gameplay import Gameplay
from services.gameplay.audit import CommandLine, EventLine, export_lines, verify

from .test_verify import SEED, decoded, resigned

GAMES = {"magnate": EVERY_GAME["magnate"]}
"""Magnate as the service serves it: seated at a table."""
NEW_FIELDS = ("undo", "rated")
"""TableOptions' fields added after games were recorded with it."""


async def _play(table: TableOptions) -> list[bytes]:
    gameplay = Gameplay(InMemoryEventStore(), RecordingJobQueue(), RecordingNotifier(), GAMES)
    seats = (SeatSpec(), SeatSpec()) if table.rated else (SeatSpec(), SeatSpec(kind="ai"))  # rated: people only
    options = GameOptions(seats=seats, difficulty="generalised_ai")
    game_id = (await gameplay.create_game("magnate", options, seed=SEED, table=table)).game_id
    policy = RandomLegal(5)
    while True:
        loaded = await gameplay.load(game_id)
        due = GAMES["magnate"].pending(loaded.state)
        if due.finished:
            return await export_lines(gameplay, game_id)
        if due.system is not None:
            assert await gameplay.run_system(game_id, loaded.version, tag_of(due.system))
        else:
            await gameplay.submit(game_id, int(due.seats[0]), uuid.uuid4().hex, policy(loaded.state, due.seats[0]))


@functools.cache
def export(rated: bool = False) -> tuple[bytes, ...]:
    return tuple(asyncio.run(_play(TableOptions(on_timeout="forfeit", takeback=False, rated=rated))))


def _drop(raw: bytes, path: tuple[str, ...], fields: tuple[str, ...]) -> bytes:
    """``raw`` (a message's JSON) with ``fields`` of the object at ``path`` left out, as an older server wrote it."""
    tree = msgspec.json.decode(raw)
    inner = tree
    for key in path:
        inner = inner[key]
    for name in fields:
        del inner[name]
    return msgspec.json.encode(tree)


def as_written_before(lines: tuple[bytes, ...], fields: tuple[str, ...] = NEW_FIELDS,
                      types: tuple[str, ...] = ("table.open", "table.opened")) -> list[bytes]:
    """The export as a server from before ``fields`` existed wrote it: the lines of ``types`` (``table.open`` and
    ``table.opened``) without them (chain recomputed: the lines' bytes are what that server hashed)."""
    out = []
    for line in lines:
        record = decoded(line)
        if isinstance(record, CommandLine) and record.type in types:
            record = msgspec.structs.replace(record, command=msgspec.Raw(_drop(bytes(record.command), ("options",),
                                                                              fields)))
        elif isinstance(record, EventLine) and record.type in types:
            record = msgspec.structs.replace(record, payload=msgspec.Raw(_drop(bytes(record.payload), ("options",),
                                                                              fields)))
        out.append(msgspec.json.encode(record))
    return resigned(out)


def test_a_game_recorded_before_the_table_options_grew_still_verifies() -> None:
    lines = export()
    assert verify(lines, GAMES).ok
    older = as_written_before(lines)
    assert older != list(lines) and all(b'"undo"' not in line for line in older)
    verdict = verify(older, GAMES)
    assert verdict.ok, verdict.problems
    assert verdict.replayed == verdict.commands


def test_an_event_that_leaves_out_a_field_not_at_its_default_means_another_game_and_is_refused() -> None:
    rated = export(rated=True)
    assert verify(rated, GAMES).ok
    # the command says rated; its event, without the field, says unrated: not what the rules give
    verdict = verify(as_written_before(rated, ("rated",), ("table.opened",)), GAMES)
    assert not verdict.ok
    assert any("command gives other events by the rules" in p for p in verdict.problems), verdict.problems


def test_an_old_line_in_another_form_is_still_refused() -> None:
    older = as_written_before(export())
    index = next(i for i, line in enumerate(older) if b'"table.open"' in line and b'"command"' in line)
    record = decoded(older[index])
    spaced = bytes(record.command).replace(b":", b": ", 1)
    forged = [*older[:index], msgspec.json.encode(msgspec.structs.replace(record, command=msgspec.Raw(spaced))),
              *older[index + 1:]]
    verdict = verify(resigned(forged), GAMES)
    assert not verdict.ok
    assert any("not in the canonical form" in p for p in verdict.problems), verdict.problems
