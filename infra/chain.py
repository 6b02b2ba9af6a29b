"""The per-game SHA-256 hash chain over stored events (tamper evidence for audits), and the commitments it hashes.

A game created since chain 2 (every game now made) hashes each event's **commitment**, never its payload::

    hash(n) = SHA-256( prev_hash(n) "\\n" game_id "\\n" version "\\n" type "\\n" actor "\\n" command_id "\\n"
                       recorded_at "\\n" commitment(n) )

where ``prev_hash(1)`` is 64 zeros, strings are UTF-8, ``version`` is decimal and ``commitment(n)`` is 64 lowercase
hex digits:

* an event every viewer sees whole (public): ``SHA-256(payload)``;
* an event hidden, wholly or in part, from some viewer while the game runs (a hand, a draw, a sealed bid):
  ``HMAC-SHA256(key = HMAC-SHA256(seed, "commit:" version), message = payload)``, with the game's secret seed,
  which the game reveals when it ends.

``payload`` is the event's canonical JSON bytes exactly as stored. A viewer who is shown a hidden event's hash, its
commitment and every public field learns nothing of the payload: without the seed the commitment is a keyed MAC
under an unknown 256-bit key, so no enumeration of candidates can test against it. Once the seed is revealed,
anyone re-derives every key and opens every commitment (``services.gameplay.audit_commitments``).

Games stored before chain 2 (chain 1) hash the payload itself in place of the commitment; their events have no
commitment. A payload is a JSON object (it starts with ``{``) and a commitment is hex, so the two forms never
collide. docs/RANDOMNESS.md §6 states all of this for auditors.
"""

from __future__ import annotations

import hashlib
import hmac

GENESIS = "0" * 64

COMMITTED = 2
"""The chain scheme of every game created now: events are hashed through their commitments."""
LEGACY = 1
"""The chain scheme of games stored before commitments: events are hashed with their payloads."""


def event_hash(
    prev_hash: str, game_id: str, version: int, type_: str, actor: str, command_id: str, recorded_at: str,
    payload: bytes, commitment: str | None = None,
) -> str:
    """The event's chain hash: over ``commitment`` when it has one (chain 2), else over ``payload`` (chain 1)."""
    head = "\n".join((prev_hash, game_id, str(version), type_, actor, command_id, recorded_at, ""))
    body = payload if commitment is None else commitment.encode("ascii")
    return hashlib.sha256(head.encode("utf-8") + body).hexdigest()


def public_commitment(payload: bytes) -> str:
    """The commitment to an event every viewer sees whole: its SHA-256."""
    return hashlib.sha256(payload).hexdigest()


def commitment_key(seed: bytes, version: int) -> bytes:
    """The key that seals the hidden event at ``version``: ``HMAC-SHA256(seed, "commit:<version>")``. (Chance's
    blocks use messages ``"<version>:<i>"``, so the two never share an input.)"""
    return hmac.new(seed, f"commit:{version}".encode("ascii"), hashlib.sha256).digest()


def sealed_commitment(seed: bytes, version: int, payload: bytes) -> str:
    """The commitment to a hidden event: a MAC of its payload under a key only the seed gives."""
    return hmac.new(commitment_key(seed, version), payload, hashlib.sha256).hexdigest()


def commitment(seed: bytes, version: int, payload: bytes, sealed: bool) -> str:
    return sealed_commitment(seed, version, payload) if sealed else public_commitment(payload)
