"""Master of Economy (Andrzej Kurek, Sinonis 2010): the rules as a pure game module (spec:
shared/rules/master-of-economy.md; choices made here: README.md beside this file).

Services use only :data:`GAME` and the names re-exported here.
"""

from domain.kernel import GameModule, Outcome, SeatInfo, Standing, start_and_reveal
from domain.kernel.phrases import Arg, say

from .ai.advice import advice_text, advise
from .bots import Greedy, RandomLegal
from .catalog import DEFAULT_DATASET
from .catalog_view import public_catalog
from .commands import PlayerCommand, RevealSeed, StartGame, SystemCommandType
from .decider import decide, evolve, initial_state, replay, step
from .events import MoeEvent
from .legal import legal_commands
from .narrate import Narrator
from .pending import pending
from .plans import PLANS
from .secrets import hide, redact
from .state import State, Step
from .takebacks import undo_safe
from .variant import AI_LEVELS, GameOptions, SeatSpec, Variant
from .view import MoeView, view

LEVELS: dict[str, Arg] = {"basic": say("basic"), "shrewd": say("shrewd")}
"""The computer's levels in words (the story and the page name a computer seat "Computer 2 (shrewd)")."""


def _seats(state: State) -> tuple[SeatInfo, ...]:
    specs = state.variant.seats or tuple(SeatSpec() for _ in state.players)
    out = []
    for i, (p, spec) in enumerate(zip(state.players, specs, strict=False)):
        payload: dict[str, str] = {"corporation": p.corporation} if p.corporation else {}
        if spec.kind == "ai":
            level = spec.level or ""
            label = f"Computer {i + 1} ({level})" if level else f"Computer {i + 1}"  # as the page names it
            phrase = (say("Computer {number} ({level})", number=i + 1, level=LEVELS.get(level, level)) if level
                      else say("Computer {number}", number=i + 1))
            out.append(SeatInfo(kind="ai", label=label, payload={**payload, "level": level}, phrase=phrase))
        else:
            out.append(SeatInfo(kind="human", label=f"Player {i + 1}", payload=payload))
    return tuple(out)


def _outcome(state: State) -> Outcome | None:
    """The standings once the game has ended: rank 1 wins (ME-E-8, ME-W-2/3); the score is the final result in
    euros (ME-E-6/7); rounds are the stages played."""
    if state.step != Step.ENDED:
        return None
    return Outcome(tuple(Standing(r.seat, r.rank, r.result) for r in state.results), state.stage)


def _euros(amount: int) -> str:
    return f"{amount:,} €"


SIM_FLAGS = ("noac", "teams", "auction", "hidden", "unlimited")
"""``noac``: 2 or 3 players without the additional corporation (it is on by default with 2-3 seats); ``teams``:
2 vs. 2 (four seats only; ignored otherwise, so every flag combines with every seat count); ``auction``: the
auction start; ``hidden``: hidden player cash; ``unlimited``: no limit on the commodity supply."""


def _sim_options(seat_kinds: tuple[str, ...], ai_level: str | None, flags: frozenset[str]) -> GameOptions:
    """Two or three seats play with the additional corporation (unless ``noac``), four seats the basic game (or
    2 vs. 2 with ``teams``); an ``ai`` seat is the computer at ``ai_level``."""
    players = len(seat_kinds)
    if not 2 <= players <= 4:
        raise ValueError("Master of Economy is for two to four players")
    return GameOptions(
        players=players, additional_corporation=players < 4 and "noac" not in flags,
        teams=players == 4 and "teams" in flags, start_order="auction" if "auction" in flags else "random",
        player_cash_hidden="hidden" in flags, finite_commodity_supply="unlimited" not in flags,
        seats=tuple(SeatSpec(kind="ai", level=ai_level) if kind == "ai" else SeatSpec() for kind in seat_kinds)
        if "ai" in seat_kinds else (),
    )


GAME: GameModule[State] = GameModule(
    name="master_of_economy",
    state_type=State,
    player_command_type=PlayerCommand,
    system_command_type=SystemCommandType,
    event_type=MoeEvent,
    options_type=GameOptions,
    **start_and_reveal(StartGame, RevealSeed),
    seats=_seats,
    initial_state=initial_state,
    decide=decide,
    step=step,
    evolve=evolve,
    pending=pending,
    view=view,
    legal_commands=legal_commands,
    title="Master of Economy",
    data_version=DEFAULT_DATASET,
    narrator=Narrator,
    catalog=public_catalog,
    redact=redact,
    events_public=False,
    hide=hide,
    advise=advise,
    advice_text=advice_text,
    plans=PLANS,
    undo_safe=undo_safe,
    round_events=("master_of_economy.stage_began",),
    outcome=_outcome,
    score_text=_euros,
    bots={"greedy": Greedy, "random": RandomLegal},
    ai_levels=AI_LEVELS,
    sim_options=_sim_options,
    sim_flags=SIM_FLAGS,
)

__all__ = [
    "AI_LEVELS",
    "GAME",
    "GameOptions",
    "MoeEvent",
    "MoeView",
    "PlayerCommand",
    "SeatSpec",
    "StartGame",
    "State",
    "SystemCommandType",
    "Variant",
    "decide",
    "evolve",
    "initial_state",
    "legal_commands",
    "pending",
    "replay",
    "step",
    "view",
]
