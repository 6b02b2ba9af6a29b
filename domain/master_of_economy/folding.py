"""``evolve``: the fold of Master of Economy's events (a lookup table over the rules modules' evolve halves)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from msgspec.structs import replace

from domain.kernel.decider import evolve_by_type, replay_of, unchanged
from domain.kernel.reveal import apply_seed_revealed

from . import (
    ac,
    bidding,
    cursor,
    dividends,
    elections,
    ending,
    finance,
    investments,
    market,
    meeting,
    procurement,
    receipts,
    setup,
    shares,
    shortfall,
)
from .events import (
    AcExported,
    AcMarkerPlaced,
    AcScored,
    AiDecided,
    BallotsCounted,
    BidPlaced,
    BoardBonusPaid,
    CandidacyDeclared,
    CashDistributed,
    CorporationPicked,
    CorporationsFormed,
    CreditsRepaid,
    CreditsSettled,
    CreditTaken,
    DividendCounted,
    DividendPaid,
    DividendProposed,
    DividendVoteCast,
    Embezzled,
    EnergySpoiled,
    Exported,
    ExportFailed,
    ExportsOpened,
    FactoriesSupplied,
    FactoryBuilt,
    FactorySold,
    GameEnded,
    GameStarted,
    GoodsProduced,
    HoldingsSold,
    ImportBought,
    InterestPaid,
    InterestUnpaid,
    LocalDeal,
    ManagerChanged,
    ManagerElected,
    ManagerVoteCast,
    MarketClosed,
    MoeEvent,
    OrderSet,
    PacketBought,
    PacketExchanged,
    PacketSold,
    PhaseBegan,
    PurchaseDeferred,
    PurchaseDropped,
    ReceiptsDiscarded,
    ReceiptsGiven,
    ReceiptsPlaced,
    Redeemed,
    RowClosed,
    RowOpened,
    SaleFined,
    SeedRevealed,
    ShortfallArose,
    ShortfallCovered,
    ShortfallPreferencesCleared,
    ShortfallPreferencesSet,
    StageBegan,
    StartBidSealed,
    StartBidsRevealed,
    StepBegan,
    TokenCommitted,
    TurnPassed,
)
from .state import State


def initial_state() -> State:
    return State()


def _passed(state: State, event: TurnPassed) -> State:
    return replace(state, done=True)


_APPLY: dict[type[Any], Callable[[State, Any], State]] = {
    GameStarted: setup.apply_game_started,
    CorporationPicked: setup.apply_corporation_picked,
    CorporationsFormed: setup.apply_corporations_formed,
    StartBidSealed: setup.apply_start_bid_sealed,
    StartBidsRevealed: setup.apply_start_bids_revealed,
    OrderSet: receipts.apply_order_set,
    StageBegan: cursor.apply_stage_began,
    PhaseBegan: cursor.apply_phase_began,
    StepBegan: cursor.apply_step_began,
    TurnPassed: _passed,
    FactoryBuilt: investments.apply_factory_built,
    FactorySold: shortfall.apply_factory_sold,
    FactoriesSupplied: procurement.apply_factories_supplied,
    EnergySpoiled: procurement.apply_energy_spoiled,
    GoodsProduced: procurement.apply_goods_produced,
    AcMarkerPlaced: ac.apply_ac_marker_placed,
    TokenCommitted: bidding.apply_token_committed,
    BidPlaced: bidding.apply_bid_placed,
    ReceiptsDiscarded: bidding.apply_receipts_discarded,
    RowOpened: market.apply_row_opened,
    LocalDeal: market.apply_local_deal,
    SaleFined: market.apply_sale_fined,
    PurchaseDeferred: market.apply_purchase_deferred,
    PurchaseDropped: market.apply_purchase_dropped,
    ExportsOpened: market.apply_exports_opened,
    Exported: market.apply_exported,
    ExportFailed: market.apply_export_failed,
    AcExported: market.apply_ac_exported,
    ImportBought: market.apply_import_bought,
    RowClosed: market.apply_row_closed,
    MarketClosed: cursor.apply_market_closed,
    AcScored: ac.apply_ac_scored,
    ShortfallArose: shortfall.apply_shortfall_arose,
    ShortfallCovered: shortfall.apply_shortfall_covered,
    ShortfallPreferencesSet: shortfall.apply_preferences_set,
    ShortfallPreferencesCleared: shortfall.apply_preferences_cleared,
    InterestPaid: finance.apply_interest_paid,
    InterestUnpaid: finance.apply_interest_unpaid,
    CreditsRepaid: finance.apply_credits_repaid,
    CreditTaken: finance.apply_credit_taken,
    PacketBought: shares.apply_packet_bought,
    PacketSold: shares.apply_packet_sold,
    PacketExchanged: shares.apply_packet_exchanged,
    BoardBonusPaid: meeting.apply_board_bonus_paid,
    Embezzled: meeting.apply_embezzled,
    DividendProposed: dividends.apply_dividend_proposed,
    DividendVoteCast: dividends.apply_dividend_vote_cast,
    DividendCounted: dividends.apply_dividend_counted,
    DividendPaid: dividends.apply_dividend_paid,
    Redeemed: meeting.apply_redeemed,
    CandidacyDeclared: elections.apply_candidacy_declared,
    ManagerVoteCast: elections.apply_manager_vote_cast,
    BallotsCounted: elections.apply_ballots_counted,
    ManagerElected: elections.apply_manager_elected,
    ManagerChanged: elections.apply_manager_changed,
    ReceiptsGiven: receipts.apply_receipts_given,
    ReceiptsPlaced: receipts.apply_receipts_placed,
    HoldingsSold: ending.apply_holdings_sold,
    CreditsSettled: ending.apply_credits_settled,
    CashDistributed: ending.apply_cash_distributed,
    GameEnded: ending.apply_game_ended,
    AiDecided: unchanged,
    SeedRevealed: apply_seed_revealed,
}
"""Event type -> the rule's evolve half (a lookup: folding is the hot path of every read)."""

HANDLED_EVENTS = frozenset(_APPLY)


evolve: Callable[[State, MoeEvent], State] = evolve_by_type(_APPLY)
"""Apply one event; total for every valid history, and never draws or validates."""

replay: Callable[[Iterable[MoeEvent]], State] = replay_of(evolve, initial_state)
"""The state after a whole log."""


