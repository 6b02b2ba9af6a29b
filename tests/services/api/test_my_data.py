"""The player's own data (issue #29): the export holds what the service keeps about the player, and deleting the
account (confirmed by typing the address again, with the CSRF header) removes it, leaves its seats anonymous, and
leaves the game's export verifying, before and after."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from litestar import Litestar

from domain.games import GAMES
from infra.ratings import PlayerRating
from services.gameplay.audit_verify import verify
from services.gameplay.bootstrap import Runtime

from .table import Table, asgi_client, bearer
from .test_players import csrf, sign_in

NAME = "Zephyrine Quackenbush"


@pytest.fixture
async def ada(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(app) as c:
        yield c


async def test_the_export_holds_the_players_data(ada: httpx.AsyncClient, runtime: Runtime, table: Table) -> None:
    assert (await ada.get("/api/me/export")).status_code == 401
    game = await table.create(seats=[{"kind": "human"}, {"kind": "ai"}], difficulty="digital_assistant")
    await sign_in(ada, runtime, "zq@example.com")
    assert (await ada.patch("/api/me", json={"name": NAME}, headers=csrf(ada))).status_code == 200
    assert (await ada.post(f"/api/games/{game.id}/claim", headers={**bearer(game.tokens[0]), **csrf(ada)})
            ).status_code == 200
    assert (await ada.put(f"/api/games/{game.id}/notes", json={"text": "remember plot 4"}, headers=csrf(ada))
            ).status_code == 200
    assert (await ada.post("/api/me/vacation", json={"days": 2}, headers=csrf(ada))).status_code == 201
    assert (await ada.put("/api/me/settings", json={"email_mode": "digest", "digest_hours": 24, "push": False,
                                                   "webhooks": True, "kinds": ["your_turn"], "muted_games": []},
                          headers=csrf(ada))).status_code == 200

    exported = await ada.get("/api/me/export")
    assert exported.status_code == 200, exported.text
    assert "attachment" in exported.headers["content-disposition"]
    data = exported.json()
    assert data["account"]["email"] == "zq@example.com" and data["account"]["name"] == NAME
    assert data["account"]["created_at"]
    assert data["seats"] == [{"game_id": game.id, "game_type": "magnate", "status": "running", "seat": 0,
                              "name": NAME}]
    assert [(n["game_id"], n["text"]) for n in data["notes"]] == [(game.id, "remember plot 4")]
    assert data["notification_settings"]["email_mode"] == "digest"
    assert len(data["vacations"]) == 1 and data["ratings"] in (None, [])  # null while no ratings are kept
    assert isinstance(data["deliveries"], list) and isinstance(data["webhooks"], list)
    assert any("signing secrets" in w for w in data["withheld"])


async def test_deleting_the_account_keeps_the_game_verifiable_and_its_seat_anonymous(
    ada: httpx.AsyncClient, client: httpx.AsyncClient, runtime: Runtime, table: Table
) -> None:
    game = await table.create(seats=[{"kind": "human"}, {"kind": "ai"}], difficulty="digital_assistant")
    player_id = (await sign_in(ada, runtime, "gone@example.com"))["player_id"]
    assert (await ada.patch("/api/me", json={"name": NAME}, headers=csrf(ada))).status_code == 200
    assert (await ada.post(f"/api/games/{game.id}/claim", headers={**bearer(game.tokens[0]), **csrf(ada)})
            ).status_code == 200
    assert (await ada.put(f"/api/games/{game.id}/notes", json={"text": "mine"}, headers=csrf(ada))).status_code == 200
    await table.run_system_jobs(game)
    me = (await ada.get(f"/api/games/{game.id}/me")).json()
    body = {"command_id": "m0", "command": me["legal"][0]["command"], "expected_version": me["version"]}
    assert (await ada.post(f"/api/games/{game.id}/commands", json=body, headers=csrf(ada))).status_code == 200

    before = await client.get(f"/api/games/{game.id}/export")
    assert before.status_code == 200, before.text
    assert verify(before.content.splitlines(), GAMES).ok

    forged = await ada.request("DELETE", "/api/me", json={"confirm_email": "gone@example.com"})
    assert (forged.status_code, forged.json()["code"]) == (403, "auth/csrf")
    for wrong in ("someone@example.com", ""):
        refused = await ada.request("DELETE", "/api/me", json={"confirm_email": wrong}, headers=csrf(ada))
        assert (refused.status_code, refused.json()["code"]) == (422, "account/not_confirmed")
    assert (await ada.get("/api/me")).status_code == 200, "a refused deletion changes nothing"

    deleted = await ada.request("DELETE", "/api/me", json={"confirm_email": "Gone@Example.com"}, headers=csrf(ada))
    assert deleted.status_code == 200 and deleted.json() == {"anonymous_seats": 1}
    assert (await ada.get("/api/me")).json()["code"] == "auth/signed_out"
    assert await runtime.players.get(player_id) is None
    assert await runtime.my_data.notes.of_player(player_id) == []
    for path in ("", "/history", "/chat"):  # the board, the story and the chat name the seat by its number now
        shown = (await client.get(f"/api/games/{game.id}{path}")).text
        assert NAME not in shown, path
    assert "Player 1" in (await client.get(f"/api/games/{game.id}")).text

    after = await client.get(f"/api/games/{game.id}/export")
    assert after.status_code == 200
    verdict = verify(after.content.splitlines(), GAMES)
    assert verdict.ok, verdict
    old, new = before.content.splitlines()[1:], after.content.splitlines()[1:]  # past the header (its version)
    assert new[:len(old)] == old, "the log is never rewritten"
    left = [line for line in new[len(old):] if b'"actor":"seat:0"' in line]
    assert left and b'"table.leave"' in left[0], "the seat left the running game: the stand-in plays it out"
    # The claim recorded no name in the log (the seat's name lives in the seats table): none stays in the export.
    assert NAME not in after.text and "gone@example.com" not in after.text
    seats = await runtime.gameplay.store.seats(game.id)
    assert (seats[0].name, seats[0].player_id) == ("Player 1", None)

    # Signing in again with the same address makes a new, empty account: nothing of the old one comes back.
    await sign_in(ada, runtime, "gone@example.com")
    fresh = (await ada.get("/api/me/export")).json()
    assert fresh["seats"] == [] and fresh["notes"] == [] and fresh["account"]["name"] == "gone"


class RatingsSeen:
    """A ratings reader as the runtime's ``ratings`` offers one (infra/ratings' ``of_player``)."""

    async def of_player(self, player_id: str) -> list[PlayerRating]:
        return [PlayerRating("magnate", 27.1, 7.9, 1, 1234, "2031-01-10T12:00:00Z")]


async def test_the_export_holds_the_ratings_when_the_service_keeps_them(
    ada: httpx.AsyncClient, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runtime, "ratings", RatingsSeen(), raising=False)
    await sign_in(ada, runtime, "rated@example.com")
    ratings = (await ada.get("/api/me/export")).json()["ratings"]
    assert ratings == [{"game_type": "magnate", "mu": 27.1, "sigma": 7.9, "games": 1, "shown": 1234,
                        "updated_at": "2031-01-10T12:00:00Z"}]
