"""Builders for Master of Economy tests: a started game, a state arranged by hand (keeping money conserved), the
cursor put at a step, commands run, and the automatic steps settled."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.kernel import SYSTEM, Chance
from domain.master_of_economy.catalog import catalog
from domain.master_of_economy.commands import PickCorporation, ResolveMarket, StartGame
from domain.master_of_economy.decider import step
from domain.master_of_economy.flow import settle
from domain.master_of_economy.folding import evolve
from domain.master_of_economy.holders import BANK, add_cash, corp_holder, index, seat_holder, with_corp
from domain.master_of_economy.recorder import Recorder
from domain.master_of_economy.state import Row, State, Step
from domain.master_of_economy.variant import GameOptions

CAT = catalog()
KEYS = [c.key for c in CAT.corporations]
GOODS = [c.key for c in CAT.commodities]
FACTORIES = [f.key for f in CAT.factories]


def goods(**counts: int) -> tuple[int, ...]:
    """``goods(coal=2, ships=1)`` -> six counts in catalog order."""
    return tuple(counts.get(k, 0) for k in GOODS)


def factories(**counts: int) -> tuple[int, ...]:
    return tuple(counts.get(k, 0) for k in FACTORIES)


def started(players: int = 4, seed: bytes = b"test", **options: Any) -> tuple[list[Any], State]:
    """A game just set up: seat i picks the catalog's corporation i; the first stage's investments are due (or the
    auction, with ``start_order="auction"``)."""
    events, state = step(State(), SYSTEM, StartGame(options=GameOptions(players=players, **options),
                                                    seed_commitment="c"), Chance(seed, 1))
    if state.step == Step.PICK:
        for seat in range(players):
            new, state = step(state, seat, PickCorporation(corporation=KEYS[seat]), Chance(seed, len(events) + 1))
            events += new
    return events, state


def game(players: int = 4, **options: Any) -> State:
    return started(players, **options)[1]


def order(state: State, *keys: str) -> State:
    return replace(state, order=tuple(index(state, k) for k in keys))


def at(state: State, step_: Step, number: int = 1, stage: int = 1, turn: int = 0, round_: int = 1,
       target: int = 0, **changes: Any) -> State:
    """``state`` with the cursor at ``step_`` (nothing of the step done yet)."""
    fresh: dict[str, Any] = {"done": False, "builds": (), "sales": 0, "trades": (),
                             "sealed": tuple(None for _ in state.players)}
    return replace(state, step=step_, number=number, stage=stage, turn=turn, round=round_, target=target,
                   **{**fresh, **changes})


def corp(state: State, key: str, **changes: Any) -> State:
    """``state`` with corporation ``key`` changed; a new ``cash`` is paid from (or to) the bank."""
    c = index(state, key)
    if "cash" in changes:
        state = add_cash(state, corp_holder(key), changes.pop("cash") - state.corps[c].cash)
    return with_corp(state, c, **changes) if changes else state


def player(state: State, seat: int, **changes: Any) -> State:
    if "cash" in changes:
        state = add_cash(state, seat_holder(seat), changes.pop("cash") - state.players[seat].cash)
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def packets(state: State, key: str, **held: tuple[int, ...]) -> State:
    """Give packets of ``key``: ``packets(s, "blue", seat_0=(10, 2), corp_green=(4,))``; the rest in the bank."""
    owner = {}
    for who, denominations in held.items():
        holder = seat_holder(int(who[5:])) if who.startswith("seat_") else corp_holder(who[5:])
        owner.update(dict.fromkeys(denominations, holder))
    c = index(state, key)
    count = len(state.corps[c].packets)
    return with_corp(state, c, packets=tuple(owner.get(d, BANK) for d in range(1, count + 1)))


def bids(state: State, commodity: str, imports: tuple[str, ...] = (), **exports: str) -> State:
    """Bids on a row: ``bids(s, "coal", imports=("red",), f1="blue", f2="green")``."""
    r = GOODS.index(commodity)
    row = state.rows[r]
    fields = list(row.exports)
    for name, key in exports.items():
        fields[int(name[1:]) - 1] = index(state, key)
    rows = list(state.rows)
    rows[r] = replace(row, imports=tuple(index(state, k) for k in imports), exports=tuple(fields))
    return replace(state, rows=tuple(rows))


def act(state: State, actor: Any, command: Any, seed: bytes = b"act") -> tuple[list[Any], State]:
    """``actor`` (a seat, or SYSTEM) issues ``command``."""
    return step(state, actor, command, Chance(seed, 1))


def settled(state: State, seed: bytes = b"settle") -> tuple[list[Any], State]:
    """Run the automatic steps from ``state`` (as after a command)."""
    rec = Recorder(state, evolve)
    settle(rec, Chance(seed, 1))
    return rec.events, rec.state


def resolve(state: State) -> tuple[list[Any], State]:
    """Resolve the market of ``state`` (put at the trade phase's resolution)."""
    return act(at(state, Step.RESOLVE, number=4, stage=state.stage or 1), SYSTEM, ResolveMarket())


def of(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def cash(state: State, key: str) -> int:
    return state.corps[index(state, key)].cash


def held_goods(state: State, key: str) -> tuple[int, ...]:
    return state.corps[index(state, key)].goods


def fresh_rows(state: State) -> State:
    return replace(state, rows=tuple(Row(exports=(None,) * len(c.fields), ac=r.ac)
                                     for c, r in zip(CAT.commodities, state.rows, strict=True)))
