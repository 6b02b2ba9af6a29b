"""The state of a game of Magnate: The First City, as a tree of frozen structs (the fold of its events).

Tenant pools (supply and available area) are tuples of counts aligned with
``catalog.kind_keys(advanced)``: tenant types in the standard game, subtypes in the advanced game.
Plots are a tuple of 63 entries indexed by :func:`domain.magnate.city.plot_index`.
Derived values (dice counts, modifiers, plot values, whose turn) are functions in the rules modules,
never fields.
"""

from __future__ import annotations

import enum

import msgspec

from domain.kernel.table.facts import TableFacts

from .catalog import DEFAULT_DATASET


class Phase(enum.StrEnum):
    """Where the game is (spec §4)."""

    SETUP = "setup"
    BIDDING = "bidding"
    ATTRACTING = "attracting"
    ACTIONS = "actions"
    MARKET = "market"
    ENDED = "ended"


class SeatKind(enum.StrEnum):
    HUMAN = "human"
    AI = "ai"


class SeatState(msgspec.Struct, frozen=True):
    company: str
    kind: SeatKind
    cash: int
    advertising: int


class PlotState(msgspec.Struct, frozen=True):
    """One plot. ``feature`` is fixed at setup; ``tenants`` holds tenant kinds, sorted."""

    feature: str | None = None
    owner: int | None = None
    building: str | None = None
    tenants: tuple[str, ...] = ()
    for_sale: bool = False


class Auction(msgspec.Struct, frozen=True):
    """Phase 1: the bid for turn order (§5)."""

    opener: int
    turn: int
    high_bid: int = 0
    high_bidder: int | None = None
    passed: tuple[int, ...] = ()
    bidders: tuple[int, ...] = ()
    """Seats that have bid in this auction."""


class Attraction(msgspec.Struct, frozen=True):
    """Phase 2: one building's attraction in progress (§6.1)."""

    plot: str
    advertising: int
    dice: int
    faces: tuple[int, ...] | None = None
    """The rolled dice, once rolled."""
    final: tuple[int, ...] | None = None
    """The dice after advertising and modifiers, once settled (the advanced game then awaits a choice)."""


class Standing(msgspec.Struct, frozen=True):
    seat: int
    company: str
    cash: int
    rank: int


class AiState(msgspec.Struct, frozen=True, kw_only=True):
    """The AI player's board (§11.1, T14): level, decks, discard pile and holdings rows."""

    seat: int
    level: int
    decks: tuple[tuple[str, ...], ...]
    """Cards not yet drawn, per level (index 0 = level I), as an unordered set in catalogue order."""
    discard: tuple[str, ...] = ()
    last_card: str | None = None
    """The most recently resolved card (its advertising icon counts in phase 2)."""
    bottom_row: tuple[str | None, ...] = ()
    """Unbuilt plots by slot, left to right; slots are not compacted when a marker leaves."""
    top_row: tuple[str, ...] = ()
    """Built plots, left to right, without gaps."""


class MagnateState(msgspec.Struct, frozen=True, kw_only=True):
    phase: Phase = Phase.SETUP
    dataset: str = DEFAULT_DATASET
    advanced: bool = False
    tutorial: bool = False
    difficulty: str | None = None
    seed_commitment: str = ""
    seed: str | None = None
    seats: tuple[SeatState, ...] = ()
    neighbourhoods: tuple[str, ...] = ()
    plots: tuple[PlotState, ...] = ()
    land_price: int = 0
    crash: int = 0
    round: int = 0
    first_player: int = 0
    turn: int = 0
    """Index into the turn order (phases 2 and 3)."""
    action_pass: int = 0
    auction: Auction | None = None
    attraction: Attraction | None = None
    attracted: tuple[str, ...] = ()
    """Plots attracted to this round (each building at most once per round)."""
    advertising_spent: int = 0
    plots_sold: int = 0
    supply: tuple[int, ...] = ()
    available: tuple[int, ...] = ()
    risk_deck: tuple[str, ...] = ()
    risk_discard: tuple[str, ...] = ()
    tenant_deck: tuple[str, ...] = ()
    tenant_discard: tuple[str, ...] = ()
    marker_supply: tuple[str, ...] = ()
    table: TableFacts = TableFacts()
    """The table's facts (clocks, stand-ins, ...): changed only by the table's events (domain/kernel/table)."""
    standings: tuple[Standing, ...] = ()
    ai: AiState | None = None


def update_seat(state: MagnateState, seat: int, *, cash: int = 0, advertising: int = 0) -> MagnateState:
    """The state with a seat's cash and advertising tokens changed by the given amounts."""
    seats = list(state.seats)
    old = seats[seat]
    seats[seat] = SeatState(old.company, old.kind, old.cash + cash, old.advertising + advertising)
    return msgspec.structs.replace(state, seats=tuple(seats))
