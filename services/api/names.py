"""The one check of every name a person gives themselves or a seat (issue #24, item 10): an account's name
(``PATCH /api/me``) and the seat names of a new game (``POST /api/games``), the names the table shows everyone.

A name needs a visible character (not only spaces, or zero-width and other invisible characters) and holds no
control character: no line break (which would forge lines in mails and logs), no C0/C1 control, no line or
paragraph separator, and no bidirectional override or isolate (which would show text reversed). Joiners inside an
emoji stay allowed. A struct calls :func:`check_name` from ``__post_init__``, so msgspec refuses the body: 400
``request/invalid_name`` (``errors.on_http_error`` gives the code by :data:`INVALID_NAME`).
"""

from __future__ import annotations

import unicodedata

INVALID_NAME = "invalid name"
"""How each refusal starts: the error mapping knows the code by it."""

_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_INVISIBLE = frozenset("\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u2060\u2061\u2062\u2063"
                       "\u2064\u3164\ufeff\uffa0") | _BIDI_CONTROLS
"""Default-ignorable characters with no category of their own that says so (Unicode's list, the common part)."""


def _forbidden(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Zl", "Zp", "Cs") or char in _BIDI_CONTROLS


def _visible(char: str) -> bool:
    category = unicodedata.category(char)
    return not (category[0] in "ZC" or category in ("Mn", "Me") or char in _INVISIBLE
                or "\ufe00" <= char <= "\ufe0f" or "\U000e0000" <= char <= "\U000e0fff")


def check_name(name: str) -> None:
    """ValueError (starting with :data:`INVALID_NAME`) for a name with no visible character or with a control
    character."""
    bad = next((c for c in name if _forbidden(c)), None)
    if bad is not None:
        raise ValueError(f"{INVALID_NAME}: a name holds no control character (U+{ord(bad):04X})")
    if not any(_visible(c) for c in name):
        raise ValueError(f"{INVALID_NAME}: a name needs a visible character")
