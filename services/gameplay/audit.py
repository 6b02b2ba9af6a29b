"""The audit trail: export a game as JSON Lines, and verify an export independently.

An export is one JSON object per line: a ``game`` header, then for every command a ``command`` line
followed by the ``event`` lines it produced, in version order. Event payloads are the exact bytes that
were hashed. :func:`verify` checks, with nothing but the export:

1. the hash chain (every event's hash recomputed from its fields and the previous hash);
2. that the seed revealed at the end matches the commitment published in the first event;
3. that replaying every command through the rules, with the chance source re-derived from the seed
   for its version, produces byte-identical events — so every die, card and tile was drawn fairly and
   every player command was legal.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Literal, Self

import msgspec

from domain.kernel import SYSTEM, Chance, GameError, GameModule, Seat, commitment_of, fold
from infra.chain import GENESIS, event_hash
from infra.codec import GameCodec
from infra.eventstore import StoredEvent

from .handler import Gameplay


class GameLine(msgspec.Struct, frozen=True, tag="game", tag_field="kind"):
    game_id: str
    game_type: str
    version: int
    status: str
    seed: str | None = None


class CommandLine(msgspec.Struct, frozen=True, tag="command", tag_field="kind"):
    command_id: str
    actor: str
    type: str
    first_version: int
    last_version: int
    recorded_at: str
    command: msgspec.Raw


class EventRecord(msgspec.Struct, frozen=True):
    """A stored event as it is shown outside (the API, an export): every field that was hashed."""

    version: int
    type: str
    actor: str
    command_id: str
    recorded_at: str
    payload: msgspec.Raw
    """The event exactly as stored and hashed (a JSON object)."""
    prev_hash: str
    hash: str

    @classmethod
    def of(cls, e: StoredEvent) -> Self:
        return cls(e.version, e.type, e.actor, e.command_id, e.recorded_at, msgspec.Raw(e.payload), e.prev_hash,
                   e.hash)


class EventLine(EventRecord, frozen=True, tag="event", tag_field="kind"):
    """An event line of an export."""


Line = GameLine | CommandLine | EventLine
_line_decoder = msgspec.json.Decoder(Line)


async def export_lines(gameplay: Gameplay, game_id: str) -> list[bytes]:
    """The game's history as JSON Lines (the seed appears only once the game has ended)."""
    head = await gameplay.store.head(game_id)
    events = await gameplay.store.read(game_id)
    commands = await gameplay.store.commands(game_id)
    seed = (await gameplay.store.seed(game_id)).hex() if head.status == "finished" else None
    lines = [msgspec.json.encode(GameLine(game_id, head.game_type, head.version, head.status, seed))]
    by_version = {e.version: e for e in events}
    for c in commands:
        lines.append(msgspec.json.encode(CommandLine(c.command_id, c.actor, c.type, c.first_version, c.last_version,
                                                     c.recorded_at, msgspec.Raw(c.payload))))
        for version in range(c.first_version, c.last_version + 1):
            lines.append(msgspec.json.encode(EventLine.of(by_version[version])))
    return lines


class Verdict(msgspec.Struct, frozen=True):
    ok: bool
    events: int
    commands: int
    replayed: int
    """Commands re-decided from the seed (all of them once the seed is revealed)."""
    problems: tuple[str, ...]


def verify(lines: Iterable[bytes], games: dict[str, GameModule[Any]]) -> Verdict:
    """Check an export (see the module docstring); never raises on bad input, it reports it."""
    problems: list[str] = []
    try:
        parsed = [_line_decoder.decode(line) for line in lines if line.strip()]
    except msgspec.DecodeError as exc:
        return Verdict(False, 0, 0, 0, (f"the export is not valid JSON Lines: {exc}",))
    header = parsed[0] if parsed else None
    if not isinstance(header, GameLine) or header.game_type not in games:
        return Verdict(False, 0, 0, 0, ("the export does not start with a game line of a known game type",))
    events = [p for p in parsed if isinstance(p, EventLine)]
    commands = [p for p in parsed if isinstance(p, CommandLine)]
    problems.extend(_check_chain(header.game_id, events))
    replayed = 0
    if header.seed is not None and not problems:
        replayed, more = _replay(header, commands, events, games[header.game_type])
        problems.extend(more)
    return Verdict(not problems, len(events), len(commands), replayed, tuple(problems))


def _check_chain(game_id: str, events: list[EventLine]) -> Iterator[str]:
    previous = GENESIS
    for expected_version, e in enumerate(events, start=1):
        if e.version != expected_version:
            yield f"event {e.version}: expected version {expected_version} (a gap or a reordering)"
            return
        if e.prev_hash != previous:
            yield f"event {e.version}: prev_hash does not match the previous event's hash"
            return
        digest = event_hash(previous, game_id, e.version, e.type, e.actor, e.command_id, e.recorded_at,
                            bytes(e.payload))
        if digest != e.hash:
            yield f"event {e.version}: hash mismatch (the event was altered)"
            return
        previous = digest


def _replay(
    header: GameLine, commands: list[CommandLine], events: list[EventLine], game: GameModule[Any]
) -> tuple[int, list[str]]:
    assert header.seed is not None
    codec = GameCodec(game)
    seed = bytes.fromhex(header.seed)
    state = game.initial_state()
    payloads = {e.version: bytes(e.payload) for e in events}
    for count, c in enumerate(commands):
        actor: Literal["system"] | Seat = SYSTEM if c.actor == "system" else Seat(int(c.actor.split(":")[1]))
        try:
            command = codec.decode_command(bytes(c.command), system=actor == SYSTEM)
            produced = game.decide(state, actor, command, Chance(seed, c.first_version))
        except (GameError, msgspec.DecodeError) as exc:
            return count, [f"command {c.command_id} at version {c.first_version} does not replay: {exc}"]
        expected = [payloads.get(v) for v in range(c.first_version, c.last_version + 1)]
        if [codec.encode(e) for e in produced] != expected:
            return count, [f"command {c.command_id} at version {c.first_version}: replay gives other events"]
        state = fold(game.evolve, produced, state)
        if count == 0 and getattr(produced[0], "seed_commitment", None) != commitment_of(seed):
            return count + 1, ["the revealed seed does not match the commitment in the first event"]
    return len(commands), []
