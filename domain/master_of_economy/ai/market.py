"""The computer's trade phase (§7, §12): its bids, sent whole (ME-T-7), and its sealed AC token.

It sells what its factories will not need at the next procurement (everything in the last trade phase, with
``counts_time``), the most valuable goods first. ``basic`` takes the leftmost free export fields; ``reads_demand``
plays out the row's foreign demand with the bids already on the board (and the purchases that will take the
leftmost offers locally) and puts each bid where it earns most, a point counting for :data:`POINT`. It buys abroad
an input its factories lack altogether; ``buys_locally`` also buys where another corporation offers cheaply."""

from __future__ import annotations

from domain.kernel import Chance, Seat
from domain.kernel.phrases import Arg, Listing, Phrase, say, say_n

from ..bidding import bids_of
from ..commands import BidSpec, CommitToken, Pass, PlaceBid, PlaceBids, PlayerCommand
from ..holders import cat_of, held, seat_holder
from ..legal import legal_commands
from ..state import Row, State
from ..wording import counted
from . import words
from .levels import Profile
from .outlook import is_last_trade, productions_left

POINT = 2
"""What a point is worth in euros to the computer when it places a bid: ten shares gain 1 € each over a price band
of 8 points (about 1.25 € a point, table 15.4), and each point brings the 25-point end nearer."""
Plan = tuple[tuple[PlayerCommand, ...], Phrase]


def needs(state: State, corp: int) -> list[int]:
    """Per commodity: the inputs the corporation's factories take at one procurement."""
    cat = cat_of(state)
    held_ = state.corps[corp]
    out = [0] * len(cat.commodities)
    for t, count in enumerate(held_.factories):
        for c, n in enumerate(cat.inputs(t)):
            out[c] += n * count
    return out


def _local(field: str) -> int:
    return 1 if field == "0/1" else int(field)


def _export(field: str) -> int:
    return 0 if field == "0/1" else int(field)


def row_value(state: State, r: int, row: Row, corp: int, mine: list[int], later: int) -> int:
    """Four times what ``corp``'s bids on fields ``mine`` of row ``r`` should earn: the others' IMPORT bids take the
    leftmost offers locally (ME-T-12), the rest export left to right while the demand lasts (ME-T-13); a bid that
    the bids of the ``later`` corporations could push out of the demand counts half (a quarter when one bid each
    would do)."""
    fields = cat_of(state).commodities[r].fields
    offers = sorted([(f + 1, c) for f, c in enumerate(row.exports) if c is not None] + [(f, corp) for f in mine])
    buyers = sum(1 for c in row.imports if c != corp)
    total = 0
    sold_locally = 0
    remaining: list[tuple[int, int]] = []
    for f, c in offers:
        if sold_locally < buyers:
            sold_locally += 1
            if c == corp:
                total += 4 * _local(fields[f - 1])
            continue
        remaining.append((f, c))
    demand = len(fields) + 1
    hl = cat_of(state).rules.trade.highlighted_field
    blocked = sorted(remaining + ([(hl, -1)] if row.ac else []))
    for f, c in blocked:
        if demand < f:
            break
        demand -= 1
        if c == corp:
            slack = demand + 1 - f
            value = 4 * (_export(fields[f - 1]) + POINT)
            total += value if slack >= 2 * later else value // 2 if slack >= later else value // 4
    return total


def best_fields(state: State, r: int, row: Row, corp: int, options: list[int], count: int, later: int,
                chance: Chance) -> list[int]:
    """The free fields of row ``r`` for at most ``count`` offers that should earn most (:func:`row_value`): the
    leftmost ones, or one by one where each adds most; the fewer bids on a tie."""
    candidates = [options[:k] for k in range(1, count + 1)]
    mine: list[int] = []
    rest = list(options)
    while len(mine) < count and rest:
        base = row_value(state, r, row, corp, mine, later)
        gains = {f: row_value(state, r, row, corp, [*mine, f], later) - base for f in rest}
        top = max(gains.values())
        if top <= 0:
            break
        pick = chance.pick([f for f in rest if gains[f] == top])
        mine.append(pick)
        rest.remove(pick)
        candidates.append(sorted(mine))
    scored = [(row_value(state, r, row, corp, c, later), -len(c), c) for c in candidates]
    value, _, best = max(scored, key=lambda s: (s[0], s[1]))
    return best if value > 0 else []


def bids(state: State, seat: int, corp: int, profile: Profile, chance: Chance) -> Plan:
    """ME-T-6..9: the whole submission."""
    cat = cat_of(state)
    held_ = state.corps[corp]
    last = profile.counts_time and is_last_trade(state)
    need = needs(state, corp)
    spare = [max(0, g - (0 if last else n)) for g, n in zip(held_.goods, need, strict=True)]
    if not last and productions_left(state) >= 2:
        spare[cat.building] = max(0, spare[cat.building] - 2)  # material for the next builds
    free = {(t.command.commodity, t.command.field) for t in legal_commands(state, Seat(seat))
            if isinstance(t.command, PlaceBid)}
    budget = max(0, cat.rules.trade.basic_bids - bids_of(state, corp))
    later = len(state.order) - 1 - state.turn
    chosen: dict[int, list[int]] = {}
    imports: list[int] = []
    # inputs: abroad when the factories lack one altogether, locally when another offers it cheaply
    for r, c in enumerate(cat.commodities):
        lacking = need[r] - held_.goods[r]
        if lacking <= 0 or r == cat.building:
            continue
        cheap = [f + 1 for f, o in enumerate(state.rows[r].exports) if o is not None and o != corp
                 and _local(c.fields[f]) + 2 <= c.import_price]
        if profile.buys_locally and cheap and held_.cash >= 2 * c.import_price:
            imports += [r] * min(lacking, len(cheap), 2)
        elif held_.goods[r] == 0 and corp not in state.rows[r].imports and (
                productions_left(state) >= 2 if profile.counts_time else True):
            imports += [r] * min(lacking, 2, held_.cash // c.import_price - 1)
    imports = imports[:budget // 2]
    budget -= len(imports)
    # exports: the most valuable goods first
    for r in sorted(range(len(cat.commodities)), key=lambda i: -cat.commodities[i].import_price):
        row = state.rows[r]
        key = cat.commodities[r].key
        options = [f for f in range(1, len(row.exports) + 1) if (key, f) in free]
        count = min(spare[r], budget)
        if count <= 0 or not options:
            continue
        mine = (best_fields(state, r, row, corp, options, count, later, chance) if profile.reads_demand
                else options[:count])
        if mine:
            chosen[r] = mine
            budget -= len(mine)
    specs = [BidSpec(commodity=cat.commodities[r].key, field=0) for r in imports]
    specs += [BidSpec(commodity=cat.commodities[r].key, field=f) for r, fs in chosen.items() for f in sorted(fs)]
    return (PlaceBids(bids=tuple(specs)),), _explain(state, chosen, imports, last, profile)


def _explain(state: State, chosen: dict[int, list[int]], imports: list[int], last: bool, profile: Profile) -> Phrase:
    sells = Listing(tuple(say_n("{goods} on field {fields}", "{goods} on fields {fields}", "n",
                                goods=words.goods(state, r), n=len(fs), fields=Listing(tuple(sorted(fs))))
                          for r, fs in chosen.items() if fs))
    offers: Phrase | None = None
    if sells.items and last:
        offers = say("offers {offers} (the last trade phase: it keeps nothing)", offers=sells)
    elif sells.items and profile.reads_demand:
        offers = say("offers {offers} (where the foreign demand the bids on the board leave should reach)",
                     offers=sells)
    elif sells.items:
        offers = say("offers {offers} (the leftmost free fields)", offers=sells)
    buys: Arg = counted([words.goods(state, r) for r in imports])
    if offers is not None and imports:
        return say("{offers} and bids to buy {goods} for its factories.", offers=offers, goods=buys)
    if offers is not None:
        return say("{offers}.", offers=offers)
    if imports:
        return say("bids to buy {goods} for its factories.", goods=buys)
    return say("places no bid: it has nothing to spare.")


def token(state: State, seat: int, profile: Profile) -> Plan:
    """ME-V-7: a high token when it holds AC shares (the AC's points raise their price), else a low one."""
    tokens = [t.command.token for t in legal_commands(state, Seat(seat)) if isinstance(t.command, CommitToken)]
    ac = next(c for c in state.corps if c.automated)
    mine = sum(held(ac, seat_holder(seat)))
    pick = max(tokens) if mine else min(tokens)
    return (CommitToken(token=pick),), say("commits its AC token (sealed until the AC scores).")


def nothing(state: State, seat: int) -> Plan:
    return (Pass(),), say("passes.")
