"""The twin's settings, channels and keys (the :class:`~.base.Channels` port) and its checkpoints and game facts
(the :class:`~.base.Watch` port)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from msgspec.structs import replace

from infra.channels.push import PushSubscription

from .memory_tables import DeviceRow, OnTables, SettingsRow, WebhookRow
from .records import Reach, Settings, WaitingSeat, Watched, Webhook, WebhookFailures, WebhookTarget


class MemoryChannels(OnTables):
    async def settings(self, player_ids: Iterable[str]) -> dict[str, Settings]:
        rows = self._t.settings
        return {p: rows[p].settings for p in sorted(set(player_ids)) if p in rows}

    def _row(self, player_id: str) -> SettingsRow:
        return self._t.settings.get(player_id) or SettingsRow(Settings())

    async def save_settings(self, player_id: str, settings: Settings) -> None:
        self._put(self._t.settings, player_id, replace(self._row(player_id), settings=settings))

    async def digest_sent(self, player_id: str) -> None:
        if player_id in self._t.settings:
            self._put(self._t.settings, player_id, replace(self._row(player_id), last_digest_at=self._now()))

    async def keep_unsubscribe_hash(self, player_id: str, token_hash: str) -> None:
        row = self._row(player_id)
        if player_id not in self._t.settings or row.unsubscribe_hash != token_hash:
            self._put(self._t.settings, player_id, replace(row, unsubscribe_hash=token_hash))

    async def player_of_unsubscribe(self, token_hash: str) -> str | None:
        return next((p for p, row in self._t.settings.items() if row.unsubscribe_hash == token_hash), None)

    async def unsubscribe(self, token_hash: str) -> str | None:
        player_id = await self.player_of_unsubscribe(token_hash)
        if player_id is not None:
            row = self._t.settings[player_id]
            self._put(self._t.settings, player_id, replace(row, settings=replace(row.settings, email_mode="off")))
        return player_id

    async def reach(self, player_ids: Sequence[str]) -> dict[str, Reach]:
        found: dict[str, Reach] = {}
        for player_id in player_ids:
            if player_id not in self._t.players:
                continue
            hooks = sorted(i for i, w in self._t.webhooks.items() if w.player_id == player_id and w.disabled_at is None)
            devices = sorted(i for i, d in self._t.devices.items() if d.player_id == player_id)
            found[player_id] = Reach(self._t.players[player_id], tuple(hooks), tuple(devices))
        return found

    async def email_of(self, player_id: str) -> str | None:
        return self._t.players.get(player_id)

    async def language_of(self, player_id: str) -> str | None:
        return self._t.languages.get(player_id)

    async def webhooks(self, player_id: str) -> list[Webhook]:
        mine = sorted(((w.created_at, i, w) for i, w in self._t.webhooks.items() if w.player_id == player_id),
                      key=lambda x: (x[0], x[1]))
        return [Webhook(i, w.url, w.shape, w.failures, w.disabled_at is not None, w.created_at) for _, i, w in mine]

    async def add_webhook(self, webhook_id: str, player_id: str, url: str, shape: str, secret: str,
                          limit: int) -> Webhook | None:
        if sum(1 for w in self._t.webhooks.values() if w.player_id == player_id) >= limit:
            return None
        row = WebhookRow(player_id, url, shape, secret, self._now())
        self._put(self._t.webhooks, webhook_id, row)
        return Webhook(webhook_id, url, shape, 0, False, row.created_at)

    async def remove_webhook(self, player_id: str, webhook_id: str) -> bool:
        row = self._t.webhooks.get(webhook_id)
        if row is None or row.player_id != player_id:
            return False
        self._drop(self._t.webhooks, webhook_id)
        return True

    async def webhook(self, player_id: str, webhook_id: str) -> WebhookTarget | None:
        row = self._t.webhooks.get(webhook_id)
        if row is None or row.player_id != player_id:
            return None
        return WebhookTarget(row.url, row.shape, row.secret, row.disabled_at is not None)

    async def webhook_succeeded(self, webhook_id: str) -> None:
        row = self._t.webhooks.get(webhook_id)
        if row is not None and row.failures != 0:
            self._put(self._t.webhooks, webhook_id, replace(row, failures=0))

    async def webhook_failed(self, webhook_id: str, failures_max: int) -> WebhookFailures | None:
        row = self._t.webhooks.get(webhook_id)
        if row is None or row.disabled_at is not None:
            return None
        failures = row.failures + 1
        row = replace(row, failures=failures, disabled_at=self._now() if failures >= failures_max else None)
        self._put(self._t.webhooks, webhook_id, row)
        return WebhookFailures(row.url, failures, row.disabled_at is not None)

    async def keep_device(self, player_id: str, endpoint_id: str, sub: PushSubscription, keep_at_most: int) -> None:
        old = self._t.devices.get(endpoint_id)
        if old is None:
            self._t.inserted += 1
            row = DeviceRow(player_id, sub.endpoint, sub.p256dh, sub.auth, self._now(), self._t.inserted)
        else:
            row = replace(old, player_id=player_id, p256dh=sub.p256dh, auth=sub.auth)
        self._put(self._t.devices, endpoint_id, row)
        mine = sorted(((d.created_at, d.order, i) for i, d in self._t.devices.items() if d.player_id == player_id),
                      reverse=True)
        for _, _, stale in mine[keep_at_most:]:
            self._drop(self._t.devices, stale)

    async def forget_device(self, player_id: str, endpoint_id: str) -> bool:
        row = self._t.devices.get(endpoint_id)
        if row is None or row.player_id != player_id:
            return False
        self._drop(self._t.devices, endpoint_id)
        return True

    async def device(self, player_id: str, endpoint_id: str) -> PushSubscription | None:
        row = self._t.devices.get(endpoint_id)
        if row is None or row.player_id != player_id:
            return None
        return PushSubscription(endpoint=row.endpoint, p256dh=row.p256dh, auth=row.auth)

    async def drop_device(self, endpoint_id: str) -> None:
        self._drop(self._t.devices, endpoint_id)

    async def server_key(self, name: str, make: Callable[[], str]) -> str:
        if name not in self._t.keys:
            self._put(self._t.keys, name, make())
        return self._t.keys[name]


class MemoryWatch(OnTables):
    def _moved(self, game_id: str) -> bool:
        game = self._t.games.get(game_id)
        return game is not None and (game.version > self._t.cursors[game_id] or game.status != "running")

    async def moved(self, limit: int, among: Sequence[str] | None = None) -> list[str]:
        games = self._t.cursors if among is None else [g for g in dict.fromkeys(among) if g in self._t.cursors]
        return [game_id for game_id in games if self._moved(game_id)][:limit]

    async def hold(self, game_id: str) -> Watched | None:
        game = self._t.games.get(game_id)
        if game is None or game_id not in self._t.cursors:
            return None
        if game_id in self._t.held and game_id not in self._mine:
            return None  # another transaction holds it (SKIP LOCKED)
        if self._journal is not None:  # outside a transaction the lock ends with the statement
            self._t.held.add(game_id)
            self._mine.add(game_id)
        claimed = {seat: row.player_id for (g, seat), row in sorted(self._t.seats.items())
                   if g == game_id and row.player_id is not None}
        return Watched(game_id, self._t.cursors[game_id], game.version, game.game_type, game.status != "running",
                       claimed)

    async def advance(self, game_id: str, version: int) -> None:
        if game_id in self._t.cursors:
            self._put(self._t.cursors, game_id, version)

    async def forget(self, game_id: str) -> None:
        self._drop(self._t.cursors, game_id)

    async def player_at(self, game_id: str, seat: int) -> str | None:
        row = self._t.seats.get((game_id, seat))
        return None if row is None else row.player_id

    async def waiting(self, player_id: str) -> list[WaitingSeat]:
        found = []
        for (game_id, seat), row in self._t.seats.items():
            game = self._t.games.get(game_id)
            if row.player_id == player_id and game is not None and game.status == "running" and seat in game.on_turn:
                found.append((game.updated_at, game_id, WaitingSeat(game_id, game.game_type, row.name)))
        return [w for _, _, w in sorted(found, key=lambda x: (x[0], x[1]))]
