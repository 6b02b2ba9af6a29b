"""verify against random damage: single-bit flips, byte deletions, line deletions, duplications and swaps, and
truncations of a real export of a finished game. It never raises, and any damage that changes what the lines
say (compared as parsed JSON, re-encoded canonically) is refused. Damage JSON cannot see (a no-op such as
swapping two identical lines or losing the final newline) may go either way: verify is stricter than JSON
about whitespace, but it owes nothing there."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.gameplay.audit import Verdict, verify

from .test_verify import GAMES, finished_export

NET = "the export could not be checked"
"""verify's last-resort answer: it must never be needed, every failure is meant to be named where it happens."""

LINES = len(finished_export())
COMMANDS = [i for i, line in enumerate(finished_export()) if line.startswith(b'{"kind":"command"')]

target = st.one_of(st.just(0), st.sampled_from(COMMANDS), st.integers(0, LINES - 1))
"""The line to damage: the header and the command lines as often as any event line (events are most bytes)."""
position = st.integers(0, 1 << 20)
"""A byte within the line, taken modulo its length plus its newline."""

damage = st.one_of(
    st.tuples(st.just("flip"), target, position, st.integers(0, 7)),
    st.tuples(st.just("delete byte"), target, position),
    st.tuples(st.just("delete line"), target),
    st.tuples(st.just("duplicate line"), target),
    st.tuples(st.just("swap lines"), target, target),
    st.tuples(st.just("truncate"), target, position),
)


def damaged(lines: list[bytes], change: tuple[Any, ...]) -> list[bytes]:
    """``lines`` after one change; bytes are changed in the file, so a flipped or deleted newline joins or
    splits lines as it would on disk."""
    kind, index, *rest = change
    index %= len(lines)
    if kind == "delete line":
        return [*lines[:index], *lines[index + 1:]]
    if kind == "duplicate line":
        return [*lines[:index + 1], *lines[index:]]
    if kind == "swap lines":
        other = rest[0] % len(lines)
        out = list(lines)
        out[index], out[other] = out[other], out[index]
        return out
    line = bytearray(lines[index] + b"\n")
    at = rest[0] % len(line)
    if kind == "flip":
        line[at] ^= 1 << rest[1]
    elif kind == "delete byte":
        del line[at]
    else:  # truncate: the file ends inside this line
        return [*lines[:index], *bytes(line[:at]).splitlines()]
    return [*lines[:index], *(bytes(line) + b"\n".join(lines[index + 1:])).splitlines()]


def meaning(lines: list[bytes]) -> list[str] | None:
    """What the lines say as JSON (blank lines skipped), each re-encoded canonically; None if any line is not
    JSON at all."""
    try:
        return [json.dumps(json.loads(line), sort_keys=True) for line in lines if line.strip()]
    except (ValueError, RecursionError):
        return None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(damage, min_size=1, max_size=3))
def test_damage_never_raises_and_any_change_of_meaning_is_refused(changes: list[tuple[Any, ...]]) -> None:
    original = list(finished_export())
    lines = original
    for change in changes:
        if lines:
            lines = damaged(lines, change)
    verdict = verify(lines, GAMES)
    assert isinstance(verdict, Verdict)
    assert not any(p.startswith(NET) for p in verdict.problems), verdict.problems
    if meaning(lines) != meaning(original):
        assert not verdict.ok, f"{changes} changed the export and it still verifies"
    if not verdict.ok:
        assert verdict.problems


json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
line_like = st.one_of(
    st.binary(max_size=64),
    json_value.map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries({"kind": st.sampled_from(["game", "command", "event"])}, optional={
        k: json_value for k in ("game_id", "game_type", "version", "status", "seed", "command_id", "actor",
                                "type", "first_version", "last_version", "recorded_at", "command", "payload",
                                "prev_hash", "hash")
    }).map(lambda v: json.dumps(v, separators=(",", ":")).encode()),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(line_like, max_size=6), st.booleans())
def test_made_up_lines_never_raise(lines: list[bytes], after_a_real_header: bool) -> None:
    if after_a_real_header:
        lines = [finished_export()[0], *lines]
    verdict = verify(lines, GAMES)
    assert isinstance(verdict, Verdict) and not verdict.ok
    assert verdict.problems and not any(p.startswith(NET) for p in verdict.problems), verdict.problems
