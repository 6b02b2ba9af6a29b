"""What seats (player commands) and the service (system commands) can ask of a game of Master of Economy.

Corporations, commodities and factory types are named by their keys (``blue``, ``coal``, ``steel_works``); a
share packet by its denomination (1-10). A command that acts for a corporation acts for the one whose turn it is
(the manager sends it); the shortfall commands act for the corporation that is short (ME-X-1), and the standing
shortfall preferences (§17) are the seat's own, sent at any time while the game runs. Player and
system commands are separate unions with separate tags, so a client can never send a system command.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.kernel import Command, SystemCommand

from .variant import GameOptions

Key = Annotated[str, msgspec.Meta(min_length=1, max_length=20)]
Amount = Annotated[int, msgspec.Meta(ge=0, le=1_000_000)]
Packet = Annotated[int, msgspec.Meta(ge=1, le=64)]


class PickCorporation(Command, frozen=True, tag="master_of_economy.pick_corporation"):
    """ME-S-1: take a corporation nobody has picked."""

    corporation: Key


class BidForOrder(Command, frozen=True, tag="master_of_economy.bid_for_order"):
    """ME-S-9 (auction start): a sealed bid for an early position, subtracted from the final result."""

    amount: Amount


class Build(Command, frozen=True, tag="master_of_economy.build"):
    """ME-I-1..4: build one factory of this type."""

    factory: Key


class SellFactory(Command, frozen=True, tag="master_of_economy.sell_factory"):
    """ME-I-5: sell one factory of this type to the bank."""

    factory: Key


class Supply(Command, frozen=True, tag="master_of_economy.supply"):
    """ME-P-1: supply ``count`` factories of this type from the warehouse."""

    factory: Key
    count: Annotated[int, msgspec.Meta(ge=1, le=64)] = 1


class CommitToken(Command, frozen=True, tag="master_of_economy.commit_token"):
    """ME-V-7: secretly commit one available AC token."""

    token: Amount


class PlaceBid(Command, frozen=True, tag="master_of_economy.place_bid"):
    """ME-T-6..9: one bid on a commodity's row: ``field`` 0 is IMPORT, 1..N an export field."""

    commodity: Key
    field: Annotated[int, msgspec.Meta(ge=0, le=64)]


class BidSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    commodity: Key
    field: Annotated[int, msgspec.Meta(ge=0, le=64)]


class PlaceBids(Command, frozen=True, tag="master_of_economy.place_bids"):
    """ME-T-7: the corporation's whole submission at once (then its bidding ends)."""

    bids: Annotated[tuple[BidSpec, ...], msgspec.Meta(max_length=16)] = ()


class CoverShortfall(Command, frozen=True, tag="master_of_economy.cover_shortfall"):
    """ME-X-1.1: the manager gives the short corporation this much of their own cash (0 allowed)."""

    amount: Amount


class SellForShortfall(Command, frozen=True, tag="master_of_economy.sell_for_shortfall"):
    """ME-X-1.2: the factory type the short corporation must sell."""

    factory: Key


class SetShortfallPreferences(Command, frozen=True, tag="master_of_economy.set_shortfall_preferences"):
    """§17, "Interrupts": the seat's standing answers to the shortfall procedure (ME-X-1) of any corporation it
    manages: give up to ``cover_up_to`` of its own cash, then sell the first type of ``sell_first`` (factory keys,
    ranked) the corporation owns, else the first by the order of table 15.2. Sent at any time while the game runs
    (not only on the seat's turn); private to the seat. It replaces the seat's earlier preferences."""

    cover_up_to: Amount
    sell_first: Annotated[tuple[Key, ...], msgspec.Meta(max_length=16)] = ()


class ClearShortfallPreferences(Command, frozen=True, tag="master_of_economy.clear_shortfall_preferences"):
    """§17, "Interrupts": withdraw the standing preferences: the seat is asked again at each shortfall."""


class RepayCredits(Command, frozen=True, tag="master_of_economy.repay_credits"):
    """ME-F-1: repay this many credits."""

    count: Annotated[int, msgspec.Meta(ge=1, le=64)]


class BuyPacket(Command, frozen=True, tag="master_of_economy.buy_packet"):
    """ME-F-2, ME-H-6: buy a packet the bank holds."""

    corporation: Key
    packet: Packet


class SellPacket(Command, frozen=True, tag="master_of_economy.sell_packet"):
    """ME-F-2, ME-H-6: sell a packet to the bank."""

    corporation: Key
    packet: Packet


class ExchangePacket(Command, frozen=True, tag="master_of_economy.exchange_packet"):
    """ME-F-2, ME-H-6: give back packet ``give`` for the bank's packet ``take`` of the same corporation."""

    corporation: Key
    give: Packet
    take: Packet


class TakeCredit(Command, frozen=True, tag="master_of_economy.take_credit"):
    """ME-F-3: take one credit."""


class Embezzle(Command, frozen=True, tag="master_of_economy.embezzle"):
    """ME-H-2: take ``amount`` from the corporation."""

    amount: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)]


class ProposeDividend(Command, frozen=True, tag="master_of_economy.propose_dividend"):
    """ME-H-3.2: propose a dividend of ``per_share`` per share."""

    per_share: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)]


class VoteDividends(Command, frozen=True, tag="master_of_economy.vote_dividends"):
    """ME-H-3.3 (sealed): the ballot lines (see the view's ``ballot``) voted yes; every other line is no."""

    yes: Annotated[tuple[int, ...], msgspec.Meta(max_length=64)] = ()


class Redeem(Command, frozen=True, tag="master_of_economy.redeem"):
    """ME-H-4: buy back ``shares`` of the corporation's own packet ``packet`` from its holder."""

    packet: Packet
    shares: Packet


class Stand(Command, frozen=True, tag="master_of_economy.stand"):
    """ME-H-5.1: stand for manager of the corporation being elected (Pass declines)."""


class VoteManager(Command, frozen=True, tag="master_of_economy.vote_manager"):
    """ME-H-5.2 (sealed): for each ballot line (a holder this seat votes for), a candidate's seat or -1 to
    abstain."""

    choices: Annotated[tuple[Annotated[int, msgspec.Meta(ge=-1, le=15)], ...], msgspec.Meta(max_length=16)] = ()


class PickManager(Command, frozen=True, tag="master_of_economy.pick_manager"):
    """ME-H-5.3: the largest holder picks the winner among the tied candidates."""

    seat: Annotated[int, msgspec.Meta(ge=0, le=15)]


class PlaceReceipts(Command, frozen=True, tag="master_of_economy.place_receipts"):
    """ME-N-2: place this many receipts tokens on the target corporation (0 allowed)."""

    count: Amount


class Pass(Command, frozen=True, tag="master_of_economy.pass"):
    """End this turn or decline: no more builds, supplies or bids; no trade; no credit, embezzlement, proposal,
    redemption or candidacy."""


PlayerCommand = (
    PickCorporation | BidForOrder | Build | SellFactory | Supply | CommitToken | PlaceBid | PlaceBids
    | CoverShortfall | SellForShortfall | SetShortfallPreferences | ClearShortfallPreferences | RepayCredits
    | BuyPacket | SellPacket | ExchangePacket | TakeCredit
    | Embezzle | ProposeDividend | VoteDividends | Redeem | Stand | VoteManager | PickManager | PlaceReceipts | Pass
)


class StartGame(SystemCommand, frozen=True, tag="master_of_economy.start_game"):
    """Set the game up (§2)."""

    options: GameOptions
    seed_commitment: str


class RevealStartBids(SystemCommand, frozen=True, tag="master_of_economy.reveal_start_bids"):
    """ME-S-9: every sealed start bid is in: reveal them and rank the corporations."""


class MoveAc(SystemCommand, frozen=True, tag="master_of_economy.move_ac"):
    """ME-V-9: the AC places its blocking marker before the trade phase."""


class ResolveMarket(SystemCommand, frozen=True, tag="master_of_economy.resolve_market"):
    """ME-T-11: every bid is placed: resolve the rows top to bottom."""


class ScoreAc(SystemCommand, frozen=True, tag="master_of_economy.score_ac"):
    """ME-V-8: reveal the committed AC tokens and score them for the AC."""


class CountVotes(SystemCommand, frozen=True, tag="master_of_economy.count_votes"):
    """ME-H-3.3-4: every dividend ballot is in: reveal them, count and pay."""


class CountBallots(SystemCommand, frozen=True, tag="master_of_economy.count_ballots"):
    """ME-H-5.2-3: every election ballot is in: reveal them and count."""


class TakeAiTurn(SystemCommand, frozen=True, tag="master_of_economy.take_ai_turn"):
    """The computer decides for ``seat`` (a seat the options gave it) where the game waits for that seat: its
    reasons (``AiDecided``), then its moves as the seat's own commands."""

    seat: Annotated[int, msgspec.Meta(ge=0, le=15)]


class RevealSeed(SystemCommand, frozen=True, tag="master_of_economy.reveal_seed"):
    """After the end, publish the seed (hex); it must match the commitment in GameStarted."""

    seed: str


SystemCommandType = (
    StartGame | RevealStartBids | MoveAc | ResolveMarket | ScoreAc | CountVotes | CountBallots | TakeAiTurn
    | RevealSeed
)
AnyCommand = PlayerCommand | SystemCommandType
