"""Redis away for two minutes under live games of every registered game (issue #24, item 2): the workers and the API
wait it out (none exits), and once Redis is back, empty, everything that fell due meanwhile happens: the system jobs
(the computer's turns, dice, markets), and the timeouts of clocks that ran out during the outage. Every game then
finishes, nothing acknowledged is lost or applied twice, and every export verifies.

Only the full run (``make chaos``) takes it: two minutes of waiting is not for ``make test``, whose worker test takes
Redis away for 30 s (``tests/integration/test_worker_outage.py``)."""

from __future__ import annotations

import asyncio
import re
import time
import uuid

import pytest

from services.simulation.live import run

from .clocked import Clocked, create, until_finished
from .exercise import Rig, specs_of
from .faults import Size
from .ledger import Ledger, read_store, verify_exports
from .players import Traffic, of, play
from .report import Findings
from .verdict import RECONCILE_EVERY_S, RECONNECT_S, SLACK_S

pytestmark = pytest.mark.chaos

OUTAGE_S = 120.0
GAMES = 6
"""Played by bots through the outage (the registered games in turn)."""
THINK_S = 0.1
DEADLINE_S = OUTAGE_S + 240.0
_GAME_ID = re.compile(r"\b[0-9a-f]{32}\b")


def _id(item: str) -> str:
    found = _GAME_ID.search(item)
    return found.group(0) if found else ""


def ours(items: list[str], game_ids: set[str]) -> list[str]:
    """The findings about the games of this test (the store also holds the fault run's)."""
    return [item for item in items if (m := _GAME_ID.search(item)) and m.group(0) in game_ids]


async def through_outage(rig: Rig, size: Size) -> tuple[Traffic, Clocked, float, float, Ledger]:
    specs = specs_of(size)
    traffic, clocked = Traffic(), Clocked()
    deadline = time.monotonic() + DEADLINE_S
    run_id = uuid.uuid4().hex[:12]
    playing = [asyncio.create_task(play(rig.fleet.url, *of(specs, key), run_id, traffic, THINK_S, deadline, key=key))
               for key in range(GAMES)]
    await asyncio.sleep(2.0)  # the games are under way
    await create(rig.fleet.url, specs, traffic, clocked, deadline)
    rig.redis.kill()
    went = time.time()
    for _ in range(int(OUTAGE_S)):
        await asyncio.sleep(1.0)
        rig.fleet.supervise()  # a worker that exits is counted (and restarted, as a process manager would)
    await rig.redis.restart()
    back = time.time()
    await asyncio.gather(*playing)
    await until_finished(rig.fleet.url, clocked, deadline)
    ledger = await read_store(rig.postgres.url, traffic)
    mine = [*traffic.creations.values(), *traffic.timed]
    await verify_exports(rig.fleet.url, mine, ledger, time.monotonic() + 120)
    return traffic, clocked, went, back, ledger


@pytest.mark.timeout(DEADLINE_S + 180)
def test_everything_due_in_a_two_minute_redis_outage_happens_once_redis_is_back(rig: Rig, size: Size,
                                                                                findings: Findings) -> None:
    if size.name != "full":
        pytest.skip("the two-minute outage is the full run's (make chaos)")
    exits_before = len(rig.fleet.exits)
    began = time.monotonic()
    traffic, clocked, went, back, ledger = run(through_outage(rig, size))
    findings.seconds["two-minute Redis outage"] = time.monotonic() - began
    mine = set(traffic.creations.values()) | set(traffic.timed)
    types = {game_id: ledger.types.get(game_id, "?") for game_id in mine}
    findings.long_outage = [
        f"Redis away {back - went:.0f} s; workers that exited: {len(rig.fleet.exits) - exits_before}; API alive: "
        f"{rig.fleet.api_alive}; answers by status {dict(sorted(traffic.statuses.items()))}",
        *(f"`{game}`: {sum(1 for t in types.values() if t == game)} games "
          f"({sum(1 for g in clocked.games.values() if g == game)} clocked), "
          f"{sum(1 for g, t in types.items() if t == game and g in ledger.verified_ids)} verified, lost "
          f"{len([x for x in ours(ledger.lost, mine) if types.get(_id(x)) == game])}, duplicated "
          f"{len([x for x in ours(ledger.duplicated, mine) if types.get(_id(x)) == game])}, timed out after the "
          f"outage: " + ", ".join(f"{ledger.timeouts[g][0] - back:.1f} s" for g, t in clocked.games.items()
                                  if t == game and ledger.timeouts.get(g))
          for game in dict.fromkeys(types.values())),
        f"failures: {traffic.failures or 'none'}"]
    print("\n" + "\n".join(findings.long_outage))

    assert rig.fleet.supervise() == [] and len(rig.fleet.exits) == exits_before, \
        f"workers exited during the outage: {rig.fleet.exits[exits_before:]}"
    assert rig.fleet.api_alive, "the API process died"
    assert traffic.failures == []
    assert len(traffic.results) == GAMES
    assert ours(ledger.lost, mine) == [] and ours(ledger.duplicated, mine) == []
    assert ours(ledger.unfinished, mine) == [] and ours(ledger.problems, mine) == []
    assert mine <= ledger.verified_ids, f"not verified: {sorted(mine - ledger.verified_ids)}"
    assert clocked.due_at < back, "the clocks ran out during the outage"
    assert len(clocked.games) == len(specs_of(size)) and clocked.failures == []
    for game_id, game in clocked.games.items():
        moments = ledger.timeouts.get(game_id, [])
        assert moments, f"{game} {game_id}: its clock ran out in the outage and it never timed out"
        assert back - 1.0 <= moments[0] <= back + RECONNECT_S + RECONCILE_EVERY_S + SLACK_S, \
            f"{game} {game_id}: timed out {moments[0] - back:.1f} s after Redis was back"
