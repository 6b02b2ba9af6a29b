"""The kernel's recorder: each emitted event is folded before the next, and the log keeps them in order."""

from __future__ import annotations

from domain.kernel.recording import Recorder


def test_each_event_sees_the_state_after_the_previous_one() -> None:
    rec: Recorder[tuple[int, ...], int] = Recorder((), lambda state, event: (*state, event + sum(state)))
    rec.emit(1, 2)
    rec.emit(3)
    assert rec.events == [1, 2, 3]
    assert rec.state == (1, 3, 7)


def test_nothing_emitted_keeps_the_state() -> None:
    rec: Recorder[str, str] = Recorder("start", lambda state, event: state + event)
    rec.emit()
    assert (rec.events, rec.state) == ([], "start")
