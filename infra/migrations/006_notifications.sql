-- What a player is told (issue #12). A checkpointed projector reads the log of every game a player has claimed a
-- seat in (notice_cursors), writes the notices it derives and the deliveries they need, and moves the cursor, in
-- one transaction; arq jobs (job id = delivery_id) then deliver each delivery once.
CREATE TABLE IF NOT EXISTS notice_cursors (
    game_id text PRIMARY KEY,
    version integer NOT NULL               -- every event up to here has been projected
);

CREATE TABLE IF NOT EXISTS notices (
    notice_id  text PRIMARY KEY,           -- '<game_id>.<version>.<seat>.<kind>': the projector's own id
    player_id  text NOT NULL REFERENCES players (player_id),
    game_id    text NOT NULL,
    seat       integer NOT NULL,
    version    integer NOT NULL,
    kind       text NOT NULL,              -- your_turn, outbid, market, game_over, deadline, channel_disabled
    text       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    read_at    timestamptz
);
CREATE INDEX IF NOT EXISTS notices_player ON notices (player_id, created_at DESC);

-- One row per message to one channel: its id is the idempotency key sent with it (Message-ID, webhook-id).
CREATE TABLE IF NOT EXISTS deliveries (
    delivery_id text PRIMARY KEY,
    player_id   text NOT NULL REFERENCES players (player_id),
    channel     text NOT NULL,             -- email, digest, webhook, push
    target      text NOT NULL,             -- the address, webhook id or push endpoint id
    notice_id   text,                      -- NULL for a digest (it lists games, not one notice)
    status      text NOT NULL,             -- pending, sending, sent, skipped, failed
    attempts    integer NOT NULL DEFAULT 0,
    due_at      timestamptz NOT NULL DEFAULT now(),
    lease_until timestamptz,
    sent_at     timestamptz,
    detail      text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS deliveries_player ON deliveries (player_id, created_at DESC);
CREATE INDEX IF NOT EXISTS deliveries_open ON deliveries (due_at) WHERE status IN ('pending', 'sending');

CREATE TABLE IF NOT EXISTS notification_settings (
    player_id        text PRIMARY KEY REFERENCES players (player_id),
    email_mode       text NOT NULL DEFAULT 'each',   -- off, each, digest
    digest_hours     integer NOT NULL DEFAULT 12,
    push             boolean NOT NULL DEFAULT true,
    webhooks         boolean NOT NULL DEFAULT true,
    kinds            text[] NOT NULL DEFAULT '{your_turn,outbid,market,game_over,deadline}',
    muted_games      text[] NOT NULL DEFAULT '{}',
    unsubscribe_hash text,
    last_digest_at   timestamptz
);

CREATE TABLE IF NOT EXISTS webhooks (
    webhook_id  text PRIMARY KEY,
    player_id   text NOT NULL REFERENCES players (player_id),
    url         text NOT NULL,
    shape       text NOT NULL,                        -- json, discord, slack
    secret      text NOT NULL,                        -- whsec_... (Standard Webhooks)
    failures    integer NOT NULL DEFAULT 0,
    disabled_at timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS webhooks_player ON webhooks (player_id);

CREATE TABLE IF NOT EXISTS push_subscriptions (
    endpoint_id text PRIMARY KEY,                     -- SHA-256 of the endpoint: one record per device
    player_id   text NOT NULL REFERENCES players (player_id),
    endpoint    text NOT NULL,
    p256dh      text NOT NULL,
    auth        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS push_player ON push_subscriptions (player_id);

-- Mail sent with no SMTP_URL (the embedded default of `magnate run`): shown at /dev/mail.
CREATE TABLE IF NOT EXISTS dev_mail (
    mail_id    bigserial PRIMARY KEY,
    message_id text NOT NULL UNIQUE,
    recipient  text NOT NULL,
    subject    text NOT NULL,
    text_body  text NOT NULL,
    html_body  text NOT NULL,
    headers    jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Keys the server makes for itself on first start (the VAPID key pair of Web Push).
CREATE TABLE IF NOT EXISTS server_keys (
    name  text PRIMARY KEY,
    value text NOT NULL
);
