"""The name a claimed seat shows (issue #26, point 6): the player's own name, unless it would pass for someone else.

A seat claimed by a signed-in player shows the player's display name (set in the settings; until then the part of
their email before ``@``). Two rules keep a name from being a way to impersonate:

* a name that reads as the computer ("the computer", "Computer", "THE COMPUTER (hard)", with any spacing,
  punctuation or invisible characters) is refused when a player chooses it (:class:`ReservedName`, 400
  ``request/reserved_name``), and a seat never shows one: an older account holding one is shown as the seat's own
  "Player N";
* a name that reads as another seat's name at the table is disambiguated at the claim with the seat's number
  ("Ada (seat 2)"): refusing it would stop a player from joining a game over a name chosen long before.

Names are compared by :func:`name_key`: NFKC, case-folded, letters and digits only (so "Ada", "ada." and "A da" are
one name); a name with neither compares by its symbols. Visual look-alikes from other scripts (a Cyrillic "А") are
not matched. The name the seat shows is kept in the seats table, never in the claim's event (the log records which
seat was claimed, not by whom), so deleting the account renames the seat "Player N" everywhere it is shown.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

NAME_MAX = 40
"""A seat's name at most (the table's rule, :data:`domain.kernel.table.rules.NAME_MAX`)."""
COMPUTER_KEYS = ("thecomputer", "computer")
"""What a name reads as the computer by (the lobby's and the log's word for the stand-in and the AI seats)."""


class ReservedName(ValueError):
    """A name a player may not take: it reads as the computer."""

    code = "request/reserved_name"


def name_key(name: str) -> str:
    """What two names are compared by: NFKC, case-folded, letters and digits only (or every visible symbol for a
    name with neither)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    key = "".join(ch for ch in folded if unicodedata.category(ch)[0] in "LN")
    return key or "".join(ch for ch in folded if not ch.isspace() and unicodedata.category(ch) != "Cf")


def reads_as_computer(name: str) -> bool:
    key = name_key(name)
    return any(key.startswith(reserved) for reserved in COMPUTER_KEYS)


def check_player_name(name: str) -> None:
    """ReservedName for a name a player may not take."""
    if reads_as_computer(name):
        raise ReservedName("a player's name may not read as the computer's: choose another")


def seat_name(name: str, seat: int, others: Iterable[str]) -> str:
    """The name ``seat`` shows when a player named ``name`` claims it, beside the table's ``others`` (every other
    seat's name): the player's name, "Player N" for one that reads as the computer, or the name with the seat's
    number when another seat already reads so."""
    name = name.strip()
    if not name or reads_as_computer(name):
        return f"Player {seat + 1}"
    taken = {name_key(other) for other in others}
    if name_key(name) not in taken:
        return name
    suffix = f" (seat {seat + 1})"
    return name[:NAME_MAX - len(suffix)].rstrip() + suffix
