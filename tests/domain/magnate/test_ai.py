"""The AI opponent (spec §11, T14-T16): one test per rule, each from a constructed situation.

Most situations use a board with known tiles and no 'for sale' markers (``started_with_tiles``), with the
human in seat 0 and the AI in seat 1. A particular AI card is forced by making it the only card of the
current level's deck (:func:`with_card`). Every kind of AI decision event (``AiDecided``) has its reason
asserted at least once, so the log keeps explaining the AI in the same words.

Tile positions used throughout (``TILES``), with the plots that matter:

* 1 Train Station: features on D and E (Home +1, Office +1); 1A and 1G touch them.
* 2 Municipal Airport: airport on C and F (Office +1, Home -1), airport car park on G (Retail +1,
  Industry +1); 2B touches only the airport, 2E touches the airport and the car park.
* 3 Ridgeway: woods on C (Home +1), car park on D (Retail +1); 3A touches only the car park; 3I, 3G and 3H
  touch no feature.
* 4 Halestown: woods on F, industrial car park on G; 4D touches only the industrial car park.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, TypeVar

import pytest
from msgspec.structs import replace

from domain.kernel import SYSTEM
from domain.magnate import MagnateState
from domain.magnate.ai import actions as ai_actions
from domain.magnate.ai import attraction as ai_attraction
from domain.magnate.ai.bidding import bid_amount
from domain.magnate.ai.tiebreak import break_tie, face_to_candidate
from domain.magnate.catalog import TenantKind, catalog
from domain.magnate.commands import Consult, PassBid, PlaceBid, ProcessMarket, TakeAiTurn
from domain.magnate.events import (
    AiAdvertised,
    AiCardDrawn,
    AiCardResolved,
    AiDecided,
    AiDeckReshuffled,
    AiDieRolled,
    AiHoldingsChanged,
    AiLevelRaised,
    AttractionStarted,
    BidPassed,
    BidPlaced,
    BuildingBuilt,
    Consulted,
    DiceRolled,
    DiceSettled,
    FirstPlayerDecided,
    LandBought,
    MarketCrashed,
    PlotLiquidated,
    PlotSold,
    RentCollected,
    TenantsMovedIn,
)
from domain.magnate.state import Auction, Phase

from .builders import (
    advance,
    in_actions,
    in_attracting,
    in_bidding,
    in_market,
    plot,
    run,
    set_available,
    set_cash,
    set_plot,
    started,
    started_with_tiles,
)

CAT = catalog("v1")
E = TypeVar("E")

HUMAN, AI = 0, 1
TILES = ("train_station", "municipal_airport", "ridgeway", "halestown", "lyndal", "matthews_yard")
DIFFICULTIES = ("digital_assistant", "generalised_ai", "robot_overlord", "the_singularity")
TYPES = ("home", "retail", "office", "industry")


# --- helpers ----------------------------------------------------------------------------------------------------


def of(events: Sequence[object], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def solo(**kwargs: Any) -> MagnateState:
    """Human (seat 0) against the AI (seat 1) on the known tiles, no 'for sale' plot anywhere."""
    return started_with_tiles(TILES, 2, ai=True, **kwargs)


def ai_board(state: MagnateState, **changes: Any) -> MagnateState:
    assert state.ai is not None
    return replace(state, ai=replace(state.ai, **changes))


def with_card(state: MagnateState, card: str) -> MagnateState:
    """The AI at the card's level with that card the only one in the level's deck (so it is drawn next)."""
    assert state.ai is not None
    level = CAT.ai_cards[card].level
    decks = tuple(
        (card,) if i == level - 1 else tuple(c for c in deck if c != card) for i, deck in enumerate(state.ai.decks)
    )
    return ai_board(state, decks=decks, level=level)


def unbuilt(state: MagnateState, *plots: str | None) -> MagnateState:
    """AI-owned unbuilt plots in the AI's bottom row, slot by slot (None = an empty slot)."""
    for name in plots:
        if name is not None:
            state = set_plot(state, name, owner=AI, building=None, tenants=(), for_sale=False)
    return ai_board(state, bottom_row=tuple(plots))


def built(state: MagnateState, *plots: tuple[str, str, tuple[str, ...]]) -> MagnateState:
    """AI-owned buildings ``(plot, building, tenants)`` in the AI's top row, left to right."""
    for name, building, tenants in plots:
        state = set_plot(state, name, owner=AI, building=building, tenants=tenants, for_sale=False)
    return ai_board(state, top_row=tuple(name for name, _, _ in plots))


def for_sale(state: MagnateState, *plots: str) -> MagnateState:
    for name in plots:
        state = set_plot(state, name, for_sale=True)
    return state


def ai_action(state: MagnateState, card: str, version: int = 100) -> tuple[list[Any], MagnateState]:
    """One AI action turn in phase 3 with ``card`` drawn."""
    return run(in_actions(with_card(state, card), first_player=AI), SYSTEM, TakeAiTurn(), version=version)


def ai_attracts(state: MagnateState) -> tuple[list[Any], MagnateState]:
    """The AI's phase 2 turn (it is first player)."""
    return run(in_attracting(state, first_player=AI), SYSTEM, TakeAiTurn())


def card_decision(events: Sequence[object]) -> AiDecided:
    """The AiDecided that names the card (the branch and fallbacks taken)."""
    [decided] = [e for e in of(events, AiDecided) if e.card is not None]
    return decided


def detail(events: Sequence[object], action: str) -> AiDecided:
    """The AiDecided explaining how an action was carried out (which plot, which building)."""
    [decided] = [e for e in of(events, AiDecided) if e.card is None and e.action == action]
    return decided


class ScriptedDie:
    """A chance source whose die shows the given faces in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def roll(self, count: int, sides: int = 6) -> tuple[int, ...]:
        assert (count, sides) == (1, 6)
        return (self.faces.pop(0),)

    def below(self, n: int) -> int:
        return n - 1


# --- §11.1 setup -------------------------------------------------------------------------------------------------


def test_the_ai_starts_with_2000k_no_advertising_level_i_and_its_four_decks() -> None:
    """§11.1 steps 2-6, T14: 2,000K, no advertising tokens, level I, one deck per level (9/6/6/8 cards, each
    holding exactly its level's cards), empty rows and discard pile, no card resolved yet."""
    state = started(2, ai=True)
    ai = state.ai
    assert ai is not None and ai.seat == AI
    assert state.seats[AI].kind == "ai" and state.seats[AI].company == CAT.setup.ai_company.key
    assert (state.seats[AI].cash, state.seats[AI].advertising) == (2000, 0)
    assert (state.seats[HUMAN].cash, state.seats[HUMAN].advertising) == (2000, 4)
    assert ai.level == 1
    assert [len(deck) for deck in ai.decks] == [9, 6, 6, 8]
    for level, deck in enumerate(ai.decks, start=1):
        assert {CAT.ai_cards[c].level for c in deck} == {level}
    assert sorted(c for deck in ai.decks for c in deck) == sorted(CAT.ai_cards)
    assert (ai.discard, ai.last_card, ai.bottom_row, ai.top_row) == ((), None, (), ())


@pytest.mark.parametrize(("humans", "board"), [(1, 2), (2, 3), (3, 4), (4, 5)])
def test_the_ai_counts_as_a_seat_so_solo_uses_the_two_player_board(humans: int, board: int) -> None:
    """§11.1 step 1: the board is chosen for the seats including the AI: solo -> the 2-player board (6 'for
    sale' markers, 4/4/1/1 starting tenants); 2 humans + AI -> the 3-player board (8 markers)."""
    state = started(humans + 1, ai=True)
    spec = CAT.board(board)
    assert sum(p.for_sale for p in state.plots) == spec.setup_for_sale
    assert dict(zip(CAT.type_order, state.available, strict=True)) == spec.start_tenants


@pytest.mark.parametrize("version", range(1, 9))
def test_the_first_ai_action_is_the_first_action_card_buy_land(version: int) -> None:
    """§11.1 step 3, §11.5 step 5: "first AI action" is the top card of level I, whatever the chance source
    says, and it buys land (the setup put 'for sale' markers on the board)."""
    state = in_actions(started(2, ai=True), first_player=AI)

    events, after = run(state, SYSTEM, TakeAiTurn(), version=version)

    assert of(events, AiCardDrawn) == [AiCardDrawn(seat=AI, card="AI-I-01", level=1)]
    assert card_decision(events) == AiDecided(seat=AI, card="AI-I-01", action="buy", reason="AI-I-01: Buy land")
    [bought] = of(events, LandBought)
    assert (bought.seat, bought.price) == (AI, 0)
    assert after.ai is not None and after.ai.last_card == "AI-I-01"


@pytest.mark.parametrize("seed", [b"first-1", b"first-2", b"first-3", b"first-4"])
def test_in_a_real_game_the_ais_first_card_is_the_first_action_card(seed: bytes) -> None:
    """§11.5 step 5 through a real round 1: the human passes the bid and consults; the AI's first card is
    AI-I-01 and its first action buys land."""
    state = started(2, ai=True, seed=seed)
    events: list[Any] = []
    while not of(events, AiCardDrawn):
        more, state = advance(state)
        events += more
        if not of(events, AiCardDrawn):
            more, state = run(state, HUMAN, PassBid() if state.phase == Phase.BIDDING else Consult())
            events += more
    assert of(events, AiCardDrawn)[0].card == "AI-I-01"
    assert card_decision(events).action == "buy"


# --- §11.3 bidding -----------------------------------------------------------------------------------------------


def test_rulebook_bid_example_level_iii_land_price_1_1m_bids_1_7m() -> None:
    """§11.3 and A12: level III, land price 1.1M -> 1.5 x 1.1M = 1.65M, rounded UP to 1.7M (not to the
    nearest 100K, §16 C5); the reason shows the multiplier, the price and the bid."""
    state = ai_board(replace(solo(), land_price=11), level=3)

    events, _ = run(in_bidding(state, opener=AI), SYSTEM, TakeAiTurn())

    assert of(events, BidPlaced) == [BidPlaced(seat=AI, amount=1700)]
    assert of(events, AiDecided) == [
        AiDecided(seat=AI, card=None, action="bid", reason="level III: 150% of land price 1.1M → bid 1.7M")
    ]


@pytest.mark.parametrize(
    ("level", "position", "bid"),
    [
        (1, 4, 300),  # x1.0 x 300K
        (1, 28, 2800),  # x1.0 x 2.8M
        (2, 5, 700),  # x1.25 x 500K = 625K -> 700K
        (2, 8, 1000),  # x1.25 x 800K = 1M exactly: no rounding
        (3, 7, 1100),  # x1.5 x 700K = 1.05M -> 1.1M
        (3, 11, 1700),  # the rulebook example
        (4, 11, 2200),  # x2.0 x 1.1M
        (4, 28, 5600),  # more than the AI's cash: it never pays, so it may bid it
    ],
)
def test_the_solo_bid_is_the_level_multiplier_times_land_price_rounded_up(level: int, position: int, bid: int) -> None:
    """§11.3, T14: B = multiplier(level) x land price, rounded up to 100K."""
    state = ai_board(replace(solo(), land_price=position), level=level)
    assert bid_amount(state) == bid
    events, _ = run(in_bidding(state, opener=AI), SYSTEM, TakeAiTurn())
    assert of(events, BidPlaced) == [BidPlaced(seat=AI, amount=bid)]


def test_the_ai_wins_the_auction_without_paying() -> None:
    """§11.3: if the AI wins it takes the first-player marker and pays nothing."""
    state = ai_board(replace(solo(), land_price=11), level=3)
    _, state = run(in_bidding(state, opener=AI), SYSTEM, TakeAiTurn())

    events, after = run(state, HUMAN, PassBid())

    assert of(events, FirstPlayerDecided) == [FirstPlayerDecided(seat=AI, paid=0)]
    assert after.first_player == AI
    assert after.seats[AI].cash == 2000


def test_the_ai_passes_when_its_bid_is_not_above_the_high_bid() -> None:
    """§11.3: B <= the current highest bid -> pass (equal is not enough: a bid must beat the high bid)."""
    state = ai_board(replace(solo(), land_price=11), level=3)
    _, state = run(in_bidding(state, opener=HUMAN), HUMAN, PlaceBid(amount=1700))

    events, _ = run(state, SYSTEM, TakeAiTurn())

    assert of(events, BidPassed) == [BidPassed(seat=AI)]
    assert of(events, AiDecided) == [
        AiDecided(
            seat=AI,
            card=None,
            action="pass",
            reason="level III: 150% of land price 1.1M = 1.7M, not above the high bid of 1.7M",
        )
    ]
    assert of(events, FirstPlayerDecided) == [FirstPlayerDecided(seat=HUMAN, paid=1700)]


def test_the_ai_bids_over_a_lower_bid_then_passes_once_outbid() -> None:
    """§11.3: the AI bids B over a lower bid; outbid, it passes (it bids at most once per round)."""
    state = ai_board(replace(solo(), land_price=11), level=3)
    _, state = run(in_bidding(state, opener=HUMAN), HUMAN, PlaceBid(amount=1000))
    events, state = run(state, SYSTEM, TakeAiTurn())
    assert of(events, BidPlaced) == [BidPlaced(seat=AI, amount=1700)]
    _, state = run(state, HUMAN, PlaceBid(amount=1800))

    events, _ = run(state, SYSTEM, TakeAiTurn())

    assert of(events, BidPassed) == [BidPassed(seat=AI)]
    assert of(events, FirstPlayerDecided) == [FirstPlayerDecided(seat=HUMAN, paid=1800)]


def test_the_ai_bids_only_once_per_round_even_if_its_bid_would_beat_the_high_bid() -> None:
    """§11.3 "it bids at most once per round": an auction in which the AI already bid (constructed so that
    its B would still beat the high bid) -> pass, with that reason."""
    state = ai_board(replace(solo(), land_price=11), level=3)
    auction = Auction(opener=HUMAN, turn=AI, high_bid=500, high_bidder=HUMAN, bidders=(HUMAN, AI))
    state = replace(in_bidding(state, opener=HUMAN), auction=auction)

    events, _ = run(state, SYSTEM, TakeAiTurn())

    assert of(events, AiDecided) == [
        AiDecided(seat=AI, card=None, action="pass", reason="the AI bids only once per round")
    ]
    assert of(events, BidPassed) == [BidPassed(seat=AI)]


def test_with_two_humans_the_ai_always_passes_and_is_first_only_as_an_opener_everyone_passed_to() -> None:
    """§11.3: with two or more humans the AI always passes, even as the opener with no bid on the table; it
    becomes first player only if it opened and every human passed (and pays nothing)."""
    ai = 2
    state = started_with_tiles(TILES, 3, ai=True)
    state = in_bidding(state, opener=ai)

    events, state = run(state, SYSTEM, TakeAiTurn())
    assert of(events, AiDecided) == [
        AiDecided(seat=ai, card=None, action="pass", reason="with two or more humans the AI always passes")
    ]
    assert of(events, BidPassed) == [BidPassed(seat=ai)]
    _, state = run(state, 0, PassBid())
    events, state = run(state, 1, PassBid())
    assert of(events, FirstPlayerDecided) == [FirstPlayerDecided(seat=ai, paid=0)]


# --- §11.4 attraction --------------------------------------------------------------------------------------------


def test_the_ai_attracts_to_every_top_row_building_below_capacity_in_top_row_order() -> None:
    """§11.4 step 1: left to right along the top row (not coordinate order); a full building is skipped. It
    rolls nothing: no DiceRolled, no tie-break die."""
    state = built(solo(), ("3A", "retail_unit", ()), ("3I", "house", ("home",)), ("1A", "house", ()))

    events, _ = ai_attracts(state)

    assert [e.plot for e in of(events, AttractionStarted)] == ["3A", "1A"]
    assert of(events, DiceRolled) == []
    assert of(events, AiDieRolled) == []


def test_every_ai_die_counts_as_a_six_plus_the_modifiers_with_standard_set_counting() -> None:
    """§11.4 steps 2-3: a shopping mall on 3A (car park: Retail +1; building bonus +1) rolls the normal
    number of dice (home population nearby = the centre's 6), all 6 + 2 = 8; retail needs 2 dice >= 4, so 3
    sets; room 6 and 4 retail available -> 3 tenants."""
    state = built(solo(), ("3A", "shopping_mall", ()))

    events, after = ai_attracts(state)

    assert of(events, AttractionStarted) == [AttractionStarted(seat=AI, plot="3A", advertising=0, dice=6)]
    assert of(events, DiceSettled) == [DiceSettled(seat=AI, plot="3A", fives=(), modifier=2, final=(8,) * 6)]
    assert of(events, TenantsMovedIn) == [TenantsMovedIn(seat=AI, plot="3A", tenants=("retail",) * 3)]
    assert detail(events, "attract").reason == "3A: 6 dice as 6+2 = 8: 3 set(s), room for 6 → 3 tenant(s)"
    assert plot(after, "3A").tenants == ("retail",) * 3


@pytest.mark.parametrize(("home_tokens", "tenants"), [(0, 0), (2, 0), (3, 1), (5, 1), (6, 2)])
def test_the_ai_rolls_only_as_many_sixes_as_the_nearby_population_allows(home_tokens: int, tenants: int) -> None:
    """§11.4 step 2 with §6.2: an office rolls one die per nearby home population; offices need 3 dice >= 5,
    so sixes only help in threes. The home population is set on the centre's apartments."""
    state = built(solo(), ("3I", "superior_office", ()))
    state = set_plot(state, "0H", tenants=("home",) * min(home_tokens, 3))
    state = set_plot(state, "0I", tenants=("home",) * max(0, home_tokens - 3))
    state = set_available(state, home=4, retail=4, office=3, industry=1)

    events, _ = ai_attracts(state)

    [started_] = of(events, AttractionStarted)
    assert started_.dice == home_tokens
    assert of(events, TenantsMovedIn) == [TenantsMovedIn(seat=AI, plot="3I", tenants=("office",) * tenants)]


@pytest.mark.parametrize(
    ("building", "available", "moved"),
    [("retail_unit", 4, 2), ("shopping_mall", 1, 1), ("shopping_mall", 0, 0)],
    ids=["capacity", "availability", "none-available"],
)
def test_ai_tenants_are_limited_by_capacity_and_availability(building: str, available: int, moved: int) -> None:
    """§11.4 step 3 / §6.4: 3 sets, but a retail unit has room for 2, and only the available tokens move."""
    state = set_available(built(solo(), ("3A", building, ())), home=4, retail=available, office=1, industry=1)

    events, _ = ai_attracts(state)

    assert of(events, TenantsMovedIn) == [TenantsMovedIn(seat=AI, plot="3A", tenants=("retail",) * moved)]


def advanced_apartment(boutiques: int, penalty: bool = False) -> MagnateState:
    """Advanced game: an AI apartment on 4A (no home modifier); the retail population nearby is the centre's 4
    plus ``boutiques`` (on 4I, no effects), so it rolls min(office 6, retail) dice; a small factory on 4B
    (Home -1) lowers every die to 5."""
    state = solo(advanced=True)
    state = set_plot(state, "4I", building="shopping_mall", tenants=("boutique",) * boutiques)
    if penalty:
        state = set_plot(state, "4B", building="industrial_unit", tenants=("small_factory",))
    state = built(state, ("4A", "apartment", ()))
    return set_available(state, students=5, professional_couple=1, family=1)


@pytest.mark.parametrize(
    ("boutiques", "penalty", "tenants"),
    [
        (2, False, ("family", "professional_couple", "students")),
        (1, False, ("family", "professional_couple")),
        (2, True, ("professional_couple", "students", "students")),
    ],
    ids=["6-dice-of-6", "5-dice-of-6", "6-dice-of-5"],
)
def test_advanced_ai_takes_the_hardest_subtype_first_while_dice_and_room_last(
    boutiques: int, penalty: bool, tenants: tuple[str, ...]
) -> None:
    """§11.4 step 4: repeatedly the hardest available subtype the dice allow (family 2x>=6 before couple
    2x>=5 before students 2x>=4), consuming k dice each; with 5 dice one die is left over; with dice of 5
    the family does not qualify."""
    events, after = ai_attracts(advanced_apartment(boutiques, penalty))

    [moved] = of(events, TenantsMovedIn)
    assert sorted(moved.tenants) == sorted(tenants)
    assert sorted(plot(after, "4A").tenants) == sorted(tenants)
    value = 5 if penalty else 6
    dice = 4 + boutiques
    assert detail(events, "attract").reason == (
        f"4A: {dice} dice as 6{value - 6:+d} = {value}: hardest tenants first → {len(tenants)} tenant(s)"
    )


def _patched_catalog(monkeypatch: pytest.MonkeyPatch, **kinds: TenantKind) -> None:
    """Make the AI attraction see changed tenant subtypes (v1 has no two subtypes of one type with the same
    requirement, so the rent and die tie-breaks cannot be reached with the real data)."""
    fake = copy.copy(CAT)
    fake.kinds = {**CAT.kinds, **kinds}
    monkeypatch.setattr(ai_attraction, "catalog_of", lambda state: fake)


def test_advanced_ai_breaks_a_requirement_tie_by_the_highest_rent(monkeypatch: pytest.MonkeyPatch) -> None:
    """§11.4 step 4: same (t, k) -> the higher rent first. The couple is made as hard as the family (2x>=6)
    at rent 300; the family (500) comes first, then the couple; no die is rolled."""
    couple = CAT.kinds["professional_couple"]
    _patched_catalog(monkeypatch, professional_couple=replace(couple, requirement=CAT.kinds["family"].requirement))
    state = set_available(advanced_apartment(1), students=5, professional_couple=1, family=1)

    events, _ = ai_attracts(state)

    assert of(events, AiDieRolled) == []
    [moved] = of(events, TenantsMovedIn)
    assert moved.tenants == ("family", "professional_couple")


def test_advanced_ai_breaks_a_full_tie_with_the_die_in_t3_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """§11.4 step 4: same (t, k) and rent -> the die (§11.7) among the tied subtypes in T3 order (couple
    before family). One token of each: the die picks the first, the other follows."""
    family = CAT.kinds["family"]
    _patched_catalog(
        monkeypatch,
        professional_couple=replace(CAT.kinds["professional_couple"], requirement=family.requirement, rent=family.rent),
    )
    state = set_available(advanced_apartment(1), students=5, professional_couple=1, family=1)

    events, _ = ai_attracts(state)

    [die] = of(events, AiDieRolled)
    assert (die.purpose, die.candidates) == ("tenant subtype", ("professional_couple", "family"))
    assert die.chosen == ("professional_couple", "family")[face_to_candidate(die.faces[-1], 2) or 0]
    [moved] = of(events, TenantsMovedIn)
    assert sorted(moved.tenants) == ["family", "professional_couple"]


def test_before_any_card_the_ai_adds_no_advertising_but_still_reports_it() -> None:
    """§11.4 step 5, Q-AIADS: every round, even without buildings; 0 before any card is resolved."""
    state = replace(solo(), advertising_spent=1)

    events, after = ai_attracts(state)

    assert of(events, AiAdvertised) == [AiAdvertised(seat=AI, tokens=0, card=None)]
    assert after.advertising_spent == 1


@pytest.mark.parametrize(("card", "tokens"), [("AI-I-06", 2), ("AI-I-04", 0), ("AI-III-06", 3)])
def test_the_ai_adds_the_advertising_icon_of_its_last_resolved_card(card: str, tokens: int) -> None:
    """§11.4 step 5: the icon of the most recently resolved card (T15) joins the round's advertising spent
    (here on top of 1 token committed by the human), with or without buildings."""
    state = ai_board(replace(solo(), advertising_spent=1), last_card=card, discard=("AI-I-01", card))

    events, after = ai_attracts(state)

    assert of(events, AiAdvertised) == [AiAdvertised(seat=AI, tokens=tokens, card=card)]
    assert after.advertising_spent == 1 + tokens


def test_the_ai_never_collects_rent() -> None:
    """§11.2: the AI's full apartment (5 homes, rent 1.5M for a human) pays it nothing."""
    state = built(solo(), ("3I", "apartment", ("home",) * 5))

    events, after = ai_attracts(state)

    assert of(events, AttractionStarted) == []
    assert of(events, RentCollected)[0] == RentCollected(seat=AI, amount=0)
    assert after.seats[AI].cash == 2000


# --- §11.5 choosing the action -----------------------------------------------------------------------------------


def ready(state: MagnateState) -> MagnateState:
    """Every AI action possible: a 'for sale' plot (3I), an unbuilt AI plot (3G), an AI building (3H)."""
    state = for_sale(state, "3I")
    state = unbuilt(state, "3G")
    return built(state, ("3H", "house", ("home",)))


@pytest.mark.parametrize(
    ("card", "changes", "action", "reason"),
    [
        ("AI-I-04", {}, "build", "AI-I-04: Build"),
        ("AI-I-02", {}, "buy", "AI-I-02: Buy land"),
        ("AI-I-09", {}, "consult", "AI-I-09: Consult"),
        ("AI-I-07", {"land_price": 5}, "build", "AI-I-07: land price 500K ≥ 500K → Build"),
        ("AI-I-07", {"land_price": 4}, "buy", "AI-I-07: land price 300K < 500K → Buy land"),
        ("AI-III-01", {"land_price": 11}, "sell", "AI-III-01: land price 1.1M ≥ 1.1M → Sell"),
        ("AI-III-01", {"land_price": 10}, "build", "AI-III-01: land price 1M < 1.1M → Build"),
        ("AI-II-06", {"crash": 7}, "build", "AI-II-06: crash marker 7 ≥ 7 → Build"),
        ("AI-II-06", {"crash": 6}, "sell", "AI-II-06: crash marker 6 < 7 → Sell"),
        ("AI-IV-01", {"crash": 5}, "build", "AI-IV-01: crash marker 5 ≥ 5 → Build"),
        ("AI-IV-01", {"crash": 4}, "sell", "AI-IV-01: crash marker 4 < 5 → Sell"),
    ],
)
def test_the_card_chooses_the_action_single_land_price_or_crash_threshold(
    card: str, changes: dict[str, int], action: str, reason: str
) -> None:
    """§11.5 step 2: a single card names its action; a land price / crash card takes the top action when the
    land price / crash marker is at least the threshold (≥, boundary included), else the bottom action."""
    state = ready(replace(solo(), **changes))

    events, _ = ai_action(state, card)

    assert card_decision(events) == AiDecided(seat=AI, card=card, action=action, reason=reason)


def test_an_impossible_action_falls_back_to_the_cards_default() -> None:
    """§11.5 step 3: AI-I-05 says Build; with an empty bottom row the AI takes its default, Buy land."""
    state = for_sale(solo(), "3I")

    events, _ = ai_action(state, "AI-I-05")

    assert card_decision(events) == AiDecided(
        seat=AI, card="AI-I-05", action="buy", reason="AI-I-05: Build; Build is impossible → default Buy land"
    )
    assert [e.plot for e in of(events, LandBought)] == ["3I"]


def test_when_the_default_is_impossible_too_the_ai_consults() -> None:
    """§11.5 step 3: AI-I-05 (Build, default Buy land) with no unbuilt AI plot and no 'for sale' plot ->
    Consult: it receives the land price."""
    state = replace(solo(), land_price=7)

    events, after = ai_action(state, "AI-I-05")

    assert card_decision(events) == AiDecided(
        seat=AI,
        card="AI-I-05",
        action="consult",
        reason="AI-I-05: Build; Build is impossible → default Buy land is impossible too → Consult",
    )
    assert of(events, Consulted) == [Consulted(seat=AI, amount=700)]
    assert after.seats[AI].cash == 2700


def test_the_ai_never_sells_unbuilt_plots_so_selling_without_buildings_is_impossible() -> None:
    """§11.6 Sell "impossible if the top row is empty": AI-IV-07 (Sell, default Consult) with only an unbuilt
    plot -> Consult."""
    state = unbuilt(solo(), "3G")

    events, after = ai_action(state, "AI-IV-07")

    assert card_decision(events).action == "consult"
    assert of(events, PlotSold) == []
    assert plot(after, "3G").owner == AI


def test_the_ai_never_buys_at_double_price_so_buying_without_for_sale_plots_is_impossible() -> None:
    """§11.6 Buy "the AI never uses the 2x option": it owns 3G, whose neighbours are free, but no plot is for
    sale: AI-I-03 (Buy land, default Consult) -> Consult."""
    state = unbuilt(solo(), "3G")

    events, _ = ai_action(state, "AI-I-03")

    assert card_decision(events).action == "consult"
    assert of(events, LandBought) == []


def test_the_card_is_discarded_and_becomes_the_most_recently_resolved() -> None:
    """§11.5 step 4."""
    state = ai_board(ready(solo()), discard=("AI-I-01",), last_card="AI-I-01")

    events, after = ai_action(state, "AI-I-06")

    assert of(events, AiCardResolved) == [AiCardResolved(seat=AI, card="AI-I-06")]
    assert after.ai is not None
    assert (after.ai.discard, after.ai.last_card) == (("AI-I-01", "AI-I-06"), "AI-I-06")
    assert "AI-I-06" not in after.ai.decks[0]


# --- §11.5 step 1: levels and decks ------------------------------------------------------------------------------


def test_an_empty_deck_raises_the_level_and_the_ai_draws_from_the_next_deck() -> None:
    """§11.5 step 1: level I empty -> level II, then draw from level II."""
    full = started(2, ai=True).ai
    assert full is not None
    state = ai_board(in_actions(solo(), first_player=AI), decks=((), *full.decks[1:]))

    events, after = run(state, SYSTEM, TakeAiTurn())

    assert of(events, AiLevelRaised) == [AiLevelRaised(seat=AI, level=2, reason="its deck is empty")]
    [drawn] = of(events, AiCardDrawn)
    assert drawn.level == 2 and CAT.ai_cards[drawn.card].level == 2
    assert after.ai is not None and after.ai.level == 2


def test_the_level_keeps_rising_past_empty_decks() -> None:
    """§11.5 step 1 "repeat if that is empty too": levels I and II empty -> II, III, then draw from III."""
    full = started(2, ai=True).ai
    assert full is not None
    state = ai_board(in_actions(solo(), first_player=AI), decks=((), (), *full.decks[2:]))

    events, _ = run(state, SYSTEM, TakeAiTurn())

    assert [e.level for e in of(events, AiLevelRaised)] == [2, 3]
    assert of(events, AiCardDrawn)[0].level == 3


def test_at_level_iv_an_empty_deck_is_rebuilt_from_the_level_iv_discards() -> None:
    """§11.5 step 1: level IV empty -> its cards from the (mixed) discard pile form a new level IV deck; the
    lower-level discards stay; the level does not change."""
    full = started(2, ai=True).ai
    assert full is not None
    discard = ("AI-I-01", "AI-IV-02", "AI-II-03", "AI-IV-05")
    state = ai_board(ready(solo()), level=4, decks=(*full.decks[:3], ()), discard=discard)

    events, after = run(in_actions(state, first_player=AI), SYSTEM, TakeAiTurn())

    assert of(events, AiDeckReshuffled) == [AiDeckReshuffled(seat=AI, level=4, cards=("AI-IV-02", "AI-IV-05"))]
    assert of(events, AiLevelRaised) == []
    [drawn] = of(events, AiCardDrawn)
    assert drawn.level == 4 and drawn.card in ("AI-IV-02", "AI-IV-05")
    assert after.ai is not None
    assert after.ai.decks[3] == tuple(c for c in ("AI-IV-02", "AI-IV-05") if c != drawn.card)
    assert after.ai.discard == ("AI-I-01", "AI-II-03", drawn.card)


def test_a_sale_raises_the_level_and_the_next_card_comes_from_the_new_deck() -> None:
    """§11.6 Sell step 4: after a sale the level rises even though the old deck still has cards; the next
    draw comes from the new level's deck."""
    state = ai_board(ready(replace(solo(), land_price=9)), level=2)
    full = started(2, ai=True).ai
    assert full is not None
    state = ai_board(state, decks=(full.decks[0], ("AI-II-04", "AI-II-05"), *full.decks[2:]))
    state = in_actions(state, first_player=AI)
    for version in range(1, 40):
        events, after = run(state, SYSTEM, TakeAiTurn(), version=version)
        if of(events, AiCardDrawn)[0].card == "AI-II-04":
            break
    else:
        pytest.fail("no chance version drew AI-II-04")
    assert card_decision(events).action == "sell"
    assert of(events, AiLevelRaised) == [AiLevelRaised(seat=AI, level=3, reason="it sold a plot")]
    assert after.ai is not None and after.ai.decks[1] == ("AI-II-05",)

    events, _ = run(in_actions(after, first_player=AI), SYSTEM, TakeAiTurn())

    [drawn] = of(events, AiCardDrawn)
    assert drawn.level == 3 and drawn.card.startswith("AI-III-")


def test_a_sale_at_level_iv_keeps_level_iv() -> None:
    """§11.6 Sell step 4: "if level < IV"."""
    state = ready(solo())

    events, after = ai_action(state, "AI-IV-07")

    assert card_decision(events).action == "sell"
    assert of(events, AiLevelRaised) == []
    assert after.ai is not None and after.ai.level == 4


# --- §11.6 buy land ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "tenants", "arrows"),
    [
        ("1A", {}, 2),  # train station on D and E: one source, Home +1 and Office +1
        ("2B", {}, 1),  # airport: Office +1 counts, Home -1 ignored
        ("2E", {}, 3),  # airport (Office +1) and airport car park (Retail +1, Industry +1)
        ("3B", {}, 2),  # woods (Home +1) and car park (Retail +1)
        ("3I", {}, 0),
        ("1A", {"1B": ("retail_unit", ("retail", "retail"))}, 3),  # retail tenants: Office +1
        ("1A", {"1B": ("industrial_unit", ("industry",))}, 2),  # industry tenants: Home -1, ignored
        ("3I", {"3E": ("retail_unit", ("retail",)), "3H": ("retail_unit", ("retail",))}, 1),  # one source
    ],
)
def test_bonus_arrows_count_distinct_bonus_pairs_of_features_and_tenants_ignoring_penalties(
    name: str, tenants: dict[str, tuple[str, tuple[str, ...]]], arrows: int
) -> None:
    """§11.6 Buy step 1, Q-AIARROWS: distinct (source kind, building type) pairs with a +1 effect among the
    adjacent features and tenants; duplicates count once, penalties are ignored."""
    state = solo()
    for other, (building, kinds) in tenants.items():
        state = set_plot(state, other, building=building, tenants=kinds)
    assert ai_actions.bonus_arrows(state, name) == arrows


@pytest.mark.parametrize(
    ("tenants", "arrows"),
    [
        (("convenience_store",), 2),  # Home +1, Office +1
        (("chemical_plant",), 0),  # three penalties, ignored
        (("restaurant", "restaurant"), 1),  # one subtype: one source
        (("restaurant", "boutique"), 1),  # the boutique confers nothing
    ],
)
def test_in_the_advanced_game_tenant_subtypes_are_the_sources_of_bonus_arrows(
    tenants: tuple[str, ...], arrows: int
) -> None:
    """§11.6 Buy step 1 with §6.3: in the advanced game a tenant source is its subtype (T3 effects)."""
    state = set_plot(solo(advanced=True), "3H", building="shopping_mall", tenants=tenants)
    assert ai_actions.bonus_arrows(state, "3I") == arrows


def test_the_ai_buys_the_for_sale_plot_with_the_most_bonus_arrows_free() -> None:
    """§11.6 Buy steps 1-3: 2E (3 arrows) beats 1G (2), 2B (1) and 3I (0); the AI pays nothing (even with no
    cash), keeps the marker in its bottom row, and explains the choice."""
    state = set_cash(for_sale(solo(), "1G", "2B", "2E", "3I"), AI, 0)

    events, after = ai_action(state, "AI-I-02")

    assert of(events, LandBought) == [LandBought(seat=AI, plot="2E", price=0, adjacent=False)]
    assert detail(events, "buy").reason == "2E: 3 bonus arrow(s), the most"
    assert of(events, AiHoldingsChanged) == [AiHoldingsChanged(seat=AI, bottom_row=("2E",), top_row=())]
    assert of(events, AiDieRolled) == []
    assert (plot(after, "2E").owner, plot(after, "2E").for_sale) == (AI, False)
    assert after.seats[AI].cash == 0


def test_an_ai_tie_between_three_plots_is_broken_by_the_die_in_coordinate_order() -> None:
    """§11.6 Buy step 2, §11.7, A18: 3B, 1G and 1A tie at 2 arrows (2B has 1); the candidates are in
    coordinate order (1A, 1G, 3B) whatever order the markers came in; the die maps 1-2 / 3-4 / 5-6 (face 3
    -> the second); every face is seen over the chance versions, and the reason names the tie."""
    state = for_sale(solo(), "3B", "1G", "1A", "2B")
    table = {1: "1A", 2: "1A", 3: "1G", 4: "1G", 5: "3B", 6: "3B"}

    seen: set[int] = set()
    for version in range(1, 40):
        events, after = ai_action(state, "AI-I-02", version=version)
        [die] = of(events, AiDieRolled)
        assert (die.purpose, die.candidates) == ("plot to buy", ("1A", "1G", "3B"))
        [face] = die.faces
        assert die.chosen == table[face]
        assert [e.plot for e in of(events, LandBought)] == [table[face]]
        assert [n for n in ("1A", "1G", "3B") if plot(after, n).owner == AI] == [table[face]]
        assert detail(events, "buy").reason == f"{table[face]}: 2 bonus arrow(s), the most of 3 tied plots"
        seen.add(face)
    assert seen == set(table)


def test_a_bought_marker_goes_to_the_leftmost_empty_bottom_slot_and_slots_are_not_compacted() -> None:
    """§11.6 Buy step 3, Build step 4: building on 3G empties slot 0 (3H stays in slot 1); the next purchase
    fills slot 0; with no empty slot a new slot is added on the right."""
    state = unbuilt(solo(), "3G", "3H")
    events, state = ai_action(state, "AI-I-04")
    assert state.ai is not None and state.ai.bottom_row == (None, "3H")

    events, state = ai_action(for_sale(state, "3I"), "AI-I-02")
    assert of(events, AiHoldingsChanged)[0].bottom_row == ("3I", "3H")

    events, state = ai_action(for_sale(state, "4A"), "AI-I-02")
    assert state.ai is not None and state.ai.bottom_row == ("3I", "3H", "4A")


# --- §11.6 build -------------------------------------------------------------------------------------------------


def test_the_ai_builds_on_the_leftmost_occupied_bottom_slot_free_and_moves_it_to_the_top_row_end() -> None:
    """§11.6 Build steps 1, 3, 4: slot order, not coordinates (3A before 1A); no cost, even with no cash;
    the marker goes to the right end of the top row; the emptied slot stays."""
    state = set_cash(built(unbuilt(solo(), None, "3A", "1A"), ("3H", "house", ())), AI, 0)

    events, after = ai_action(state, "AI-I-04")

    assert of(events, BuildingBuilt) == [BuildingBuilt(seat=AI, plot="3A", building="retail_unit", cost=0, returned=())]
    assert of(events, AiHoldingsChanged) == [
        AiHoldingsChanged(seat=AI, bottom_row=(None, None, "1A"), top_row=("3H", "3A"))
    ]
    assert detail(events, "build").reason == "3A: best net bonus +1 → retail: retail_unit"
    assert after.seats[AI].cash == 0


@pytest.mark.parametrize(
    ("name", "level", "building"),
    [
        ("3A", 1, "retail_unit"),
        ("3A", 2, "retail_unit"),
        ("3A", 3, "shopping_mall"),
        ("3A", 4, "shopping_mall"),
        ("2B", 1, "small_office"),
        ("2B", 3, "small_office"),
        ("2B", 4, "superior_office"),
        ("4D", 1, "industrial_unit"),
        ("4D", 2, "industrial_unit"),
        ("4D", 3, "industrial_park"),
    ],
)
def test_the_ai_builds_the_type_with_the_best_net_modifier_and_the_dearest_building_its_level_allows(
    name: str, level: int, building: str
) -> None:
    """§11.6 Build steps 2-3, T14: 3A (car park) -> retail; 2B (airport: Office +1 beats Home -1) -> office;
    4D (industrial car park) -> industry; the most expensive building of that type within the level's
    maximum cost (I 2M, II 3M, III 4.5M, IV 6M)."""
    state = ai_board(unbuilt(solo(), name), level=level)
    card = {1: "AI-I-04", 2: "AI-II-05", 3: "AI-III-06", 4: "AI-IV-05"}[level]

    events, _ = ai_action(state, card)

    assert [e.building for e in of(events, BuildingBuilt)] == [building]


def test_a_home_plot_gets_an_apartment_from_level_ii() -> None:
    """T14: a home plot (4C, next to the woods) gets a house at level I and an apartment (3M) from level II."""
    for level, building in ((1, "house"), (2, "apartment")):
        state = ai_board(unbuilt(solo(), "4C"), level=level)
        events, _ = ai_action(state, {1: "AI-I-04", 2: "AI-II-05"}[level])
        assert [e.building for e in of(events, BuildingBuilt)] == [building]


@pytest.mark.parametrize(
    ("name", "available", "chosen", "population"),
    [
        ("1A", {"home": 2, "office": 1}, "office", 3),  # population, not token count: 1 office = 3
        ("1A", {"home": 4, "office": 1}, "home", 4),
        ("2E", {"retail": 2, "office": 1, "industry": 0}, "office", 3),  # three types tie at +1
        ("2E", {"retail": 4, "office": 1, "industry": 1}, "retail", 4),
    ],
)
def test_a_modifier_tie_goes_to_the_type_with_the_most_available_population(
    name: str, available: dict[str, int], chosen: str, population: int
) -> None:
    """§11.6 Build step 2: tied net modifiers -> the most total population of that type in the available
    area (Home 1, Retail 1, Office 3, Industry 3 per token). 1A: Home +1, Office +1; 2E: Retail, Office and
    Industry +1 (Home -1)."""
    state = set_available(unbuilt(solo(), name), **available)

    events, _ = ai_action(state, "AI-I-04")

    building = {"home": "house", "retail": "retail_unit", "office": "small_office", "industry": "industrial_unit"}
    assert [e.building for e in of(events, BuildingBuilt)] == [building[chosen]]
    assert detail(events, "build").reason == (
        f"{name}: best net bonus +1, most available population {population} → {chosen}: {building[chosen]}"
    )
    assert of(events, AiDieRolled) == []


def test_a_full_type_tie_is_broken_by_the_die_in_home_retail_office_industry_order() -> None:
    """§11.6 Build step 2, §11.7: 3I has no modifier and nothing is available -> all four types tie; the die
    picks face 1-4, 5 and 6 roll again (each roll recorded)."""
    state = set_available(unbuilt(solo(), "3I"))
    rerolled = False
    seen: set[str] = set()
    for version in range(1, 40):
        events, _ = ai_action(state, "AI-I-04", version=version)
        [die] = of(events, AiDieRolled)
        assert (die.purpose, die.candidates) == ("building type", TYPES)
        *again, face = die.faces
        assert set(again) <= {5, 6} and 1 <= face <= 4
        rerolled |= bool(again)
        assert die.chosen == TYPES[face - 1]
        [building] = of(events, BuildingBuilt)
        assert CAT.buildings[building.building].tenant_type == die.chosen
        seen.add(die.chosen)
    assert rerolled and seen == set(TYPES)


def test_a_two_type_tie_is_broken_by_the_die_in_type_order() -> None:
    """§11.6 Build step 2, §11.7: 1A (Home +1, Office +1) with equal available population (3 homes = 1
    office) -> candidates (home, office); faces 1-3 home, 4-6 office."""
    state = set_available(unbuilt(solo(), "1A"), home=3, office=1)
    for version in range(1, 13):
        events, _ = ai_action(state, "AI-I-04", version=version)
        [die] = of(events, AiDieRolled)
        assert die.candidates == ("home", "office")
        assert die.chosen == ("home" if die.faces[0] <= 3 else "office")


# --- §11.6 sell --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("difficulty", "value", "amount", "words"),
    [
        ("digital_assistant", 2, 1000, "3-1 (difficulty) = 2 × 500K = 1M"),
        ("generalised_ai", 3, 1500, "3+0 (difficulty) = 3 × 500K = 1.5M"),
        ("robot_overlord", 4, 2000, "3+1 (difficulty) = 4 × 500K = 2M"),
        ("the_singularity", 5, 2500, "3+2 (difficulty) = 5 × 500K = 2.5M"),
    ],
)
def test_the_ai_sells_its_leftmost_built_plot_with_the_difficulty_modifier(
    difficulty: str, value: int, amount: int, words: str
) -> None:
    """§11.6 Sell steps 1-3, T16: the leftmost top-row plot (3I before 1A, whatever the coordinates); plot
    value 1 + 1 + 1 home = 3, plus the difficulty modifier, x land price 500K. The plot becomes unowned,
    building and tenants stay, the sale counts on the plots-sold track, the top row closes the gap."""
    state = replace(solo(difficulty=difficulty), land_price=5)
    state = built(state, ("3I", "house", ("home",)), ("1A", "house", ()))

    events, after = ai_action(state, "AI-IV-07")

    assert of(events, PlotSold) == [PlotSold(seat=AI, plot="3I", value=value, amount=amount)]
    assert detail(events, "sell").reason == f"3I: value {words}"
    assert of(events, AiHoldingsChanged) == [AiHoldingsChanged(seat=AI, bottom_row=(), top_row=("1A",))]
    assert after.seats[AI].cash == 2000 + amount
    assert after.plots_sold == 1
    assert (plot(after, "3I").owner, plot(after, "3I").building, plot(after, "3I").tenants) == (
        None,
        "house",
        ("home",),
    )


def test_an_ai_sale_value_is_floored_at_zero_and_still_counts_as_a_sale() -> None:
    """§11.6 Sell step 2: an empty house next to the airport (Home -1) is worth 1 + 1 - 1 = 1; the digital
    assistant's -1 makes 0: it receives nothing, the plot is sold anyway and counts on the track. A value
    that would go below 0 (an empty house with two home penalties: 0 - 1) is also 0."""
    state = replace(solo(difficulty="digital_assistant"), land_price=5)
    state = set_plot(state, "2H", building="industrial_unit", tenants=("industry",))  # Home -1 on 2E
    state = built(state, ("2B", "house", ()), ("2E", "house", ()))

    events, after = ai_action(state, "AI-IV-07")
    assert of(events, PlotSold) == [PlotSold(seat=AI, plot="2B", value=0, amount=0)]
    assert after.plots_sold == 1 and plot(after, "2B").owner is None

    events, after = ai_action(after, "AI-IV-03")
    assert of(events, PlotSold) == [PlotSold(seat=AI, plot="2E", value=0, amount=0)]
    assert after.plots_sold == 2
    assert after.seats[AI].cash == 2000


@pytest.mark.parametrize(
    ("difficulty", "value"),
    [("digital_assistant", 0), ("generalised_ai", 0), ("robot_overlord", 0), ("the_singularity", 1)],
)
def test_the_difficulty_modifier_is_added_before_the_zero_floor(difficulty: str, value: int) -> None:
    """T16 "added to the §7.5 value before the zero floor": an empty house on 2E next to the airport, a small
    factory and a chemical plant (three distinct Home -1 sources, advanced game) is worth 1 + 1 - 3 = -1;
    The Singularity's +2 makes 1 (not 0 + 2)."""
    state = replace(solo(advanced=True, difficulty=difficulty), land_price=5)
    state = set_plot(state, "2H", building="industrial_park", tenants=("chemical_plant", "small_factory"))
    state = built(state, ("2E", "house", ()))

    events, _ = ai_action(state, "AI-IV-07")

    assert of(events, PlotSold) == [PlotSold(seat=AI, plot="2E", value=value, amount=500 * value)]


def test_the_ai_never_pays_for_land_buildings_or_the_first_player_marker() -> None:
    """§11.2: with no cash at all the AI buys land, builds a shopping mall and wins an auction; every
    payment it makes is 0 and its cash stays 0 (and it holds no advertising tokens)."""
    state = ai_board(set_cash(for_sale(solo(), "3A"), AI, 0), level=3)
    events, state = ai_action(state, "AI-III-02")
    assert [(e.plot, e.price) for e in of(events, LandBought)] == [("3A", 0)]
    events, state = ai_action(state, "AI-III-06")
    assert [(e.building, e.cost) for e in of(events, BuildingBuilt)] == [("shopping_mall", 0)]
    _, state = run(in_bidding(state, opener=AI), SYSTEM, TakeAiTurn())
    events, state = run(state, HUMAN, PassBid())
    assert of(events, FirstPlayerDecided) == [FirstPlayerDecided(seat=AI, paid=0)]
    assert (state.seats[AI].cash, state.seats[AI].advertising) == (0, 0)


# --- §11.8 the crash ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("difficulty", "built_value", "unbuilt_value"),
    [("digital_assistant", 2, 0), ("generalised_ai", 3, 1), ("robot_overlord", 4, 2), ("the_singularity", 5, 3)],
)
def test_ai_liquidation_at_the_crash_applies_the_difficulty_modifier(
    difficulty: str, built_value: int, unbuilt_value: int
) -> None:
    """§11.8, Q-AILIQ: at the crash every AI plot, built (top row) or not (bottom row), is sold with the
    difficulty modifier; the human's identical house (3G, value 3) is not modified."""
    state = solo(difficulty=difficulty)
    state = unbuilt(built(state, ("3I", "house", ("home",))), "1A")
    state = set_plot(state, "3G", owner=HUMAN, building="house", tenants=("home",))
    state = in_market(state, land_price=20, crash=0, risk_deck=(), risk_discard=("R01", "R02"))

    events, _ = run(state, SYSTEM, ProcessMarket())

    [crashed] = of(events, MarketCrashed)
    price = CAT.price(crashed.land_price)
    assert sorted((e.seat, e.plot, e.value, e.amount) for e in of(events, PlotLiquidated)) == [
        (HUMAN, "3G", 3, 3 * price),
        (AI, "1A", unbuilt_value, unbuilt_value * price),
        (AI, "3I", built_value, built_value * price),
    ]


# --- §11.7 the tie-break die -------------------------------------------------------------------------------------


def test_two_candidates_faces_1_to_3_pick_the_first_4_to_6_the_second() -> None:
    assert [face_to_candidate(face, 2) for face in range(1, 7)] == [0, 0, 0, 1, 1, 1]


def test_three_candidates_faces_1_2_first_3_4_second_5_6_third_resolving_the_misprint() -> None:
    """§11.7, §14 A18, §16 C8: the rulebooks print "2-4" for the second candidate; face 3 picks the second."""
    assert [face_to_candidate(face, 3) for face in range(1, 7)] == [0, 0, 1, 1, 2, 2]
    assert face_to_candidate(3, 3) == 1


def test_four_candidates_faces_1_to_4_pick_that_candidate_5_and_6_reroll() -> None:
    assert [face_to_candidate(face, 4) for face in range(1, 7)] == [0, 1, 2, 3, None, None]


def test_five_and_six_candidates_extensions() -> None:
    """§11.7 extensions: 5 -> faces 1-5, 6 rerolls; 6 -> the face itself."""
    assert [face_to_candidate(face, 5) for face in range(1, 7)] == [0, 1, 2, 3, 4, None]
    assert [face_to_candidate(face, 6) for face in range(1, 7)] == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("count", [0, 1, 7])
def test_no_face_mapping_exists_for_one_or_more_than_six_candidates(count: int) -> None:
    with pytest.raises(ValueError, match="no die mapping"):
        face_to_candidate(1, count)


def test_break_tie_rerolls_and_records_every_face() -> None:
    """§11.7 "each roll is an event": the faces in order, rerolls included."""
    assert break_tie(ScriptedDie(5, 6, 3), 4) == (2, (5, 6, 3))  # type: ignore[arg-type]
    assert break_tie(ScriptedDie(3), 3) == (1, (3,))  # type: ignore[arg-type]
    assert break_tie(ScriptedDie(4), 2) == (1, (4,))  # type: ignore[arg-type]
    assert break_tie(ScriptedDie(), 1) == (0, ())  # type: ignore[arg-type]
    assert break_tie(ScriptedDie(), 9) == (8, (0,))  # type: ignore[arg-type]
