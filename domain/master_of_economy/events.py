"""The facts of a game of Master of Economy. Corporations are named by key, holders as in :mod:`.holders`
(``bank``, ``seat:N``, ``corp:<key>``). Every amount is the one decided (a price, a bonus, a payment), so
folding never reads a table to decide anything.

Four kinds of event hold a seat's sealed choice (spec §17): :class:`StartBidSealed`, :class:`TokenCommitted`,
:class:`DividendVoteCast` and :class:`ManagerVoteCast`. Another viewer gets them with the secret field ``None``
(:mod:`.secrets`), so it knows the seat has chosen; the reveal events (:class:`StartBidsRevealed`,
:class:`AcScored`, :class:`DividendCounted`, :class:`BallotsCounted`) show every choice at once.
"""

from __future__ import annotations

from domain.kernel import Event

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
    """ME-I-5 (``forced``: ME-X-1.2): the marker back to the supply for ``value`` from the bank."""

    corporation: str
    factory: str
    value: int
    forced: bool = False


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


# -- trade ---------------------------------------------------------------------------------------------------------


class AcMarkerPlaced(Event, frozen=True, tag="master_of_economy.ac_marker_placed"):
    """ME-V-9: the AC's blocking marker on ``field`` of ``commodity``'s row, with why."""

    corporation: str
    commodity: str
    field: int
    explanation: str


class TokenCommitted(Event, frozen=True, tag="master_of_economy.token_committed"):
    """ME-V-7 (sealed: ``token`` is None in another viewer's copy)."""

    seat: int
    token: int | None = None


class BidPlaced(Event, frozen=True, tag="master_of_economy.bid_placed"):
    """ME-T-8/9: ``field`` 0 is IMPORT."""

    corporation: str
    commodity: str
    field: int


class ReceiptsDiscarded(Event, frozen=True, tag="master_of_economy.receipts_discarded"):
    """ME-T-6: the manager discards a receipts token for the corporation's 7th bid."""

    seat: int
    corporation: str


class RowOpened(Event, frozen=True, tag="master_of_economy.row_opened"):
    """ME-T-11/12: a row's resolution begins, with demand at its start box; ``local``: Step A runs (the row has
    IMPORT bids and player EXPORT bids), otherwise every IMPORT bid waits for Step C."""

    commodity: str
    demand: int
    local: bool


class LocalDeal(Event, frozen=True, tag="master_of_economy.local_deal"):
    """ME-T-12: one unit from ``seller`` to ``buyer`` for ``price`` (no point, demand unchanged)."""

    commodity: str
    buyer: str
    seller: str
    field: int
    price: int


class SaleFined(Event, frozen=True, tag="master_of_economy.sale_fined"):
    """ME-T-15: a sale without goods: the bid is removed and ``fine`` paid (0: waived, no cash)."""

    corporation: str
    commodity: str
    field: int
    fine: int


class PurchaseDeferred(Event, frozen=True, tag="master_of_economy.purchase_deferred"):
    """ME-T-12: no seller bid of another corporation is left: the purchase bid waits for Step C."""

    corporation: str
    commodity: str


class PurchaseDropped(Event, frozen=True, tag="master_of_economy.purchase_dropped"):
    """ME-T-12/14: a purchase bid dropped: ``full`` warehouse, no ``cash`` after the shortfall procedure, or an
    empty ``supply``."""

    corporation: str
    commodity: str
    reason: str


class ExportsOpened(Event, frozen=True, tag="master_of_economy.exports_opened"):
    """ME-T-13: Step B begins; ``last`` is the last field where an export can succeed (ME-X-4's cap, or N)."""

    commodity: str
    last: int


class Exported(Event, frozen=True, tag="master_of_economy.exported"):
    """ME-T-13: sold abroad for ``price``, +``points``, demand down to ``demand``."""

    corporation: str
    commodity: str
    field: int
    price: int
    points: int
    demand: int


class ExportFailed(Event, frozen=True, tag="master_of_economy.export_failed"):
    """ME-T-13: no demand left for this field (or beyond the cap): removed, no fine."""

    corporation: str
    commodity: str
    field: int


class AcExported(Event, frozen=True, tag="master_of_economy.ac_exported"):
    """ME-V-11: the AC's marker takes one unit of demand (``demand`` after), with why."""

    corporation: str
    commodity: str
    field: int
    demand: int
    explanation: str


class ImportBought(Event, frozen=True, tag="master_of_economy.import_bought"):
    """ME-T-14: one unit bought abroad for ``price``."""

    corporation: str
    commodity: str
    price: int


class RowClosed(Event, frozen=True, tag="master_of_economy.row_closed"):
    commodity: str


class MarketClosed(Event, frozen=True, tag="master_of_economy.market_closed"):
    """ME-T-16: bids back to their owners, demand back to the start boxes (the AC's markers stay)."""


class AcScored(Event, frozen=True, tag="master_of_economy.ac_scored"):
    """ME-V-8: every seat's committed token, revealed; the AC gains ``gained`` points (to ``points``)."""

    corporation: str
    tokens: tuple[int, ...]
    gained: int
    points: int
    explanation: str


# -- shortfall, finance --------------------------------------------------------------------------------------------


class ShortfallArose(Event, frozen=True, tag="master_of_economy.shortfall_arose"):
    """ME-X-1: the corporation must pay ``due`` (``reason``: local, import, interest) and has less."""

    corporation: str
    due: int
    reason: str


class ShortfallCovered(Event, frozen=True, tag="master_of_economy.shortfall_covered"):
    """ME-X-1.1: the manager's gift (0 allowed)."""

    corporation: str
    seat: int
    amount: int


class InterestPaid(Event, frozen=True, tag="master_of_economy.interest_paid"):
    corporation: str
    amount: int


class InterestUnpaid(Event, frozen=True, tag="master_of_economy.interest_unpaid"):
    """ME-F-1, ME-X-1.3: one credit's interest goes unpaid (no further penalty)."""

    corporation: str


class CreditsRepaid(Event, frozen=True, tag="master_of_economy.credits_repaid"):
    corporation: str
    count: int
    amount: int


class CreditTaken(Event, frozen=True, tag="master_of_economy.credit_taken"):
    corporation: str
    amount: int


class PacketBought(Event, frozen=True, tag="master_of_economy.packet_bought"):
    """ME-F-2, ME-H-6: ``buyer`` pays ``cost``; ``bonus`` goes to ``bonus_to`` (the corporation's manager)."""

    buyer: str
    corporation: str
    packet: int
    cost: int
    bonus_to: str | None = None
    bonus: int = 0


class PacketSold(Event, frozen=True, tag="master_of_economy.packet_sold"):
    seller: str
    corporation: str
    packet: int
    value: int


class PacketExchanged(Event, frozen=True, tag="master_of_economy.packet_exchanged"):
    """``holder`` gives ``give`` back for ``take``; ``amount`` is what it pays (negative: receives)."""

    holder: str
    corporation: str
    give: int
    take: int
    amount: int
    bonus_to: str | None = None
    bonus: int = 0


# -- shareholders meeting ------------------------------------------------------------------------------------------


class BoardBonusPaid(Event, frozen=True, tag="master_of_economy.board_bonus_paid"):
    corporation: str
    seat: int
    amount: int


class Embezzled(Event, frozen=True, tag="master_of_economy.embezzled"):
    """ME-H-2: ``amount`` to the manager, ``cost`` to the bank, ``points`` lost."""

    corporation: str
    seat: int
    amount: int
    cost: int
    points: int


class DividendProposed(Event, frozen=True, tag="master_of_economy.dividend_proposed"):
    corporation: str
    seat: int
    per_share: int


class DividendVoteCast(Event, frozen=True, tag="master_of_economy.dividend_vote_cast"):
    """ME-H-3.3 (sealed: ``yes`` is None in another viewer's copy)."""

    seat: int
    yes: tuple[int, ...] | None = None


class DividendCounted(Event, frozen=True, tag="master_of_economy.dividend_counted"):
    """ME-H-3.4: every ballot (per seat, its yes lines), the yes votes per proposal (highest first) and the
    dividend passed (None: none)."""

    corporation: str
    ballots: tuple[tuple[int, ...] | None, ...]
    yes: tuple[tuple[int, int], ...]
    passed: int | None
    chair: bool = False
    """The manager's own vote decided an exact half."""


class DividendPaid(Event, frozen=True, tag="master_of_economy.dividend_paid"):
    corporation: str
    per_share: int
    payments: tuple[tuple[str, int], ...]


class Redeemed(Event, frozen=True, tag="master_of_economy.redeemed"):
    """ME-H-4: ``shares`` of packet ``packet`` bought back from ``holder`` for ``amount``; the holder takes packet
    ``returned`` from the bank (0: none, a full redemption)."""

    corporation: str
    holder: str
    packet: int
    shares: int
    amount: int
    returned: int = 0


class CandidacyDeclared(Event, frozen=True, tag="master_of_economy.candidacy_declared"):
    """ME-H-5.1: ``stands`` or declines (``forced``: a largest player holder, who cannot decline)."""

    corporation: str
    seat: int
    stands: bool
    forced: bool = False


class ManagerVoteCast(Event, frozen=True, tag="master_of_economy.manager_vote_cast"):
    """ME-H-5.2 (sealed: ``choices`` is None in another viewer's copy)."""

    seat: int
    choices: tuple[int, ...] | None = None


class BallotsCounted(Event, frozen=True, tag="master_of_economy.ballots_counted"):
    """ME-H-5.2-3: every ballot, the votes per candidate and the candidates tied for most (one: the winner)."""

    corporation: str
    ballots: tuple[tuple[int, ...] | None, ...]
    votes: tuple[tuple[int, int], ...]
    tied: tuple[int, ...]


class ManagerElected(Event, frozen=True, tag="master_of_economy.manager_elected"):
    """ME-H-5.3-4: ``seat`` manages the corporation from the next stage (``picked_by``: the tie-break holder)."""

    corporation: str
    seat: int
    picked_by: str | None = None


class ManagerChanged(Event, frozen=True, tag="master_of_economy.manager_changed"):
    """ME-H-7: the election takes effect."""

    corporation: str
    seat: int
    previous: int | None


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


class SeedRevealed(Event, frozen=True, tag="master_of_economy.seed_revealed"):
    seed: str


MoeEvent = (
    GameStarted | CorporationPicked | CorporationsFormed | StartBidSealed | StartBidsRevealed | OrderSet
    | StageBegan | PhaseBegan | StepBegan | TurnPassed | FactoryBuilt | FactorySold | FactoriesSupplied | EnergySpoiled
    | GoodsProduced | AcMarkerPlaced | TokenCommitted | BidPlaced | ReceiptsDiscarded | RowOpened | LocalDeal
    | SaleFined | PurchaseDeferred | PurchaseDropped | ExportsOpened | Exported | ExportFailed | AcExported
    | ImportBought | RowClosed
    | MarketClosed | AcScored | ShortfallArose | ShortfallCovered | InterestPaid | InterestUnpaid | CreditsRepaid
    | CreditTaken | PacketBought | PacketSold | PacketExchanged | BoardBonusPaid | Embezzled | DividendProposed
    | DividendVoteCast | DividendCounted | DividendPaid | Redeemed | CandidacyDeclared | ManagerVoteCast
    | BallotsCounted | ManagerElected | ManagerChanged | ReceiptsGiven | ReceiptsPlaced | HoldingsSold
    | CreditsSettled | CashDistributed | GameEnded | SeedRevealed
)
