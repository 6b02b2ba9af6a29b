"""A signed-in player's webhooks and Web Push devices, and the server's VAPID key (docs/PLAYERS.md). A URL the
server must not call is ``400 request/unsafe_url`` (loopback and private addresses are allowed on a sandbox server
or with ``MAGNATE_ALLOW_PRIVATE_WEBHOOKS``); a sixth webhook is ``409 request/too_many_webhooks``."""

from __future__ import annotations

from litestar import Controller, delete, get, post
from litestar.di import Provide
from litestar.params import FromPath, JSONBody

from domain.kernel.phrases import say
from infra.channels.errors import UnsafeAddress
from infra.channels.push import PushSubscription
from services.notifications.hooks import WEBHOOKS_MAX, TooManyWebhooks

from ..deps import NotificationsDep
from ..errors import ApiError, documented
from ..notification_schemas import (
    PushDeleteIn,
    PushIn,
    PushKeyOut,
    PushOut,
    WebhookCreatedOut,
    WebhookIn,
    WebhookOut,
    WebhooksOut,
    out,
)
from ..players import PlayerDep, provide_player

SIGNED_OUT = "Not signed in (auth/signed_out)"
UNSAFE = "An invalid value (request/invalid), or a URL that is not http(s) or names or resolves to a loopback, " \
         "private, link-local or reserved address (request/unsafe_url)"


def unsafe(exc: UnsafeAddress) -> ApiError:
    return ApiError(400, exc.code, say("this address is refused: {reason}", reason=exc.message), field="url")


class NotificationChannelController(Controller):
    path = "/api/me"
    tags = ("notifications",)
    dependencies = {"player": Provide(provide_player)}  # noqa: RUF012 (Litestar's declared class attribute)

    @get("/webhooks", summary="The player's webhooks", responses=documented(401, s401=SIGNED_OUT))
    async def webhooks(self, player: PlayerDep, notifications: NotificationsDep) -> WebhooksOut:
        return WebhooksOut(out(await notifications.webhooks_of(player.player_id), tuple[WebhookOut, ...]))

    @post("/webhooks", summary="Add a webhook (its signing secret is shown once)", responses=documented(
        400, 401, 403, 409, s400=UNSAFE, s401=SIGNED_OUT, s403="Missing CSRF token (auth/csrf)",
        s409="The player has 5 webhooks already (request/too_many_webhooks)"))
    async def add_webhook(self, data: JSONBody[WebhookIn], player: PlayerDep,
                          notifications: NotificationsDep) -> WebhookCreatedOut:
        """Notices are posted to ``url`` in the chosen ``shape`` (generic JSON, Discord or Slack), signed as
        Standard Webhooks with the secret returned here."""
        try:
            made = await notifications.add_webhook(player.player_id, data.url, data.shape)
        except UnsafeAddress as exc:
            raise unsafe(exc) from exc
        except TooManyWebhooks as exc:
            raise ApiError(409, exc.code, say("you have {n} webhooks already: remove one first", n=WEBHOOKS_MAX)
                           ) from exc
        return out(made, WebhookCreatedOut)

    @delete("/webhooks/{webhook_id:str}", status_code=204, summary="Remove a webhook", responses=documented(
        401, 403, 404, s401=SIGNED_OUT, s403="Missing CSRF token (auth/csrf)",
        s404="The player has no such webhook (webhook/not_found)"))
    async def remove_webhook(self, webhook_id: FromPath[str], player: PlayerDep,
                             notifications: NotificationsDep) -> None:
        if len(webhook_id) > 64 or not await notifications.remove_webhook(player.player_id, webhook_id):
            raise ApiError(404, "webhook/not_found", say("you have no webhook with this id"))

    @post("/push", status_code=201, summary="Keep this device's push subscription", responses=documented(
        400, 401, 403, s400=UNSAFE, s401=SIGNED_OUT, s403="Missing CSRF token (auth/csrf)"))
    async def subscribe(self, data: JSONBody[PushIn], player: PlayerDep, notifications: NotificationsDep) -> PushOut:
        """The body is the browser's ``PushSubscription.toJSON()``; one record per device (subscribing again
        replaces it)."""
        sub = PushSubscription(endpoint=data.endpoint, p256dh=data.keys.p256dh, auth=data.keys.auth)
        try:
            device = await notifications.subscribe_device(player.player_id, sub)
        except UnsafeAddress as exc:
            raise unsafe(exc) from exc
        except ValueError as exc:
            raise ApiError(400, "request/invalid", say("the subscription's keys are not valid: {reason}",
                                                       reason=str(exc)), field="keys") from exc
        return PushOut(device)

    @delete("/push", status_code=204, summary="Forget this device's push subscription", responses=documented(
        400, 401, 403, 404, s401=SIGNED_OUT, s403="Missing CSRF token (auth/csrf)",
        s404="No such subscription of the player (push/not_found)"))
    async def unsubscribe(self, data: JSONBody[PushDeleteIn], player: PlayerDep,
                          notifications: NotificationsDep) -> None:
        if not await notifications.forget_device(player.player_id, data.endpoint):
            raise ApiError(404, "push/not_found", say("this device has no push subscription here"))


@get("/api/push/key", summary="The server's VAPID key for pushManager.subscribe", tags=("notifications",),
     responses=documented())
async def push_key(notifications: NotificationsDep) -> PushKeyOut:
    return PushKeyOut((await notifications.vapid_keys()).application_server_key)
