"""Every fact a game of Magnate can record. Tags are stored contracts: never rename one.

Events carry the outcomes that were decided (dice faces, cards drawn, prices paid), so ``evolve``
applies them without reading a table or drawing again. They carry only public facts: individual
payments (public in the physical game, §4.2), the starting grants everyone knows, and the final
standings once the game is over — never a running balance. A seat's cash during play exists only in
the folded state, and only the views decide who may see it.
"""

from __future__ import annotations

import msgspec

from domain.kernel import Event
from domain.kernel.phrases import Phrase


class SeatSetup(msgspec.Struct, frozen=True):
    company: str
    kind: str


class CentreBuilding(msgspec.Struct, frozen=True):
    plot: str
    building: str
    tenants: tuple[str, ...]


class GameStarted(Event, frozen=True, tag="magnate.game_started"):
    """Setup (§3), with every random outcome: tiles, 'for sale' markers, (advanced) tenant draws."""

    dataset: str
    advanced: bool
    tutorial: bool
    difficulty: str | None
    seats: tuple[SeatSetup, ...]
    cash: tuple[int, ...]
    advertising: tuple[int, ...]
    neighbourhoods: tuple[str, ...]
    centre: tuple[CentreBuilding, ...]
    available: tuple[str, ...]
    for_sale: tuple[str, ...]
    removed_markers: tuple[str, ...]
    """Markers drawn for feature plots at setup: removed from the game (then redrawn)."""
    land_price: int
    crash: int
    first_player: int
    seed_commitment: str


class RoundStarted(Event, frozen=True, tag="magnate.round_started"):
    """A round begins with the bid for turn order; ``opener`` bids first (§5)."""

    round: int
    opener: int


class BidPlaced(Event, frozen=True, tag="magnate.bid_placed"):
    seat: int
    amount: int


class BidPassed(Event, frozen=True, tag="magnate.bid_passed"):
    seat: int


class FirstPlayerDecided(Event, frozen=True, tag="magnate.first_player_decided"):
    """The auction ended: ``seat`` is first player and paid ``paid`` (0 when everyone passed)."""

    seat: int
    paid: int


class PhaseStarted(Event, frozen=True, tag="magnate.phase_started"):
    """Phase 2, 3 or 4 begins (``phase`` is a Phase value); turn order starts at the first player."""

    phase: str


class AttractionStarted(Event, frozen=True, tag="magnate.attraction_started"):
    """A seat attracts to its building on ``plot``, committing ``advertising`` tokens; ``dice`` to roll."""

    seat: int
    plot: str
    advertising: int
    dice: int


class DiceRolled(Event, frozen=True, tag="magnate.dice_rolled"):
    seat: int
    plot: str
    faces: tuple[int, ...]


class DiceSettled(Event, frozen=True, tag="magnate.dice_settled"):
    """Advertising turned the dice at ``fives`` into 5s, then ``modifier`` was added to every die."""

    seat: int
    plot: str
    fives: tuple[int, ...]
    modifier: int
    final: tuple[int, ...]


class TenantsMovedIn(Event, frozen=True, tag="magnate.tenants_moved_in"):
    """The attraction ends; ``tenants`` (kinds, possibly none) move from the available area in."""

    seat: int
    plot: str
    tenants: tuple[str, ...]


class RentCollected(Event, frozen=True, tag="magnate.rent_collected"):
    """A seat's phase 2 turn ends with its rent (§6.5)."""

    seat: int
    amount: int


class LandBought(Event, frozen=True, tag="magnate.land_bought"):
    seat: int
    plot: str
    price: int
    adjacent: bool
    """Bought at double price as a plot adjacent to one the buyer owns (§7.1 option B)."""


class BuildingBuilt(Event, frozen=True, tag="magnate.building_built"):
    """Built or rebuilt; ``returned`` tenants went back to the available area (§7.2)."""

    seat: int
    plot: str
    building: str
    cost: int
    returned: tuple[str, ...]


class AdvertisingTaken(Event, frozen=True, tag="magnate.advertising_taken"):
    seat: int
    free: int
    bought: int
    cost: int


class Consulted(Event, frozen=True, tag="magnate.consulted"):
    seat: int
    amount: int


class PlotSold(Event, frozen=True, tag="magnate.plot_sold"):
    """The plot becomes unowned; building and tenants stay (§7.5)."""

    seat: int
    plot: str
    value: int
    amount: int


class RiskCardDrawn(Event, frozen=True, tag="magnate.risk_card_drawn"):
    """A risk card moved the crash marker to ``crash``; ``reason`` names the market step."""

    card: str
    reason: str
    crash: int


class LandPriceMoved(Event, frozen=True, tag="magnate.land_price_moved"):
    reason: str
    position: int


class NewTenantsArrived(Event, frozen=True, tag="magnate.new_tenants_arrived"):
    """A new tenant card added ``tenants`` to the available area; ``missing`` were not in the supply."""

    card: str
    tenants: tuple[str, ...]
    missing: tuple[str, ...]


class ForSaleMarkerDrawn(Event, frozen=True, tag="magnate.for_sale_marker_drawn"):
    """Phase 5: a marker was placed on ``plot``, or returned to the box when ``placed`` is false."""

    plot: str
    placed: bool


class MarketCrashed(Event, frozen=True, tag="magnate.market_crashed"):
    """The crash (§10): the land price fell by ``depth`` positions to ``land_price``."""

    depth: int
    land_price: int


class PlotLiquidated(Event, frozen=True, tag="magnate.plot_liquidated"):
    seat: int
    plot: str
    value: int
    amount: int


class GameEnded(Event, frozen=True, tag="magnate.game_ended"):
    """Final standings by cash; every seat with rank 1 shares the victory."""

    cash: tuple[int, ...]
    winners: tuple[int, ...]


class SeedRevealed(Event, frozen=True, tag="magnate.seed_revealed"):
    """The game's secret seed (hex), so anyone can re-derive every random outcome."""

    seed: str


class AiCardDrawn(Event, frozen=True, tag="magnate.ai_card_drawn"):
    """The AI drew ``card`` from its level ``level`` deck (§11.5 step 1)."""

    seat: int
    card: str
    level: int


class AiLevelRaised(Event, frozen=True, tag="magnate.ai_level_raised"):
    """The AI moved up to ``level`` because its deck ran out or it sold a plot."""

    seat: int
    level: int
    reason: str


class AiDeckReshuffled(Event, frozen=True, tag="magnate.ai_deck_reshuffled"):
    """Level IV ran out: its cards in the AI discard pile form a new level IV deck."""

    seat: int
    level: int
    cards: tuple[str, ...]


class AiDieRolled(Event, frozen=True, tag="magnate.ai_die_rolled"):
    """A tie-break die (§11.7): ``faces`` in order (rerolls included) chose ``chosen`` among
    ``candidates`` (listed in the order the rule gives)."""

    seat: int
    purpose: str
    candidates: tuple[str, ...]
    faces: tuple[int, ...]
    chosen: str


class AiDecided(Event, frozen=True, tag="magnate.ai_decided"):
    """Why the AI did what it did: the card, the branch taken and the reason. ``reason`` is its English (all an
    older game recorded); ``why`` the same in no language (a message key and its arguments), for each reader's."""

    seat: int
    card: str | None
    action: str
    reason: str
    why: Phrase | None = None


class AiHoldingsChanged(Event, frozen=True, tag="magnate.ai_holdings_changed"):
    """The AI board's rows after a buy, build or sale."""

    seat: int
    bottom_row: tuple[str | None, ...]
    top_row: tuple[str, ...]


class AiCardResolved(Event, frozen=True, tag="magnate.ai_card_resolved"):
    """The card goes to the AI discard pile and becomes the most recently resolved card."""

    seat: int
    card: str


class AiAdvertised(Event, frozen=True, tag="magnate.ai_advertised"):
    """Phase 2 (§11.4 step 5): the advertising icon of the last resolved card adds to advertising spent."""

    seat: int
    tokens: int
    card: str | None


MagnateEvent = (
    GameStarted
    | RoundStarted
    | BidPlaced
    | BidPassed
    | FirstPlayerDecided
    | PhaseStarted
    | AttractionStarted
    | DiceRolled
    | DiceSettled
    | TenantsMovedIn
    | RentCollected
    | LandBought
    | BuildingBuilt
    | AdvertisingTaken
    | Consulted
    | PlotSold
    | RiskCardDrawn
    | LandPriceMoved
    | NewTenantsArrived
    | ForSaleMarkerDrawn
    | MarketCrashed
    | PlotLiquidated
    | GameEnded
    | SeedRevealed
    | AiCardDrawn
    | AiLevelRaised
    | AiDeckReshuffled
    | AiDieRolled
    | AiDecided
    | AiHoldingsChanged
    | AiCardResolved
    | AiAdvertised
)
