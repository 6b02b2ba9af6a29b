"""A signed-in player's notifications (docs/PLAYERS.md, "API (notifications)"): settings, the notices in the page
and the delivery log. Webhooks and push devices are in :mod:`.notification_channels`, unsubscribing in
:mod:`.unsubscribe`. The notices are told in the request's language (the player's choice, else the browser's).
Every route needs a session (401 ``auth/signed_out``); the work is done by the notifications service
(:class:`services.notifications.service.Notifications`)."""

from __future__ import annotations

import msgspec
from litestar import Controller, get, post, put
from litestar.di import Provide
from litestar.params import JSONBody

from services.notifications import account
from services.notifications.account import InvalidSetting
from services.notifications.preferences import Preferences

from ..deps import NotificationsDep
from ..errors import ApiError, documented
from ..language import CatalogsDep, LanguageDep
from ..notification_schemas import (
    DeliveriesOut,
    DeliveryOut,
    NoticeOut,
    NoticesOut,
    ReadIn,
    SettingsIn,
    SettingsOut,
    UnreadOut,
    out,
)
from ..players import PlayerDep, provide_player

SIGNED_OUT = "Not signed in (auth/signed_out)"


def settings_out(prefs: Preferences) -> SettingsOut:
    return SettingsOut(prefs.email_mode, prefs.digest_hours, prefs.push, prefs.webhooks, prefs.kinds,
                       prefs.muted_games)


class NotificationController(Controller):
    path = "/api/me"
    tags = ("notifications",)
    dependencies = {"player": Provide(provide_player)}  # noqa: RUF012 (Litestar's declared class attribute)

    @get("/settings", summary="What the player is told, and how", responses=documented(401, s401=SIGNED_OUT))
    async def get_settings(self, player: PlayerDep, notifications: NotificationsDep) -> SettingsOut:
        return settings_out(await notifications.preferences(player.player_id))

    @put("/settings", summary="Choose what the player is told, and how", responses=documented(
        400, 401, 403, s401=SIGNED_OUT, s403="Missing CSRF token (auth/csrf)"))
    async def put_settings(self, data: JSONBody[SettingsIn], player: PlayerDep,
                           notifications: NotificationsDep) -> SettingsOut:
        """``email_mode``: ``off``, ``each`` (a mail per notice while away) or ``digest`` (at most one mail per
        ``digest_hours`` listing every game waiting); ``push``/``webhooks`` switch those channels; ``kinds``: the
        notices told; ``muted_games``: games told nothing."""
        try:
            prefs = account.checked(data.email_mode, data.digest_hours, data.push, data.webhooks, data.kinds,
                                    data.muted_games)
        except InvalidSetting as exc:
            raise ApiError(400, "request/invalid", exc.message, field=exc.field) from exc
        return settings_out(await notifications.choose(player.player_id, prefs))

    @get("/notices", summary="The player's notices, newest first", responses=documented(401, s401=SIGNED_OUT))
    async def notices(self, player: PlayerDep, notifications: NotificationsDep, language: LanguageDep) -> NoticesOut:
        listed = await notifications.notices(player.player_id, language)
        return NoticesOut(await notifications.unread(player.player_id), out(listed, tuple[NoticeOut, ...]))

    @post("/notices/read", status_code=200, summary="Mark notices read (none named: all)", responses=documented(
        400, 401, 403, s401=SIGNED_OUT, s403="Missing CSRF token (auth/csrf)"))
    async def read(self, data: JSONBody[ReadIn], player: PlayerDep, notifications: NotificationsDep) -> UnreadOut:
        return UnreadOut(await notifications.mark_read(player.player_id, data.notice_ids))

    @get("/deliveries", summary="What was sent to the player, when, by which channel, and what became of it",
         responses=documented(401, s401=SIGNED_OUT))
    async def deliveries(self, player: PlayerDep, notifications: NotificationsDep, catalogs: CatalogsDep,
                         language: LanguageDep) -> DeliveriesOut:
        """A delivery's ``detail`` is in the request's language where it is the service's own words ("email is
        off"); what a mail or push server answered is shown as it said it."""
        words = catalogs.translations("server", language)
        listed = out(await notifications.deliveries(player.player_id), tuple[DeliveryOut, ...])
        return DeliveriesOut(tuple(msgspec.structs.replace(d, detail=words.gettext(d.detail)) if d.detail else d
                                   for d in listed))
