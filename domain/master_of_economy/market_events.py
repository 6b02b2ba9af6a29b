"""The trade phase's facts (§7, §12, §14.1) and the financial phase's (§8): the AC's markers and sealed tokens, the
bids, the resolution deal by deal, the shortfall procedure, interest, credits and share trading with the bank.
Part of :mod:`.events`, which re-exports them."""

from __future__ import annotations

from domain.kernel import Event
from domain.kernel.phrases import Phrase

# -- trade ---------------------------------------------------------------------------------------------------------


class AcMarkerPlaced(Event, frozen=True, tag="master_of_economy.ac_marker_placed"):
    """ME-V-9: the AC's blocking marker on ``field`` of ``commodity``'s row, with why."""

    corporation: str
    commodity: str
    field: int
    explanation: str = ""
    """Why, in English words, as logs written before the reasons were phrases hold it (new logs: ``reason``)."""
    reason: Phrase | None = None
    """Why, in no language."""


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
    explanation: str = ""
    """Why, in English words, as logs written before the reasons were phrases hold it (new logs: ``reason``)."""
    reason: Phrase | None = None
    """Why, in no language."""


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
    explanation: str = ""
    """Why, in English words, as logs written before the reasons were phrases hold it (new logs: ``reason``)."""
    reason: Phrase | None = None
    """Why, in no language."""


# -- shortfall, finance --------------------------------------------------------------------------------------------


class ShortfallArose(Event, frozen=True, tag="master_of_economy.shortfall_arose"):
    """ME-X-1: the corporation must pay ``due`` (``reason``: local, import, interest) and has less."""

    corporation: str
    due: int
    reason: str


class ShortfallCovered(Event, frozen=True, tag="master_of_economy.shortfall_covered"):
    """ME-X-1.1: the manager's gift (0 allowed); ``by_preference``: given by the rules from the manager's standing
    preferences (§17, "Interrupts"), not asked."""

    corporation: str
    seat: int
    amount: int
    by_preference: bool = False


class ShortfallPreferencesSet(Event, frozen=True, tag="master_of_economy.shortfall_preferences_set"):
    """§17, "Interrupts": ``seat``'s standing answers to ME-X-1 (private: only the seat sees this event while the
    game runs)."""

    seat: int
    cover_up_to: int
    sell_first: tuple[str, ...] = ()


class ShortfallPreferencesCleared(Event, frozen=True, tag="master_of_economy.shortfall_preferences_cleared"):
    """§17: ``seat`` withdrew its standing preferences; it is asked again (private, as the setting)."""

    seat: int


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
