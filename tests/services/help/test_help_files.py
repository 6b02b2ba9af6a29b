"""Every game's "How to play" (its package's help/en.toml): it reads, every number it names is in the game's catalog,
and every phase and every kind of move the game has is explained in a sentence, so a new phase or command cannot be
left unexplained (the move panel shows these lines)."""

from __future__ import annotations

import enum
import re
import typing
from typing import Any

import msgspec
import pytest

from domain.games import GAMES
from domain.kernel import GameModule, tag_of_type
from domain.kernel.table import TABLE_PREFIX
from services.api.help import HelpOut, HelpSpec, help_of, lookup, package_of, read_spec, render

GAME_NAMES = sorted(GAMES)


def spec_of(game: GameModule[Any]) -> HelpSpec:
    spec = read_spec(package_of(game))
    assert spec is not None, f"{game.name} has no help/en.toml in {package_of(game)}"
    return spec


def phases_of(game: GameModule[Any], field: str) -> set[str]:
    """Every value the view's phase field can take: the members of the state's enum of that name."""
    hints = typing.get_type_hints(game.state_type)
    assert field in hints, f"{game.name}'s state has no {field!r} field"
    kind = hints[field]
    assert isinstance(kind, type) and issubclass(kind, enum.Enum), f"{game.name}.{field} is no enum"
    return {str(member.value) for member in kind}


def commands_of(game: GameModule[Any]) -> set[str]:
    """Every player command tag of the game itself (the table's are the shell's)."""
    tags = {tag_of_type(t) for t in typing.get_args(game.player_command_type)}
    return {t for t in tags if not t.startswith(TABLE_PREFIX)}


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_phase_has_a_help_line(name: str) -> None:
    game = GAMES[name]
    spec = spec_of(game)
    phases = phases_of(game, spec.phase_field)
    assert set(spec.phases) == phases, (f"{name}: unexplained {sorted(phases - set(spec.phases))}, "
                                        f"unknown {sorted(set(spec.phases) - phases)}")
    assert all(text.strip() for text in spec.phases.values())


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_kind_of_move_has_a_help_line(name: str) -> None:
    game = GAMES[name]
    spec = spec_of(game)
    commands = commands_of(game)
    assert commands, name
    assert set(spec.commands) == commands, (f"{name}: unexplained {sorted(commands - set(spec.commands))}, "
                                            f"unknown {sorted(set(spec.commands) - commands)}")
    assert all(text.strip() for text in spec.commands.values())


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_rules_say_the_goal_the_turn_the_moves_and_the_end_with_the_catalogs_numbers(name: str) -> None:
    game = GAMES[name]
    out = help_of(game)
    assert isinstance(out, HelpOut) and out.game == name
    assert len(out.sections) >= 4 and all(s.heading and (s.paragraphs or s.items) for s in out.sections)
    view_type = typing.get_type_hints(game.view)["return"]
    assert out.phase_field in view_type.__struct_fields__, "the page reads the phase from the view"
    words = msgspec.json.encode(out).decode()
    assert not re.search(r"\{[a-z0-9_.|]+\}", words), "a placeholder was left unfilled"
    assert any(s.table is not None and s.table.rows for s in out.sections), "no table of the game's data"


def test_a_number_is_read_from_the_catalog_not_copied() -> None:
    """The texts name the catalog's values: changing the catalog changes the words."""
    game = GAMES["magnate"]
    spec = spec_of(game)
    assert game.catalog is not None
    cash = lookup(msgspec.to_builtins(game.catalog(None)), "setup.cash")
    assert any("{setup.cash|score}" in p for s in spec.sections for p in s.paragraphs)
    rendered = render(game, spec)
    assert any(game.score_text(cash) in p for s in rendered.sections for p in s.paragraphs)
    raw = msgspec.json.encode(spec).decode()
    assert not re.search(r"\b2,000K\b", raw), "Magnate's starting cash is copied into the prose"


def test_magnates_tutorial_steps_name_only_known_phases_and_end_open() -> None:
    game = GAMES["magnate"]
    spec = spec_of(game)
    assert spec.tutorial is not None and spec.tutorial.active == {"tutorial": True}
    phases = phases_of(game, spec.phase_field)
    steps = spec.tutorial.steps
    assert len(steps) >= 8
    assert all(s.when.get("phase", "bidding") in phases for s in steps)
    assert steps[0].when == {"round": 1, "phase": "bidding", "mine_on_turn": True}
    assert "phase" not in steps[-1].when, "the last step should hold for the rest of its round"
