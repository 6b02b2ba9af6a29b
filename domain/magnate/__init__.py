"""Magnate: The First City — the rules as a pure game module (spec: shared/rules/magnate-the-first-city.md).

Services use only :data:`GAME` and the names re-exported here.
"""

from domain.kernel import GameModule, Outcome, SeatInfo, Standing, start_and_reveal

from .ai.advice import advice_text, advise
from .bots import Greedy, RandomLegal
from .catalog import DEFAULT_DATASET, Catalog
from .catalog import catalog as load_catalog
from .catalog_view import public_catalog
from .commands import GameOptions, MagnateSystemCommand, PlayerCommand, RevealSeed, SeatSpec, StartGame
from .decider import decide, evolve, initial_state, replay, step
from .events import MagnateEvent
from .legal import legal_commands
from .money import cash, money
from .narrate import Narrator
from .notices import tell
from .pending import pending
from .plans import PLANS
from .secrets import hide
from .state import MagnateState, Phase
from .takebacks import undo_safe
from .view import MagnateView, view, views


def _seats(state: MagnateState) -> tuple[SeatInfo, ...]:
    names = {c.key: c.name for c in (*state_catalog(state).setup.companies, state_catalog(state).setup.ai_company)}
    return tuple(SeatInfo(kind=str(s.kind), label=names.get(s.company, s.company), payload={"company": s.company})
                 for s in state.seats)


def state_catalog(state: MagnateState) -> Catalog:
    return load_catalog(state.dataset or DEFAULT_DATASET)


def _outcome(state: MagnateState) -> Outcome | None:
    if not state.standings:
        return None
    ranked = sorted(state.standings, key=lambda s: (s.rank, s.seat))
    return Outcome(tuple(Standing(s.seat, s.rank, s.cash) for s in ranked), state.round)


def ai_levels() -> tuple[str, ...]:
    """Every AI difficulty key, easiest first (T16: rising sale value modifier)."""
    return tuple(d.key for d in sorted(load_catalog().ai_difficulties.values(), key=lambda d: d.sale_value_modifier))


def _sim_options(seat_kinds: tuple[str, ...], ai_level: str | None, flags: frozenset[str]) -> GameOptions:
    return GameOptions(seats=tuple(SeatSpec(kind=kind) for kind in seat_kinds), advanced="advanced" in flags,
                       difficulty=ai_level)


GAME: GameModule[MagnateState] = GameModule(
    name="magnate",
    state_type=MagnateState,
    player_command_type=PlayerCommand,
    system_command_type=MagnateSystemCommand,
    event_type=MagnateEvent,
    options_type=GameOptions,
    **start_and_reveal(StartGame, RevealSeed),
    seats=_seats,
    initial_state=initial_state,
    decide=decide,
    step=step,
    evolve=evolve,
    pending=pending,
    view=view,
    views=views,
    legal_commands=legal_commands,
    title="Magnate: The First City",
    data_version=DEFAULT_DATASET,
    narrator=Narrator,
    catalog=public_catalog,
    outcome=_outcome,
    score_text=money,
    score_phrase=cash,
    hide=hide,
    advise=advise,
    advice_text=advice_text,
    undo_safe=undo_safe,
    plans=PLANS,
    round_events=("magnate.round_started",),
    bots={"greedy": Greedy, "random": RandomLegal},
    ai_levels=ai_levels(),
    sim_options=_sim_options,
    sim_flags=("advanced",),
    tell=tell,
)

__all__ = [
    "GAME",
    "Catalog",
    "GameOptions",
    "MagnateEvent",
    "MagnateState",
    "MagnateSystemCommand",
    "MagnateView",
    "Phase",
    "PlayerCommand",
    "SeatSpec",
    "StartGame",
    "decide",
    "evolve",
    "initial_state",
    "legal_commands",
    "pending",
    "replay",
    "step",
    "view",
]
