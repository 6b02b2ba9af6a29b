"""The facts of a game of Master of Economy. Corporations are named by key, holders as in :mod:`.holders`
(``bank``, ``seat:N``, ``corp:<key>``). Every amount is the one decided (a price, a bonus, a payment), so
folding never reads a table to decide anything.

The standing shortfall preferences (§17, "Interrupts": :class:`ShortfallPreferencesSet`,
:class:`ShortfallPreferencesCleared`) are the seat's alone: no other viewer gets them at all while the game runs.

Four kinds of event hold a seat's sealed choice (spec §17): :class:`StartBidSealed`, :class:`TokenCommitted`,
:class:`DividendVoteCast` and :class:`ManagerVoteCast`. Another viewer gets them with the secret field ``None``
(:mod:`.secrets`), so it knows the seat has chosen; the reveal events (:class:`StartBidsRevealed`,
:class:`AcScored`, :class:`DividendCounted`, :class:`BallotsCounted`) show every choice at once.
"""

from __future__ import annotations

from domain.kernel import Event
from domain.kernel.phrases import Phrase

from .market_events import (
    AcExported,
    AcMarkerPlaced,
    AcScored,
    BidPlaced,
    CreditsRepaid,
    CreditTaken,
    Exported,
    ExportFailed,
    ExportsOpened,
    ImportBought,
    InterestPaid,
    InterestUnpaid,
    LocalDeal,
    MarketClosed,
    PacketBought,
    PacketExchanged,
    PacketSold,
    PurchaseDeferred,
    PurchaseDropped,
    ReceiptsDiscarded,
    RowClosed,
    RowOpened,
    SaleFined,
    ShortfallArose,
    ShortfallCovered,
    ShortfallPreferencesCleared,
    ShortfallPreferencesSet,
    TokenCommitted,
)
from .meeting_events import (
    BallotsCounted,
    BoardBonusPaid,
    CandidacyDeclared,
    DividendCounted,
    DividendPaid,
    DividendProposed,
    DividendVoteCast,
    Embezzled,
    ManagerChanged,
    ManagerElected,
    ManagerVoteCast,
    Redeemed,
)
from .state import Result
from .variant import Variant

# -- setup ---------------------------------------------------------------------------------------------------------


class GameStarted(Event, frozen=True, tag="master_of_economy.game_started"):
    variant: Variant
    dataset: str
    seed_commitment: str


class CorporationPicked(Event, frozen=True, tag="master_of_economy.corporation_picked"):
    """ME-S-1: ``seat`` takes ``corporation`` (``drawn``: assigned by the seeded draw)."""

    seat: int
    corporation: str
    drawn: bool = False


class CorporationsFormed(Event, frozen=True, tag="master_of_economy.corporations_formed"):
    """ME-S-3..6, ME-V-2..3: the participating corporations (catalog order) and the AC, if any (``drawn``: chosen
    by the seeded draw among two)."""

    corporations: tuple[str, ...]
    ac: str | None = None
    drawn: bool = False


class StartBidSealed(Event, frozen=True, tag="master_of_economy.start_bid_sealed"):
    """ME-S-9 (sealed: ``amount`` is None in another viewer's copy)."""

    seat: int
    amount: int | None = None


class StartBidsRevealed(Event, frozen=True, tag="master_of_economy.start_bids_revealed"):
    """ME-S-9: every seat's bid; ``draws`` are the seeded tie-break draws made (in ranking order)."""

    bids: tuple[int, ...]
    draws: tuple[int, ...] = ()


class OrderSet(Event, frozen=True, tag="master_of_economy.order_set"):
    """The action sequence, position 1 first: ``random`` (ME-S-9), ``auction`` (ME-S-9) or ``receipts``
    (ME-N-4, with each corporation's receipts)."""

    order: tuple[str, ...]
    reason: str
    receipts: tuple[int, ...] = ()


# -- flow ----------------------------------------------------------------------------------------------------------


class StageBegan(Event, frozen=True, tag="master_of_economy.stage_began"):
    stage: int


class PhaseBegan(Event, frozen=True, tag="master_of_economy.phase_began"):
    """Phase ``number`` (1-10) of the stage begins (ME-G-5); 11 is the next action sequence (§10)."""

    number: int


class StepBegan(Event, frozen=True, tag="master_of_economy.step_began"):
    """The game moves to ``step`` at ``turn`` (an index into the step's actors) of ``round``, for the corporation
    at position ``target`` of the action sequence where the step treats one at a time."""

    step: str
    turn: int = 0
    round: int = 1
    target: int = 0


class TurnPassed(Event, frozen=True, tag="master_of_economy.turn_passed"):
    """``seat`` ends its turn at ``step`` (for ``corporation``, when it acts for one): no more builds, supplies or
    bids; no trade, credit, repayment, embezzlement, proposal or redemption."""

    seat: int
    step: str
    corporation: str | None = None


# -- investments, procurement, production ------------------------------------------------------------------------


class FactoryBuilt(Event, frozen=True, tag="master_of_economy.factory_built"):
    """ME-I-3: ``cost`` to the bank and ``materials`` construction materials back to the supply."""

    corporation: str
    factory: str
    cost: int
    materials: int


class FactorySold(Event, frozen=True, tag="master_of_economy.factory_sold"):
    """ME-I-5 (``forced``: ME-X-1.2): the marker back to the supply for ``value`` from the bank; ``by_preference``:
    the type was chosen by the rules from the manager's standing preferences (§17), not asked."""

    corporation: str
    factory: str
    value: int
    forced: bool = False
    by_preference: bool = False


class FactoriesSupplied(Event, frozen=True, tag="master_of_economy.factories_supplied"):
    """ME-P-1: ``count`` factories of the type get their inputs (``inputs`` per commodity, in total)."""

    corporation: str
    factory: str
    count: int
    inputs: tuple[int, ...]


class EnergySpoiled(Event, frozen=True, tag="master_of_economy.energy_spoiled"):
    """ME-P-4: the energy left in the warehouse goes back to the supply."""

    corporation: str
    commodity: str
    count: int


class GoodsProduced(Event, frozen=True, tag="master_of_economy.goods_produced"):
    """ME-R-1..5: the inputs on the factories go back to the supply (``used``); ``goods`` enter the warehouse and
    ``lost`` (over capacity or beyond the supply) go back to the supply."""

    corporation: str
    used: tuple[int, ...]
    goods: tuple[int, ...]
    lost: tuple[int, ...]


# -- next stage, end ---------------------------------------------------------------------------------------------


class ReceiptsGiven(Event, frozen=True, tag="master_of_economy.receipts_given"):
    """ME-N-1: every player receives ``count`` receipts tokens."""

    count: int


class ReceiptsPlaced(Event, frozen=True, tag="master_of_economy.receipts_placed"):
    """ME-N-2/3 (``seat`` None: the extra receipt of the last corporation)."""

    seat: int | None
    corporation: str
    count: int


class HoldingsSold(Event, frozen=True, tag="master_of_economy.holdings_sold"):
    """ME-E-2: ``corporation`` sells its packets of ``of`` to the bank for ``value``."""

    corporation: str
    of: str
    packets: tuple[int, ...]
    value: int


class CreditsSettled(Event, frozen=True, tag="master_of_economy.credits_settled"):
    """ME-E-3: ``amount`` paid for ``credits`` (what the cash allows; the rest is forgiven)."""

    corporation: str
    credits: int
    amount: int


class CashDistributed(Event, frozen=True, tag="master_of_economy.cash_distributed"):
    """ME-E-4: per share, per packet, the remainder to the last manager; ``payments`` per player in total."""

    corporation: str
    per_share: int
    per_packet: int
    remainder: int
    payments: tuple[tuple[int, int], ...]


class GameEnded(Event, frozen=True, tag="master_of_economy.game_ended"):
    """ME-E-6..8, ME-W-2/3: every player's final result, best first; ``teams``: each team's sum (2 vs. 2)."""

    results: tuple[Result, ...]
    teams: tuple[int, ...] = ()


class AiDecided(Event, frozen=True, tag="master_of_economy.ai_decided"):
    """The computer's reasons for ``seat``'s next moves at ``level``, in words, before the moves' own events. It
    names only public facts: of a sealed choice (a bid, a token, a ballot) it says that it is made, never what it
    is, so it is as public as the "has chosen" of the sealed event that follows."""

    seat: int
    level: str
    explanation: str = ""
    """The reasons in English words, as logs written before the reasons were phrases hold them (new logs:
    ``reason``)."""
    reason: Phrase | None = None
    """What the computer does and why, in no language (told in the reader's language)."""


class SeedRevealed(Event, frozen=True, tag="master_of_economy.seed_revealed"):
    seed: str


MoeEvent = (
    GameStarted | CorporationPicked | CorporationsFormed | StartBidSealed | StartBidsRevealed | OrderSet
    | StageBegan | PhaseBegan | StepBegan | TurnPassed | FactoryBuilt | FactorySold | FactoriesSupplied | EnergySpoiled
    | GoodsProduced | AcMarkerPlaced | TokenCommitted | BidPlaced | ReceiptsDiscarded | RowOpened | LocalDeal
    | SaleFined | PurchaseDeferred | PurchaseDropped | ExportsOpened | Exported | ExportFailed | AcExported
    | ImportBought | RowClosed
    | MarketClosed | AcScored | ShortfallArose | ShortfallCovered | ShortfallPreferencesSet
    | ShortfallPreferencesCleared | InterestPaid | InterestUnpaid | CreditsRepaid
    | CreditTaken | PacketBought | PacketSold | PacketExchanged | BoardBonusPaid | Embezzled | DividendProposed
    | DividendVoteCast | DividendCounted | DividendPaid | Redeemed | CandidacyDeclared | ManagerVoteCast
    | BallotsCounted | ManagerElected | ManagerChanged | ReceiptsGiven | ReceiptsPlaced | HoldingsSold
    | CreditsSettled | CashDistributed | GameEnded | AiDecided | SeedRevealed
)

__all__ = [
    "AcExported",
    "AcMarkerPlaced",
    "AcScored",
    "BallotsCounted",
    "BidPlaced",
    "BoardBonusPaid",
    "CandidacyDeclared",
    "CashDistributed",
    "CorporationPicked",
    "CorporationsFormed",
    "CreditTaken",
    "CreditsRepaid",
    "CreditsSettled",
    "DividendCounted",
    "DividendPaid",
    "DividendProposed",
    "DividendVoteCast",
    "Embezzled",
    "EnergySpoiled",
    "ExportFailed",
    "Exported",
    "ExportsOpened",
    "FactoriesSupplied",
    "FactoryBuilt",
    "FactorySold",
    "GameEnded",
    "GameStarted",
    "GoodsProduced",
    "HoldingsSold",
    "ImportBought",
    "InterestPaid",
    "InterestUnpaid",
    "LocalDeal",
    "ManagerChanged",
    "ManagerElected",
    "ManagerVoteCast",
    "MarketClosed",
    "MoeEvent",
    "OrderSet",
    "PacketBought",
    "PacketExchanged",
    "PacketSold",
    "PhaseBegan",
    "PurchaseDeferred",
    "PurchaseDropped",
    "ReceiptsDiscarded",
    "ReceiptsGiven",
    "ReceiptsPlaced",
    "Redeemed",
    "RowClosed",
    "RowOpened",
    "SaleFined",
    "SeedRevealed",
    "ShortfallArose",
    "ShortfallCovered",
    "ShortfallPreferencesCleared",
    "ShortfallPreferencesSet",
    "StageBegan",
    "StartBidSealed",
    "StartBidsRevealed",
    "StepBegan",
    "TokenCommitted",
    "TurnPassed",
]
