"""§17, "Interrupts": a manager's standing preferences for the shortfall procedure (ME-X-1): "cover shortfalls from
my cash up to X" and a ranked list of factories to sell first. With them set the rules answer for the manager at
once, through the rules of its own answers; without them the manager is asked, and a stand-in (a timeout) gives
0 and sells the first type in table 15.2's order. The preferences are the seat's alone: sent at any time while the
game runs, they change nothing else, and no other seat nor the public sees them until the game is over."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from domain.kernel import AUDITOR, PUBLIC, SYSTEM, Chance, InvalidValue, Seat, WrongPhase
from domain.kernel.table import StandIn, StoodIn, TimedOut, seated
from domain.master_of_economy import GAME, GameOptions, MoeEvent, StartGame
from domain.master_of_economy.bots import Greedy, RandomLegal
from domain.master_of_economy.commands import (
    ClearShortfallPreferences,
    CoverShortfall,
    SellForShortfall,
    SetShortfallPreferences,
)
from domain.master_of_economy.errors import NoSuchThing
from domain.master_of_economy.events import (
    FactorySold,
    ImportBought,
    InterestPaid,
    PurchaseDropped,
    ShortfallArose,
    ShortfallCovered,
    ShortfallPreferencesCleared,
    ShortfallPreferencesSet,
)
from domain.master_of_economy.folding import evolve, initial_state, replay
from domain.master_of_economy.legal import legal_commands
from domain.master_of_economy.narrate import Narrator
from domain.master_of_economy.pending import pending
from domain.master_of_economy.secrets import hide, redact
from domain.master_of_economy.state import Preferences, State, Step
from domain.master_of_economy.variant import Variant
from domain.master_of_economy.view import view

from .builders import act, at, bids, cash, corp, factories, game, of, order, player, resolve, settled
from .invariants import assert_invariants
from .story import text

A, B = "blue", "yellow"


def short_buyer(**changes: object) -> State:
    """A (seat 0) must pay 5 for coal abroad with 2 EUR (3 short)."""
    state = corp(order(game(2), A, B), A, **{"cash": 2, **changes})
    return bids(state, "coal", imports=(A,))


def resolved(state: State) -> bool:
    """The market's resolution went through to its end without waiting for anyone."""
    return state.shortfall is None and state.step != Step.RESOLVING


def prefer(state: State, seat: int, cover_up_to: int, *sell_first: str) -> State:
    """``seat`` sets its standing preferences (through its command)."""
    return act(state, seat, SetShortfallPreferences(cover_up_to=cover_up_to, sell_first=sell_first))[1]


# -- the rules answer for the manager ---------------------------------------------------------------------------


def test_me_x_1_with_preferences_the_gift_is_given_at_once_up_to_x() -> None:
    """§17 with ME-X-1.1: "cover shortfalls from my cash up to X": the manager is not asked; the gift is X, and the
    event says it was the preference's."""
    state = prefer(player(short_buyer(), 0, cash=10), 0, 2)
    events, state = resolve(state)
    assert of(events, ShortfallArose) == [ShortfallArose(corporation=A, due=5, reason="import")]
    assert of(events, ShortfallCovered) == [ShortfallCovered(corporation=A, seat=0, amount=2, by_preference=True)]
    assert of(events, PurchaseDropped)[0].reason == "cash"  # 4 < 5, no factory to sell (ME-X-1.3)
    assert state.players[0].cash == 8 and cash(state, A) == 4 and resolved(state)


def test_me_x_1_the_preferred_gift_is_never_more_than_the_shortfall_or_the_cash() -> None:
    """§17 with ME-X-1.1: the gift is at most min(shortfall, personal cash), whatever X is."""
    events, state = resolve(prefer(player(short_buyer(), 0, cash=10), 0, 100))
    assert of(events, ShortfallCovered)[0].amount == 3 and of(events, ImportBought)
    assert state.players[0].cash == 7 and cash(state, A) == 0
    events, state = resolve(prefer(player(short_buyer(), 0, cash=1), 0, 100))
    assert of(events, ShortfallCovered)[0].amount == 1 and state.players[0].cash == 0


@pytest.mark.parametrize(("ranked", "sold"), [
    (("steel_works", "quarry"), "steel_works"),  # the first ranked type it owns
    (("shipyard", "power_plant"), "power_plant"),  # a ranked type it does not own is passed over
    (("shipyard",), "quarry"),  # nothing ranked is owned: table 15.2's order
    ((), "quarry"),
])
def test_me_x_1_the_sale_follows_the_ranked_list_then_the_table_order(ranked: tuple[str, ...], sold: str) -> None:
    """§17 with ME-X-1.2: still short after the gift, the first type of the ranked list the corporation owns is
    sold (for 2 EUR, through the manager's own sale rule), else the first it owns in table 15.2's order."""
    state = short_buyer(cash=2, factories=factories(quarry=1, power_plant=1, steel_works=1))
    events, state = resolve(prefer(player(state, 0, cash=0), 0, 5, *ranked))
    assert of(events, FactorySold) == [FactorySold(corporation=A, factory=sold, value=2, forced=True,
                                                   by_preference=True)]
    assert not of(events, ShortfallCovered)  # no cash, open cash: nothing to give, nothing to ask (ME-X-1.1)
    assert resolved(state)


def test_me_x_1_a_gift_and_a_sale_by_preference_in_one_shortfall() -> None:
    """§17 with ME-X-1.1-2: the gift first; still short, the ranked sale; enough, the purchase goes through."""
    state = short_buyer(cash=1, factories=factories(quarry=1, coal_mine=1))
    events, state = resolve(prefer(player(state, 0, cash=2), 0, 2, "coal_mine"))
    assert [type(e) for e in events if isinstance(e, ShortfallCovered | FactorySold | ImportBought)] == [
        ShortfallCovered, FactorySold, ImportBought]
    assert of(events, FactorySold)[0].factory == "coal_mine" and cash(state, A) == 0


def test_me_x_1_without_preferences_the_manager_is_still_asked() -> None:
    """§17: preferences are the manager's choice; without them nothing changes (ME-X-1.1: the manager decides)."""
    _, state = resolve(player(short_buyer(factories=factories(quarry=1, power_plant=1)), 0, cash=10))
    assert pending(state).seats == (0,) and state.shortfall is not None
    assert legal_commands(state, 0)[0].command == CoverShortfall(amount=3)
    events, state = act(state, 0, CoverShortfall(amount=0))
    assert of(events, ShortfallCovered)[0].by_preference is False
    assert {t.command for t in legal_commands(state, 0)} == {SellForShortfall(factory="quarry"),
                                                           SellForShortfall(factory="power_plant")}


def test_me_x_1_interest_is_answered_by_preference_too() -> None:
    """§17 with ME-F-1: the interest step does not wait either."""
    state = player(corp(order(game(2), A, B), A, cash=0, credits=1), 0, cash=4)
    state = prefer(state, 0, 10)
    events, state = settled(at(state, Step.INTEREST, number=5, stage=2))
    assert of(events, ShortfallCovered)[0].by_preference and of(events, InterestPaid)
    assert state.shortfall is None


def test_me_x_1_with_hidden_cash_a_preference_answers_without_asking() -> None:
    """ME-S-10 with §17: with hidden cash a manager is always asked (ME-X-1.1), unless its preference answers."""
    state = replace(short_buyer(), variant=Variant(players=2, player_cash_hidden=True))
    events, state = resolve(prefer(state, 0, 4))
    assert of(events, ShortfallCovered) == [ShortfallCovered(corporation=A, seat=0, amount=0, by_preference=True)]
    assert resolved(state)


def test_me_x_1_preferences_set_while_asked_answer_the_waiting_shortfall() -> None:
    """§17: "when these are set the service answers for them": a manager who sets them while the procedure waits
    for it is answered at once."""
    _, state = resolve(player(short_buyer(), 0, cash=10))
    assert pending(state).seats == (0,)
    events, state = act(state, 0, SetShortfallPreferences(cover_up_to=3))
    assert isinstance(events[0], ShortfallPreferencesSet)
    assert of(events, ShortfallCovered)[0].amount == 3 and of(events, ImportBought) and state.shortfall is None


def test_me_x_1_cleared_preferences_ask_the_manager_again() -> None:
    """§17: withdrawn, the manager is asked again; nothing to withdraw is refused."""
    state = prefer(player(short_buyer(), 0, cash=10), 0, 3)
    events, state = act(state, 0, ClearShortfallPreferences())
    assert events == [ShortfallPreferencesCleared(seat=0)] and state.players[0].preferences is None
    _, asked = resolve(state)
    assert pending(asked).seats == (0,)
    with pytest.raises(InvalidValue):
        act(state, 0, ClearShortfallPreferences())


# -- the command: any time, nothing else --------------------------------------------------------------------------


def test_me_x_1_the_preferences_are_set_outside_the_seats_turn_and_change_nothing_else() -> None:
    """§17: a standing preference is not a move: accepted whoever's turn it is, it records one event and the game
    still waits for the same seats at the same step."""
    state = at(order(game(2), A, B), Step.INVEST)
    assert pending(state).seats == (0,)
    command = SetShortfallPreferences(cover_up_to=7, sell_first=("shipyard", "quarry"))
    events, after = act(state, 1, command)
    assert events == [ShortfallPreferencesSet(seat=1, cover_up_to=7, sell_first=("shipyard", "quarry"))]
    assert after.players[1].preferences == Preferences(cover_up_to=7, sell_first=("shipyard", "quarry"))
    assert replace(after, players=state.players) == state
    assert pending(after) == pending(state) and legal_commands(after, Seat(1)) == []
    events, again = act(after, 0, SetShortfallPreferences(cover_up_to=0))  # on turn: its turn goes on
    assert len(events) == 1 and not again.done and pending(again) == pending(state)


def test_me_x_1_bad_preferences_are_refused() -> None:
    """§17: the ranked list names factory types of table 15.2, each once; not before the game is set up."""
    state = game(2)
    with pytest.raises(NoSuchThing):
        act(state, 1, SetShortfallPreferences(cover_up_to=1, sell_first=("castle",)))
    with pytest.raises(InvalidValue):
        act(state, 1, SetShortfallPreferences(cover_up_to=1, sell_first=("quarry", "quarry")))
    with pytest.raises(WrongPhase):
        act(initial_state(), 0, SetShortfallPreferences(cover_up_to=1))
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"type": "master_of_economy.set_shortfall_preferences", "cover_up_to": -1}',
                            type=SetShortfallPreferences)


# -- private to the seat ------------------------------------------------------------------------------------------


def test_me_x_1_only_the_seat_sees_its_preferences() -> None:
    """§17 (hidden information): how much cash a seat would commit is its own: another seat and the public get
    neither the event nor the view's field; ``hide`` varies them without changing anything those viewers are shown;
    after the end everything is open."""
    state = prefer(game(3), 1, 9, "quarry")
    event = ShortfallPreferencesSet(seat=1, cover_up_to=9, sell_first=("quarry",))
    assert redact(event, Seat(1), False) == event
    assert redact(event, Seat(0), False) is None and redact(event, PUBLIC, False) is None
    assert redact(ShortfallPreferencesCleared(seat=1), Seat(2), False) is None
    assert redact(event, AUDITOR, False) == event and redact(event, Seat(0), True) == event
    assert view(state, Seat(1)).players[1].preferences == Preferences(cover_up_to=9, sell_first=("quarry",))
    for viewer in (PUBLIC, Seat(0), Seat(2)):
        shown = view(state, viewer)
        assert all(p.preferences is None for p in shown.players)
        assert "cover_up_to" not in msgspec.json.encode(shown).decode()
        differs = False
        for seed in range(1, 10):
            hidden = hide(state, viewer, seed)
            assert view(hidden, viewer) == shown
            differs |= hidden.players[1].preferences != state.players[1].preferences
        assert differs, "hide must vary what the viewer may not know"
    assert hide(state, Seat(1), 3).players[1].preferences == state.players[1].preferences
    told = Narrator({1: "Bob"}).tell(9, "master_of_economy.shortfall_preferences_set", event)
    assert told and "Bob" in text(told[0], {1: "Bob"}) and "9 €" in text(told[0], {1: "Bob"})


# -- timeouts: the stand-in -------------------------------------------------------------------------------------


def test_me_x_1_a_timed_out_manager_gives_0_and_sells_by_the_table_order() -> None:
    """§17: "Timeouts use the preference, or else cover 0 and sell the first factory by type order in table
    15.2": the table's stand-in (the greedy bot) answers the waiting shortfall so."""
    table = seated(GAME)
    state = player(short_buyer(cash=2, factories=factories(power_plant=1, coal_mine=1)), 0, cash=10)
    _, state = resolve(state)
    state = table.evolve(state, TimedOut(seat=0, at=1, policy="stand_in_move", level="greedy"))
    assert table.pending(state).system == StandIn(seat=0)
    events, state = table.step(state, SYSTEM, StandIn(seat=0), Chance(b"t", 1))
    assert isinstance(events[0], StoodIn)
    assert of(events, ShortfallCovered) == [ShortfallCovered(corporation=A, seat=0, amount=0)]
    assert table.pending(state).system == StandIn(seat=0)  # the sale is the same seat's next decision
    events, state = table.step(state, SYSTEM, StandIn(seat=0), Chance(b"t", 2))
    assert of(events, FactorySold)[0].factory == "coal_mine"  # before the power plant in table 15.2


def test_me_x_1_the_stand_in_uses_the_preferences_when_there_are_some() -> None:
    """§17: a stand-in answers a waiting shortfall as the preferences would (set on the state directly here: set by
    the command, the rules would have answered already)."""
    _, asked = resolve(player(short_buyer(factories=factories(quarry=1, shipyard=1)), 0, cash=10))
    prefs = Preferences(cover_up_to=1, sell_first=("shipyard",))
    assert Greedy(1)(player(asked, 0, preferences=prefs), Seat(0)) == CoverShortfall(amount=1)
    _, covered = act(asked, 0, CoverShortfall(amount=1))
    assert Greedy(1)(player(covered, 0, preferences=prefs), Seat(0)) == SellForShortfall(factory="shipyard")
    assert Greedy(1)(covered, Seat(0)) == SellForShortfall(factory="quarry")


# -- whole games --------------------------------------------------------------------------------------------------


def _preference(chance: Chance) -> Any:
    if chance.below(4) == 0:
        return ClearShortfallPreferences()
    keys = ["quarry", "coal_mine", "ore_mine", "power_plant", "steel_works", "shipyard"]
    return SetShortfallPreferences(cover_up_to=chance.below(12), sell_first=tuple(chance.shuffle(keys)[
        : chance.below(7)]))


def _play(options: dict[str, Any], game_number: int) -> tuple[State, list[MoeEvent], int]:
    """A whole game of bots in which, every few commands, a seat (on turn or not) changes its preferences."""
    seed = f"prefs:{sorted(options.items())}:{game_number}".encode()
    chance = Chance(seed + b":prefs", 0)
    state, events, answered = initial_state(), [], 0
    bots = [(Greedy if s % 2 else RandomLegal)(game_number * 5 + s) for s in range(4)]
    command: Any = StartGame(options=GameOptions(**options), seed_commitment="c")
    actor: Any = SYSTEM
    for n in range(20_000):
        new, after = GAME.step(state, actor, command, Chance(seed, len(events) + 1))
        folded = state
        for i, event in enumerate(new):
            folded = evolve(folded, event)
            assert_invariants(folded, f"game {game_number}, command {n}, event {i} ({type(event).__name__})")
        assert folded == after
        if isinstance(command, SetShortfallPreferences | ClearShortfallPreferences) and (
                state.shortfall is None or actor not in pending(state).seats):
            assert len(new) == 1 and pending(after) == pending(state), "a preference is not a move"
        answered += sum(1 for e in new if getattr(e, "by_preference", False))
        state, events = after, events + new
        if n % 11 == 0:
            for viewer in [PUBLIC, *(Seat(s) for s in range(len(state.players)))]:
                assert GAME.view(GAME.hide(state, viewer, n), viewer, False) == GAME.view(state, viewer, False)
        due = GAME.pending(state)
        if due.finished:
            return state, events, answered
        if due.system is not None:
            actor, command = SYSTEM, due.system
            continue
        if n % 5 == 0 and state.players:
            actor = chance.below(len(state.players))
            command = _preference(chance)
            if isinstance(command, ClearShortfallPreferences) and state.players[actor].preferences is None:
                command = SetShortfallPreferences(cover_up_to=chance.below(5))
            continue
        actor = due.seats[n % len(due.seats)]
        command = bots[actor](state, Seat(actor))
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize("options", [{"players": 2, "additional_corporation": True},
                                     {"players": 3, "player_cash_hidden": True, "start_order": "auction"},
                                     {"players": 4}])
def test_me_x_1_games_with_standing_preferences_keep_every_invariant(options: dict[str, Any]) -> None:
    """§17 and §14.1 in whole games: preferences set and cleared at random moments, on turn or not; every
    invariant after every event, what a viewer may not know changes nothing it is shown, the log replays."""
    answered = 0
    for number in range(3):
        state, events, count = _play(options, number)
        answered += count
        assert GAME.outcome(state) is not None
        decoded = msgspec.json.decode(msgspec.json.encode(events), type=list[MoeEvent])
        assert replay(decoded) == state
    assert answered, "some shortfall should have been answered by a preference"
