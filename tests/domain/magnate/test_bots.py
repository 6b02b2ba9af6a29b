"""The bots that play human seats in simulations and tests (domain.magnate.bots): RandomLegal and Greedy.

Both only ever return commands that ``decide`` accepts, both are reproducible from their seed, and Greedy
plays sensibly in constructed situations (it builds on its unbuilt plot when it can afford to, buys the
plot with the most bonus arrows, sells before the crash, bids only when cheap, attracts to its emptiest
building).
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.kernel import SYSTEM, Chance, commitment_of
from domain.kernel.driver import Played, play
from domain.magnate import GAME, GameOptions, MagnateState, SeatSpec, StartGame, decide
from domain.magnate.bots import Greedy, RandomLegal
from domain.magnate.commands import (
    Advertise,
    AttractTenants,
    Build,
    BuyLand,
    Consult,
    FinishAttracting,
    PassBid,
    PlaceBid,
    Sell,
)
from domain.magnate.state import Phase

from .builders import in_actions, in_attracting, in_bidding, set_cash, set_plot, started_with_tiles

BOTS = {"random": RandomLegal, "greedy": Greedy}
TILES = ("train_station", "municipal_airport", "ridgeway", "halestown", "lyndal", "matthews_yard")
"""3A touches the Ridgeway car park (Retail +1); 2E touches the airport and its car park (3 bonus arrows);
3I touches no feature."""
ME = 0

CONFIGURATIONS = [
    pytest.param(2, False, False, id="2-humans"),
    pytest.param(3, True, False, id="3-humans-advanced"),
    pytest.param(5, False, False, id="5-humans"),
    pytest.param(2, False, True, id="solo-vs-ai"),
    pytest.param(2, True, True, id="solo-vs-ai-advanced"),
    pytest.param(3, False, True, id="2-humans-and-ai"),
]


def start(seats: int, advanced: bool, ai: bool, seed: bytes) -> StartGame:
    specs = [SeatSpec() for _ in range(seats)]
    if ai:
        specs[-1] = SeatSpec(kind="ai")
    options = GameOptions(seats=tuple(specs), advanced=advanced, difficulty="generalised_ai" if ai else None)
    return StartGame(options=options, seed_commitment=commitment_of(seed))


class Probing:
    """Wraps a bot: before each answer, a separately seeded copy proposes ``probes`` more commands at the same
    state, and every proposal (and the answer) must be accepted by ``decide``."""

    def __init__(self, bot: Any, probe: Any, probes: int, seed: bytes) -> None:
        self.bot, self.probe, self.probes, self.seed = bot, probe, probes, seed
        self.checked = 0

    def __call__(self, state: MagnateState, seat: Any) -> Any:
        for command in [self.probe(state, seat) for _ in range(self.probes)] + [answer := self.bot(state, seat)]:
            try:
                decide(state, seat, command, Chance(self.seed, 1))
            except Exception as exc:
                raise AssertionError(f"{type(self.bot).__name__} proposed {command!r}, rejected") from exc
            self.checked += 1
        return answer


@pytest.mark.parametrize(("seats", "advanced", "ai"), CONFIGURATIONS)
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_bots_only_return_commands_that_decide_accepts(bot: str, seats: int, advanced: bool, ai: bool) -> None:
    """Whole games in which every command a bot returns (and 3 more proposals of a differently seeded copy
    at the same state) is accepted by ``decide``; the driver fails on any rejection."""
    for n in range(3):
        seed = f"bots-{bot}-{seats}-{advanced}-{ai}-{n}".encode()
        policy = Probing(BOTS[bot](n), BOTS[bot](1000 + n), 3, seed)
        played = play(GAME, start(seats, advanced, ai, seed), seed, policy)
        assert played.state.phase == Phase.ENDED
        assert policy.checked > 0


def _log(played: Played[MagnateState]) -> list[bytes]:
    return [msgspec.json.encode(e) for e in played.events]


@pytest.mark.parametrize("ai", [False, True])
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_a_bot_is_reproducible_from_its_seed(bot: str, ai: bool) -> None:
    """Same game seed and bot seed -> the very same commands and events."""
    seed = f"reproducible-{bot}-{ai}".encode()
    first = play(GAME, start(3, False, ai, seed), seed, BOTS[bot](42))
    again = play(GAME, start(3, False, ai, seed), seed, BOTS[bot](42))
    assert first.commands == again.commands
    assert _log(first) == _log(again)


def test_random_legal_plays_differently_with_another_seed() -> None:
    seed = b"another-bot-seed"
    a = play(GAME, start(3, False, False, seed), seed, RandomLegal(1))
    b = play(GAME, start(3, False, False, seed), seed, RandomLegal(2))
    assert a.commands != b.commands


# --- Greedy in constructed situations ----------------------------------------------------------------------------


def two_humans() -> MagnateState:
    return started_with_tiles(TILES, 2)


def my_action(state: MagnateState) -> Any:
    command = Greedy(0)(in_actions(state, first_player=ME), ME)
    decide(in_actions(state, first_player=ME), ME, command, Chance(b"greedy", 1))  # it must be legal
    return command


@pytest.mark.parametrize(
    ("cash", "expected"),
    [(2000, Build(plot="3A", building="retail_unit")), (1000, Build(plot="3A", building="house"))],
)
def test_greedy_builds_on_its_unbuilt_plot_when_it_can_afford_to(cash: int, expected: Build) -> None:
    """3A touches a car park (Retail +1): with 2M it builds the largest affordable retail building; with 1M
    no retail building is affordable and it takes the cheapest of the rest (a house)."""
    state = set_cash(set_plot(two_humans(), "3A", owner=ME), ME, cash)
    assert my_action(state) == expected


def test_greedy_buys_the_for_sale_plot_with_the_most_bonus_arrows_when_it_has_nothing_to_build_on() -> None:
    state = set_plot(set_plot(two_humans(), "2E", for_sale=True), "3I", for_sale=True)
    assert my_action(state) == BuyLand(plot="2E")


def test_greedy_buys_rather_than_builds_when_no_building_is_affordable() -> None:
    """With 300K no building is affordable on its plot; the 'for sale' plot at 300K is."""
    state = set_plot(set_plot(two_humans(), "3A", owner=ME), "2E", for_sale=True)
    assert my_action(set_cash(state, ME, 300)) == BuyLand(plot="2E")


@pytest.mark.parametrize(("crash", "sells"), [(3, True), (4, False)])
def test_greedy_sells_its_most_valuable_plot_when_the_crash_is_near(crash: int, sells: bool) -> None:
    state = set_plot(two_humans(), "3A", owner=ME, building="retail_unit", tenants=("retail", "retail"))
    state = set_plot(state, "3I", owner=ME, building="house", tenants=())
    command = my_action(msgspec.structs.replace(state, crash=crash))
    if sells:
        assert command == Sell(plot="3A")  # value 1 + 1 + 2 retail + 1 car park = 5, the house's is 2
    else:
        assert not isinstance(command, Sell)


def test_greedy_takes_advertising_when_it_has_none_and_otherwise_consults() -> None:
    state = set_cash(two_humans(), ME, 0)
    assert my_action(state) == Consult()
    seats = list(state.seats)
    seats[ME] = msgspec.structs.replace(seats[ME], advertising=0)
    assert my_action(msgspec.structs.replace(state, seats=tuple(seats))) == Advertise(bought=0)


@pytest.mark.parametrize(("position", "expected"), [(4, PlaceBid(amount=100)), (1, PassBid())])
def test_greedy_bids_the_minimum_only_when_it_is_at_most_half_the_land_price(position: int, expected: Any) -> None:
    """Land price 300K: 100K is cheap -> bid; land price 100K: 100K is not -> pass."""
    state = in_bidding(msgspec.structs.replace(two_humans(), land_price=position), opener=ME)
    assert Greedy(0)(state, ME) == expected


def test_greedy_attracts_to_its_emptiest_building_with_up_to_two_advertising_tokens() -> None:
    state = set_plot(two_humans(), "3A", owner=ME, building="retail_unit", tenants=())
    state = set_plot(state, "3I", owner=ME, building="house", tenants=())
    state = in_attracting(state, first_player=ME)
    assert Greedy(0)(state, ME) == AttractTenants(plot="3A", advertising=2)
    state = set_plot(state, "3A", tenants=("retail", "retail"))
    state = set_plot(state, "3I", tenants=("home",))
    assert Greedy(0)(state, ME) == FinishAttracting()


def test_greedy_beats_random_legal_against_the_ai() -> None:
    """Greedy is a stronger opponent for the AI than random play over the same 20 solo games."""

    def human_cash(policy: Any, n: int) -> int:
        seed = f"greedy-vs-random-{n}".encode()
        return play(GAME, start(2, False, True, seed), seed, policy).state.seats[0].cash

    greedy = sum(human_cash(Greedy(n), n) for n in range(20))
    random = sum(human_cash(RandomLegal(n), n) for n in range(20))
    assert greedy > random


def test_system_jobs_are_never_asked_of_a_bot() -> None:
    """The driver asks a bot only for seat decisions; a bot is never called for an AI seat or a system job."""
    asked: list[tuple[int, Any]] = []

    def recording(state: MagnateState, seat: Any) -> Any:
        assert seat != SYSTEM and state.seats[seat].kind == "human"
        asked.append((seat, state.phase))
        return Greedy(0)(state, seat)

    seed = b"only-seats"
    play(GAME, start(2, False, True, seed), seed, recording)
    assert asked and {seat for seat, _ in asked} == {0}
