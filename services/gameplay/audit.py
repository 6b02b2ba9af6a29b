"""The audit trail: export a game as JSON Lines, and verify an export independently.

An export is one JSON object per line: a ``game`` header, then for every command a ``command`` line
followed by the ``event`` lines it produced, in version order, then the game's chat as ``chat`` lines (kept beside
the log, so outside the hash chain). Event payloads are the exact bytes that
were hashed. :func:`verify` checks every line and every field of it with nothing but the export: the
hash chain, each command line against its events, the header against the log, and every command
replayed through the rules with the chance source re-derived from the revealed seed, so every die, card
and tile was drawn fairly and every command was legal. :mod:`.audit_verify` lists the checks and
docs/RANDOMNESS.md §4 says what they prove and what they cannot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import msgspec

from infra.chain import COMMITTED, LEGACY
from infra.chat import ChatLine

from .audit_lines import LINE_DECODER, ChatExportLine, CommandLine, EventLine, EventRecord, GameLine, Line
from .audit_verify import Verdict, verify
from .handler import Gameplay

__all__ = ["ChatExportLine", "CommandLine", "EventLine", "EventRecord", "GameLine", "Line", "Verdict", "export_lines",
           "verify"]

_line_decoder = LINE_DECODER
"""Reads one line of an export (lenient: :func:`verify` also requires the canonical form)."""


class ChatReader(Protocol):
    async def lines(self, game_id: str, after: int = 0, *, hidden: bool = False) -> Sequence[ChatLine]: ...


async def export_lines(gameplay: Gameplay, game_id: str, chat: ChatReader | None = None) -> list[bytes]:
    """The game's history as JSON Lines (the seed appears only once the game has ended), then its chat (every
    line, those the host hid included) when ``chat`` is given."""
    head = await gameplay.store.head(game_id)
    events = await gameplay.store.read(game_id)
    commands = await gameplay.store.commands(game_id)
    seed = (await gameplay.store.seed(game_id)).hex() if head.status == "finished" else None
    chain = COMMITTED if events and events[0].commitment is not None else LEGACY
    lines = [msgspec.json.encode(GameLine(game_id, head.game_type, head.version, head.status, seed, chain))]
    by_version = {e.version: e for e in events}
    for c in commands:
        lines.append(msgspec.json.encode(CommandLine(c.command_id, c.actor, c.type, c.first_version, c.last_version,
                                                     c.recorded_at, msgspec.Raw(c.payload))))
        for version in range(c.first_version, c.last_version + 1):
            lines.append(msgspec.json.encode(EventLine.of(by_version[version])))
    for said in await chat.lines(game_id, hidden=True) if chat is not None else ():
        lines.append(msgspec.json.encode(ChatExportLine(said.seq, said.seat, said.name, said.text, said.posted_at,
                                                        said.hidden)))
    return lines
