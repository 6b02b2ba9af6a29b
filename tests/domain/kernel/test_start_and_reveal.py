"""The kernel's start-and-reveal glue: a game's two service-only commands, made and named from their types."""

from __future__ import annotations

import msgspec
import pytest

from domain.kernel import SystemCommand, start_and_reveal, tag_of_type


class _Options(msgspec.Struct, frozen=True):
    seats: int = 2


class _Start(SystemCommand, frozen=True, tag="toy.start"):
    options: _Options
    seed_commitment: str


class _Reveal(SystemCommand, frozen=True, tag="toy.reveal_seed"):
    seed: str


def test_the_start_and_the_reveal_are_made_and_named_as_the_services_only() -> None:
    glue = start_and_reveal(_Start, _Reveal)
    assert glue["start"](_Options(3), "abc") == _Start(options=_Options(3), seed_commitment="abc")
    assert glue["reveal"]("00ff") == _Reveal(seed="00ff")
    assert glue["service_commands"] == {"toy.start", "toy.reveal_seed"}


def test_every_game_names_its_service_only_commands() -> None:
    from domain.games import GAMES

    for game in GAMES.values():
        assert game.sim_options is not None
        options = game.sim_options(("human", "human"), None, frozenset())
        assert game.service_commands == {tag_of_type(type(game.reveal("00"))),
                                         tag_of_type(type(game.start(options, "c0")))}


def test_a_command_type_without_a_tag_has_no_tag() -> None:
    with pytest.raises(TypeError, match="no string tag"):
        tag_of_type(_Options)
