"""After the faults: every game read back from the store and from its export, and checked.

What must hold for every game, however the faults fell:

* its events are versions 1..N with no gap, each event's ``prev_hash`` is the previous event's hash, and
  the game's row ends the chain (its ``last_hash``);
* its commands partition 1..N: each command's events are contiguous and carry its id, no version belongs
  to two commands, no command id appears twice, and a job's or a client's id names the version it was
  decided at (so nothing was applied at another version than the one it was sent for);
* every command a client was answered 200 for is in the store with the versions it was answered with
  (none lost), and no command was applied twice (a retry was answered ``duplicate``, never applied again);
* the export verifies (:func:`services.gameplay.audit.verify`: the hash chain, the seed against its
  commitment, a byte-identical replay of every command);
* it finished, and its result is the result of the same seeds played in-process (so no fault changed any
  game: a lost or doubled AI turn or die roll would);
* no game was created twice (an orphan: a creation whose answer was lost and which was then made again).

It also measures every wait for a system job, from the recorded times of the commands: the time between
the append that made a job due and the job's own append (a player's pause is not a stall).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

from domain.games import GAMES
from infra.chain import GENESIS
from services.gameplay.audit import verify
from services.simulation.local import play_game
from services.simulation.spec import SimSpec

from .players import PatientConnection, Traffic, of

EXPORT_CONCURRENCY = 8


@dataclass(frozen=True)
class Stall:
    """How long the system job ``command_id`` of a game was due before it was appended."""

    game_id: str
    command_id: str
    began: float
    """``time.time()`` seconds: when the job became due (the previous append)."""
    seconds: float
    ongoing: bool = False
    """Still due when the ledger was read (the game never got it)."""
    after: str = ""
    """The id of the command whose append made the job due."""

    @property
    def ended(self) -> float:
        return self.began + self.seconds


@dataclass
class Ledger:
    game_ids: list[str] = field(default_factory=list)
    """Every game in the store."""
    games: int = 0
    finished: int = 0
    events: int = 0
    commands: int = 0
    system_jobs: int = 0
    verified: int = 0
    replayed_commands: int = 0
    same_as_in_process: int = 0
    acknowledged: int = 0
    problems: list[str] = field(default_factory=list)
    """Broken invariants other than the named kinds below."""
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    orphans: list[str] = field(default_factory=list)
    unfinished: list[str] = field(default_factory=list)
    stalls: list[Stall] = field(default_factory=list)
    """Every wait for a system job, longest first."""
    types: dict[str, str] = field(default_factory=dict)
    """Every game's type, by its id."""
    verified_ids: set[str] = field(default_factory=set)
    same_ids: set[str] = field(default_factory=set)
    """The games whose result is the in-process result of their seeds."""
    timeouts: dict[str, list[float]] = field(default_factory=dict)
    """For each clocked game (:mod:`.clocked`): when its timeouts were recorded (``time.time()`` seconds)."""

    @property
    def longest_stall(self) -> Stall | None:
        return self.stalls[0] if self.stalls else None


@dataclass(frozen=True)
class _Command:
    command_id: str
    first_version: int
    last_version: int
    recorded_at: float


async def read_store(database_url: str, traffic: Traffic) -> Ledger:
    """Check every game in the store (see the module docstring) against what the clients were told."""
    conn = await asyncpg.connect(database_url)
    try:
        games = await conn.fetch("SELECT game_id, game_type, status, version, last_hash, system_job FROM games "
                                 "ORDER BY game_id")
        timeouts = await conn.fetch("SELECT game_id, recorded_at FROM events WHERE type = 'table.timed_out' "
                                    "AND game_id = ANY($1::text[]) ORDER BY game_id, version", traffic.timed)
        events = await conn.fetch("SELECT game_id, version, command_id, prev_hash, hash FROM events "
                                  "ORDER BY game_id, version")
        commands = await conn.fetch("SELECT game_id, command_id, first_version, last_version, recorded_at "
                                    "FROM commands ORDER BY game_id, first_version")
    finally:
        await conn.close()
    events_of: dict[str, list[asyncpg.Record]] = defaultdict(list)
    for e in events:
        events_of[e["game_id"]].append(e)
    commands_of: dict[str, list[_Command]] = defaultdict(list)
    for c in commands:
        commands_of[c["game_id"]].append(_Command(c["command_id"], c["first_version"], c["last_version"],
                                                  c["recorded_at"].timestamp()))
    ledger = Ledger([g["game_id"] for g in games], games=len(games), events=len(events), commands=len(commands),
                    types={g["game_id"]: g["game_type"] for g in games})
    for t in timeouts:
        ledger.timeouts.setdefault(t["game_id"], []).append(t["recorded_at"].timestamp())
    created = set(traffic.creations.values()) | set(traffic.timed)
    now = time.time()
    for game in games:
        game_id = game["game_id"]
        ledger.finished += game["status"] == "finished"
        _check_events(ledger, game, events_of[game_id])
        _check_commands(ledger, game, events_of[game_id], commands_of[game_id])
        ledger.stalls.extend(_stalls(game, commands_of[game_id], now))
        if game_id not in created:
            ledger.orphans.append(f"{game_id} (version {game['version']}, {game['status']}): created, never answered")
        elif game["status"] != "finished":
            ledger.unfinished.append(f"{game_id} at version {game['version']}, waiting for "
                                     f"{game['system_job'] or 'a seat'}")
    ledger.system_jobs = sum(1 for c in commands if c["command_id"].startswith("system:"))
    ledger.stalls.sort(key=lambda s: -s.seconds)
    _check_acknowledged(ledger, traffic, commands_of)
    missing = created - {g["game_id"] for g in games}
    ledger.lost.extend(f"game {game_id}: its creation was answered but it is not in the store" for game_id in missing)
    return ledger


def _check_events(ledger: Ledger, game: asyncpg.Record, events: list[asyncpg.Record]) -> None:
    game_id = game["game_id"]
    versions = [e["version"] for e in events]
    if versions != list(range(1, game["version"] + 1)):
        ledger.problems.append(f"{game_id}: event versions are not 1..{game['version']} "
                               f"({len(versions)} events, first gap near {_first_gap(versions)})")
        return
    previous = GENESIS
    for e in events:
        if e["prev_hash"] != previous:
            ledger.problems.append(f"{game_id}: the hash chain breaks at version {e['version']}")
            return
        previous = e["hash"]
    if previous != game["last_hash"]:
        ledger.problems.append(f"{game_id}: the game's last_hash is not its last event's hash")


def _first_gap(versions: list[int]) -> int:
    return next((i for i, v in enumerate(versions, start=1) if v != i), len(versions) + 1)


def _check_commands(ledger: Ledger, game: asyncpg.Record, events: list[asyncpg.Record],
                    commands: list[_Command]) -> None:
    game_id = game["game_id"]
    for command_id, count in Counter(c.command_id for c in commands).items():
        if count > 1:
            ledger.duplicated.append(f"{game_id}: command id {command_id} stored {count} times")
    expected = 1
    for c in commands:
        if c.first_version != expected:
            kind = "overlaps the previous command" if c.first_version < expected else "leaves a gap before it"
            ledger.problems.append(f"{game_id}: command {c.command_id} at {c.first_version} {kind}")
            return
        if c.last_version < c.first_version:
            ledger.problems.append(f"{game_id}: command {c.command_id} has no events")
            return
        owners = {events[v - 1]["command_id"] for v in range(c.first_version, c.last_version + 1)
                  if v <= len(events)}
        if owners != {c.command_id}:
            ledger.problems.append(f"{game_id}: the events {c.first_version}..{c.last_version} of "
                                   f"{c.command_id} are not all its own")
        decided_at = _decided_at(c.command_id)
        if decided_at is not None and decided_at != c.first_version - 1:
            ledger.problems.append(f"{game_id}: {c.command_id} was appended at version {c.first_version}")
        expected = c.last_version + 1
    if expected - 1 != game["version"]:
        ledger.problems.append(f"{game_id}: commands cover versions 1..{expected - 1}, the game is at "
                               f"{game['version']}")


def _decided_at(command_id: str) -> int | None:
    """The version a job's (``system:{v}:{kind}``) or a bot's (``chaos-{v}``) id says it was decided at."""
    if command_id.startswith("system:"):
        return int(command_id.split(":")[1])
    if command_id.startswith("chaos-"):
        return int(command_id.removeprefix("chaos-"))
    return None


def _stalls(game: asyncpg.Record, commands: list[_Command], now: float) -> list[Stall]:
    found = [Stall(game["game_id"], c.command_id, previous.recorded_at, c.recorded_at - previous.recorded_at,
                   after=previous.command_id)
             for previous, c in itertools.pairwise(commands) if c.command_id.startswith("system:")]
    if game["status"] != "finished" and game["system_job"] and commands:
        last = commands[-1].recorded_at
        found.append(Stall(game["game_id"], f"system:{game['version']}:{game['system_job']}", last, now - last,
                           ongoing=True, after=commands[-1].command_id))
    return found


def _check_acknowledged(ledger: Ledger, traffic: Traffic, commands_of: dict[str, list[_Command]]) -> None:
    stored = {(game_id, c.command_id): c for game_id, cs in commands_of.items() for c in cs}
    fresh: Counter[tuple[str, str]] = Counter()
    for ack in traffic.acknowledged:
        ledger.acknowledged += 1
        key = (ack.game_id, ack.command_id)
        fresh[key] += not ack.duplicate
        c = stored.get(key)
        if c is None:
            ledger.lost.append(f"{ack.game_id}: {ack.command_id} was answered 200 but is not in the store")
        elif (c.first_version, c.last_version) != (ack.first_version, ack.last_version):
            ledger.problems.append(f"{ack.game_id}: {ack.command_id} was answered with versions "
                                   f"{ack.first_version}..{ack.last_version}, stored as "
                                   f"{c.first_version}..{c.last_version}")
    ledger.duplicated.extend(f"{game_id}: {command_id} was applied (not answered as a duplicate) {n} times"
                             for (game_id, command_id), n in fresh.items() if n > 1)


def compare_in_process(ledger: Ledger, traffic: Traffic, specs: Sequence[SimSpec]) -> None:
    """Every game the clients finished must have the result of the same seeds played in-process."""
    for key, result in sorted(traffic.results.items()):
        spec, index = of(specs, key)
        expected = play_game(spec, 0, index)
        if result == expected:
            ledger.same_as_in_process += 1
            ledger.same_ids.add(traffic.creations[key])
        else:
            ledger.problems.append(f"game {key} ({spec.game} {index}, {traffic.creations.get(key)}): its result "
                                   f"differs from the in-process play of the same seeds: {result} != {expected}")


async def verify_exports(url: str, game_ids: list[str], ledger: Ledger, deadline: float) -> dict[str, bytes]:
    """Export every game over the API and verify it; returns the exports (by game id)."""
    gate = asyncio.Semaphore(EXPORT_CONCURRENCY)
    exports: dict[str, bytes] = {}

    async def one(game_id: str) -> None:
        async with gate:
            conn = PatientConnection(url, Traffic(), deadline)
            try:
                response = await conn.request("GET", f"/api/games/{game_id}/export")
            finally:
                await conn.close()
        if response.status != 200:
            ledger.problems.append(f"{game_id}: export answered {response.status}")
            return
        exports[game_id] = response.body
        verdict = verify(response.body.splitlines(), GAMES)
        if not verdict.ok:
            ledger.problems.append(f"{game_id}: the export does not verify: {'; '.join(verdict.problems)}")
            return
        ledger.verified += 1
        ledger.verified_ids.add(game_id)
        ledger.replayed_commands += verdict.replayed

    await asyncio.gather(*(one(game_id) for game_id in game_ids))
    return exports


def cli_verifies(database_url: str, game_id: str, root: Path) -> str | None:
    """``magnate export`` then ``magnate verify`` of one game, as an auditor would run them; None if the
    export verifies, else what went wrong."""
    path = root / f"{game_id}.jsonl"
    env = {**os.environ, "DATABASE_URL": database_url}
    for args in (["export", game_id, "-o", str(path)], ["verify", str(path)]):
        done = subprocess.run([sys.executable, "-m", "services.cli", *args], env=env, capture_output=True,
                              text=True, timeout=120, check=False)
        if done.returncode != 0:
            return f"magnate {args[0]} {game_id} exited with {done.returncode}: {done.stderr[-500:]}"
    return None
