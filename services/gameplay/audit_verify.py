"""Verifying an export with nothing but the export (docs/RANDOMNESS.md §4 says what it covers, and what not).

Four passes, each over every line. A line that cannot be read stops the check after the first pass (every
later check would only report it missing), and the rules run only on an export the first three passes found
sound, since a replay of a broken log would only echo the break:

1. reading: each line strictly one of the four line types, in canonical form (:mod:`.audit_lines`);
2. the shape: the game header first and once; every event line after the command line that produced it;
   each command's first/last_version covering exactly the event lines that follow it, so commands are in
   order with no gap; its command_id, actor and recorded_at those of its events; its type the tag of its
   command, which decodes for its actor and is canonical; no command id twice; the header's version the
   number of events, its status "running" or "finished", its seed lowercase hex and present when finished;
3. the hash chain: versions 1, 2, 3, ... in file order, each prev_hash the hash before it, each hash
   recomputed from its fields (its commitment in place of its payload in a chain-2 game) and the header's game_id;
   then every commitment against its payload (:mod:`.audit_commitments`: a hidden event's once the seed is out);
4. the rules (:mod:`.audit_replay`): every command re-decided, byte-identical events required, the seed
   against its commitment, the header's status and seed against where the log ends.

The chat lines that follow the log (``kind: chat``) are not in the hash chain (the chat is kept beside the log,
so a line moves no version); they are checked for their own consistency only: after every line of the log,
numbered 1, 2, 3, ... in file order, each by a seat the game has (pass 2 and, once the rules know the seats, 4).

:func:`verify` never raises: whatever it is given, it answers with a :class:`Verdict`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any

import msgspec

from domain.kernel import GameModule
from infra.chain import GENESIS, event_hash
from infra.codec import GameCodec

from .audit_commitments import check_forms, check_openings
from .audit_form import as_recorded
from .audit_lines import (
    ChatExportLine,
    CommandLine,
    Entry,
    EventLine,
    GameLine,
    Group,
    Line,
    Problems,
    read,
    reason,
    shown,
)
from .audit_replay import Replay, replay

SEED = re.compile(r"(?:[0-9a-f]{2})+")
"""A revealed seed: lowercase hex, as exported (``bytes.fromhex`` would also take upper case and spaces)."""

ACTOR = re.compile(r"system|seat:(?:0|[1-9][0-9]{0,8})")
"""How the store writes an actor: "system" or "seat:<n>" in decimal without leading zeros."""


class Verdict(msgspec.Struct, frozen=True):
    ok: bool
    events: int
    commands: int
    replayed: int
    """Commands re-decided by the rules and found to give exactly their events: all of them once the seed
    is revealed; while the game runs, those that draw no chance."""
    problems: tuple[str, ...]
    """Each ``<where>: <field> <what is wrong>``, where is ``event 12: line 15``, ``command m3: line 7``,
    ``game header: line 1`` or ``line 4`` (lines numbered from 1, as in the file)."""
    notes: tuple[str, ...] = ()
    """What could not be checked yet, and why (outcomes waiting for the seed); never a reason to fail."""


def verify(lines: Iterable[bytes], games: dict[str, GameModule[Any]]) -> Verdict:
    """Check an export (see the module docstring); never raises on bad input, it reports it."""
    try:
        return _verify(lines, games)
    except Exception as exc:
        # The last resort of a tool that must answer: every failure is meant to be caught where it can be
        # named, and the tests feed thousands of mutated exports and require this answer never to appear.
        return Verdict(False, 0, 0, 0, (f"the export could not be checked: {type(exc).__name__}: "
                                        f"{shown(str(exc), 200)}",))


def _verify(lines: Iterable[bytes], games: Mapping[str, GameModule[Any]]) -> Verdict:
    problems = Problems()
    entries = read(lines, problems)
    header = None if problems else _header(entries, problems)
    if header is None:  # a line that could not be read would show as missing to every later check
        counts = [sum(isinstance(e.line, kind) for e in entries) for kind in (EventLine, CommandLine)]
        return Verdict(False, counts[0], counts[1], 0, problems.report())
    groups, events, chat = _groups(entries[1:], problems)
    game = games.get(header.line.game_type)
    _check_header(header, events, games, problems)
    commands = _check_commands(header, groups, GameCodec(game) if game else None, problems)
    if check_forms(header, events, problems):
        _check_chain(header.line.game_id, events, problems)
    if game is None or problems:
        return Verdict(False, len(events), len(groups), 0, problems.report())
    sealed = check_openings(header, events, game, GameCodec(game), problems)
    result = replay(header, groups, commands, game, problems)
    if problems:  # the replay stopped at a command: what it would have re-decided after is unknown
        return Verdict(False, len(events), len(groups), result.replayed, problems.report())
    _check_end(header, result, problems)
    _check_chat_seats(chat, result.seats, problems)
    return Verdict(not problems, len(events), len(groups), result.replayed, problems.report(),
                   _notes(header, result, len(groups), sealed))


def _header(entries: list[Entry[Line]], problems: Problems) -> Entry[GameLine] | None:
    if not entries:
        problems.add("the export", "has no readable line (it starts with a game header)")
        return None
    first = entries[0]
    if not isinstance(first.line, GameLine):
        problems.add(first.where, "comes first, but an export starts with its game header")
        return None
    return Entry(first.number, first.line)


def _groups(
    entries: list[Entry[Line]], problems: Problems
) -> tuple[list[Group], list[Entry[EventLine]], list[Entry[ChatExportLine]]]:
    """The command lines with the event lines that follow each, all event lines in file order, and the chat
    lines (numbered 1, 2, 3, ..., after every line of the log)."""
    groups: list[Group] = []
    events: list[Entry[EventLine]] = []
    chat: list[Entry[ChatExportLine]] = []
    for entry in entries:
        line = entry.line
        if isinstance(line, ChatExportLine):
            if line.seq != len(chat) + 1:
                problems.add(entry.where, f"seq is {line.seq}, expected {len(chat) + 1} (chat lines are numbered 1, "
                                          "2, 3, ... in file order)")
            chat.append(Entry(entry.number, line))
        elif chat:
            problems.add(entry.where, f"comes after a chat line (line {chat[-1].number}): the chat follows the log")
        elif isinstance(line, GameLine):
            problems.add(entry.where, "is a second game header (an export has one, on its first line)")
        elif isinstance(line, CommandLine):
            groups.append(Group(Entry(entry.number, line)))
        else:
            event = Entry(entry.number, line)
            events.append(event)
            if groups:
                groups[-1].events.append(event)
            else:
                problems.add(event.where, "comes before any command line (an event follows its command)")
    return groups, events, chat


def _check_chat_seats(chat: list[Entry[ChatExportLine]], seats: int, problems: Problems) -> None:
    for entry in chat:
        if entry.line.seat >= seats:
            problems.add(entry.where, f"seat is {entry.line.seat}, but the game has {seats} seats")


def _check_header(
    header: Entry[GameLine], events: list[Entry[EventLine]], games: Mapping[str, GameModule[Any]],
    problems: Problems,
) -> None:
    h, where = header.line, header.where
    if h.game_type not in games:
        problems.add(where, f"game_type {shown(h.game_type)} is not one this verifier knows ({', '.join(games)})")
    if h.status not in ("running", "finished"):
        problems.add(where, f"status {shown(h.status)} is neither running nor finished")
    if h.seed is not None and not SEED.fullmatch(h.seed):
        problems.add(where, "seed is not lowercase hex (the export writes the seed's bytes as lowercase hex)")
    if h.status == "finished" and h.seed is None:
        problems.add(where, "seed is missing, but the status is finished (a finished game's export reveals it)")
    last = events[-1].line.version if events else 0
    if h.version != last:
        problems.add(where, f"version is {h.version}, but the last event is version {last}")


def _check_commands(
    header: Entry[GameLine], groups: list[Group], codec: GameCodec | None, problems: Problems
) -> list[Any]:
    """Each command line against the event lines that follow it; the decoded commands (None if not)."""
    if not groups:
        problems.add(header.where, "is followed by no command (a game's log starts with its setup)")
    seen: dict[str, int] = {}
    next_version = 1
    decoded: list[Any] = []
    for group in groups:
        next_version = _check_versions(group, next_version, problems)
        _check_unique(group.command, seen, problems)
        for field in ("command_id", "actor", "recorded_at"):
            _check_agreement(group, field, problems)
        decoded.append(_decode_command(group.command, codec, problems))
    return decoded


def _check_versions(group: Group, next_version: int, problems: Problems) -> int:
    """A command's first/last_version against the versions of the event lines that follow it (each event's
    own version is checked by the chain): a missing or altered line is then blamed once, not on every
    command after it. Returns the version the next command starts at."""
    c, where, events = group.command.line, group.command.where, group.events
    if events:
        first, last = events[0], events[-1]
        if c.first_version != first.line.version:
            problems.add(where, f"first_version is {c.first_version}, but the event line after it (line "
                                f"{first.number}) is version {first.line.version}")
        if c.last_version != last.line.version:
            problems.add(where, f"last_version is {c.last_version}, but its last event line (line {last.number}) "
                                f"is version {last.line.version}")
        return last.line.version + 1
    if c.first_version != next_version:
        problems.add(where, f"first_version is {c.first_version}, expected {next_version} (one after the last "
                            "event before it)")
    if c.last_version != c.first_version - 1:
        problems.add(where, f"last_version is {c.last_version}, but no event line follows it (a command without "
                            "events ends one before its first_version)")
    return next_version


def _check_unique(command: Entry[CommandLine], seen: dict[str, int], problems: Problems) -> None:
    first = seen.setdefault(command.line.command_id, command.number)
    if first != command.number:
        problems.add(command.where, f"command_id is already the id of the command on line {first}")


def _check_agreement(group: Group, field: str, problems: Problems) -> None:
    """A command and its events share ``field``. When all its events agree with each other, the command
    line is the odd one out; otherwise each event that differs is."""
    mine = getattr(group.command.line, field)
    theirs = [getattr(e.line, field) for e in group.events]
    if all(value == mine for value in theirs):
        return
    if len(set(theirs)) == 1:
        problems.add(group.command.where, f"{field} differs from its events' ({shown(theirs[0])})")
        return
    for event in group.events:
        if getattr(event.line, field) != mine:
            problems.add(event.where, f"{field} differs from its command's (line {group.command.number})")


def _decode_command(command: Entry[CommandLine], codec: GameCodec | None, problems: Problems) -> Any:
    c, where = command.line, command.where
    if not ACTOR.fullmatch(c.actor):
        problems.add(where, f"actor {shown(c.actor)} is neither system nor seat:<n>")
        return None
    if codec is None:
        return None
    system = c.actor == "system"
    raw = bytes(c.command)
    try:
        decoded = codec.decode_command(raw, system=system)
    except (ValueError, RecursionError) as exc:
        problems.add(where, f"command is not a {'system' if system else 'player'} command of {codec.game.name}: "
                            f"{reason(exc)}")
        return None
    if not as_recorded(codec.encode(decoded), raw, partial(codec.decode_command, system=system), codec.encode):
        problems.add(where, "command is not in the canonical form it was stored in (whitespace, key order, "
                            "escapes, repeated keys, or a field left out that its type did not add later with a "
                            "default)")
        return None
    if codec.tag(decoded) != c.type:
        problems.add(where, f"type {shown(c.type)} is not its command's ({codec.tag(decoded)})")
    return decoded


def _check_chain(game_id: str, events: list[Entry[EventLine]], problems: Problems) -> None:
    """The first break of the hash chain (everything after a break is unanchored, so it is not reported)."""
    previous = GENESIS
    for expected, entry in enumerate(events, start=1):
        e = entry.line
        if e.version != expected:
            problems.add(entry.where, f"version is {e.version}, expected {expected} (events are numbered 1, 2, "
                                      "3, ... in file order: a gap, a duplicate or a reordering)")
            return
        if e.prev_hash != previous:
            problems.add(entry.where, "prev_hash is not the hash of the event before it")
            return
        digest = event_hash(previous, game_id, e.version, e.type, e.actor, e.command_id, e.recorded_at,
                            bytes(e.payload), e.commitment)
        if digest != e.hash:
            problems.add(entry.where, "hash is not the SHA-256 of its fields and the header's game_id (the "
                                      "type, actor, command_id, recorded_at, payload, commitment or hash was "
                                      "altered)")
            return
        previous = digest


def _check_end(header: Entry[GameLine], result: Replay, problems: Problems) -> None:
    """The header against where the rules say the log ends: a game that ended is "finished" and reveals its
    seed (the reveal follows the end); a running game is "running" and keeps it secret."""
    h, where = header.line, header.where
    if result.finished != (h.status == "finished"):
        problems.add(where, f"status is {h.status}, but the log {'reaches' if result.finished else 'stops before'}"
                            " the end of the game")
    if result.finished and h.seed is None and h.status != "finished":
        problems.add(where, "seed is missing, but the log reaches the end of the game")
    if result.finished and h.seed is not None and not result.revealed:
        problems.add(where, "seed is given, but the log has no reveal of it after the end of the game")
    if not result.finished and h.seed is not None:
        problems.add(where, "seed is revealed, but the game has not ended (the seed stays secret until then)")


def _notes(header: Entry[GameLine], result: Replay, commands: int, sealed: int) -> tuple[str, ...]:
    if header.line.seed is not None:
        return ()
    hidden = (f"{sealed} hidden events' commitments open only with the seed",) if sealed else ()
    return (*hidden, f"the seed is not revealed yet: the rules re-decided {result.replayed} of {commands} "
            f"commands; the other {result.waiting} drew chance, so their outcomes wait for the seed (their events are "
            "covered by the hash chain only)")
