"""The lines of an audit export, and how :func:`~services.gameplay.audit.verify` reads them: strictly.

An auditor checks bytes, not one reader's idea of them, so a line is accepted only if it decodes to
exactly one of the four line types with no unknown or missing field, its numbers fit the store's, and
it is byte-identical to the canonical encoding the export writes. Whitespace, key order, escapes and
repeated keys are therefore refused: two JSON readers can never see different values in an accepted line.
Every problem names its line (1-based, as in the file) and, where one is to blame, its field.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Generic, Self, TypeVar

import msgspec

from infra.eventstore import StoredEvent

MAX_VERSION = 2**31 - 1
"""The largest version the store can hold (a PostgreSQL integer). Larger numbers are refused on reading,
before anything counts or formats them."""

LIMIT = 100
"""Problems reported one by one; a file of garbage gives a readable verdict, not a million lines."""


class GameLine(msgspec.Struct, frozen=True, tag="game", tag_field="kind", forbid_unknown_fields=True,
               omit_defaults=True):
    game_id: str
    game_type: str
    version: int
    """The version of the last event (the number of events)."""
    status: str
    """"running" or "finished"."""
    seed: str | None
    """The seed as lowercase hex once the game has finished, else null (it is secret while the game runs)."""
    chain: int = 1
    """The chain scheme (:mod:`infra.chain`): 2, every event hashed through its commitment (written as
    ``"chain":2``); 1, a game stored before commitments, each event hashed with its payload (the key is left out,
    as exports written before commitments have it)."""


class CommandLine(msgspec.Struct, frozen=True, tag="command", tag_field="kind", forbid_unknown_fields=True):
    command_id: str
    actor: str
    type: str
    first_version: int
    last_version: int
    recorded_at: str
    command: msgspec.Raw
    """The command's canonical JSON, exactly as stored."""


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
    commitment: str | None = None
    """What the hash covers in place of the payload (:mod:`infra.chain`): the payload's SHA-256 for a public event,
    a MAC keyed by the seed for a hidden one. None in a game stored before commitments (chain 1)."""

    @classmethod
    def of(cls, e: StoredEvent) -> Self:
        return cls(e.version, e.type, e.actor, e.command_id, e.recorded_at, msgspec.Raw(e.payload), e.prev_hash,
                   e.hash, e.commitment)


class EventLine(EventRecord, frozen=True, tag="event", tag_field="kind", forbid_unknown_fields=True,
                omit_defaults=True):
    """An event line of an export (``commitment`` left out in a chain-1 game, as before commitments)."""


class ChatExportLine(msgspec.Struct, frozen=True, tag="chat", tag_field="kind", forbid_unknown_fields=True):
    """A line of the game's chat (after the log; not in the hash chain: the chat is kept beside the log)."""

    seq: int
    """1, 2, 3, ... in file order."""
    seat: int
    name: str
    text: str
    posted_at: str
    hidden: bool
    """The host muted the seat: the page shows the line to the host only; the export keeps it."""


Line = GameLine | CommandLine | EventLine | ChatExportLine
LINE_DECODER: msgspec.json.Decoder[Line] = msgspec.json.Decoder(Line)

L = TypeVar("L", bound=Line)


@dataclass(frozen=True, slots=True)
class Entry(Generic[L]):
    """A line that was read, with its number in the file (what every problem about it names)."""

    number: int
    line: L

    @property
    def where(self) -> str:
        """``event 12: line 15``, ``command m3: line 7``, ``game header: line 1``."""
        return f"{subject(self.line)}: line {self.number}"


@dataclass(frozen=True, slots=True)
class Group:
    """A command line and the event lines that follow it (the events it claims to have produced)."""

    command: Entry[CommandLine]
    events: list[Entry[EventLine]] = field(default_factory=list)


def subject(line: Line) -> str:
    if isinstance(line, GameLine):
        return "game header"
    if isinstance(line, CommandLine):
        return f"command {shown(line.command_id)}"
    if isinstance(line, ChatExportLine):
        return f"chat line {line.seq}"
    return f"event {line.version}"


def shown(text: str, most: int = 40) -> str:
    """A value as a problem quotes it: short and printable, whatever a tampered line holds."""
    return text if len(text) <= most and text.isprintable() and text else repr(text[:most])


class Problems:
    """What is wrong, in the order found, each as ``<where>: <field> <what>``; at most :data:`LIMIT`."""

    def __init__(self) -> None:
        self._found: list[str] = []
        self._more = 0

    def add(self, where: str, text: str) -> None:
        if len(self._found) < LIMIT:
            self._found.append(f"{where}: {text}")
        else:
            self._more += 1

    def __bool__(self) -> bool:
        return bool(self._found)

    def report(self) -> tuple[str, ...]:
        return (*self._found, *((f"... and {self._more} more problems",) if self._more else ()))


def read(lines: Iterable[object], problems: Problems) -> list[Entry[Line]]:
    """Every line that reads cleanly, numbered as in the file; blank lines are skipped (but counted)."""
    entries: list[Entry[Line]] = []
    for number, item in enumerate(lines, start=1):
        data = _as_bytes(item)
        if data is None:
            problems.add(f"line {number}", f"is a {type(item).__name__}, not bytes")
        elif data.strip():
            line = _decode(number, data, problems)
            if line is not None:
                entries.append(Entry(number, line))
    return entries


def _as_bytes(item: object) -> bytes | None:
    """The line's bytes without its line terminator (a file's lines may be passed with theirs)."""
    if isinstance(item, bytes | bytearray | memoryview):
        data = bytes(item)
    elif isinstance(item, str):
        try:
            data = item.encode("utf-8")
        except UnicodeEncodeError:
            return None
    else:
        return None
    return data.removesuffix(b"\n").removesuffix(b"\r")


def _decode(number: int, data: bytes, problems: Problems) -> Line | None:
    try:
        line = LINE_DECODER.decode(data)
    except (ValueError, RecursionError) as exc:  # msgspec's errors, invalid UTF-8, too deep a nesting
        problems.add(f"line {number}", f"is not a valid export line: {reason(exc)}")
        return None
    for name, value in _numbers(line):
        if not 0 <= value <= MAX_VERSION:  # before anything formats it (Python refuses 4,300 digits)
            problems.add(f"line {number}", f"{name} is out of range (0 to {MAX_VERSION})")
            return None
    where = Entry(number, line).where
    try:
        canonical = msgspec.json.encode(line)
    except ValueError as exc:  # a string that is no Unicode text (a lone surrogate escape)
        problems.add(where, f"holds a string that is not text: {reason(exc)}")
        return None
    if canonical != data:
        offset = next((i for i, (a, b) in enumerate(zip(data, canonical, strict=False)) if a != b),
                      min(len(data), len(canonical)))
        problems.add(where, f"{_field_at(line, offset)} is not written as the export writes it (from byte "
                            f"{offset + 1}: whitespace, key order, escapes and repeated keys are refused)")
        return None
    return line


def _numbers(line: Line) -> tuple[tuple[str, int], ...]:
    if isinstance(line, CommandLine):
        return ("first_version", line.first_version), ("last_version", line.last_version)
    if isinstance(line, ChatExportLine):
        return ("seq", line.seq), ("seat", line.seat)
    return (("version", line.version),)


def _field_at(line: Line, offset: int) -> str:
    """The field whose canonical encoding holds byte ``offset`` (msgspec writes the tag, then the fields in
    declaration order, each as ``,"name":value``)."""
    end = len(b'{"kind":') + len(msgspec.json.encode(type(line).__struct_config__.tag))
    if offset < end:
        return "kind"
    for name in line.__struct_fields__:
        end += len(f',"{name}":') + len(msgspec.json.encode(getattr(line, name)))
        if offset < end:
            return name
    return "the end of the line"


def reason(exc: BaseException) -> str:
    """Why a decoder refused something, in a few words."""
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if isinstance(exc, UnicodeError):
        return "not UTF-8 text"
    return shown(str(exc), 200)
