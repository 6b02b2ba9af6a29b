"""Event store append throughput: the project's PostgreSQL store against a raw asyncpg INSERT of the same rows.

    python -m bench.store                 # print the table
    python -m bench.store --commands 400  # commands per game and run

For each case (1 or 16 games appended to concurrently, 1 or 8 events per command), in one fresh database:

* **store**: ``PostgresEventStore.append`` — one command per call, with its expected version, through the
  service's own pool (:func:`services.gameplay.bootstrap.create_pool`): the idempotency and version checks,
  the hash chain, the command record, the events and the read model, atomically;
* **raw**: the very same event rows (hashes computed beforehand, outside the timing) inserted with one
  ``INSERT ... SELECT FROM unnest(...)`` per command into a bare table with no key, no index and no
  constraint, through a pool of the same size.

Both run in alternating rounds (``--rounds``), so both meet the same disk and the same neighbours; the rates are
over all rounds. Each case runs with ``synchronous_commit`` as the server has it (on: every commit waits for the
WAL flush, which on a small virtual disk dominates and varies) and with it off (what is left: round trips and
the work of each statement). Events are 120-byte JSON payloads, the size of a typical Magnate event.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import asyncpg

from infra.chain import GENESIS, event_hash, public_commitment
from infra.eventstore import Decision, GameSummary, NewEvent
from infra.eventstore.base import timestamp
from infra.eventstore.postgres import PostgresEventStore
from services.gameplay.bootstrap import create_pool

from .common import fresh_database, table

CASES = ((1, 1), (1, 8), (16, 1), (16, 8))
"""(concurrent games, events per command)."""
POOL_SIZE = 16
PAYLOAD = b'{"type":"magnate.tenants_moved_in","seat":0,"plot":"C4","tenants":["industrial","industrial"],"rent":4}'
RUNNING = GameSummary(status="running", on_turn=(0,), system_job=None)
RAW_TABLE = """CREATE TABLE IF NOT EXISTS raw_events (
    game_id text, version integer, type text, actor text, command_id text, payload bytea,
    recorded_at timestamptz, prev_hash text, hash text)"""
RAW_INSERT = (
    "INSERT INTO raw_events (game_id, version, type, actor, command_id, payload, recorded_at, prev_hash, hash)"
    " SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::bytea[], $7::timestamptz[],"
    " $8::text[], $9::text[])"
)


@dataclass(frozen=True, slots=True)
class StoreResult:
    games: int
    events_per_command: int
    durable: bool
    """synchronous_commit on (the server's default: every commit waits for the WAL flush) or off."""
    commands: int
    """Commands appended per game, over all rounds."""
    store_events_s: float
    raw_events_s: float
    round_ratios: tuple[float, ...]

    @property
    def ratio(self) -> float:
        return self.store_events_s / self.raw_events_s if self.raw_events_s else 0.0

    @property
    def store_commands_s(self) -> float:
        return self.store_events_s / self.events_per_command


def _decision(index: int, events: int) -> Decision:
    return Decision(command_id=f"c{index}", actor="seat:0", command_type="magnate.attract_tenants",
                    command=b'{"type":"magnate.attract_tenants","plot":"C4","advertising":0}',
                    events=tuple(NewEvent("magnate.tenants_moved_in", PAYLOAD, public_commitment(PAYLOAD))
                                 for _ in range(events)))


async def _store_run(store: PostgresEventStore, games: int, events: int, commands: int) -> float:
    """Seconds to append ``commands`` commands of ``events`` events to each of ``games`` new games at once."""
    ids = [uuid.uuid4().hex for _ in range(games)]
    for game_id in ids:
        await store.create(game_id, "bench", [], b"seed", _decision(0, 1), RUNNING)
    decisions = [_decision(i, events) for i in range(1, commands + 1)]

    async def one(game_id: str) -> None:
        version = 1
        for decision in decisions:
            await store.append(game_id, version, [decision], RUNNING)
            version += events

    began = time.perf_counter()
    await asyncio.gather(*(one(game_id) for game_id in ids))
    return time.perf_counter() - began


def _raw_rows(game_id: str, events: int, commands: int) -> list[tuple[object, ...]]:
    """The arguments of each command's INSERT: the rows the store would write, hashes included."""
    rows: list[tuple[object, ...]] = []
    last, version = GENESIS, 1
    for index in range(1, commands + 1):
        recorded_at = timestamp()
        moment = datetime.fromisoformat(recorded_at)
        versions, hashes, prevs = [], [], []
        for _ in range(events):
            version += 1
            digest = event_hash(last, game_id, version, "magnate.tenants_moved_in", "seat:0", f"c{index}",
                                recorded_at, PAYLOAD)
            versions.append(version)
            prevs.append(last)
            hashes.append(digest)
            last = digest
        rows.append((game_id, versions, ["magnate.tenants_moved_in"] * events, ["seat:0"] * events,
                     [f"c{index}"] * events, [PAYLOAD] * events, [moment] * events, prevs, hashes))
    return rows


async def _raw_run(pool: asyncpg.Pool, games: int, events: int, commands: int) -> float:
    prepared = [_raw_rows(uuid.uuid4().hex, events, commands) for _ in range(games)]

    async def one(rows: list[tuple[object, ...]]) -> None:
        for args in rows:
            async with pool.acquire() as conn:
                await conn.execute(RAW_INSERT, *args)

    began = time.perf_counter()
    await asyncio.gather(*(one(rows) for rows in prepared))
    return time.perf_counter() - began


async def measure(dsn: str, commands: int, rounds: int, cases: Sequence[tuple[int, int]] = CASES) -> list[StoreResult]:
    """Each case in ``rounds`` alternating rounds (store, then raw, ``commands`` commands per game each), so that
    both paths meet the same disk and the same neighbours; rates over all rounds."""
    results = []
    for durable in (True, False):
        settings = None if durable else {"synchronous_commit": "off"}
        store_pool = await create_pool(dsn, POOL_SIZE, settings)
        raw_pool = await create_pool(dsn, POOL_SIZE, settings)
        try:
            async with raw_pool.acquire() as conn:
                await conn.execute(RAW_TABLE)
            store = PostgresEventStore(store_pool)
            for games, events in cases:
                await _store_run(store, games, events, 3)  # warm-up: prepared statements, pool connections
                await _raw_run(raw_pool, games, events, 3)
                store_s, raw_s = [], []
                for _ in range(rounds):
                    store_s.append(await _store_run(store, games, events, commands))
                    raw_s.append(await _raw_run(raw_pool, games, events, commands))
                n = games * commands * events
                result = StoreResult(games, events, durable, commands * rounds, n * rounds / sum(store_s),
                                     n * rounds / sum(raw_s),
                                     tuple(r / s for s, r in zip(store_s, raw_s, strict=True)))
                results.append(result)
                print(f"store: {games} game(s), {events} event(s)/command, synchronous_commit "
                      f"{'on' if durable else 'off'}: store {result.store_events_s:.0f} events/s, raw "
                      f"{result.raw_events_s:.0f} events/s, ratio {result.ratio:.2f}", file=sys.stderr)
        finally:
            await store_pool.close()
            await raw_pool.close()
    return results


async def run(commands: int, rounds: int) -> list[StoreResult]:
    async with fresh_database() as dsn:
        return await measure(dsn, commands, rounds)


def report_table(results: Sequence[StoreResult]) -> list[str]:
    rows = [
        [
            "on (durable)" if r.durable else "off", str(r.games), str(r.events_per_command),
            f"{r.store_events_s:,.0f}", f"{r.store_commands_s:,.0f}", f"{r.raw_events_s:,.0f}", f"{r.ratio:.2f}",
            f"{min(r.round_ratios):.2f} – {max(r.round_ratios):.2f}",
        ]
        for r in results
    ]
    return table(["synchronous_commit", "concurrent games", "events/command", "store events/s", "store commands/s",
                  "raw INSERT events/s", "ratio store/raw", "ratio per round"], rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.store", description=__doc__.split("\n")[0])
    parser.add_argument("--commands", type=int, default=25, help="commands per game and round (default 25)")
    parser.add_argument("--rounds", type=int, default=8, help="alternating rounds of each case (default 8)")
    args = parser.parse_args(argv)
    results = asyncio.run(run(args.commands, args.rounds))
    print("\n".join(report_table(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
