"""Properties of whole games played by random legal bots (STYLE §D, §E).

Every game is played by :func:`play_checked`, a copy of :func:`domain.kernel.driver.play` that folds
the events of each decision one at a time and checks the invariants after every single event (the
driver itself only exposes the states between decisions), and that the fold agrees with the state
``step`` returns. A rule violation raised by ``decide`` on a command taken from ``legal_commands``
fails the test: the bots choose only legal moves. Some games seat the AI among the humans.

On top of the invariants, each game checks that its log survives JSON and msgpack encoding (the
fold of the decoded log is the live state), that the driver plays the very same game, that the
recorded commands replayed through ``decide`` with ``Chance(seed, version)`` give byte-identical
events, and that an auditor following only docs/RANDOMNESS.md re-derives every random outcome.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.kernel import SYSTEM, Chance, commitment_of, fold
from domain.kernel.driver import Played, play
from domain.magnate import GAME, GameOptions, MagnateEvent, MagnateState, SeatSpec, StartGame
from domain.magnate.bots import RandomLegal
from domain.magnate.catalog import catalog
from domain.magnate.commands import ProcessMarket, RevealSeed, RollDice, TakeAiTurn
from domain.magnate.events import (
    AiCardDrawn,
    AiDeckReshuffled,
    AiDieRolled,
    DiceRolled,
    ForSaleMarkerDrawn,
    GameEnded,
    GameStarted,
    NewTenantsArrived,
    RiskCardDrawn,
    SeedRevealed,
)
from domain.magnate.state import Phase
from tests.domain.kernel.reference_chance import documented_draws

from .invariants import assert_invariants

MAX_COMMANDS = 20_000

JSON_DECODER = msgspec.json.Decoder(MagnateEvent)
MSGPACK_DECODER = msgspec.msgpack.Decoder(MagnateEvent)


DIFFICULTIES = sorted(catalog().ai_difficulties)


def start_command(seats: int, advanced: bool, seed: bytes, difficulty: str | None = None) -> StartGame:
    """Human seats; with a ``difficulty`` the last seat is the AI."""
    specs = [SeatSpec() for _ in range(seats)]
    if difficulty is not None:
        specs[-1] = SeatSpec(kind="ai")
    options = GameOptions(seats=tuple(specs), advanced=advanced, difficulty=difficulty)
    return StartGame(options=options, seed_commitment=hashlib.sha256(seed).hexdigest())


def play_checked(start: StartGame, seed: bytes, bot_seed: int) -> Played[MagnateState]:
    """:func:`domain.kernel.driver.play`, checking the invariants after every event."""
    policy = RandomLegal(bot_seed)
    state = GAME.initial_state()
    events: list[Any] = []
    commands: list[tuple[int, Any, Any]] = []
    actor: Any = SYSTEM
    command: Any = start
    for _ in range(MAX_COMMANDS):
        version = len(events) + 1
        try:
            new, stepped = GAME.step(state, actor, command, Chance(seed, version))
        except Exception as exc:
            raise AssertionError(f"decide rejected {command!r} from {actor!r} at version {version}") from exc
        commands.append((version, actor, command))
        for event in new:
            if isinstance(event, GameEnded):
                assert event.cash == tuple(s.cash for s in state.seats), "GameEnded.cash is not the folded cash"
            state = GAME.evolve(state, event)
            events.append(event)
            assert_invariants(state, f"after event {len(events)} {type(event).__name__}")
        assert state == stepped, f"step() and folding its events disagree at version {version}"
        due = GAME.pending(state)
        if due.finished:
            assert state.phase == Phase.ENDED
            return Played(state, events, commands)
        if due.system is not None:
            actor, command = SYSTEM, due.system
        else:
            assert len(due.seats) == 1, f"pending names no seat and no system job: {due!r}"
            actor = due.seats[0]
            command = policy(state, actor)
    raise AssertionError(f"the game did not finish within {MAX_COMMANDS} commands")


def reveal(played: Played[MagnateState], seed: bytes) -> tuple[MagnateState, list[MagnateEvent]]:
    """Append the seed reveal the service issues after the end."""
    events = GAME.decide(played.state, SYSTEM, RevealSeed(seed=seed.hex()), Chance(seed, len(played.events) + 1))
    assert events == [SeedRevealed(seed=seed.hex())]
    state = fold(GAME.evolve, events, played.state)
    assert state.seed == seed.hex() and commitment_of(seed) == state.seed_commitment
    return state, [*played.events, *events]


def assert_round_trips(events: list[MagnateEvent], live: MagnateState) -> None:
    """fold(decode(encode(events))) is the live state, for JSON and for msgpack."""
    from_json = [JSON_DECODER.decode(msgspec.json.encode(e)) for e in events]
    from_msgpack = [MSGPACK_DECODER.decode(msgspec.msgpack.encode(e)) for e in events]
    assert from_json == events
    assert from_msgpack == events
    assert fold(GAME.evolve, from_json, GAME.initial_state()) == live
    assert fold(GAME.evolve, from_msgpack, GAME.initial_state()) == live


def assert_replay_is_identical(played: Played[MagnateState], seed: bytes) -> None:
    """The recorded commands, decided again with the same seed, give byte-identical events."""
    state = GAME.initial_state()
    again: list[MagnateEvent] = []
    for version, actor, command in played.commands:
        assert version == len(again) + 1
        new = GAME.decide(state, actor, command, Chance(seed, version))
        state = fold(GAME.evolve, new, state)
        again.extend(new)
    assert [msgspec.json.encode(e) for e in again] == [msgspec.json.encode(e) for e in played.events]
    assert [msgspec.msgpack.encode(e) for e in again] == [msgspec.msgpack.encode(e) for e in played.events]
    assert state == played.state


RANDOM_EVENTS = (
    GameStarted,
    DiceRolled,
    RiskCardDrawn,
    NewTenantsArrived,
    ForSaleMarkerDrawn,
    AiCardDrawn,
    AiDieRolled,
)
TIE_BREAK_FACES = {  # §11.7: candidate index per face (None = roll again), written out from the rulebook
    2: (0, 0, 0, 1, 1, 1),
    3: (0, 0, 1, 1, 2, 2),
    4: (0, 1, 2, 3, None, None),
    5: (0, 1, 2, 3, 4, None),
    6: (0, 1, 2, 3, 4, 5),
}


class Auditor:
    """Re-derives every random outcome of a log from the revealed seed, following only docs/RANDOMNESS.md
    (its printed re-implementation, the catalogue files and the events), never the rules code."""

    def __init__(self, seed: bytes, started: GameStarted) -> None:
        self.draws_class = documented_draws()
        self.seed = seed
        cat = catalog(started.dataset)
        used = {*started.for_sale, *started.removed_markers}
        self.risk = [c.id for c in cat.files.risk_cards]
        self.tenants = [c.id for c in cat.files.new_tenant_cards]
        self.markers = [c for c in cat.for_sale.coordinates if c not in used]
        levels = sorted(cat.ai_levels)
        self.ai_decks = {lv: [c.id for c in cat.files.ai_cards if c.level == lv] for lv in levels}
        self.first_action = next(c.id for c in cat.files.ai_cards if c.first_action)

    def setup(self, started: GameStarted, seats: int) -> None:
        cat = catalog(started.dataset)
        d = self.draws_class(self.seed, 1)
        assert (
            tuple(d.shuffle(sorted(cat.neighbourhoods))[: cat.setup.neighbourhoods_in_play]) == started.neighbourhoods
        )
        if started.advanced:
            supply = {s.key: s.tokens for s in cat.files.tenant_subtypes}

            def draw(tenant_type: str, count: int) -> tuple[str, ...]:
                out = []
                for _ in range(count):
                    kinds = [k for k, n in supply.items() if n and cat.tenant_subtypes[k].tenant_type == tenant_type]
                    kind = kinds[d.pick_weighted([supply[k] for k in kinds])]
                    supply[kind] -= 1
                    out.append(kind)
                return tuple(sorted(out))

            centre = [draw(c.tenant_type, c.tenants) for c in cat.files.city_centre if c.building]
            assert centre == [c.tenants for c in started.centre]
            start_tenants = cat.board(seats).start_tenants
            available = [k for t in cat.type_order for k in draw(t, start_tenants.get(t, 0))]
            assert tuple(available) == started.available
        supply_markers = list(cat.for_sale.coordinates)
        placed: list[str] = []
        removed: list[str] = []
        while len(placed) < cat.board(seats).setup_for_sale:
            coordinate = supply_markers.pop(d.below(len(supply_markers)))
            tile = cat.neighbourhoods[started.neighbourhoods[int(coordinate[0]) - 1]]
            (removed if coordinate[1] in tile.features else placed).append(coordinate)
        assert (tuple(placed), tuple(removed)) == (started.for_sale, started.removed_markers)
        assert d.below(seats) == started.first_player

    def system(self, version: int, events: list[MagnateEvent]) -> None:
        d = self.draws_class(self.seed, version)
        for event in events:
            match event:
                case DiceRolled(faces=faces):
                    assert tuple(d.roll(len(faces))) == faces
                case RiskCardDrawn(card=card):
                    assert d.pick(self.risk) == card
                    self.risk.remove(card)
                case NewTenantsArrived(card=card):
                    assert d.pick(self.tenants) == card
                    self.tenants.remove(card)
                case ForSaleMarkerDrawn(plot=plot):
                    assert d.pick(self.markers) == plot
                    self.markers.remove(plot)
                case AiDeckReshuffled(level=level, cards=cards):
                    self.ai_decks[level] = list(cards)
                case AiCardDrawn(level=level, card=card):
                    deck = self.ai_decks[level]
                    assert card == (self.first_action if self.first_action in deck else d.pick(deck))
                    deck.remove(card)
                case AiDieRolled(candidates=candidates, faces=faces, chosen=chosen):
                    self.tie_break(d, candidates, faces, chosen)
                case _:
                    pass

    def tie_break(self, d: Any, candidates: tuple[str, ...], faces: tuple[int, ...], chosen: str) -> None:
        if len(candidates) > 6:
            assert faces == (0,) and candidates[d.below(len(candidates))] == chosen
            return
        rolled: list[int] = []
        while True:
            rolled.append(d.roll(1)[0])
            index = TIE_BREAK_FACES[len(candidates)][rolled[-1] - 1]
            if index is not None:
                break
        assert (tuple(rolled), candidates[index]) == (faces, chosen)


def audit(played: Played[MagnateState], seed: bytes) -> None:
    """Re-derive every random outcome as docs/RANDOMNESS.md tells an auditor to."""
    started = played.events[0]
    assert isinstance(started, GameStarted)
    auditor = Auditor(seed, started)
    bounds = [version for version, _, _ in played.commands] + [len(played.events) + 1]
    for (version, _, command), end in zip(played.commands, bounds[1:], strict=True):
        events = played.events[version - 1 : end - 1]
        if isinstance(command, StartGame):
            auditor.setup(started, len(started.seats))
        elif isinstance(command, RollDice | ProcessMarket | TakeAiTurn):
            auditor.system(version, events)
        else:
            assert not [e for e in events if isinstance(e, RANDOM_EVENTS)], f"{command!r} drew something"


def check_game(
    seats: int, advanced: bool, seed: bytes, bot_seed: int, difficulty: str | None = None
) -> Played[MagnateState]:
    start = start_command(seats, advanced, seed, difficulty)
    played = play_checked(start, seed, bot_seed)
    assert len(played.state.seats) == seats and played.state.advanced == advanced
    assert played.state.standings, "a finished game has standings"
    final, log = reveal(played, seed)
    assert_round_trips(log, final)
    assert_replay_is_identical(played, seed)
    audit(played, seed)
    return played


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(min_value=2, max_value=5),
    advanced=st.booleans(),
    seed=st.binary(min_size=1, max_size=48),
    bot_seed=st.integers(min_value=0, max_value=2**32 - 1),
    difficulty=st.none() | st.sampled_from(DIFFICULTIES),
)
def test_random_legal_games_keep_every_invariant_and_replay_exactly(
    seats: int, advanced: bool, seed: bytes, bot_seed: int, difficulty: str | None
) -> None:
    played = check_game(seats, advanced, seed, bot_seed, difficulty)
    # The kernel's driver, given the same seed and an identically seeded bot, plays the very same game.
    driven = play(GAME, start_command(seats, advanced, seed, difficulty), seed, RandomLegal(bot_seed))
    assert driven.commands == played.commands
    assert [msgspec.json.encode(e) for e in driven.events] == [msgspec.json.encode(e) for e in played.events]


GRID = [(seats, advanced, n) for seats in range(2, 6) for advanced in (False, True) for n in range(10)]


@pytest.mark.parametrize(("seats", "advanced", "n"), GRID)
def test_a_fixed_grid_of_games_keeps_every_invariant(seats: int, advanced: bool, n: int) -> None:
    check_game(seats, advanced, f"grid-{seats}-{advanced}-{n}".encode(), bot_seed=1000 * seats + n)


@pytest.mark.parametrize("seats", [3, 5])
@pytest.mark.parametrize("advanced", [False, True])
def test_games_with_an_ai_among_several_humans_keep_every_invariant(seats: int, advanced: bool) -> None:
    for n, difficulty in enumerate(DIFFICULTIES):
        check_game(seats, advanced, f"ai-{seats}-{advanced}-{n}".encode(), bot_seed=n, difficulty=difficulty)


def test_a_different_seed_plays_a_different_game() -> None:
    a = check_game(3, False, b"one seed", bot_seed=7)
    b = check_game(3, False, b"another seed", bot_seed=7)
    assert a.events[0] != b.events[0]
