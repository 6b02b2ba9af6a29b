"""Policies for seats in simulations and tests: they choose only from ``legal_commands``.

Their randomness comes from a :class:`~domain.kernel.Chance` made from the bot's seed (the domain draws from
nothing else), so a bot plays the same way every time it is given the same seed.
"""

from __future__ import annotations

import msgspec

from domain.kernel import Chance, Command, IntParam, Seat
from domain.kernel.bots import ChanceDraws
from domain.kernel.bots import RandomLegal as _RandomLegal

from .cards import info, suit_codes
from .commands import Buy, Choose, Deed, Develop, EndTurn, Sell, Trade
from .economy import economy
from .legal import legal_commands
from .scoring import controller, district_value
from .state import DecktetState


class RandomLegal(_RandomLegal[DecktetState]):
    """Picks a kind of legal command uniformly (buy, sell, trade, end the turn ...), then one of that kind, so that
    the many payments of a buy do not crowd out the rest; reproducible from its seed."""

    def __init__(self, seed: int) -> None:
        super().__init__(legal_commands, ChanceDraws.seeded(f"decktet-random:{seed}"))


class Greedy:
    """A simple heuristic player, choosing only among ``legal_commands``:

    * an income choice takes the suit it holds fewer of;
    * it puts as many tokens as it may on its deeds (they are safe from tax there and bring completion closer);
    * its card play buys the card that gains it most in a district it does not yet control by a wide margin,
      paying with the suits it holds most of; failing that, takes a deed on its best card of rank 5 or more;
      failing that, sells its least valuable card;
    * with four or more tokens of a suit and nothing to buy, it trades three of them for its scarcest suit;
    * then ends its turn.
    """

    def __init__(self, seed: int) -> None:
        self.chance = Chance(f"decktet-greedy:{seed}".encode(), 0)

    def __call__(self, state: DecktetState, seat: Seat) -> Command:
        templates = legal_commands(state, seat)
        by_kind: dict[type, list[Command]] = {}
        for t in templates:
            by_kind.setdefault(type(t.command), []).append(t.command)
        supply = state.seats[seat].supply
        codes = suit_codes(state.variant.dataset)
        if Choose in by_kind:
            return min(by_kind[Choose], key=lambda c: supply[codes.index(c.suit)] if isinstance(c, Choose) else 0)
        develop = next((t for t in templates if isinstance(t.command, Develop)), None)
        if develop is not None:  # as many tokens as may go (the template's largest count)
            most = max((p.maximum for p in develop.params if isinstance(p, IntParam)), default=1)
            return msgspec.structs.replace(develop.command, count=most)
        buys = [c for c in by_kind.get(Buy, []) if isinstance(c, Buy)]
        if buys:
            return max(buys, key=lambda c: self._buy_score(state, seat, c))
        trade = self._trade(state, seat, by_kind)
        if trade is not None:
            return trade
        deeds = [c for c in by_kind.get(Deed, []) if isinstance(c, Deed)]
        worth = [c for c in deeds if economy(state.variant).price(info(state.variant.dataset, c.card)) >= 5]
        if worth:
            return max(worth, key=lambda c: (economy(state.variant).price(info(state.variant.dataset, c.card)),
                                             self._district_need(state, seat, c.district)))
        sells = [c for c in by_kind.get(Sell, []) if isinstance(c, Sell)]
        if sells:
            return min(sells, key=lambda c: (economy(state.variant).price(info(state.variant.dataset, c.card)),
                                             c.card))
        return EndTurn()

    @staticmethod
    def _district_need(state: DecktetState, seat: int, district: str) -> int:
        d = ord(district) - ord("a")
        mine = district_value(state, seat, d)
        best_other = max((district_value(state, s, d) for s in state.builders[d] if s != seat), default=0)
        return 0 if controller(state, d) == seat and mine > best_other + 8 else 1

    def _buy_score(self, state: DecktetState, seat: int, buy: Buy) -> tuple[int, int, int]:
        supply = state.seats[seat].supply
        codes = suit_codes(state.variant.dataset)
        price = economy(state.variant).price(info(state.variant.dataset, buy.card))
        spread = -max(n * 10 // (supply[codes.index(s)] + 1) for s, n in buy.payment.items())
        return self._district_need(state, seat, buy.district), price, spread

    @staticmethod
    def _trade(state: DecktetState, seat: int, by_kind: dict[type, list[Command]]) -> Command | None:
        supply = state.seats[seat].supply
        codes = suit_codes(state.variant.dataset)
        trades = [c for c in by_kind.get(Trade, []) if isinstance(c, Trade) and supply[codes.index(c.give)] >= 4]
        if not trades:
            return None
        return min(trades, key=lambda c: (supply[codes.index(c.take)], -supply[codes.index(c.give)], c.give, c.take))
