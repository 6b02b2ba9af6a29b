"""Whole games of random legal bots, at every seat count (2 with the AC, 3 with the AC, 4, 2 vs. 2, and the
other start and supply options).

After every single event: money and shares conserved between the bank, the players and the corporations, no
negative cash, supplies within their limits (warehouses, factory places and markers, cubes, credits, bids), a
player holding shares of every corporation. After every decision the fold of its events equals the state ``step``
returned, and at the end the whole log survives JSON and replays to the same state. Commands come from
``legal_commands`` only, so ``decide`` must never refuse one; every few commands, what a viewer may not know
(``hide``) must change nothing it is shown.

By default a handful of games per table; with MAGNATE_LONG=1, 1,000 each.
"""

from __future__ import annotations

import os

import msgspec
import pytest

from domain.kernel import PUBLIC, SYSTEM, Chance, Seat
from domain.master_of_economy import GAME, GameOptions, MoeEvent, StartGame
from domain.master_of_economy.bots import Greedy, RandomLegal
from domain.master_of_economy.folding import evolve, initial_state, replay
from domain.master_of_economy.state import State

from .invariants import assert_invariants

LONG = os.environ.get("MAGNATE_LONG") == "1"
GAMES = 1000 if LONG else 4
MAX_COMMANDS = 20_000

TABLES = {
    "two_ac": {"players": 2, "additional_corporation": True},
    "three_ac": {"players": 3, "additional_corporation": True},
    "four": {"players": 4},
    "two_vs_two": {"players": 4, "teams": True},
    "two": {"players": 2, "start_order": "auction", "player_cash_hidden": True},
    "three_auction_ac": {"players": 3, "additional_corporation": True, "start_order": "auction",
                         "assignment": "random", "finite_commodity_supply": False, "ac_triggers_end": False},
}


def play_checked(options: dict[str, object], game: int, check_hidden: bool = False,
                 greedy: bool = False) -> tuple[State, list[MoeEvent]]:
    seed = f"prop:{sorted(options.items())}:{game}".encode()
    state = initial_state()
    events: list[MoeEvent] = []
    bots = [(Greedy if greedy and s % 2 == 0 else RandomLegal)(game * 7 + s) for s in range(4)]
    command: object = StartGame(options=GameOptions(**options), seed_commitment="c")  # type: ignore[arg-type]
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
        if check_hidden and n % 7 == 0:
            assert_hidden(state)
        due = GAME.pending(state)
        if due.finished:
            return state, events
        if due.system is not None:
            actor, command = SYSTEM, due.system
            continue
        actor = due.seats[n % len(due.seats)]
        command = bots[actor](state, Seat(actor))  # type: ignore[call-overload]
    raise AssertionError(f"game {game} did not finish")


def assert_hidden(state: State) -> None:
    """What a viewer may not know changes nothing it is shown (the redaction property, per viewer)."""
    assert GAME.hide is not None
    for viewer in [PUBLIC, *(Seat(s) for s in range(len(state.players)))]:
        shown = GAME.view(state, viewer, False)
        for seed in (1, 2):
            assert GAME.view(GAME.hide(state, viewer, seed), viewer, False) == shown


@pytest.mark.parametrize("table", sorted(TABLES))
def test_random_games_keep_every_invariant(table: str) -> None:
    """§1-§14 as the bots exercise them: invariants after every event of whole random games."""
    for game in range(GAMES):
        state, events = play_checked(TABLES[table], game, check_hidden=game == 0, greedy=game % 2 == 1)
        assert GAME.outcome(state) is not None
        decoded = msgspec.json.decode(msgspec.json.encode(events), type=list[MoeEvent])
        assert replay(decoded) == state
