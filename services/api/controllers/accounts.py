"""Signing in without a password (an emailed one-time link), signing out, and the signed-in player
(docs/PLAYERS.md).

Signing in is a page's act, checked like one (issue #24): the page first gets a pre-session and its CSRF token
(``GET /api/auth/csrf``), then posts the link's token as JSON with that CSRF token; the session it gets has a new id
and a new CSRF token (:mod:`..sessions`). Links go out only where mail can go (an SMTP server, or a development
mailbox asked for), and at most so many per mailbox and per client (:mod:`infra.accounts.link_limits`)."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, Response, delete, get, patch, post, put
from litestar.config.csrf import CSRFConfig
from litestar.datastructures import CacheControlHeader
from litestar.di import Provide
from litestar.middleware.rate_limit import get_remote_address
from litestar.params import JSONBody

from domain.kernel.phrases import Phrase, say
from infra.accounts import LinkExpired, LinkInvalid, LinkUsed, Player, TooManyLinks
from infra.channels.errors import DeliveryFailed, InvalidEmail
from infra.channels.mail import sends_mail
from services.gameplay.my_data import NotConfirmed
from services.gameplay.seat_names import ReservedName

from ..bodies import json_only, refuse_duplicate_keys
from ..deps import AccountsDep, MyDataDep, SettingsDep
from ..errors import ApiError, documented, too_many
from ..language import SERVER, CatalogsDep, LanguageDep
from ..note_schemas import ErasedOut, EraseRequest
from ..pages import public_url
from ..player_schemas import (
    CsrfOut,
    LanguageRequest,
    LinkRequest,
    LinkSentOut,
    PlayerMeOut,
    RenameRequest,
    SessionRequest,
)
from ..players import PlayerDep, provide_player, remember_player
from ..sessions import CSRF_KEY, new_csrf_cookie, start_session

LINK_RETRY_S = 60

LINK_REFUSED: dict[str, Phrase] = {
    LinkInvalid.code: say("this sign-in link is not valid"),
    LinkUsed.code: say("this sign-in link was used already, or a newer one was: ask for a new one"),
    LinkExpired.code: say("this sign-in link has expired: ask for a new one"),
}
GONE = say("this account no longer exists")


def me_out(player: Player, next_path: str | None = None) -> PlayerMeOut:
    return PlayerMeOut(player.player_id, player.email, player.name, next_path, player.language)


class AccountController(Controller):
    path = "/api"
    tags = ("players",)

    @post("/auth/link", status_code=202, summary="Email a one-time sign-in link", guards=[json_only],
          responses=documented(
              400, 403, 415, 422, 429, 503, s403="This server sends no mail (mail/not_configured), or the request "
              "came from another site's page (auth/origin)", s415="Not a JSON body (request/unsupported_media_type)",
              s422="Not an email address (request/invalid_email)",
              s503="The mail could not be sent (mail/unavailable): retry later"))
    async def send_link(self, request: Request[Any, Any, Any], data: JSONBody[LinkRequest], accounts: AccountsDep,
                        settings: SettingsDep, catalogs: CatalogsDep, language: LanguageDep) -> LinkSentOut:
        """Mails a link that signs the address in once, within ``MAGNATE_SIGN_IN_MINUTES``; the account is made on
        the first sign-in. With no ``SMTP_URL`` the mail is kept at ``/dev/mail`` when the development mailbox is on
        (``MAGNATE_DEV_MAILBOX``), and refused otherwise (403 ``mail/not_configured``). At most
        ``LINKS_PER_MAILBOX`` links per mailbox (plus-tags and case ignored) and ``LINKS_PER_CLIENT`` per client
        address go out per link lifetime (429). The mail is in the request's language."""
        if not sends_mail(settings):
            raise ApiError(403, "mail/not_configured", say("this server sends no mail (no SMTP_URL is set), so it "
                                                           "cannot send sign-in links: ask its operator"))
        refuse_duplicate_keys(await request.body())
        try:
            email = await accounts.send_link(data.email, data.next, get_remote_address(request),
                                             settings.sign_in_minutes, public_url(settings),
                                             limited=not settings.sandbox,
                                             words=catalogs.translations(SERVER, language))
        except InvalidEmail as exc:
            raise ApiError(422, exc.code, say("this is not an email address: {reason}", reason=exc.message),
                           field="email") from exc
        except TooManyLinks as exc:
            raise too_many(say("too many sign-in links were sent to this address lately; use one of them or wait"),
                           LINK_RETRY_S) from exc
        except DeliveryFailed as exc:
            raise ApiError(503, "mail/unavailable", say("the sign-in mail could not be sent: {reason}",
                                                        reason=exc.reason),
                           headers={"Retry-After": str(LINK_RETRY_S)}) from exc
        return LinkSentOut(email, settings.sign_in_minutes)

    @get("/auth/csrf", summary="The CSRF token of this browser's session (a pre-session before signing in)")
    async def csrf_token(self, request: Request[Any, Any, Any]) -> Response[CsrfOut]:
        """The token a page sends as ``X-CSRFToken`` with every change (signing in included), also set as the
        ``csrftoken`` cookie. A browser with no session gets a pre-session holding only the token (a new session
        id, ``HttpOnly`` cookie); signing in replaces it by the player's session, with a new id and a new token."""
        config: CSRFConfig = request.app.state.csrf
        session = request.session if "session" in request.scope else {}
        token = session.get(CSRF_KEY) if isinstance(session, dict) else None
        if isinstance(token, str):
            _, cookie = new_csrf_cookie(config)
            cookie.value = token
        else:
            token, cookie = new_csrf_cookie(config)
            if isinstance(session, dict) and session.get("player_id"):  # a session from before tokens were bound
                request.set_session({**session, CSRF_KEY: token})
            else:
                await start_session(request, {CSRF_KEY: token})
        return Response(CsrfOut(token), cookies=[cookie], headers={"Cache-Control": "no-store"})

    @post("/auth/session", status_code=200, summary="Sign in with the link's token", guards=[json_only],
          responses=documented(
              400, 401, 403, 410, 415, s401="Not a sign-in link (auth/link_invalid)",
              s403="No CSRF token of this browser's pre-session (auth/csrf), or another site's page (auth/origin)",
              s410="The link was used already, or a newer one was (auth/link_used), or has expired "
                   "(auth/link_expired)", s415="Not a JSON body (request/unsupported_media_type)"))
    async def sign_in(self, request: Request[Any, Any, Any], data: JSONBody[SessionRequest], accounts: AccountsDep
                      ) -> Response[PlayerMeOut]:
        """Redeems the link (once; every other link of the address is spent with it) and starts a session (an
        ``HttpOnly`` cookie) under a new id, with a new CSRF token (the ``csrftoken`` cookie). Needs the CSRF token
        of the browser's pre-session (``GET /api/auth/csrf``) as ``X-CSRFToken``. A refused sign-in changes no
        cookie."""
        refuse_duplicate_keys(await request.body())
        try:
            player, next_path = await accounts.redeem(data.token)
        except LinkInvalid as exc:
            raise ApiError(401, exc.code, LINK_REFUSED[exc.code]) from exc
        except (LinkUsed, LinkExpired) as exc:
            raise ApiError(410, exc.code, LINK_REFUSED[exc.code]) from exc
        token, cookie = new_csrf_cookie(request.app.state.csrf)
        await start_session(request, {"player_id": player.player_id, CSRF_KEY: token})
        return Response(me_out(player, next_path), cookies=[cookie])

    @delete("/auth/session", status_code=204, summary="Sign out", responses=documented(
        403, s403="Without this session's CSRF token (auth/csrf), or from another site's page (auth/origin)"))
    async def sign_out(self, request: Request[Any, Any, Any]) -> None:
        request.clear_session()

    @get("/me", summary="The signed-in player", dependencies={"player": Provide(provide_player)},
         responses=documented(401, s401="Not signed in (auth/signed_out)"))
    async def me(self, player: PlayerDep) -> PlayerMeOut:
        """The player, with the language they chose (``language``: null until they choose one)."""
        return me_out(player)

    @put("/me/language", status_code=204, summary="Choose the language the service speaks to the player",
         dependencies={"player": Provide(provide_player)}, guards=[json_only], responses=documented(
             400, 401, 403, 415, s400="Not a language the service speaks (language/unknown)",
             s401="Not signed in (auth/signed_out)", s403="Without this session's CSRF token (auth/csrf)"))
    async def choose_language(self, request: Request[Any, Any, Any], data: JSONBody[LanguageRequest],
                              player: PlayerDep, accounts: AccountsDep, catalogs: CatalogsDep) -> None:
        """``{"language": "de"}``: the page (once signed in), the notices, mails, pushes and webhooks' texts are in
        this language from now on. One the service does not speak is refused (400 ``language/unknown``)."""
        refuse_duplicate_keys(await request.body())
        if not catalogs.speaks(data.language):
            raise ApiError(400, "language/unknown", say("the service does not speak this language; it speaks "
                                                        "{languages}", languages=", ".join(catalogs.languages)),
                           languages=list(catalogs.languages))
        chosen = await accounts.choose_language(player.player_id, data.language)
        if chosen is None:
            raise ApiError(401, "auth/signed_out", GONE)
        remember_player(request, chosen)

    @patch("/me", summary="Change the name others see", dependencies={"player": Provide(provide_player)},
           guards=[json_only], responses=documented(400, 401, 403, 415))
    async def rename(self, request: Request[Any, Any, Any], data: JSONBody[RenameRequest], player: PlayerDep,
                     accounts: AccountsDep) -> PlayerMeOut:
        """A name needs a visible character and holds no control character (400 ``request/invalid_name``), and may
        not read as the computer's (400 ``request/reserved_name``). Seats claimed from now on show it."""
        refuse_duplicate_keys(await request.body())
        name = data.name.strip()
        try:
            renamed = await accounts.rename(player.player_id, name)
        except ReservedName as exc:
            raise ApiError(400, exc.code, say("this name reads as the computer's: choose another")) from exc
        if renamed is None:
            raise ApiError(401, "auth/signed_out", GONE)
        remember_player(request, renamed)
        return me_out(renamed)

    @get("/me/export", summary="Download everything the service holds about you (JSON)",
         dependencies={"player": Provide(provide_player)}, cache_control=CacheControlHeader(no_store=True),
         responses=documented(401, s401="Not signed in (auth/signed_out)"))
    async def export_mine(self, player: PlayerDep, my_data: MyDataDep) -> Response[dict[str, Any]]:
        """The account (email, name, language, created), every seat you hold (game, seat, name), your private notes,
        notification settings, notices, webhooks (never their signing secrets), deliveries, vacations and ratings
        (null when the service keeps none). ``withheld`` names what is left out on purpose."""
        data = await my_data.export(player)
        return Response(data, headers={"Content-Disposition": 'attachment; filename="magnate-my-data.json"'})

    @delete("/me", status_code=200, summary="Delete your account", dependencies={"player": Provide(provide_player)},
            guards=[json_only], responses=documented(
                400, 401, 403, 415, 422, s401="Not signed in (auth/signed_out)",
                s403="Without this session's CSRF token (auth/csrf), or from another site's page (auth/origin)",
                s422="``confirm_email`` is not the account's address (account/not_confirmed)"))
    async def erase(self, request: Request[Any, Any, Any], data: JSONBody[EraseRequest], player: PlayerDep,
                    my_data: MyDataDep) -> ErasedOut:
        """``{"confirm_email": "<your address>"}``: the account, its sessions (every device is signed out), notes,
        notification settings, notices, webhooks, push devices, deliveries and vacations are deleted. The seats you
        held stay in their games, named "Player N" and linked to nobody; the games' logs are not rewritten, so their
        exports still verify (docs/PLAYERS.md, "Your data")."""
        refuse_duplicate_keys(await request.body())
        try:
            erased = await my_data.erase(player, data.confirm_email)
        except NotConfirmed as exc:
            raise ApiError(422, exc.code, say("type your account's email address to delete the account"),
                           field="confirm_email") from exc
        request.clear_session()
        return ErasedOut(len(erased.seats) if erased else 0)
