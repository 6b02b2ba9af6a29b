"""How good a position is for a seat: its estimated chance of winning, in millionths, by integer arithmetic.

The game is won on districts (R7.4), so the estimate works district by district. A seat's **projected value** in a
district is its developed value (R7.2) plus a share of each deed there (the more tokens on it, the larger the
share). Its **flexible value** is what it may still add anywhere: its tokens and the income it expects from the
rolls left (R3.4's odds), plus the cards in its hand (by size only for the other seats, whose cards it may not
know). In each district the margin over the strongest other builder, shifted by part of the difference in
flexible value, becomes a chance of control through a logistic curve whose spread shrinks as the game runs out
(a lead of 3 is little with forty turns to go and decisive in the last round). Two players: the chances combine
exactly into the chance of controlling more districts, ties going by the total value (R7.5). Three players: the
expected number of districts against the best other seat's. A finished game scores its result.

:class:`Position` holds one reading of a state, so that a planner can rate many card plays of one seat from it
(:meth:`Position.rating_after`) without building each resulting state.
"""

from __future__ import annotations

from functools import lru_cache

import msgspec

from ..cards import info
from ..catalog import catalog
from ..economy import Tokens, economy
from ..placement import legal_districts
from ..scoring import district_value
from ..state import DecktetState, Phase, Placed, SeatState
from ..turn import plays_required
from ..variant import Variant, mode

WIN = 1_000_000
"""The scale of every estimate: a certain win (chances are in millionths)."""

LOGISTIC = (
    5000, 5312, 5622, 5927, 6225, 6514, 6792, 7058, 7311, 7549, 7773, 7982, 8176, 8355, 8520, 8670, 8808, 8933,
    9047, 9149, 9241, 9325, 9399, 9466, 9526, 9579, 9627, 9669, 9707, 9740, 9770, 9797, 9820, 9841, 9859, 9876,
    9890, 9903, 9914, 9924, 9933, 9941, 9948, 9954, 9959, 9964, 9968, 9972, 9975, 9978, 9981, 9983, 9985, 9987,
    9988, 9990, 9991, 9992, 9993, 9994, 9994, 9995, 9996, 9996, 9997, 9997, 9997, 9998, 9998, 9998, 9998, 9999,
    9999, 9999, 9999, 9999, 9999, 9999, 9999, 9999, 10000,
)
"""``10000 / (1 + exp(-i / 8))`` for ``i = 0 .. 80``, rounded (written out: the domain computes no floats)."""
LAST = len(LOGISTIC) - 1
PER = WIN // 10_000
"""From the table's ten-thousandths to millionths."""

INCOME_ODDS = (0, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19)
"""R3.6: the chance (in %) that the income number is ``k``."""


class Weights(msgspec.Struct, frozen=True):
    """The evaluation's constants (integers; percentages unless said)."""

    deed_base: int = 25
    """The share of a deed's value counted before any token is on it (the rest grows with its tokens)."""
    token: int = 100
    """Value points per 100 tokens of flexible value (a token buys about this much district value)."""
    flex: int = 100
    """The share of the difference in flexible value that shifts the districts' margins (spread over them)."""
    spread_base: int = 150
    """The logistic's spread (value points x 100) with no turn left..."""
    spread_turn: int = 45
    """... plus this much per turn each seat has left."""
    per_turn: int = 1200
    """At most this much (value points x 100) of tokens and income counts per turn a seat has left."""
    hand: int = 30
    """A hand card that has a place to go counts this share of its value in flexible value..."""
    hand_stuck: int = 33
    """... a card no column takes now this share of its value (at least its sale) ..."""
    hand_unknown: int = 150
    """... and a card of another seat's hand (unknown) this many value points x 100."""


DEFAULT = Weights()


def chance_of(margin: int, spread: int) -> int:
    """The logistic chance (per million) of a lead of ``margin`` with uncertainty ``spread`` (same units), read
    from :data:`LOGISTIC` between its entries."""
    spread = max(spread, 1)
    i, part = divmod(abs(margin) * 8, spread)
    p = (LOGISTIC[i] * spread + (LOGISTIC[i + 1] - LOGISTIC[i]) * part) * PER // spread if i < LAST else WIN
    return p if margin >= 0 else WIN - p


def turns_left(state: DecktetState) -> int:
    """An estimate of the turns still to be played by all seats, the one in progress included (R6): the draws
    left, then the final round."""
    if state.exhausted:
        return state.turns_left or 0
    cards = sum(len(p) for p in state.piles) + (len(state.discard) if state.reshuffles else 0)
    m = mode(catalog(state.variant.dataset), state.variant)
    return cards // m.draw + len(state.seats)


def own_turns(state: DecktetState, seat: int, left: int, played: bool = False) -> int:
    """How many of the ``left`` turns ``seat`` still has to act in (the turn in progress counts until its card
    plays are made, or if ``played`` says they are about to be)."""
    players = len(state.seats)
    ahead = (seat - state.active) % players
    count = (left - ahead + players - 1) // players if left > ahead else 0
    if seat == state.active and count and (played or state.plays >= plays_required(state)):
        count -= 1
    return count


def evaluate(state: DecktetState, seat: int, w: Weights = DEFAULT) -> int:
    """``seat``'s chance of winning from ``state`` (per million), reading only what ``seat`` may know."""
    if state.phase == Phase.ENDED:
        winners = [s.seat for s in state.scores if s.rank == 1]
        return WIN // len(winners) if seat in winners else 0
    return Position(state, seat, w).rating()


class Position:
    """A running game read for ``viewer``: every seat's projected value per district and flexible value."""

    __slots__ = ("_hand_values", "flexible", "left", "projected", "spread", "state", "turns", "viewer", "w")

    def __init__(self, state: DecktetState, viewer: int, w: Weights = DEFAULT, played: bool = False,
                 placeable: dict[str, bool] | None = None) -> None:
        """``played``: the viewer is on turn and about to make its card plays (:meth:`rating_after` rates them);
        ``placeable``: whether each card of the viewer's hand has a district to go to, if known."""
        self.state, self.viewer, self.w = state, viewer, w
        players = len(state.seats)
        self.left = turns_left(state)
        self.turns = [own_turns(state, s, self.left, played) for s in range(players)]
        self.spread = w.spread_base + w.spread_turn * max(self.turns)
        held = state.seats[viewer]
        self._hand_values = {card: _hand_card(state, viewer, card, None if placeable is None else placeable[card],
                                              w.hand_stuck) for card in held.hand}
        self.projected = [self._projection(s, state.seats[s].columns, state.seats[s].supply)
                          for s in range(players)]
        self.flexible = [self._flexible(s, state.seats[s].supply, state.seats[s].hand, state.seats[s].columns)
                         for s in range(players)]

    def rating(self) -> int:
        """The viewer's chance of winning (per million)."""
        return self._combine(self.projected, self.flexible)

    def rating_after(self, supply: Tokens, hand: tuple[str, ...],
                     columns: tuple[tuple[Placed, ...], ...] | None = None) -> int:
        """The rating had the viewer ``supply``, ``hand`` and ``columns`` instead (a play of its own: the other
        seats are unchanged)."""
        if columns is None:
            columns = self.state.seats[self.viewer].columns
        projected = list(self.projected)
        projected[self.viewer] = self._projection(self.viewer, columns, supply)
        flexible = list(self.flexible)
        flexible[self.viewer] = self._flexible(self.viewer, supply, hand, columns)
        return self._combine(projected, flexible)

    def _combine(self, projected: list[list[int]], flexible: list[int]) -> int:
        state, seat, w, spread = self.state, self.viewer, self.w, self.spread
        share = 100 * len(state.districts)
        players = len(state.seats)
        if players == 2:
            other = 1 - seat
            shift = (flexible[seat] - flexible[other]) * w.flex // share
            mine = []
            curve = LOGISTIC
            for a, b in zip(projected[seat], projected[other], strict=True):  # chance_of, inlined: the hot path
                margin = a - b + shift
                i, part = divmod((margin if margin >= 0 else -margin) * 8, spread)
                p = (curve[i] * spread + (curve[i + 1] - curve[i]) * part) * PER // spread if i < LAST else WIN
                mine.append(p if margin >= 0 else WIN - p)
            total = 0
            if len(mine) % 2 == 0:
                total = sum(projected[seat]) - sum(projected[other]) + (flexible[seat] - flexible[other]) // 2
            return _more_districts(mine, chance_of(total, 2 * spread))
        expected = [0] * players
        for d, builders in enumerate(state.builders):
            for s in builders:
                rival = max((projected[o][d] for o in builders if o != s), default=0)
                rival_flex = max((flexible[o] for o in builders if o != s), default=0)
                expected[s] += chance_of(projected[s][d] - rival + (flexible[s] - rival_flex) * w.flex // share,
                                         spread)
        best_other = max(e for s, e in enumerate(expected) if s != seat)
        return max(0, min(WIN, WIN // 2 + (expected[seat] - best_other) // (2 * len(state.districts))))

    def _projection(self, seat: int, columns: tuple[tuple[Placed, ...], ...], supply: Tokens) -> list[int]:
        """``seat``'s projected value (x 100) in each district: developed value plus a share of its deed there
        (none once it has no turn left to complete it: an incomplete deed counts for nothing at the end, R7.1)."""
        state, turns, base = self.state, self.turns[seat], self.w.deed_base
        variant = state.variant
        out = []
        for d, column in enumerate(columns):
            if not column:
                out.append(0)
                continue
            value, _, deed = _column(variant.dataset, variant.original_aces, column)
            if variant.deucey:
                value = district_value(state, seat, d)
            value *= 100
            if deed is not None and turns:
                full, cost, on, suits = deed
                share = base + (100 - base) * on // cost
                if turns == 1 and on + sum(supply[s] for s in suits) < cost:
                    share //= 3
                value += full * share
            out.append(value)
        return out

    def _flexible(self, seat: int, supply: Tokens, hand: tuple[str, ...],
                  columns: tuple[tuple[Placed, ...], ...]) -> int:
        """What ``seat`` may still add (value x 100) in its turns left: its tokens and the income it expects from
        the rolls left, no more than a card's worth a turn, and its hand (the viewer's own cards by what they are
        worth, another seat's by their number)."""
        turns = self.turns[seat]
        if not turns:
            return 0
        w = self.w
        tokens = 100 * sum(supply) + _income(self.state, seat, columns) * max(self.left - 1, 0)
        value = min(tokens * w.token // 100, turns * w.per_turn)
        if seat != self.viewer:
            return value + min(len(hand), turns) * w.hand_unknown
        values = self._hand_values
        return value + sum(values[card] for card in hand if card in values) * w.hand // 100


def _more_districts(mine: list[int], tie_break: int) -> int:
    """Two players: the chance of controlling more districts than the other seat, each district independent (a
    district is one seat's or the other's); equal counts (an even number of districts) go by ``tie_break``
    (R7.4-R7.5)."""
    dist = [WIN]  # dist[k]: the chance (in millionths) of winning k of the districts so far
    for p in mine:
        q = WIN - p
        before = 0
        new = []
        for mass in dist:
            new.append((mass * q + before * p) // WIN)
            before = mass
        new.append(before * p // WIN)
        dist = new
    n = len(mine)
    won = sum(dist[n // 2 + 1:])
    return won + dist[n // 2] * tie_break // WIN if n % 2 == 0 else won


Deed = tuple[int, int, int, tuple[int, ...]]
"""A deed as the evaluation sees it: its value once complete, its completion cost, the tokens on it, its suits."""


@lru_cache(maxsize=1 << 16)
def _column(dataset: str, original_aces: bool, column: tuple[Placed, ...]) -> tuple[int, int, Deed | None]:
    """A column's developed value (R7.2 without Acey deucey reads only the seat's own column: scored by the rules'
    own function on a table holding just that column), its expected income per roll (hundredths of a token, R3.4,
    R3.6) and its deed (R5.4: at most one)."""
    variant = Variant(dataset=dataset, original_aces=original_aces)
    alone = DecktetState(variant=variant, districts=("",), builders=((0,),),
                         seats=(SeatState(crowns=(), supply=(), columns=(column,)),))
    eco = economy(variant)
    income = 0
    deed: Deed | None = None
    for placed in column:
        card = info(dataset, placed.card)
        if card.number:
            income += INCOME_ODDS[card.number] * (1 if placed.deed else len(card.suits))
        elif card.ace:
            income += INCOME_ODDS[1]
        if placed.deed:
            full = eco.fixed_value(card)
            if not full:  # an Ace: the developed cards of its suit in the column, itself included
                full = 1 + sum(1 for p in column if not p.deed and card.suits[0] in info(dataset, p.card).suits)
            deed = (full, max(eco.price(card), 1), sum(placed.tokens), card.suits)
    return district_value(alone, 0, 0), income, deed


def _hand_card(state: DecktetState, seat: int, card: str, placeable: bool | None, stuck: int) -> int:
    """What a hand card may become (value x 100): its value if some column takes it now, else a share of it (a
    column may take it later) or its sale, whichever is more."""
    card_info = info(state.variant.dataset, card)
    eco = economy(state.variant)
    value = 100 * max(eco.fixed_value(card_info), 2)
    if legal_districts(state, seat, card_info) if placeable is None else placeable:
        return value
    return max(value * stuck // 100, sum(eco.sale(card_info)) * 60)


def _income(state: DecktetState, seat: int, columns: tuple[tuple[Placed, ...], ...]) -> int:
    """``seat``'s expected income per roll with ``columns``, in hundredths of a token (R3.4, R3.6)."""
    variant = state.variant
    return INCOME_ODDS[10] * len(state.seats[seat].crowns) + sum(
        _column(variant.dataset, variant.original_aces, column)[1] for column in columns if column)
