"""The per-game SHA-256 hash chain over stored events (tamper evidence for audits).

``hash(n) = SHA-256( prev_hash(n) "\\n" game_id "\\n" version "\\n" type "\\n" actor "\\n" command_id "\\n"
recorded_at "\\n" payload )`` as lowercase hex, where ``prev_hash(1)`` is 64 zeros, strings are UTF-8,
``version`` is decimal and ``payload`` is the event's canonical JSON bytes exactly as stored.
"""

from __future__ import annotations

import hashlib

GENESIS = "0" * 64


def event_hash(
    prev_hash: str, game_id: str, version: int, type_: str, actor: str, command_id: str, recorded_at: str,
    payload: bytes,
) -> str:
    head = "\n".join((prev_hash, game_id, str(version), type_, actor, command_id, recorded_at, ""))
    return hashlib.sha256(head.encode("utf-8") + payload).hexdigest()
