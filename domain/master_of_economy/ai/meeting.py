"""The computer at the start auction (ME-S-9) and the shareholders meeting (§9) and the receipts (§10).

Its sealed choices (the auction bid, the ballots) are explained without saying what they are. ``basic`` votes every
dividend yes, stands for the corporations it manages and votes itself; ``values_shares`` also takes money out of a
corporation when its own holding makes that pay (embezzlement, a dividend before the players trade shares) and buys
back a rival's packet of its corporation when that leaves it more of the corporation's cash at the end."""

from __future__ import annotations

from domain.kernel import Chance, Seat
from domain.kernel.phrases import Phrase, say, say_n

from ..ballots import dividend_lines, election_lines
from ..commands import (
    BidForOrder,
    Embezzle,
    Pass,
    PickManager,
    PlaceReceipts,
    PlayerCommand,
    ProposeDividend,
    Redeem,
    Stand,
    VoteDividends,
    VoteManager,
)
from ..cursor import next_manager, target_corp
from ..dividends import reserve
from ..elections import ABSTAIN
from ..holders import held, player_holders, price, seat_holder
from ..holders import outstanding as shares_out
from ..legal import legal_commands
from ..state import State
from ..wording import euros
from .levels import Profile
from .outlook import productions_left

Plan = tuple[tuple[PlayerCommand, ...], Phrase]


def auction(state: State, seat: int, profile: Profile, chance: Chance) -> Plan:
    """ME-S-9: nothing (``basic``), or a small bid drawn from the chance it is given (an early place in the
    action sequence is worth a few euros, and a bid nobody can predict)."""
    amount = chance.below(4) if profile.values_shares else 0
    return (BidForOrder(amount=amount),), say("seals its bid for the start order (sealed until every bid is in).")


def _fraction(state: State, seat: int, corp: int) -> tuple[int, int]:
    """(the seat's shares, every player's shares) of ``corp``."""
    c = state.corps[corp]
    return sum(held(c, seat_holder(seat))), sum(sum(held(c, seat_holder(s))) for s in player_holders(c))


def _keep(state: State) -> int:
    return 10 if productions_left(state) >= 2 else 0


def embezzle(state: State, seat: int, corp: int, profile: Profile) -> Plan:
    """ME-H-2: only when the manager's part of the corporation's cash is small: each € taken costs the
    corporation 1 + price, of which the manager would get back only its share at the end."""
    templates = [t for t in legal_commands(state, Seat(seat)) if isinstance(t.command, Embezzle)]
    if profile.values_shares and templates:
        mine, total = _fraction(state, seat, corp)
        unit = price(state, corp)
        most = templates[0].params[0].maximum if templates[0].params else 1  # type: ignore[union-attr]
        amount = min(most, max(0, state.corps[corp].cash - _keep(state)) // (1 + unit))
        if amount > 0 and mine * (1 + unit) < total:
            return (Embezzle(amount=amount),), say_n("takes {amount} out of the corporation: it holds only {mine} of "
                                                     "the players' {n} share.",
                                                     "takes {amount} out of the corporation: it holds only {mine} of "
                                                     "the players' {n} shares.", "n", amount=euros(amount),
                                                     mine=mine, n=total)
    return (Pass(),), say("takes nothing out of the corporation.")


def propose(state: State, seat: int, profile: Profile) -> Plan:
    """ME-H-3.2: a dividend of what the corporation can spare when the seat holds most of its shares."""
    corp = target_corp(state)
    options = [t.command.per_share for t in legal_commands(state, Seat(seat)) if isinstance(t.command, ProposeDividend)]
    if profile.values_shares and options and state.corps[corp].manager == seat:
        mine, total = _fraction(state, seat, corp)
        c = state.corps[corp]
        outstanding = shares_out(c)
        spare = c.cash - reserve(state, corp) - _keep(state)
        k = max((o for o in options if o * outstanding <= spare), default=0)
        if k and 4 * mine >= 3 * total:
            return (ProposeDividend(per_share=k),), say("proposes {amount} a share: the corporation can spare it "
                                                        "and the shareholders can buy shares with it.",
                                                        amount=euros(k))
    return (Pass(),), say("proposes no dividend.")


def vote(state: State, seat: int, profile: Profile) -> Plan:
    """ME-H-3.3 (sealed): yes to every line (``basic``); a manager keeps what its corporation needs."""
    lines = dividend_lines(state, seat)
    corp = target_corp(state)
    c = state.corps[corp]
    outstanding = shares_out(c)
    spare = c.cash - reserve(state, corp) - _keep(state)
    yes = tuple(i for i, (_, k) in enumerate(lines)
                if not profile.values_shares or c.manager != seat or k * outstanding <= spare)
    return (VoteDividends(yes=yes),), say("casts its dividend ballot (sealed until the count).")


def redeem(state: State, seat: int, corp: int, profile: Profile) -> Plan:
    """ME-H-4: buy back another holder's packet when what it would have taken at the end is more than it costs
    the manager's part of the corporation now."""
    options = [t.command for t in legal_commands(state, Seat(seat)) if isinstance(t.command, Redeem)]
    if not profile.values_shares or not options:
        return (Pass(),), say("redeems no shares.")
    c = state.corps[corp]
    mine, total = _fraction(state, seat, corp)
    unit = price(state, corp)
    cash = c.cash
    best: tuple[int, Redeem] | None = None
    for r in options:
        holder = c.packets[r.packet - 1]
        if holder == seat_holder(seat) or not holder.startswith("seat:"):
            continue
        cost = (r.shares + 1) * unit
        if cash - cost < _keep(state) or total - r.shares <= 0 or mine == 0:
            continue
        before = cash * mine // total
        after = (cash - cost) * mine // (total - r.shares)
        if after - before > 0 and (best is None or after - before > best[0]):
            best = (after - before, r)
    if best is None:
        return (Pass(),), say("redeems no shares.")
    return (best[1],), say_n("buys back {n} of its shares from packet {packet}: fewer shares share its cash at "
                             "the end.", "buys back {n} of its shares from packet {packet}: fewer shares share its "
                             "cash at the end.", "n", n=best[1].shares, packet=best[1].packet)


def stand(state: State, seat: int, profile: Profile) -> Plan:
    """ME-H-5.1: stand where it holds shares (``basic``: where it manages)."""
    c = state.corps[target_corp(state)]
    mine = sum(held(c, seat_holder(seat)))
    if c.manager == seat or (profile.values_shares and mine):
        return (Stand(),), say("stands for manager.")
    return (Pass(),), say("does not stand for manager.")


def ballot(state: State, seat: int, profile: Profile) -> Plan:
    """ME-H-5.2 (sealed): every line for itself when it stands, else abstains."""
    lines = election_lines(state, seat)
    me = seat in state.meeting.candidates
    choice = tuple(seat if me else ABSTAIN for _ in lines)
    options = [t.command for t in legal_commands(state, Seat(seat)) if isinstance(t.command, VoteManager)]
    pick = next((o for o in options if o.choices == choice), options[0])
    return (pick,), say("casts its election ballot (sealed until the count).")


def tiebreak(state: State, seat: int, profile: Profile) -> Plan:
    """ME-H-5.3: itself when tied, else the first tied candidate."""
    tied = state.meeting.tied
    winner = seat if seat in tied else tied[0]
    if winner == seat:
        return (PickManager(seat=winner),), say("breaks the tie in its own favour.")
    return (PickManager(seat=winner),), say("breaks the tie.")


def receipts(state: State, seat: int, profile: Profile) -> Plan:
    """ME-N-2: every receipts token on the corporation it will manage (an early place in the action sequence),
    none on the others."""
    target = state.corps[state.order[state.target]]
    count = state.players[seat].receipts if next_manager(target) == seat else 0
    if count:
        return (PlaceReceipts(count=count),), say_n(
            "places {n} receipts token on its corporation, for an early place in the action sequence.",
            "places {n} receipts tokens on its corporation, for an early place in the action sequence.", "n",
            n=count)
    return (PlaceReceipts(count=0),), say("places no receipts here.")

