"""Policies for seats in simulations and tests: they choose only from ``legal_commands``.

Their randomness comes from a :class:`~domain.kernel.Chance` made from the bot's seed (the domain draws from
nothing else), so a bot plays the same way every time it is given the same seed.
"""

from __future__ import annotations

from domain.kernel import Chance, Command, CommandTemplate, Seat
from domain.kernel.bots import ChanceDraws
from domain.kernel.bots import RandomLegal as _RandomLegal

from . import shortfall as sf
from .commands import (
    BidForOrder,
    Build,
    BuyPacket,
    CommitToken,
    CoverShortfall,
    Pass,
    PickCorporation,
    PickManager,
    PlaceBid,
    PlaceReceipts,
    ProposeDividend,
    SellForShortfall,
    Stand,
    Supply,
    TakeCredit,
    VoteManager,
)
from .holders import cat_of
from .legal import legal_commands
from .state import State, Step


class RandomLegal(_RandomLegal[State]):
    """Picks a kind of legal command uniformly (build, bid, pass ...), then one of that kind, so that the many bids
    of a trade phase do not crowd out the rest; reproducible from its seed."""

    def __init__(self, seed: int) -> None:
        super().__init__(legal_commands, ChanceDraws.seeded(f"moe-random:{seed}"))


class Greedy:
    """A simple heuristic player, choosing only among ``legal_commands``: it builds a production chain (quarries,
    then power plants and coal mines, then ore, steel and ships), supplies every factory it can, exports what it
    holds on the leftmost free fields, buys abroad the energy its mines need, keeps a credit when short, buys the
    shares of the best-scoring corporation it can afford, proposes and votes dividends, stands for and votes itself
    manager, and puts its receipts on its own corporation. It is the table's default stand-in, so a shortfall it
    answers is answered as §17 says a timeout is: by the seat's standing preferences, else a gift of 0 and the
    first factory type by table 15.2's order."""

    PRIORITY = ("quarry", "power_plant", "coal_mine", "ore_mine", "steel_works", "shipyard")

    def __init__(self, seed: int) -> None:
        self.chance = Chance(f"moe-greedy:{seed}".encode(), 0)

    def __call__(self, state: State, seat: Seat) -> Command:
        templates = legal_commands(state, seat)
        commands = [t.command for t in templates]
        pick = self._choose(state, int(seat), templates)
        return pick if pick is not None else (commands[-1] if commands else Pass())

    def _choose(self, state: State, seat: int, templates: list[CommandTemplate]) -> Command | None:
        first = templates[0].command if templates else None
        if isinstance(first, CoverShortfall | SellForShortfall):
            return self._shortfall(state)
        step = state.step
        chooser = {Step.INVEST: self._invest, Step.BIDS: self._bid, Step.PLAYER_TRADE: self._shares,
                   Step.BANK_TRADE: self._shares, Step.VOTE: self._vote, Step.BALLOT: self._ballot,
                   Step.RECEIPTS: self._receipts, Step.TOKENS: self._token}.get(step)
        if chooser is not None:
            return chooser(state, seat, templates)
        wanted: type | None = {Step.PROCURE: Supply, Step.CREDIT: TakeCredit, Step.PROPOSE: ProposeDividend,
                               Step.STAND: Stand, Step.PICK: PickCorporation, Step.TIEBREAK: PickManager,
                               Step.AUCTION: BidForOrder}.get(step)
        if step == Step.CREDIT and state.corps[state.order[state.turn]].cash >= 12:
            return None
        for t in templates:
            if wanted is not None and isinstance(t.command, wanted):
                if isinstance(t.command, PickManager) and seat in state.meeting.tied:
                    return PickManager(seat=seat)
                return t.command
        return None

    @staticmethod
    def _shortfall(state: State) -> Command:
        """§17, "Interrupts": as the rules answer for a manager with standing preferences; without them (a timeout
        with none set: this bot is the table's stand-in) a gift of 0, then the first type owned in table 15.2's
        order."""
        short = state.shortfall
        assert short is not None
        prefs = sf.preferences_of(state, short.corporation)
        if sf.awaits_cover(state):
            return CoverShortfall(amount=sf.standing_cover(state, prefs))
        return SellForShortfall(factory=sf.standing_sale(state, prefs))

    def _invest(self, state: State, seat: int, templates: list[CommandTemplate]) -> Command | None:
        corp = state.corps[state.order[state.turn]]
        if corp.cash < 6:
            return None
        builds = {t.command.factory: t.command for t in templates if isinstance(t.command, Build)}
        counts = dict(zip(self.PRIORITY, corp.factories, strict=False))
        for key in sorted(builds, key=lambda k: (counts.get(k, 0), self.PRIORITY.index(k))):
            return builds[key]
        return None

    def _bid(self, state: State, seat: int, templates: list[CommandTemplate]) -> Command | None:
        corp_index = state.order[state.turn]
        corp = state.corps[corp_index]
        placed = sum(r.exports.count(corp_index) + r.imports.count(corp_index) for r in state.rows)
        cat = cat_of(state)
        for t in templates:  # buy abroad one unit of each input its factories lack, while it can pay for it
            c = t.command
            if isinstance(c, PlaceBid) and c.field == 0 and not state.rows[cat.commodity_index(c.commodity)].imports:
                row = cat.commodity_index(c.commodity)
                needed = any(corp.factories[f] and cat.inputs(f)[row] for f in range(len(cat.factories)))
                if needed and corp.goods[row] == 0 and corp.cash >= 2 * cat.commodities[row].import_price:
                    return c
        for t in templates:
            c = t.command
            if isinstance(c, PlaceBid) and c.field > 0:
                row = [x.key for x in cat_of(state).commodities].index(c.commodity)
                mine = state.rows[row].exports.count(corp_index)
                if corp.goods[row] > mine and mine < 2 and placed < 6:
                    return c
        return None

    def _shares(self, state: State, seat: int, templates: list[CommandTemplate]) -> Command | None:
        buys = [t.command for t in templates if isinstance(t.command, BuyPacket)]
        if not buys:
            return None
        best = max(buys, key=lambda b: (state.corps[[c.key for c in state.corps].index(b.corporation)].points,
                                        -b.packet) if isinstance(b, BuyPacket) else (0, 0))
        return best

    def _vote(self, state: State, seat: int, templates: list[CommandTemplate]) -> Command | None:
        return templates[0].command  # yes on every line

    def _ballot(self, state: State, seat: int, templates: list[CommandTemplate]) -> Command | None:
        for t in templates:
            if isinstance(t.command, VoteManager) and all(c == seat for c in t.command.choices):
                return t.command
        return templates[0].command

    def _receipts(self, state: State, seat: int, templates: list[CommandTemplate]) -> Command | None:
        target = state.corps[state.order[state.target]]
        return PlaceReceipts(count=state.players[seat].receipts if target.manager == seat else 0)

    def _token(self, state: State, seat: int, templates: list[CommandTemplate]) -> Command | None:
        tokens = [t.command.token for t in templates if isinstance(t.command, CommitToken)]
        ac = next(c for c in state.corps if c.automated)
        mine = any(h == f"seat:{seat}" for h in ac.packets)
        return CommitToken(token=max(tokens) if mine else min(tokens))
