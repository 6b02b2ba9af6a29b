"""The shareholders meeting's facts (§9): the board bonus, embezzlement, dividends, redemption and the election.
Part of :mod:`.events`, which re-exports them."""

from __future__ import annotations

from domain.kernel import Event

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
