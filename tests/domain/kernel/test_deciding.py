"""The kernel's deciding helpers: ``decide`` is ``step``'s events; who may issue a command."""

from __future__ import annotations

import pytest

from domain.kernel import SYSTEM, Actor, ActorNotAllowed, Chance, Seat
from domain.kernel.deciding import decide_from, seat_of, system_only


def step(state: int, actor: Actor, command: int, chance: Chance) -> tuple[list[int], int]:
    """A counter: the command adds itself, and a roll, to the state."""
    roll = chance.below(6)
    return [command, roll], state + command + roll


def test_decide_is_the_events_of_step() -> None:
    decide = decide_from(step)
    assert decide(10, Seat(0), 3, Chance(b"s", 1)) == step(10, Seat(0), 3, Chance(b"s", 1))[0]


def test_only_the_system_issues_a_system_command() -> None:
    system_only(SYSTEM)
    with pytest.raises(ActorNotAllowed, match="only the system"):
        system_only(Seat(0))


def test_a_player_command_needs_a_seat() -> None:
    assert seat_of(Seat(2)) == 2
    with pytest.raises(ActorNotAllowed, match="needs a seat"):
        seat_of(SYSTEM)
