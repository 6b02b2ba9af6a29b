"""The state of a game of Master of Economy: frozen structs, the fold of its events.

Goods, factories and supplied factories are tuples in catalog order (commodity *i* is made by factory type *i*).
Corporations are the participating ones (the players' and, in the §12 variant, the AC), in catalog order; the
rules refer to them by index into ``corps``, events by key. A share packet's holder is a string: ``"bank"``,
``"seat:N"`` or ``"corp:<key>"`` (:mod:`.holders`). ``bank`` is the bank's net balance (what it received minus
what it paid), so the money in play plus ``bank`` is always 0 (the conservation invariant).
"""

from __future__ import annotations

import enum

import msgspec

from domain.kernel.table.facts import TableFacts

from .variant import Variant


class Step(enum.StrEnum):
    """Where the game is: a decision some seat owes, a system job that is due, or a point the rules pass."""

    SETUP = "setup"
    PICK = "pick"  # ME-S-1, seats in order
    AUCTION = "auction"  # ME-S-9, sealed, simultaneous
    AUCTION_REVEAL = "auction_reveal"  # system
    INVEST = "investments"  # §4, corporations in action order
    PROCURE = "procurement"  # §5
    AC_MOVE = "ac_move"  # ME-V-9, system
    TOKENS = "tokens"  # ME-V-7, sealed, simultaneous
    BIDS = "bids"  # ME-T-7, corporations in action order
    RESOLVE = "resolve"  # ME-T-11, system
    RESOLVING = "resolving"  # rows being resolved (waits only for a shortfall, ME-X-1)
    AC_SCORE = "ac_score"  # ME-V-8, system
    INTEREST = "interest"  # ME-F-1
    BANK_TRADE = "bank_trade"  # ME-F-2, two rounds
    CREDIT = "credit"  # ME-F-3
    EMBEZZLE = "embezzle"  # ME-H-2
    PROPOSE = "propose"  # ME-H-3.2, players in seat order from the manager
    VOTE = "vote"  # ME-H-3.3, sealed, simultaneous
    VOTE_COUNT = "vote_count"  # system
    REDEEM = "redeem"  # ME-H-4
    STAND = "stand"  # ME-H-5.1, simultaneous (public)
    BALLOT = "ballot"  # ME-H-5.2, sealed, simultaneous
    BALLOT_COUNT = "ballot_count"  # system
    TIEBREAK = "tiebreak"  # ME-H-5.3
    PLAYER_TRADE = "player_trade"  # ME-H-6, up to three rounds
    RECEIPTS = "receipts"  # ME-N-2, per target
    ENDED = "ended"


class Corp(msgspec.Struct, frozen=True, kw_only=True):
    """A participating corporation (the AC has only points and packets, ME-V-4)."""

    key: str
    automated: bool = False
    cash: int = 0
    points: int = 0
    goods: tuple[int, ...] = ()
    factories: tuple[int, ...] = ()
    supplied: tuple[int, ...] = ()
    credits: int = 0
    receipts: int = 0
    packets: tuple[str, ...] = ()
    """The holder of each packet, denomination 1 first."""
    manager: int | None = None
    elected: int | None = None
    """The manager for the next stage, once this meeting's election has chosen one (ME-H-5.4)."""
    interest_paid: int = 0
    interest_missed: int = 0
    """This financial phase's interest payments made and missed (ME-F-1)."""


class Preferences(msgspec.Struct, frozen=True, kw_only=True):
    """A manager's standing answers to the shortfall procedure (§17, "Interrupts"; ME-X-1): the rules give them for
    the seat at once instead of asking it. Private to the seat while the game runs."""

    cover_up_to: int = 0
    """The most the seat gives from its own cash at one shortfall (never more than the shortfall or the cash)."""
    sell_first: tuple[str, ...] = ()
    """Factory keys, ranked: the first one the corporation owns is sold (the others by table 15.2's order)."""


class Player(msgspec.Struct, frozen=True, kw_only=True):
    cash: int = 0
    receipts: int = 0
    locked: int | None = None
    """The AC token committed in the previous trade phase, unavailable in this one (ME-V-7)."""
    start_bid: int | None = None
    """The revealed auction bid (ME-S-9), subtracted at the end (ME-E-7)."""
    corporation: str | None = None
    """The corporation the player picked (ME-S-1)."""
    preferences: Preferences | None = None
    """The standing shortfall preferences (§17), None: the seat is asked."""


class Row(msgspec.Struct, frozen=True, kw_only=True):
    """One commodity's row of the market board during a trade phase."""

    imports: tuple[int, ...] = ()
    """IMPORT bids not yet taken (corporation indices, in action order: the buyers' queue, ME-T-12)."""
    aside: tuple[int, ...] = ()
    """Purchase bids set aside for Step C (ME-T-14)."""
    exports: tuple[int | None, ...] = ()
    """Each export field's bid (a corporation index), or None."""
    ac: bool = False
    """The AC's blocking marker is on the highlighted field (ME-V-9; it stays for the game)."""
    demand: int = 0
    unfilled: bool = False
    """An IMPORT bid was dropped in Step A: the column did not empty by deals (ME-X-4)."""
    stage: int = 0
    """0: not yet resolved this phase; 1: local market (Step A); 2: exports done, purchases abroad (Step C);
    3: closed."""


class Shortfall(msgspec.Struct, frozen=True, kw_only=True):
    """A payment a corporation cannot make (ME-X-1), waiting for its manager."""

    corporation: int
    due: int
    reason: str
    """``local`` (a deal in Step A), ``import`` (a purchase abroad) or ``interest``."""
    covered: bool = False
    sold: bool = False


class Meeting(msgspec.Struct, frozen=True, kw_only=True):
    """The current corporation's dividend proposals or election (ME-H-3, ME-H-5)."""

    proposals: tuple[int, ...] = ()
    """Distinct proposed dividends per share, in the order proposed."""
    candidates: tuple[int, ...] = ()
    declined: tuple[int, ...] = ()
    tied: tuple[int, ...] = ()


class State(msgspec.Struct, frozen=True, kw_only=True):
    variant: Variant = Variant()
    dataset: str = ""
    seed_commitment: str = ""
    seed: str | None = None
    step: Step = Step.SETUP
    stage: int = 0
    number: int = 0
    """The phase of the stage, 1-10 (0 during setup, 11 while the next action sequence is set)."""
    turn: int = 0
    round: int = 1
    target: int = 0
    players: tuple[Player, ...] = ()
    corps: tuple[Corp, ...] = ()
    order: tuple[int, ...] = ()
    """The action sequence: indices of the player-run corporations, position 1 first."""
    rows: tuple[Row, ...] = ()
    row: int = 0
    """The row being resolved (ME-T-11)."""
    bank: int = 0
    shortfall: Shortfall | None = None
    done: bool = False
    """The actor at ``turn`` has ended its turn (passed, or made its one move)."""
    sealed: tuple[tuple[int, ...] | None, ...] = ()
    """Each seat's sealed choice in the current simultaneous step (a bid, a token, a ballot), or None."""
    meeting: Meeting = Meeting()
    builds: tuple[int, ...] = ()
    """This turn's builds per factory type (ME-I-2)."""
    sales: int = 0
    """This turn's factory sales (ME-I-5)."""
    trades: tuple[tuple[int, int], ...] = ()
    """This step's share purchases and sales per actor (a corporation index in ME-F-2, a seat in ME-H-6)."""
    results: tuple[Result, ...] = ()
    table: TableFacts = TableFacts()


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """A player's final result (ME-E-6, ME-E-7) and rank (ME-E-8, ME-W-2, ME-W-3)."""

    seat: int
    cash: int
    shares: int
    """The value of the packets held at the final prices."""
    bid: int
    result: int
    rank: int
