"""The story marks the moves a takeback took back (``table.moves_undone``): they stay in the log and in the story,
each line saying "(taken back)", and the takeback's own line says from which version on."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.kernel import Told
from domain.kernel.phrases import say


def taken_back(lines: Sequence[Told], back_to: int, undone_at: int) -> list[Told]:
    """``lines`` with those telling the events from ``back_to`` up to (not including) ``undone_at`` marked."""
    return [_marked(line) if back_to <= line.version < undone_at else line for line in lines]


def _marked(line: Told) -> Told:
    if line.phrase is None:
        return msgspec.structs.replace(line, text=f"{line.text} (taken back)")
    if line.phrase.key == "{line} (taken back)":
        return line
    return msgspec.structs.replace(line, phrase=say("{line} (taken back)", line=line.phrase))
