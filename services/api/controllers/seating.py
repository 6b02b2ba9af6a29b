"""Seats that belong to people: a signed-in player claims the seat of an invite link; the host revokes or reissues
the invites of seats nobody has claimed; a guest releases the seat they hold by its link (docs/PLAYERS.md)."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, delete, post
from litestar.di import Provide
from litestar.params import FromPath

from domain.kernel.phrases import say
from infra.errors import InviteInvalid
from services.gameplay.tables import TableRefused

from ..auth import SECURITY, bearer_token, provide_seat, seat_of
from ..deps import GameplayDep, SeatDep, SeatingDep, SettingsDep, TablesDep
from ..errors import ApiError, documented
from ..pages import public_url
from ..player_schemas import ClaimedOut, InviteOut
from ..players import PlayerDep, provide_player
from ..seat_access import SeatNumber, host_only, no_such_seat

MISSING_TOKEN = say("send the invite's token as 'Authorization: Bearer <token>'")


class SeatingController(Controller):
    path = "/api/games/{game_id:str}"
    tags = ("players",)

    @post("/claim", status_code=200, summary="Claim the seat of an invite link for the signed-in player",
          dependencies={"player": Provide(provide_player)}, security=SECURITY, responses=documented(
              400, 401, 403, 404, 409, 422,
              s401="Not signed in (auth/signed_out), or not a valid invite (auth/invalid_token)",
              s403="Another player claimed this seat (seat/claimed), or the CSRF header is missing (auth/csrf)",
              s409="You hold another seat of this game (seat/already_seated)",
              s422="The seat cannot be claimed (the game has ended: rule/game_over)"))
    async def claim(
        self, request: Request[Any, Any, Any], game_id: FromPath[str], player: PlayerDep, gameplay: GameplayDep,
        seating: SeatingDep,
    ) -> ClaimedOut:
        """Send the invite's token as ``Authorization: Bearer`` with the session cookie. The seat becomes the
        player's (a ``table.seat_claimed`` event in the log); its invite link stops opening it, and the player
        plays it from any device they sign in on. Claiming the same seat again answers the same."""
        token = bearer_token(request)
        if token is None:
            raise ApiError(401, "auth/missing_token", MISSING_TOKEN)
        seat = await gameplay.queries.seat_for_token(game_id, token)
        if seat is None:  # a dead invite: this player's own claim asked again, or a refusal
            claimed = await gameplay.queries.claimed_seat(game_id, token)
            mine = claimed is not None and claimed == await gameplay.queries.seat_of_player(game_id, player.player_id)
            seat = claimed if mine and claimed is not None else await seat_of(gameplay, game_id, token)
        applied = await seating.claim(game_id, seat, token, player.player_id, player.name)
        return ClaimedOut(game_id, seat, applied.version)

    @post("/seats/{seat:int}/invite", status_code=201, summary="Issue a new invite link for a free seat",
          dependencies={"caller": Provide(provide_seat)}, security=SECURITY, responses=documented(
              400, 401, 403, 404, s403="Not the host (seat/not_host), or the seat was claimed (seat/claimed)",
              s404="No such game, or the seat is not a person's seat of it (seat/not_found)"))
    async def reissue(
        self, game_id: FromPath[str], seat: SeatNumber, caller: SeatDep, gameplay: GameplayDep, seating: SeatingDep,
        settings: SettingsDep,
    ) -> InviteOut:
        """The host's seat (its token, or the player who claimed it) replaces an unclaimed seat's invite: the old
        link stops working at once."""
        await host_only(gameplay, game_id, caller)
        try:
            token = await seating.reissue(game_id, seat)
        except InviteInvalid as exc:
            raise no_such_seat(seat) from exc
        return InviteOut(seat, token, f"{public_url(settings)}/play/{game_id}#token={token}")

    @delete("/seats/{seat:int}/invite", status_code=204, summary="Revoke a free seat's invite link",
            dependencies={"caller": Provide(provide_seat)}, security=SECURITY, responses=documented(
                400, 401, 403, 404, s403="Not the host (seat/not_host), or the seat was claimed (seat/claimed)",
                s404="No such game, or the seat is not a person's seat of it (seat/not_found)"))
    async def revoke(self, game_id: FromPath[str], seat: SeatNumber, caller: SeatDep, gameplay: GameplayDep,
                     seating: SeatingDep) -> None:
        """No link opens the seat until the host issues a new one."""
        await host_only(gameplay, game_id, caller)
        try:
            await seating.revoke(game_id, seat)
        except InviteInvalid as exc:
            raise no_such_seat(seat) from exc

    @post("/release", status_code=204, summary="Give up the seat of an invite link (a guest's)",
          security=SECURITY, responses=documented(
              400, 401, 403, 404, 409,
              s401="No token (auth/missing_token), or it opens no seat (auth/invalid_token)",
              s403="A signed-in player claimed this seat (seat/claimed)",
              s409="The creator's seat cannot be released (seat/host)"))
    async def release(self, request: Request[Any, Any, Any], game_id: FromPath[str], tables: TablesDep,
                      gameplay: GameplayDep) -> None:
        """Send the invite's token as ``Authorization: Bearer``. The link stops opening the seat, and the seat is
        free again: a signed-in player may join it if the game is listed, and the host may issue a new invite. A seat
        a guest has opened by its link is never free otherwise."""
        token = bearer_token(request)
        if token is None:
            raise ApiError(401, "auth/missing_token", MISSING_TOKEN)
        await seat_of(gameplay, game_id, token)  # 401 for a dead link, 403 seat/claimed for a claimed seat's
        try:
            await tables.release(game_id, token)
        except TableRefused as exc:
            raise ApiError(exc.status, exc.code, exc.message) from exc
