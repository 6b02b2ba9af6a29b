"""Signing in without a password (an emailed one-time link), signing out, and the signed-in player
(docs/PLAYERS.md)."""

from __future__ import annotations

import html
import secrets
from typing import Any

from litestar import Controller, Request, delete, get, patch, post
from litestar.di import Provide
from litestar.params import JSONBody

from infra.accounts import LinkExpired, LinkInvalid, LinkUsed, TooManyLinks
from infra.channels.addresses import check_email
from infra.channels.errors import DeliveryFailed, InvalidEmail
from infra.channels.mail import Mail

from ..deps import RuntimeDep, SettingsDep
from ..errors import ApiError, documented, too_many
from ..player_schemas import LinkRequest, LinkSentOut, PlayerMeOut, RenameRequest, SessionRequest
from ..players import PlayerDep, provide_player
from .games import public_url

LINK_RETRY_S = 60


def sign_in_mail(base: str, email: str, token: str, minutes: int) -> Mail:
    link = f"{base}/signin#token={token}"
    text = (f"Hello,\n\nto sign in to Magnate Server as {email}, open this link within {minutes} minutes:\n\n{link}\n\n"
            "It works once. If you did not ask to sign in, ignore this mail: nothing happens without the link.\n")
    page = (f"<p>Hello,</p><p>to sign in to Magnate Server as <b>{html.escape(email)}</b>, open this link within "
            f"{minutes} minutes:</p><p><a href=\"{html.escape(link)}\">Sign in to Magnate Server</a></p>"
            "<p>It works once. If you did not ask to sign in, ignore this mail: nothing happens without the link.</p>")
    return Mail(message_id=f"signin.{secrets.token_hex(12)}", to=email, subject="Sign in to Magnate Server",
                text=text, html=page)


class AccountController(Controller):
    path = "/api"
    tags = ("players",)

    @post("/auth/link", status_code=202, summary="Email a one-time sign-in link", responses=documented(
        400, 422, 429, 503, s422="Not an email address (request/invalid_email)",
        s503="The mail could not be sent (mail/unavailable): retry later"))
    async def send_link(self, data: JSONBody[LinkRequest], runtime: RuntimeDep, settings: SettingsDep) -> LinkSentOut:
        """Mails a link that signs the address in once, within ``MAGNATE_SIGN_IN_MINUTES``; the account is made on
        the first sign-in. With no ``SMTP_URL`` the mail is kept at ``/dev/mail``."""
        try:
            email = check_email(data.email)
        except InvalidEmail as exc:
            raise ApiError(422, exc.code, exc.message, field="email") from exc
        try:
            link = await runtime.players.issue_link(email, data.next, settings.sign_in_minutes,
                                                     limited=not settings.sandbox)
        except TooManyLinks as exc:
            raise too_many(str(exc), LINK_RETRY_S) from exc
        try:
            await runtime.mail.send(sign_in_mail(public_url(settings), email, link.token, settings.sign_in_minutes))
        except DeliveryFailed as exc:
            raise ApiError(503, "mail/unavailable", f"the sign-in mail could not be sent: {exc.reason}",
                           headers={"Retry-After": str(LINK_RETRY_S)}) from exc
        return LinkSentOut(email, settings.sign_in_minutes)

    @post("/auth/session", status_code=200, summary="Sign in with the link's token", responses=documented(
        400, 401, 410, s401="Not a sign-in link (auth/link_invalid)",
        s410="The link was used already (auth/link_used) or has expired (auth/link_expired)"))
    async def sign_in(self, request: Request[Any, Any, Any], data: JSONBody[SessionRequest], runtime: RuntimeDep
                      ) -> PlayerMeOut:
        """Redeems the link (once) and starts a session (an ``HttpOnly`` cookie)."""
        try:
            player, next_path = await runtime.players.redeem(data.token)
        except LinkInvalid as exc:
            raise ApiError(401, exc.code, str(exc)) from exc
        except (LinkUsed, LinkExpired) as exc:
            raise ApiError(410, exc.code, str(exc)) from exc
        request.set_session({"player_id": player.player_id})
        return PlayerMeOut(player.player_id, player.email, player.name, next_path)

    @delete("/auth/session", status_code=204, summary="Sign out")
    async def sign_out(self, request: Request[Any, Any, Any]) -> None:
        request.clear_session()

    @get("/me", summary="The signed-in player", dependencies={"player": Provide(provide_player)},
         responses=documented(401, s401="Not signed in (auth/signed_out)"))
    async def me(self, player: PlayerDep) -> PlayerMeOut:
        return PlayerMeOut(player.player_id, player.email, player.name)

    @patch("/me", summary="Change the name others see", dependencies={"player": Provide(provide_player)},
           responses=documented(400, 401, 403))
    async def rename(self, data: JSONBody[RenameRequest], player: PlayerDep, runtime: RuntimeDep) -> PlayerMeOut:
        name = data.name.strip()
        if not name:
            raise ApiError(400, "request/invalid", "a name needs a visible character", field="name")
        renamed = await runtime.players.rename(player.player_id, name)
        if renamed is None:
            raise ApiError(401, "auth/signed_out", "this account no longer exists")
        return PlayerMeOut(renamed.player_id, renamed.email, renamed.name)
