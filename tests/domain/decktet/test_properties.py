"""Whole games of random legal bots, for every variant combination §2.10 allows (spec §2, R9.4's model aside).

After every single event: card conservation (every property card in exactly one place: a pile, a hand, a column
or the discard), tokens never negative, at most one deed per seat and district (R5.4), building only where a seat
may (V4.2); at the end the recorded scores equal a recomputation from the final state (R7). After every decision
the fold of its events equals the state ``step`` returned, and at the end the whole log survives JSON encoding.
Commands come from ``legal_commands`` only, so ``decide`` must never refuse one.

By default each combination plays a few games (the whole suite stays well under a minute); with MAGNATE_LONG=1
each plays 1,000.
"""

from __future__ import annotations

import itertools
import os

import msgspec
import pytest

from domain.decktet import GAME, DecktetEvent, GameOptions, StartGame
from domain.decktet.bots import RandomLegal
from domain.decktet.decider import evolve, initial_state, replay
from domain.decktet.state import DecktetState
from domain.kernel import PUBLIC, SYSTEM, Chance, Seat

from .invariants import assert_invariants

LONG = os.environ.get("MAGNATE_LONG") == "1"
GAMES = 1000 if LONG else 1
TABLE_GAMES = 1000 if LONG else 50
"""Games of each table with the default options (more than of every other combination)."""
MAX_COMMANDS = 20_000

TABLES = {
    "base": {},
    "mega": {"mega": True},
    "stacked": {"mega": True, "stacked": True},
    "three": {"three": True},
    "three_mega": {"three": True, "mega": True},
}
"""Every table §2.10 allows: stacked needs mega and two players."""


def combinations() -> list[tuple[str, dict[str, bool]]]:
    out = []
    for table, flags in TABLES.items():
        for courts, taxtax, original, deucey, courtpawns in itertools.product((True, False), repeat=5):
            options = {**flags, "courts": courts, "taxtax": taxtax, "original_aces": original, "deucey": deucey,
                       "courtpawns": courtpawns}
            name = "-".join([table, *(k for k, v in options.items() if v and k not in flags)])
            out.append((name, options))
    return out


COMBINATIONS = combinations()


def play_checked(
    options: dict[str, bool], game: int, check_hidden: bool = False
) -> tuple[DecktetState, list[DecktetEvent]]:
    seed = f"prop:{sorted(options.items())}:{game}".encode()
    state = initial_state()
    events: list[DecktetEvent] = []
    bots = [RandomLegal(game * 7 + s) for s in range(3)]
    command: object = StartGame(options=GameOptions(**options), seed_commitment="c")
    actor: object = SYSTEM
    for n in range(MAX_COMMANDS):
        new, after = GAME.step(state, actor, command, Chance(seed, len(events) + 1))  # type: ignore[arg-type]
        folded = state
        for i, event in enumerate(new):
            folded = evolve(folded, event)
            assert_invariants(folded, f"game {game}, command {n}, event {i} ({type(event).__name__})")
        assert folded == after, f"game {game}, command {n}: the fold differs from step's state"
        state = after
        events += new
        if check_hidden and n % 17 == 0:
            assert_hidden(state)
        due = GAME.pending(state)
        if due.finished:
            return state, events
        actor = due.seats[0]
        command = bots[due.seats[0]](state, Seat(due.seats[0]))
    raise AssertionError(f"game {game} did not finish")


def assert_hidden(state: DecktetState) -> None:
    """What a viewer may not know changes nothing it is shown (the redaction property, per viewer)."""
    assert GAME.hide is not None
    for viewer in [PUBLIC, *(Seat(s) for s in range(len(state.seats)))]:
        shown = GAME.view(state, viewer, False)
        for seed in (1, 2):
            assert GAME.view(GAME.hide(state, viewer, seed), viewer, False) == shown


@pytest.mark.parametrize(("name", "options"), COMBINATIONS, ids=[n for n, _ in COMBINATIONS])
def test_random_games_keep_every_invariant(name: str, options: dict[str, bool]) -> None:
    """§2 (every rule, as the bots exercise it) and R7: invariants after every event of whole random games."""
    for game in range(GAMES):
        state, events = play_checked(options, game, check_hidden=game == 0)
        assert GAME.outcome(state) is not None
        decoded = msgspec.json.decode(msgspec.json.encode(events), type=list[DecktetEvent])
        assert replay(decoded) == state


@pytest.mark.parametrize("table", sorted(TABLES))
def test_many_random_games_of_each_table_with_the_default_options(table: str) -> None:
    """The same checks over more games of each table (R6's ends and reshuffles come out differently each time)."""
    for game in range(TABLE_GAMES):
        state, _ = play_checked(dict(TABLES[table]), 10_000 + game)
        assert GAME.outcome(state) is not None
