"""§11 and §13, the end of the game: the end condition (ME-E-1), the liquidation (ME-E-2..5) and the final results
(ME-E-6..8), with the teams' ranking of 2 vs. 2 (ME-W-2/3)."""

from __future__ import annotations

from msgspec.structs import replace

from .events import CashDistributed, CreditsSettled, GameEnded, HoldingsSold
from .holders import (
    BANK,
    cat_of,
    corp_holder,
    held,
    holder_seat,
    index,
    move_packet,
    price,
    seat_holder,
    transfer,
    with_corp,
)
from .recorder import Recorder
from .state import Result, State, Step

LAST_TRADE = 9


def over(state: State) -> bool:
    """ME-E-1, checked when a trade phase ends: a corporation on the end threshold, or stage 4's second trade."""
    cat = cat_of(state)
    threshold = cat.rules.game.end_points
    if state.stage >= cat.rules.game.stages and state.number >= LAST_TRADE:
        return True
    return any(c.points >= threshold for c in state.corps if not c.automated or state.variant.ac_triggers_end)


def finish(rec: Recorder) -> None:
    """The liquidation in its three parts, then the final results."""
    state = rec.state
    for corp in state.order:
        holder = corp_holder(state.corps[corp].key)
        for of, target in enumerate(state.corps):
            packets = held(target, holder)
            if packets:
                rec.emit(HoldingsSold(corporation=state.corps[corp].key, of=target.key, packets=packets,
                                      value=sum(packets) * price(state, of)))
    settlement = cat_of(state).rules.credits.settlement
    for corp in state.order:
        c = rec.state.corps[corp]
        if c.credits:
            rec.emit(CreditsSettled(corporation=c.key, credits=c.credits, amount=min(c.cash, settlement * c.credits)))
    for corp in state.order:
        rec.emit(_distribute(rec.state, corp))
    rec.emit(results(rec.state))


def _distribute(state: State, corp: int) -> CashDistributed:
    """ME-E-4: per share, then per packet, the remainder to the last manager."""
    c = state.corps[corp]
    owned = [(seat, d) for d, h in enumerate(c.packets, start=1) if (seat := holder_seat(h)) is not None]
    total, packets = sum(d for _, d in owned), len(owned)
    per_share = c.cash // total if total else 0
    left = c.cash - per_share * total
    per_packet = left // packets if packets else 0
    remainder = left - per_packet * packets
    pay = dict.fromkeys(range(len(state.players)), 0)
    for seat, d in owned:
        pay[seat] += per_share * d + per_packet
    if c.manager is not None:
        pay[c.manager] += remainder
    return CashDistributed(corporation=c.key, per_share=per_share, per_packet=per_packet, remainder=remainder,
                           payments=tuple((s, n) for s, n in pay.items() if n))


def final_results(state: State) -> list[tuple[int, int, int, int]]:
    """(seat, cash, shares value, auction bid) per player (ME-E-6/7)."""
    out = []
    for seat, player in enumerate(state.players):
        value = sum(sum(held(c, seat_holder(seat))) * price(state, i) for i, c in enumerate(state.corps))
        out.append((seat, player.cash, value, player.start_bid or 0))
    return out


def results(state: State) -> GameEnded:
    rows = {seat: (cash, value, bid, cash + value - bid) for seat, cash, value, bid in final_results(state)}
    score = {seat: r[3] for seat, r in rows.items()}
    teams = state.variant.teams
    ranks = team_ranks(score, teams) if teams else plain_ranks(score)
    ordered = sorted(rows, key=lambda s: (ranks[s], -score[s], s))
    return GameEnded(results=tuple(Result(seat=s, cash=rows[s][0], shares=rows[s][1], bid=rows[s][2],
                                          result=rows[s][3], rank=ranks[s]) for s in ordered),
                     teams=tuple(sum(score[s] for s in team) for team in teams))


def plain_ranks(score: dict[int, int]) -> dict[int, int]:
    """ME-E-8: the highest result wins; equal results share a rank."""
    return {s: 1 + sum(1 for o in score.values() if o > v) for s, v in score.items()}


def team_ranks(score: dict[int, int], teams: tuple[tuple[int, ...], ...]) -> dict[int, int]:
    """ME-W-2/3: the winning team takes 1st and 2nd (its better player first), the other 3rd and 4th; on equal sums
    the team of the best individual result wins, and if that is shared across the teams nobody does (a draw:
    every player ranks 1)."""
    sums = [sum(score[s] for s in team) for team in teams]
    best = [max(score[s] for s in team) for team in teams]
    if sums[0] != sums[1]:
        first = 0 if sums[0] > sums[1] else 1
    elif best[0] != best[1]:
        first = 0 if best[0] > best[1] else 1
    else:
        return dict.fromkeys(score, 1)
    ranks: dict[int, int] = {}
    for offset, team in ((0, teams[first]), (len(teams[first]), teams[1 - first])):
        for s in team:
            ranks[s] = offset + 1 + sum(1 for o in team if score[o] > score[s])
    return ranks


def apply_holdings_sold(state: State, event: HoldingsSold) -> State:
    of = index(state, event.of)
    for p in event.packets:
        state = move_packet(state, of, p, BANK)
    return transfer(state, BANK, corp_holder(event.corporation), event.value)


def apply_credits_settled(state: State, event: CreditsSettled) -> State:
    corp = index(state, event.corporation)
    state = transfer(state, corp_holder(event.corporation), BANK, event.amount)
    return with_corp(state, corp, credits=0)


def apply_cash_distributed(state: State, event: CashDistributed) -> State:
    for seat, amount in event.payments:
        state = transfer(state, corp_holder(event.corporation), seat_holder(seat), amount)
    return state


def apply_game_ended(state: State, event: GameEnded) -> State:
    return replace(state, step=Step.ENDED, results=event.results)
