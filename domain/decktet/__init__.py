"""Decktet Magnate (designed by Cristyn Magnus), with the variants of Abstract Play and the Roller cheatsheet: the
rules as a pure game module (spec: shared/rules/decktet-magnate.md; choices made here: README.md beside this file).

Services use only :data:`GAME` and the names re-exported here.
"""

from domain.kernel import GameModule, Outcome, SeatInfo, Standing, start_and_reveal
from domain.kernel.phrases import Term, say, term

from .ai.advice import advice_text, advise
from .bots import Greedy, RandomLegal
from .catalog import DEFAULT_DATASET
from .catalog_view import public_catalog
from .commands import DecktetSystemCommand, PlayerCommand, PlayTurn, RevealSeed, StartGame
from .decider import decide, evolve, initial_state, replay, step
from .events import DecktetEvent
from .legal import legal_commands
from .narrate import Narrator
from .pending import pending
from .secrets import hide, redact
from .state import DecktetState, Phase
from .takebacks import undo_safe
from .variant import AI_LEVELS, GameOptions, SeatSpec, Variant
from .view import DecktetView, view

LEVELS: dict[str, Term] = {"easy": term("easy", "level"), "medium": term("medium", "level"),
                           "hard": term("hard", "level")}
"""The computer's levels in words (the story names a computer seat "Computer (easy)" in the reader's language)."""


def _seats(state: DecktetState) -> tuple[SeatInfo, ...]:
    specs = state.variant.seats or tuple(SeatSpec() for _ in state.seats)
    return tuple(SeatInfo(kind="ai", label=f"Computer ({spec.level})", payload={"level": spec.level or ""},
                          phrase=say("Computer ({level})", level=LEVELS.get(spec.level or "", spec.level or "")))
                 if spec.kind == "ai" else SeatInfo(kind="human", label=f"Player {i + 1}")
                 for i, spec in enumerate(specs))


def _outcome(state: DecktetState) -> Outcome | None:
    """The standings once the game has ended: rank 1 wins (shared on a full tie, R7.5); the score is the number
    of districts controlled; rounds are the turns played divided by the seats."""
    if state.phase != Phase.ENDED:
        return None
    rounds = -(-state.turn // len(state.seats))
    return Outcome(tuple(Standing(s.seat, s.rank, s.districts) for s in state.scores), rounds)


def _districts(count: int) -> str:
    """A score in words: ``1 district``, ``3 districts``."""
    return f"{count:,} district{'' if count == 1 else 's'}"


def _sim_options(seat_kinds: tuple[str, ...], ai_level: str | None, flags: frozenset[str]) -> GameOptions:
    """Three seats play the three-player Y (V4); ``flags`` switch on any of :data:`SIM_FLAGS` (``stacked`` brings
    ``mega``, which it needs); an ``ai`` seat is the computer at ``ai_level``."""
    three = len(seat_kinds) == 3
    if len(seat_kinds) not in (2, 3):
        raise ValueError("Decktet Magnate is for two or three players")
    if three and "stacked" in flags:
        raise ValueError("the stacked deck (V8) is for two players")
    return GameOptions(
        courts="nocourts" not in flags, mega=bool(flags & {"mega", "stacked"}), three=three,
        original_aces="originalAces" in flags, deucey="deucey" in flags, courtpawns="courtpawns" in flags,
        stacked="stacked" in flags,
        seats=tuple(SeatSpec(kind="ai", level=ai_level) if kind == "ai" else SeatSpec() for kind in seat_kinds)
        if "ai" in seat_kinds else (),
    )


SIM_FLAGS = ("mega", "nocourts", "originalAces", "deucey", "courtpawns", "stacked")

GAME: GameModule[DecktetState] = GameModule(
    name="decktet",
    state_type=DecktetState,
    player_command_type=PlayerCommand,
    system_command_type=DecktetSystemCommand,
    event_type=DecktetEvent,
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
    title="Decktet Magnate",
    data_version=DEFAULT_DATASET,
    narrator=Narrator,
    catalog=public_catalog,
    redact=redact,
    events_public=False,
    hide=hide,
    advise=advise,
    advice_text=advice_text,
    undo_safe=undo_safe,
    round_events=("decktet.turn_started",),
    outcome=_outcome,
    score_text=_districts,
    bots={"greedy": Greedy, "random": RandomLegal},
    ai_levels=AI_LEVELS,
    sim_options=_sim_options,
    sim_flags=SIM_FLAGS,
)

__all__ = [
    "GAME",
    "DecktetEvent",
    "DecktetState",
    "DecktetSystemCommand",
    "DecktetView",
    "GameOptions",
    "Phase",
    "PlayTurn",
    "PlayerCommand",
    "SeatSpec",
    "StartGame",
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
