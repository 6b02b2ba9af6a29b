"""Notifications (issue #12, docs/PLAYERS.md): what a player is told, derived from the log, and its delivery.

:class:`.service.Notifications` is the application service, built once per process (:func:`.context.build`, called
by the composition root) and given to the API's controllers, the worker's jobs and its loops. What the context
stores is behind the ports of :mod:`infra.notifications` (PostgreSQL, or the in-memory twin): no module here holds
SQL or a connection. The rules, one concept per module:

* :mod:`.derive` — the notices a run of a game's events gives its seats (pure: kernel's ``turn_notices``, one
  ``game_over`` per seat at the end, the game's own ``tell``), with :mod:`.texts` writing them for people;
* :mod:`.preferences` — a player's choices (the defaults when none are stored);
* :mod:`.outbox` — the deliveries a notice needs (email each or a digest per period, webhooks, push);
* :mod:`.projector` — the checkpointed projector: per watched game, lock its cursor, fold the new events,
  write notices and deliveries and move the cursor in one transaction, then enqueue and announce;
* :mod:`infra.notifications.dispatch` — the arq job of a delivery (job id = delivery id) and the player's live
  channel;
* :mod:`.claim` — a delivery row's states (pending → sending by its job → sent, skipped, failed);
* :mod:`.deliver` — delivering one delivery on its channel (:mod:`.render` writes the mail, the webhook and the
  push payload; :mod:`.digest` the digest; :mod:`.webhook_health` disables a failing webhook);
* :mod:`.sweep` — re-enqueues what is due or whose job may be gone (the safety net under a lost Redis or a kill);
* :mod:`.unsubscribe` — one-click unsubscribe tokens (RFC 8058);
* :mod:`.context` — the service built over a runtime's adapters;
* what the API reads and changes for a signed-in player: :mod:`.account` (settings), :mod:`.inbox` (notices),
  :mod:`.hooks` (webhooks), :mod:`.devices` (push subscriptions), :mod:`.log` (the delivery log).
"""
