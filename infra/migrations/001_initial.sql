-- Magnate Server: the event store, the games read model, seats and secret seeds.
-- Event payloads are stored as the exact canonical JSON bytes that were hashed into the chain
-- (query them with convert_from(payload, 'UTF8')::jsonb).

CREATE TABLE IF NOT EXISTS games (
    game_id     text PRIMARY KEY,
    game_type   text NOT NULL,
    status      text NOT NULL,
    version     integer NOT NULL,
    last_hash   text NOT NULL,
    on_turn     integer[] NOT NULL DEFAULT '{}',
    system_job  text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS games_due ON games (updated_at) WHERE status = 'running' AND system_job IS NOT NULL;

-- Kept apart from the event stream: revealed only by the final event of a game.
CREATE TABLE IF NOT EXISTS game_secrets (
    game_id text PRIMARY KEY REFERENCES games (game_id) ON DELETE CASCADE,
    seed    bytea NOT NULL
);

CREATE TABLE IF NOT EXISTS seats (
    game_id    text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seat       integer NOT NULL,
    kind       text NOT NULL,
    name       text NOT NULL,
    company    text NOT NULL,
    token_hash text,
    PRIMARY KEY (game_id, seat)
);
CREATE UNIQUE INDEX IF NOT EXISTS seats_token ON seats (token_hash) WHERE token_hash IS NOT NULL;

CREATE TABLE IF NOT EXISTS commands (
    game_id       text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    command_id    text NOT NULL,
    actor         text NOT NULL,
    type          text NOT NULL,
    payload       bytea NOT NULL,
    first_version integer NOT NULL,
    last_version  integer NOT NULL,
    recorded_at   timestamptz NOT NULL,
    PRIMARY KEY (game_id, command_id)
);

CREATE TABLE IF NOT EXISTS events (
    game_id     text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    version     integer NOT NULL,
    type        text NOT NULL,
    actor       text NOT NULL,
    command_id  text NOT NULL,
    payload     bytea NOT NULL,
    recorded_at timestamptz NOT NULL,
    prev_hash   text NOT NULL,
    hash        text NOT NULL,
    PRIMARY KEY (game_id, version)
);

CREATE TABLE IF NOT EXISTS snapshots (
    game_id      text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    version      integer NOT NULL,
    state_schema text NOT NULL,
    state        bytea NOT NULL,
    PRIMARY KEY (game_id, version)
);
