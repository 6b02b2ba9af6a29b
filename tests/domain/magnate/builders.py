"""Builders for rule tests: start games, craft situations, run commands (given-when-then on plain values)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.kernel import SYSTEM, Actor, Chance, Seat, fold
from domain.magnate import GameOptions, MagnateState, SeatSpec, StartGame, decide, evolve, initial_state
from domain.magnate.city import plot_index
from domain.magnate.commands import MagnateCommand
from domain.magnate.events import MagnateEvent
from domain.magnate.state import Auction, PlotState

SEED = b"test-seed"


def start_events(
    seats: int = 2, *, advanced: bool = False, tutorial: bool = False, ai: bool = False,
    difficulty: str | None = None, seed: bytes = SEED,
) -> list[MagnateEvent]:
    specs = [SeatSpec() for _ in range(seats)]
    if ai:
        specs[-1] = SeatSpec(kind="ai")
        difficulty = difficulty or "generalised_ai"
    options = GameOptions(seats=tuple(specs), advanced=advanced, tutorial=tutorial, difficulty=difficulty)
    return decide(initial_state(), SYSTEM, StartGame(options=options, seed_commitment="c0ffee"), Chance(seed, 1))


def started(seats: int = 2, **kwargs: Any) -> MagnateState:
    """A freshly set-up game, in round 1's bidding."""
    return given(initial_state(), *start_events(seats, **kwargs))


def tutorial() -> MagnateState:
    """The tutorial's fixed setup (§3.3): 5 seats, known tiles and 'for sale' plots, Vector first."""
    return started(5, tutorial=True)


def given(state: MagnateState, *events: MagnateEvent) -> MagnateState:
    return fold(evolve, events, state)


def run(state: MagnateState, actor: Actor | int, command: MagnateCommand, seed: bytes = SEED,
        version: int = 100) -> tuple[list[MagnateEvent], MagnateState]:
    """Decide a command and apply its events; returns (events, new state)."""
    who: Actor = SYSTEM if actor == SYSTEM else Seat(int(actor))
    events = decide(state, who, command, Chance(seed, version))
    return events, given(state, *events)


def with_plots(state: MagnateState, **plots: PlotState) -> MagnateState:
    """Replace plots by name: ``with_plots(s, _1A=PlotState(...))`` (leading underscore, since names start
    with a digit)."""
    out = list(state.plots)
    for name, plot in plots.items():
        out[plot_index(name.lstrip("_"))] = plot
    return replace(state, plots=tuple(out))


def plot(state: MagnateState, name: str) -> PlotState:
    return state.plots[plot_index(name)]


def set_plot(state: MagnateState, name: str, **changes: Any) -> MagnateState:
    """Change some fields of one plot (keeping its feature)."""
    out = list(state.plots)
    out[plot_index(name)] = replace(out[plot_index(name)], **changes)
    return replace(state, plots=tuple(out))


def set_cash(state: MagnateState, seat: int, cash: int) -> MagnateState:
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], cash=cash)
    return replace(state, seats=tuple(seats))


def in_actions(state: MagnateState, first_player: int = 0, turn: int = 0, action_pass: int = 0) -> MagnateState:
    """The state moved straight to phase 3 with ``first_player`` first and the given seat index on turn."""
    from domain.magnate.state import Phase

    return replace(state, phase=Phase.ACTIONS, auction=None, first_player=first_player, turn=turn,
                   action_pass=action_pass)


def in_attracting(state: MagnateState, first_player: int = 0, turn: int = 0) -> MagnateState:
    from domain.magnate.state import Phase

    return replace(state, phase=Phase.ATTRACTING, auction=None, first_player=first_player, turn=turn,
                   attraction=None, attracted=())


def in_bidding(state: MagnateState, opener: int, round_number: int = 2) -> MagnateState:
    from domain.magnate.state import Phase

    return replace(state, phase=Phase.BIDDING, round=round_number, auction=Auction(opener=opener, turn=opener))


def in_market(state: MagnateState, round_number: int = 2, **changes: Any) -> MagnateState:
    from domain.magnate.state import Phase

    return replace(state, phase=Phase.MARKET, round=round_number, auction=None, **changes)


def set_available(state: MagnateState, **counts: int) -> MagnateState:
    """The available-tenants area holding exactly ``counts`` (every other kind in play at 0)."""
    from domain.magnate import pool

    kinds = pool.kinds_in_play(state)
    unknown = set(counts) - set(kinds)
    assert not unknown, f"not in play: {unknown}"
    return replace(state, available=tuple(counts.get(k, 0) for k in kinds))


GAME_SEED = b"finished-game-seed"


def play_to_end(seats: int = 3, *, advanced: bool = False, seed: bytes = GAME_SEED, policy_seed: int = 7) -> Any:
    """A whole game played by random legal moves (domain.kernel.driver.play); returns the ``Played``
    record. The seed commitment is the real one, so ``RevealSeed(seed.hex())`` is accepted at the end."""
    from domain.kernel import commitment_of
    from domain.kernel.driver import play
    from domain.magnate import GAME
    from domain.magnate.bots import RandomLegal

    options = GameOptions(seats=tuple(SeatSpec() for _ in range(seats)), advanced=advanced)
    start = StartGame(options=options, seed_commitment=commitment_of(seed))
    return play(GAME, start, seed, RandomLegal(policy_seed))


def started_as(*companies: str, advanced: bool = False, seed: bytes = SEED) -> MagnateState:
    """A freshly set-up game whose human seats hold these companies, in this clockwise order."""
    specs = tuple(SeatSpec(company=c) for c in companies)
    options = GameOptions(seats=specs, advanced=advanced)
    events = decide(initial_state(), SYSTEM, StartGame(options=options, seed_commitment="c0ffee"), Chance(seed, 1))
    return given(initial_state(), *events)


def started_with_tiles(neighbourhoods: tuple[str, ...], seats: int = 2, **kwargs: Any) -> MagnateState:
    """A freshly set-up game with these neighbourhood tiles at positions 1-6 and no 'for sale' markers
    on the board (so none can lie on a feature plot of the chosen tiles)."""
    from domain.magnate.events import GameStarted

    events = start_events(seats, **kwargs)
    events = [replace(e, neighbourhoods=neighbourhoods, for_sale=(), removed_markers=())
              if isinstance(e, GameStarted) else e for e in events]
    return given(initial_state(), *events)


def with_ai_level(state: MagnateState, level: int) -> MagnateState:
    """The state with the AI seat at ``level`` (1-4, T14)."""
    assert state.ai is not None, "this game has no AI seat"
    return replace(state, ai=replace(state.ai, level=level))


def with_ai_built(state: MagnateState, *plots: str) -> MagnateState:
    """The state with these AI-owned built plots as the AI's top row, left to right (§11.1 step 6)."""
    assert state.ai is not None, "this game has no AI seat"
    return replace(state, ai=replace(state.ai, top_row=tuple(plots)))


def advance(state: MagnateState) -> tuple[list[MagnateEvent], MagnateState]:
    """Run the system jobs the game waits for (dice, AI turns) until a seat must decide, the market is
    due or the game is over; returns (events, new state)."""
    from domain.magnate import pending
    from domain.magnate.commands import ProcessMarket

    events: list[MagnateEvent] = []
    while (job := pending(state).system) is not None and not isinstance(job, ProcessMarket):
        more, state = run(state, SYSTEM, job)
        events.extend(more)
    return events, state
