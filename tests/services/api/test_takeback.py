"""Takebacks of moves over HTTP (issue #29): a seat asks through the commands route, another seat accepts or
refuses; the asker cannot answer its own request, a token of no seat of the game answers nothing; the state at a
version inside the taken-back range still shows what was true then, the history marks the moves "taken back", the
export verifies; once a die was rolled the request is refused with a code and a sentence."""

from __future__ import annotations

from typing import Any

import httpx

from domain.games import GAMES
from services.gameplay.audit import export_lines
from services.gameplay.audit_verify import verify
from services.gameplay.bootstrap import Runtime
from services.gameplay.loader import GameLoader

from .table import Game, Table, bearer

RANDOM = ("magnate.dice_rolled", "magnate.risk_card_drawn", "magnate.new_tenants_arrived",
          "magnate.for_sale_marker_drawn")


async def bid(table: Table, game: Game) -> tuple[int, dict[str, Any]]:
    seat = await table.seat_on_turn(game)
    me = await table.me(game, seat)
    template = next(t for t in me["legal"] if t["command"]["type"] == "magnate.place_bid")
    response = await table.submit(game, seat, template["command"])
    assert response.status_code == 200, response.text
    return seat, response.json()


async def test_a_bid_is_taken_back_with_the_other_seats_consent_and_the_log_still_verifies(
        client: httpx.AsyncClient, table: Table, runtime: Runtime) -> None:
    game = await table.create()
    seat, placed = await bid(table, game)
    other = 1 - seat
    bid_version = placed["version"]
    asked = await table.submit(game, seat, {"type": "table.undo_ask"})
    assert asked.status_code == 200, asked.text
    assert (await table.me(game, other))["table"]["undo"] == {"seat": seat, "back_to": bid_version,
                                                               "waiting": [other]}
    own = await table.submit(game, seat, {"type": "table.undo_answer", "accept": True})
    assert own.status_code == 422 and own.json()["code"] == "table/no_undo_request"
    stranger = await table.create()
    forged = await table.submit(game, other, {"type": "table.undo_answer", "accept": True},
                                token=stranger.tokens[0])
    assert forged.status_code in (401, 403), forged.text
    nobody = await client.post(f"/api/games/{game.id}/commands",
                               json={"command_id": "x1", "command": {"type": "table.undo_answer", "accept": True}})
    assert nobody.status_code == 401, nobody.text
    accepted = await table.submit(game, other, {"type": "table.undo_answer", "accept": True})
    assert accepted.status_code == 200, accepted.text
    assert [e["type"] for e in accepted.json()["events"]][:2] == ["table.undo_answered", "table.moves_undone"]
    assert await table.seat_on_turn(game) == seat, "the bidder is on turn again"
    then = await client.get(f"/api/games/{game.id}/state", params={"at": bid_version},
                            headers=bearer(game.tokens[seat]))
    assert then.status_code == 200 and then.json()["view"]["auction"]["high_bid"] > 0, "what was true then"
    now = await table.read(game)
    assert now["version"] > bid_version
    history = await client.get(f"/api/games/{game.id}/history")
    texts = [line["text"] for line in history.json()["lines"]]
    assert any("(taken back)" in t for t in texts) and any("are taken back" in t for t in texts), texts
    held = (await runtime.gameplay.load(game.id)).state
    fresh = GameLoader(runtime.gameplay.store, runtime.gameplay.games)  # a process that holds nothing
    assert (await fresh.load(game.id)).state == held
    stale = GameLoader(runtime.gameplay.store, runtime.gameplay.games)  # one that held the game at the bid
    stale.cache.remember(game.id, await stale.state_at(game.id, "magnate", bid_version))
    assert (await stale.load(game.id)).state == held, "the takeback is folded from before the bid"
    verdict = verify(await export_lines(runtime.gameplay, game.id), GAMES)
    assert verdict.ok, verdict


async def test_a_refused_request_leaves_the_move_and_no_request_after_a_die_was_rolled(
        table: Table) -> None:
    game = await table.create()
    seat, _ = await bid(table, game)
    assert (await table.submit(game, seat, {"type": "table.undo_ask"})).status_code == 200
    refused = await table.submit(game, 1 - seat, {"type": "table.undo_answer", "accept": False})
    assert refused.status_code == 200 and (await table.me(game, seat))["table"]["undo"] is None
    for _ in range(60):  # play on until the service drew chance (dice, cards, the market) after a seat's move
        await table.run_system_jobs(game)
        log = await table.log(game)
        drawn = [e for e in log if e["actor"] == "system" and e["type"] in RANDOM]
        if drawn and drawn[-1]["version"] > max(e["version"] for e in log if e["actor"] != "system"):
            break
        await table.play_suggested(game)
    assert (await table.read(game))["status"] == "running"
    log = await table.log(game)
    last = next(e for e in reversed(log) if e["actor"] != "system")
    late = await table.submit(game, int(last["actor"].removeprefix("seat:")), {"type": "table.undo_ask"})
    assert late.status_code == 422 and late.json()["code"] == "table/no_undo", late.text
    assert "cannot be taken back" in late.json()["message"]
