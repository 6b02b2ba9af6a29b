"""What a game module offers the services: the one object a game exports (the game contract).

The services never import a game's internals; they speak to its :class:`GameModule`:
``initial_state``/``decide``/``evolve`` (the rules), ``pending`` (who may act or which system job is
due), ``view`` and ``redact`` (what a viewer may see of a state and of an event), ``legal_commands`` (the
one source of legality for the web page, the bots and the AI), ``narrator`` (the log in sentences),
``catalog`` (the public data tables a client needs), ``outcome`` (the standings), the bots and AI levels
``simulate`` plays with, plus the message unions and the options type for decoding. ``domain/games.py``
lists the games; docs/ARCHITECTURE.md says how to add one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypedDict, TypeVar

import msgspec

from .advice import Advice, Reason
from .chance import Chance
from .messages import Command, SystemCommand, tag_of_type
from .narration import Narrator
from .phrases import Phrase
from .plans import PlanKinds
from .seats import Actor, Seat, Viewer


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """What the game waits for now.

    ``seats`` may act (usually one); ``system`` is the system command due now (the service runs it in
    a worker with the chance source of the next version); ``finished`` once the game has ended.
    """

    seats: tuple[Seat, ...] = ()
    system: SystemCommand | None = None
    finished: bool = False


class SeatInfo(msgspec.Struct, frozen=True):
    """A seat as the services need to know it: who plays it and under which name."""

    kind: str
    """"human" or "ai"."""
    label: str
    """The seat's in-game name, the default display name (a company's name in Magnate), in English."""
    payload: dict[str, Any] = msgspec.field(default_factory=dict)
    """Game-specific facts about the seat that a client shows (Magnate: ``{"company": key}``), stored with it."""
    phrase: Phrase | None = None
    """The label in no language, where it holds words ("Computer (easy)"): the story names a seat still called by
    its label in the reader's language. None: the label is a name (or "Player 2", which the kernel says)."""


class Standing(msgspec.Struct, frozen=True):
    """A seat's place at the end: ``rank`` 1 is a winner (several seats may share a rank)."""

    seat: int
    rank: int
    score: int
    """What the game ranks by (Magnate: cash in $K)."""
    note: str = ""
    """What the table says of the seat's game: ``timed_out``, ``left``, ``resigned``, ``forfeited`` (or nothing)."""


class Outcome(msgspec.Struct, frozen=True):
    """How a finished game ended."""

    standings: tuple[Standing, ...]
    """Best first."""
    rounds: int
    """How many rounds were played (Magnate: the round of the crash)."""

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.standings if s.rank == 1)


class IntParam(msgspec.Struct, frozen=True, tag="int"):
    """A command field that may take any value ``minimum, minimum+step, ..., <= maximum``."""

    field: str
    minimum: int
    maximum: int
    step: int = 1


class SubsetParam(msgspec.Struct, frozen=True, tag="subset"):
    """A command field holding distinct indices into ``0..size-1``, at most ``max_count`` of them."""

    field: str
    size: int
    max_count: int


Param = IntParam | SubsetParam


class CommandTemplate(msgspec.Struct, frozen=True):
    """One kind of legal move: ``command`` is itself legal (and the suggested choice); ``params`` say
    which of its fields may vary and how, every combination within them being legal too."""

    command: Command
    params: tuple[Param, ...] = ()


S = TypeVar("S")

Policy = Callable[[Any, Any], Any]
"""A bot: ``policy(state, seat) -> command``, choosing among the seat's legal commands."""


def every_event_public(event: Any, viewer: Any, game_over: bool) -> Any:
    """The ``redact`` of a game whose events carry only public facts: every viewer sees every event."""
    return event


@dataclass(frozen=True, slots=True)
class GameModule(Generic[S]):
    """The contract every game satisfies (ARCHITECTURE §3), as one record of pure functions.

    Commands and events are typed ``Any`` here because each game narrows them to its own unions;
    the unions themselves are carried for decoding.
    """

    name: str
    state_type: Any
    """The state struct (for snapshots)."""
    player_command_type: Any
    """The tagged union of player commands (what a client may submit)."""
    system_command_type: Any
    """The tagged union of system commands (what the service may submit)."""
    event_type: Any
    """The tagged union of events (what the log stores)."""
    options_type: Any
    """The struct of options a new game is created with."""
    start: Callable[[Any, str], SystemCommand]
    """``start(options, seed_commitment)``: the system command that sets a game up (:func:`start_and_reveal`)."""
    reveal: Callable[[str], SystemCommand]
    """``reveal(seed_hex)``: the system command that publishes the seed once the game has ended."""
    seats: Callable[[S], tuple[SeatInfo, ...]]
    initial_state: Callable[[], S]
    decide: Callable[[S, Actor, Any, Chance], list[Any]]
    step: Callable[[S, Actor, Any, Chance], tuple[list[Any], S]]
    """``decide`` that also returns the state after its events (the fold the rules already did)."""
    evolve: Callable[[S, Any], S]
    pending: Callable[[S], Pending]
    view: Callable[[S, Viewer, bool], msgspec.Struct]
    """``view(state, viewer, game_over)``: what ``viewer`` may see of ``state`` (``game_over`` says the game
    it belongs to has ended, which opens the auditor view of historical states)."""
    legal_commands: Callable[[S, Seat], list[CommandTemplate]]
    title: str = ""
    """The game's name for people ("Magnate: The First City")."""
    data_version: str = "v1"
    """The version of the game's data tables new games are created with (recorded in their first event)."""
    narrator: Callable[[Mapping[int, str]], Narrator] | None = None
    """``narrator(names)``: a new narrator, naming seats with the players' ``names`` (by seat)."""
    catalog: Callable[[str | None], msgspec.Struct] | None = None
    """``catalog(dataset)``: the public data tables a client needs to draw the game (None: the current data);
    raises ``KeyError`` for an unknown dataset."""
    redact: Callable[[Any, Viewer, bool], Any | None] = every_event_public
    """``redact(event, viewer, game_over)``: the event as ``viewer`` may see it, or None if it may not see it at
    all. Every route that hands out events applies it (after the game is over every viewer sees the log)."""
    events_public: bool = True
    """True when ``redact`` is the identity: the services then hand the stored bytes out unchanged."""
    hide: Callable[[S, Viewer, int], S] | None = None
    """``hide(state, viewer, seed)``: a state that differs from ``state`` only in what ``viewer`` may not know now
    (another seat's hand or money, a sealed bid, the order of a deck), varied by ``seed``. Nothing a route hands
    ``viewer`` may differ between the two: the redaction property test holds every game to it."""
    outcome: Callable[[S], Outcome | None] = lambda state: None
    """The standings once the game has ended (None before)."""
    score_text: Callable[[int], str] = "{:,}".format
    """How the game writes a score in English, for logs and the simulation's tables (Magnate: money, ``49,160K``)."""
    score_phrase: Callable[[int], Phrase] | None = None
    """How the game writes a score for people, in words the services render per language (Magnate: its money
    phrase, ``1 200 тыс. $``); None: the score is a plain number."""
    bots: Mapping[str, Callable[[int], Policy]] = field(default_factory=dict)
    """Bot policies by name (``random``, ``greedy`` ...), each made from a seed: what ``simulate`` plays the human
    seats with."""
    ai_levels: tuple[str, ...] = ()
    """The game's own AI at each strength, weakest first (empty: the game has no AI)."""
    sim_options: Callable[[tuple[str, ...], str | None, frozenset[str]], Any] | None = None
    """``sim_options(seat_kinds, ai_level, flags)``: the options of a simulated game ("human"/"ai" per seat; flags
    name variants, see ``sim_flags``)."""
    sim_flags: tuple[str, ...] = ()
    """Variants ``simulate`` may switch on (Magnate: ``advanced``)."""
    tell: Callable[[S, Any, S], list[Any]] | None = None
    """``tell(before, events, after)``: the game's own notices (:class:`~domain.kernel.notices.Notice`) for a run of
    ``(version, event)`` pairs between two states, beyond the ``your_turn`` and ``game_over`` every game has
    (Magnate: ``outbid``, ``market``). None: only those two."""
    service_commands: frozenset[str] = frozenset()
    """The tags of the system commands only the gameplay service issues (the start and the seed's reveal, made by
    ``start`` and ``reveal``): no worker job runs them. :func:`start_and_reveal` names them."""
    advise: Callable[[S, Seat], Advice] | None = None
    """``advise(state, seat)``: the engine's options for ``seat``, ranked best first, each with its reason
    (:mod:`domain.kernel.advice`); decided on the seat's view only. None: the game gives no advice."""
    advice_text: Callable[[Reason], str] | None = None
    """``advice_text(reason)``: an advice's reason written in English (beside the game's narrator)."""
    undo_safe: Callable[[Any], bool] = lambda event: False
    """``undo_safe(event)``: whether a move that made ``event`` may be taken back (``table.undo_ask``): a public
    move that drew nothing and showed nothing hidden (a bid, a pass). The default allows no takebacks."""
    plans: PlanKinds[Any] | None = None
    """The planned moves a seat may leave with the server (:mod:`domain.kernel.plans`: "pass on the auction this
    round"), played for it at its turn through ``decide``. None: the game offers none."""
    round_events: tuple[str, ...] = ()
    """The type tags of the events that begin a round of the game (Magnate's round, Decktet Magnate's turn, Master of
    Economy's stage): where the page's replay steps by round. Empty: the replay steps only version by version."""
    views: Callable[[S, Sequence[Viewer], bool], Sequence[msgspec.Struct]] | None = None
    """``views(state, viewers, game_over)``: ``[view(state, v, game_over) for v in viewers]``, equal to it, made
    cheaper by sharing what every viewer sees alike (a version's messages need the public's view and each seat's).
    None: :meth:`view_each` asks :attr:`view` for each."""

    def view_each(self, state: S, viewers: Sequence[Viewer], game_over: bool = False) -> Sequence[msgspec.Struct]:
        """What each of ``viewers`` may see of ``state`` (:attr:`view`, through :attr:`views` when the game has it)."""
        if self.views is not None:
            return self.views(state, viewers, game_over)
        return [self.view(state, viewer, game_over) for viewer in viewers]



class StartAndReveal(TypedDict):
    """The fields of a :class:`GameModule` that :func:`start_and_reveal` fills."""

    start: Callable[[Any, str], SystemCommand]
    reveal: Callable[[str], SystemCommand]
    service_commands: frozenset[str]


def start_and_reveal(start: type[SystemCommand], reveal: type[SystemCommand]) -> StartAndReveal:
    """The game's start and reveal, from its two service-only command types: ``start(options=...,
    seed_commitment=...)`` and ``reveal(seed=...)``; spread into the module (``GameModule(..., **start_and_reveal(
    StartGame, RevealSeed), ...)``), they also name the two as :attr:`GameModule.service_commands`."""

    def starting(options: Any, seed_commitment: str) -> SystemCommand:
        return start(**{"options": options, "seed_commitment": seed_commitment})

    def revealing(seed_hex: str) -> SystemCommand:
        return reveal(**{"seed": seed_hex})

    return StartAndReveal(start=starting, reveal=revealing,
                          service_commands=frozenset({tag_of_type(start), tag_of_type(reveal)}))
