"""The kernel's view checks: the auditor waits for the end; nothing is shown before the set-up; all is shown after
the end."""

from __future__ import annotations

import pytest

from domain.kernel import AUDITOR, PUBLIC, Seat, ViewUnavailable
from domain.kernel.viewing import opened


def test_the_auditor_sees_nothing_while_the_game_runs_and_everything_after() -> None:
    with pytest.raises(ViewUnavailable, match="audit view"):
        opened(AUDITOR, False, True)
    assert opened(AUDITOR, True, True)


def test_a_seat_and_the_public_see_every_secret_only_once_the_game_is_over() -> None:
    assert not opened(Seat(0), False, True) and not opened(PUBLIC, False, True)
    assert opened(Seat(0), True, True) and opened(PUBLIC, True, True)


def test_nothing_is_shown_before_the_game_is_set_up() -> None:
    with pytest.raises(ViewUnavailable, match="not been set up"):
        opened(PUBLIC, False, False)
