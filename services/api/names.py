"""The one check of every name a person gives themselves or a seat (issue #24, item 10): an account's name
(``PATCH /api/me``) and the seat names of a new game (``POST /api/games``), the names the table shows everyone.

A name needs a visible character (not only spaces, or zero-width and other invisible characters) and holds no
control character: no line break (which would forge lines in mails and logs), no C0/C1 control, no line or
paragraph separator, and no bidirectional override or isolate (which would show text reversed). Joiners inside an
emoji stay allowed. The rule is one regular expression, :data:`NAME_PATTERN`: the schemas carry it (so the OpenAPI
document says it, and a generated client or fuzzer knows it), and :func:`check_name`, called from the structs'
``__post_init__``, applies it to the whole string (a JSON-schema ``$`` would let one trailing line break through).
A refusal is 400 ``request/invalid_name`` (``errors`` knows one by :func:`is_refusal`) saying :data:`RULE`.
"""

from __future__ import annotations

import re

INVALID_NAME = "invalid name"
"""How each refusal of :func:`check_name` starts."""
RULE = "a name needs a visible character and holds no control character (no line break, no bidirectional override)"
"""What a refused name is told (400 ``request/invalid_name``)."""

FORBIDDEN = r"\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
"""C0 and C1 controls, DEL, line and paragraph separators, and the bidirectional marks, overrides and isolates
(written as escapes, which Python's and ECMAScript's regular expressions read alike)."""
INVISIBLE = (r"\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200d\u2060-\u2064\u206a-\u206f"
             r"\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb")
"""Default-ignorable and other invisible characters (besides white space): allowed, but not as the only ones."""
_NAME = f"[^{FORBIDDEN}]*[^{FORBIDDEN}\\s{INVISIBLE}][^{FORBIDDEN}]*"
NAME_PATTERN = f"^{_NAME}$"
"""A name: at least one visible character, no forbidden one."""
OPTIONAL_NAME_PATTERN = f"^({_NAME})?$"
"""A name, or the empty string (a seat named by its game)."""
_WHOLE = re.compile(_NAME)
_CONTROL = re.compile(f"[{FORBIDDEN}]")
_MARK = "u2066-"
"""A piece of the pattern that survives its quoting in msgspec's message ("... matching regex '...'")."""


def is_refusal(message: str) -> bool:
    """Whether a validation message is a name's refusal (by :func:`check_name`, or by the schemas' pattern)."""
    return f"{INVALID_NAME}:" in message or _MARK in message


def check_name(name: str) -> None:
    """ValueError (starting with :data:`INVALID_NAME`) for a name with no visible character or with a control
    character."""
    if _WHOLE.fullmatch(name):
        return
    bad = _CONTROL.search(name)
    if bad is not None:
        raise ValueError(f"{INVALID_NAME}: a name holds no control character (U+{ord(bad.group()):04X})")
    raise ValueError(f"{INVALID_NAME}: a name needs a visible character")
