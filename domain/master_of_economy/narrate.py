"""The log of a game of Master of Economy told as phrases, one event at a time (rendered in the reader's language
by the services).

A narrator tells the events a viewer may see (:func:`~.secrets.redact`): another seat's sealed choice is told as
"has sealed a bid" or "has voted" until the reveal tells every choice at once. Seats are :func:`seat` arguments
(named by the reader's page), corporations, commodities and factories terms of the catalog (:mod:`.wording`), money
a phrase of its own. Every sentence is one message key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.kernel.narration import LineNarrator, PhraseLines
from domain.kernel.phrases import Arg, Listing, Phrase, say, say_n, seat

from . import events as ev
from . import wording as w
from .catalog import DEFAULT_DATASET, Catalog, catalog
from .narrate_ai import ai_lines
from .narrate_market import market_tellers

PHASES = {1: say("Investments"), 2: say("Procurement"), 3: say("Production"), 4: say("Trade"),
          5: say("Financial operations"), 6: say("Investments"), 7: say("Procurement"), 8: say("Production"),
          9: say("Trade"), 10: say("Shareholders meeting"), 11: say("The action sequence for the next stage")}
STEPS = {"auction": say("Every player seals a bid for the start order."),
         "tokens": say("Every player commits an AC token."),
         "vote": say("The shareholders vote on the dividend."),
         "ballot": say("The shareholders elect the manager."),
         "stand": say("Candidates for manager declare themselves."),
         "player_trade": say("The players trade shares.")}
HOW_ORDERED = {"random": say("The action sequence, drawn at random: {corporations}."),
               "auction": say("The action sequence, by the bids: {corporations}."),
               "receipts": say("The action sequence, by the receipts: {corporations}.")}


class Narrator(LineNarrator):
    """Turns events into phrases, in log order (``names`` are not needed: the page names the seats)."""

    def __init__(self, names: Mapping[int, str] | None = None) -> None:
        super().__init__(names)
        self.cat: Catalog = catalog(DEFAULT_DATASET)
        self.tellers = _tellers(self)

    # -- names -------------------------------------------------------------------------------------------------

    def corp(self, key: str) -> Arg:
        return w.corp(self.cat, key)

    def holder(self, holder: str) -> Arg:
        return w.holder(self.cat, holder)

    # -- tellers that need more than a line ----------------------------------------------------------------------

    def started(self, e: ev.GameStarted) -> PhraseLines:
        self.cat = catalog(e.dataset)
        v = e.variant
        on: list[Arg] = [say_n("{n} player", "{n} players", "n", n=v.players),
                         say("start order by auction") if v.start_order == "auction"
                         else say("start order at random")]
        if v.additional_corporation:
            on.append(say("the additional corporation"))
        if v.teams:
            on.append(say("2 vs. 2"))
        if v.player_cash_hidden:
            on.append(say("hidden player cash"))
        if not v.finite_commodity_supply:
            on.append(say("an unlimited commodity supply"))
        return [(0, say("Master of Economy begins: {options}.", options=Listing(tuple(on))))]

    def formed(self, e: ev.CorporationsFormed) -> PhraseLines:
        taking = Listing(tuple(self.corp(k) for k in e.corporations if k != e.ac))
        lines: PhraseLines = [(1, say("Taking part: {corporations}.", corporations=taking))]
        if e.ac is not None:
            lines.append((1, say("{corporation} is the additional corporation (drawn).", corporation=self.corp(e.ac))
                          if e.drawn else say("{corporation} is the additional corporation.",
                                              corporation=self.corp(e.ac))))
        return lines

    def bids_revealed(self, e: ev.StartBidsRevealed) -> PhraseLines:
        bids = Listing(tuple(say("{seat} {amount}", seat=seat(i), amount=w.euros(bid)) for i, bid in enumerate(e.bids)))
        return [(1, say("The start bids are revealed: {bids}.", bids=bids))]

    def order(self, e: ev.OrderSet) -> PhraseLines:
        if e.receipts:
            names: tuple[Arg, ...] = tuple(say("{corporation} ({receipts})", corporation=self.corp(k), receipts=r)
                          for k, r in zip(e.order, e.receipts, strict=True))
        else:
            names = tuple(self.corp(k) for k in e.order)
        template = HOW_ORDERED.get(e.reason, HOW_ORDERED["random"])
        return [(0, Phrase(template.key, {"corporations": Listing(names)}))]

    def step(self, e: ev.StepBegan) -> PhraseLines:
        text = STEPS.get(e.step) if e.turn == 0 and e.round == 1 else None
        return [(1, text)] if text else []

    def counted(self, e: ev.DividendCounted) -> PhraseLines:
        tally = Listing(tuple(say_n("{amount} a share: {n} yes", "{amount} a share: {n} yes", "n",
                                    amount=w.euros(k), n=v) for k, v in e.yes))
        c = self.corp(e.corporation)
        if e.passed is None:
            line = say("{corporation}'s ballots are counted ({tally}): no dividend passes.", corporation=c,
                       tally=tally)
        elif e.chair:
            line = say("{corporation}'s ballots are counted ({tally}): {amount} a share passes on the manager's "
                       "vote.", corporation=c, tally=tally, amount=w.euros(e.passed))
        else:
            line = say("{corporation}'s ballots are counted ({tally}): {amount} a share passes.", corporation=c,
                       tally=tally, amount=w.euros(e.passed))
        return [(1, line)]

    def ballots(self, e: ev.BallotsCounted) -> PhraseLines:
        votes = Listing(tuple(say_n("{seat} {n} vote", "{seat} {n} votes", "n", seat=seat(s), n=n)
                              for s, n in e.votes))
        if len(e.tied) > 1:
            return [(1, say("{corporation}'s election: {votes}; tied.", corporation=self.corp(e.corporation),
                            votes=votes))]
        return [(1, say("{corporation}'s election: {votes}.", corporation=self.corp(e.corporation), votes=votes))]

    def preferences(self, e: ev.ShortfallPreferencesSet) -> PhraseLines:
        cover = w.euros(e.cover_up_to)
        if e.sell_first:
            ranked = Listing(tuple(w.factory(self.cat, k) for k in e.sell_first))
            return [(1, say("{seat} sets standing shortfall preferences: give up to {amount}, then sell in this "
                            "order: {factories}.", seat=seat(e.seat), amount=cover, factories=ranked))]
        return [(1, say("{seat} sets standing shortfall preferences: give up to {amount}, then sell in the factory "
                        "table's order.", seat=seat(e.seat), amount=cover))]

    def ended(self, e: ev.GameEnded) -> PhraseLines:
        lines: PhraseLines = [(0, say("The game ends."))]
        for r in e.results:
            if r.bid:
                lines.append((1, say("{seat}: {cash} cash + {shares} in shares - {bid} bid = {result}, rank {rank}.",
                                     seat=seat(r.seat), cash=w.euros(r.cash), shares=w.euros(r.shares),
                                     bid=w.euros(r.bid), result=w.euros(r.result), rank=r.rank)))
            else:
                lines.append((1, say("{seat}: {cash} cash + {shares} in shares = {result}, rank {rank}.",
                                     seat=seat(r.seat), cash=w.euros(r.cash), shares=w.euros(r.shares),
                                     result=w.euros(r.result), rank=r.rank)))
        if e.teams:
            lines.append((1, say("Team sums: {sums}.", sums=Listing(tuple(w.euros(t) for t in e.teams)))))
        winners = tuple(seat(r.seat) for r in e.results if r.rank == 1)
        if len(winners) > 1:
            return [*lines, (0, say("{seats} win.", seats=Listing(winners)))]
        return [*lines, (0, say("{seat} wins.", seat=winners[0]))] if winners else lines


def _tellers(n: Narrator) -> dict[type, Callable[[Any], PhraseLines]]:
    c, h = n.corp, n.holder
    money = w.euros
    tellers: dict[type, Callable[[Any], PhraseLines]] = {
        ev.GameStarted: n.started,
        ev.CorporationPicked: lambda e: [(1, say("{seat} is assigned {corporation}.", seat=seat(e.seat),
                                                 corporation=c(e.corporation)) if e.drawn
                                          else say("{seat} picks {corporation}.", seat=seat(e.seat),
                                                   corporation=c(e.corporation)))],
        ev.CorporationsFormed: n.formed,
        ev.StartBidSealed: lambda e: [(1, say("{seat} seals a bid of {amount}.", seat=seat(e.seat),
                                              amount=money(e.amount)) if e.amount is not None
                                       else say("{seat} seals a bid.", seat=seat(e.seat)))],
        ev.StartBidsRevealed: n.bids_revealed,
        ev.OrderSet: n.order,
        ev.StageBegan: lambda e: [(0, say("Stage {stage} begins.", stage=e.stage))],
        ev.PhaseBegan: lambda e: [(0, say("Phase {number}: {name}.", number=e.number, name=PHASES[e.number]))]
        if e.number in PHASES else [],
        ev.StepBegan: n.step,
        ev.TurnPassed: lambda e: [(1, say("{corporation} passes.", corporation=c(e.corporation)) if e.corporation
                                   else say("{seat} passes.", seat=seat(e.seat)))],
        ev.ShortfallPreferencesSet: n.preferences,
        ev.ShortfallPreferencesCleared: lambda e: [(1, say("{seat} withdraws their standing shortfall preferences "
                                                           "(they will be asked).", seat=seat(e.seat)))],
        ev.PacketSold: lambda e: [(1, say("{holder} sells {corporation}'s {packet}-share packet for {amount}.",
                                          holder=h(e.seller), corporation=c(e.corporation), packet=e.packet,
                                          amount=money(e.value)))],
        ev.BoardBonusPaid: lambda e: [(1, say("{seat} receives a {amount} board bonus from {corporation}.",
                                              seat=seat(e.seat), amount=money(e.amount),
                                              corporation=c(e.corporation)))],
        ev.Embezzled: lambda e: [(1, say_n("{seat} embezzles {amount} from {corporation}, which pays {cost} to the "
                                           "bank and loses {n} point.",
                                           "{seat} embezzles {amount} from {corporation}, which pays {cost} to the "
                                           "bank and loses {n} points.", "n", seat=seat(e.seat),
                                           amount=money(e.amount), corporation=c(e.corporation),
                                           cost=money(e.cost), n=e.points))],
        ev.DividendProposed: lambda e: [(1, say("{seat} proposes {amount} a share for {corporation}.",
                                                seat=seat(e.seat), amount=money(e.per_share),
                                                corporation=c(e.corporation)))],
        ev.DividendVoteCast: lambda e: [(1, say("{seat} has voted.", seat=seat(e.seat)))],
        ev.DividendCounted: n.counted,
        ev.DividendPaid: lambda e: [(1, say("{corporation} pays {amount} a share, {total} in all.",
                                            corporation=c(e.corporation), amount=money(e.per_share),
                                            total=money(sum(a for _, a in e.payments))))],
        ev.Redeemed: lambda e: [(1, say_n("{corporation} redeems {n} share of the {packet}-share packet from "
                                          "{holder} for {amount}.",
                                          "{corporation} redeems {n} shares of the {packet}-share packet from "
                                          "{holder} for {amount}.", "n", corporation=c(e.corporation), n=e.shares,
                                          packet=e.packet, holder=h(e.holder), amount=money(e.amount)))],
        ev.CandidacyDeclared: lambda e: [(1, say("{seat} stands for manager of {corporation}.", seat=seat(e.seat),
                                                 corporation=c(e.corporation)) if e.stands
                                          else say("{seat} does not stand for manager of {corporation}.",
                                                   seat=seat(e.seat), corporation=c(e.corporation)))],
        ev.ManagerVoteCast: lambda e: [(1, say("{seat} has voted.", seat=seat(e.seat)))],
        ev.BallotsCounted: n.ballots,
        ev.ManagerElected: lambda e: [(1, say("{seat} will manage {corporation} next stage.", seat=seat(e.seat),
                                              corporation=c(e.corporation)))],
        ev.ManagerChanged: lambda e: [(1, say("{seat} now manages {corporation}.", seat=seat(e.seat),
                                              corporation=c(e.corporation)))],
        ev.ReceiptsGiven: lambda e: [(1, say_n("Every player receives {n} receipts token.",
                                               "Every player receives {n} receipts tokens.", "n", n=e.count))],
        ev.ReceiptsPlaced: lambda e: [(1, say_n("{seat} places {n} receipt on {corporation}.",
                                                "{seat} places {n} receipts on {corporation}.", "n",
                                                seat=seat(e.seat), n=e.count, corporation=c(e.corporation)))]
        if e.seat is not None else [(1, say_n("{corporation}, last in the action sequence, gets {n} more.",
                                              "{corporation}, last in the action sequence, gets {n} more.", "n",
                                              corporation=c(e.corporation), n=e.count))],
        ev.HoldingsSold: lambda e: [(1, say("{corporation} sells its {of} shares for {amount}.",
                                            corporation=c(e.corporation), of=c(e.of), amount=money(e.value)))],
        ev.CreditsSettled: lambda e: [(1, say_n("{corporation} settles {n} credit with {amount}.",
                                                "{corporation} settles {n} credits with {amount}.", "n",
                                                corporation=c(e.corporation), n=e.credits,
                                                amount=money(e.amount)))],
        ev.CashDistributed: lambda e: [(1, say("{corporation} pays out {per_share} a share, {per_packet} a packet "
                                               "and {remainder} to its last manager.",
                                               corporation=c(e.corporation), per_share=money(e.per_share),
                                               per_packet=money(e.per_packet), remainder=money(e.remainder)))],
        ev.GameEnded: n.ended,
        ev.AiDecided: ai_lines,
        ev.SeedRevealed: lambda e: [(0, say("The game's seed is revealed: {seed}.", seed=e.seed))],
    }
    tellers.update(market_tellers(n))
    return tellers
