"""A player's receipt, checked against a game's export: the chain heads the player was shown at its moves.

While a game runs, the page keeps, at each of the seat's moves, the chain's head it was shown (the version and
hash of the last event in the move's answer). A head commits to every event up to it, the hidden ones through their
commitments (:mod:`infra.chain`). After the end, the export reveals the seed and every payload: if each head of the
receipt is the export's hash at that version and the export verifies, then the hands, draws and sealed bids the
export shows now are the very ones committed when they were made, before the player moved on them — the server
could not have changed one afterwards without changing a hash the player already holds.

``magnate verify --receipt RECEIPT FILE`` and the page's "Check my receipt" both say this; the page does it with
the browser's own SHA-256 (services/api/web/static/receipt.js), this module for the command line and the tests.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from infra.chain import COMMITTED, public_commitment

from .audit_lines import EventLine, GameLine, shown


class Head(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    version: int
    hash: str


class Receipt(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    game_id: str
    seat: int
    heads: tuple[Head, ...]


class ReceiptVerdict(msgspec.Struct, frozen=True):
    ok: bool
    heads: int
    """The receipt's heads found in the export's chain."""
    hidden_opened: int
    """Hidden events (hands, draws, sealed bids) up to the receipt's last head whose commitments the export's
    revealed seed opened (counted only when the export verifies and reveals its seed)."""
    problems: tuple[str, ...]


def check_receipt(receipt: bytes, lines: Iterable[bytes], export_ok: bool) -> ReceiptVerdict:
    """``receipt`` (JSON) against the export ``lines``; ``export_ok``: the export's own verdict (:func:`verify`),
    without which no head proves anything."""
    try:
        held = msgspec.json.decode(receipt, type=Receipt)
    except msgspec.DecodeError as exc:
        return ReceiptVerdict(False, 0, 0, (f"the receipt is not a receipt: {shown(str(exc), 200)}",))
    header, events = _read(lines)
    problems: list[str] = []
    if not export_ok:
        problems.append("the export does not verify, so it proves nothing about the receipt")
    if header is None or header.game_id != held.game_id:
        problems.append(f"the receipt is for game {shown(held.game_id)}, the export for another")
    if not held.heads:
        problems.append("the receipt holds no chain head")
    matched = _matched(held, events, problems)
    last = max((h.version for h in held.heads), default=0)
    opened = 0
    if not problems and header is not None and header.seed is not None and header.chain == COMMITTED:
        opened = sum(1 for v, e in events.items()
                     if v <= last and e.commitment != public_commitment(bytes(e.payload)))
    elif not problems and header is not None and header.seed is None:
        problems.append("the game has not ended: the hidden events' commitments open only with the seed")
    return ReceiptVerdict(not problems, matched, opened, tuple(problems))


def _read(lines: Iterable[bytes]) -> tuple[GameLine | None, dict[int, EventLine]]:
    """The export's header and event lines by version (what cannot be read is :func:`verify`'s to name)."""
    header: GameLine | None = None
    events: dict[int, EventLine] = {}
    for line in lines:
        try:
            decoded = msgspec.json.decode(line, type=GameLine | EventLine | msgspec.Raw)
        except msgspec.DecodeError:
            continue
        if isinstance(decoded, GameLine) and header is None:
            header = decoded
        elif isinstance(decoded, EventLine):
            events[decoded.version] = decoded
    return header, events


def _matched(held: Receipt, events: dict[int, EventLine], problems: list[str]) -> int:
    matched = 0
    for head in held.heads:
        event = events.get(head.version)
        if event is None:
            problems.append(f"head at version {head.version}: the export has no such event")
        elif event.hash != head.hash:
            problems.append(f"head at version {head.version}: the export's hash there is not the one you were shown "
                            "(the history was changed after your move)")
        else:
            matched += 1
    return matched
