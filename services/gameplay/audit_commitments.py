"""The commitments of an export (:mod:`infra.chain`): each event's against its payload.

In a chain-2 export every event line carries the commitment its hash covers. A public event's commitment is the
SHA-256 of its payload, checked at once; a hidden event's (what the rules hide from the public while the game
runs: a hand, a draw, a sealed bid) is a MAC under a key derived from the seed, so it is opened once the seed is
revealed, proving that the payload the export shows now is the one committed when the event was written. An event
whose commitment has the wrong form for what the rules say of it is refused too: a hidden event committed in the
public form would have let its hash give it away.
"""

from __future__ import annotations

import re
from typing import Any

from domain.kernel import GameModule
from infra.chain import COMMITTED, LEGACY, public_commitment, sealed_commitment
from infra.codec import GameCodec

from .audit_lines import Entry, EventLine, GameLine, Problems
from .commitments import is_hidden

COMMITMENT = re.compile(r"[0-9a-f]{64}")


def check_forms(header: Entry[GameLine], events: list[Entry[EventLine]], problems: Problems) -> bool:
    """The header's chain scheme, and every event line's commitment present (chain 2) or absent (chain 1): False
    (and a problem) where not, since the chain cannot be recomputed then."""
    chain = header.line.chain
    if chain not in (LEGACY, COMMITTED):
        problems.add(header.where, f"chain is {chain}, not a scheme this verifier knows (1 or 2)")
        return False
    for entry in events:
        c = entry.line.commitment
        if chain == LEGACY and c is not None:
            problems.add(entry.where, "commitment is given, but the header says chain 1 (payloads hashed)")
            return False
        if chain == COMMITTED and (c is None or not COMMITMENT.fullmatch(c)):
            problems.add(entry.where, "commitment is missing or not 64 lowercase hex digits (the header says chain 2)")
            return False
    return True


def check_openings(
    header: Entry[GameLine], events: list[Entry[EventLine]], game: GameModule[Any], codec: GameCodec,
    problems: Problems,
) -> int:
    """Open every commitment of a chain-2 export; returns how many hidden events wait for the seed (a running
    game's). A payload that does not decode is left to the replay, which names it."""
    if header.line.chain != COMMITTED:
        return 0
    seed = bytes.fromhex(header.line.seed) if header.line.seed is not None else None
    waiting = 0
    for entry in events:
        e = entry.line
        payload = bytes(e.payload)
        try:
            hidden = is_hidden(game, codec.decode_event(payload))
        except Exception:  # any undecodable payload is the replay's to report
            continue
        if not hidden:
            if e.commitment != public_commitment(payload):
                problems.add(entry.where, "commitment is not the SHA-256 of its payload (a public event)")
        elif seed is None:
            waiting += 1
        elif e.commitment == public_commitment(payload):
            problems.add(entry.where, "commitment is in the public form, but the rules hide this event while the "
                                      "game runs (its hash would have given it away)")
        elif e.commitment != sealed_commitment(seed, e.version, payload):
            problems.add(entry.where, "commitment does not open to its payload with the revealed seed (the hidden "
                                      "event shown now is not the one committed when it was written)")
    return waiting
