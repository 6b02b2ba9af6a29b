-- Players who are people (issue #12): an account is an email address, signed in by an emailed one-time link.
-- Sessions live here too (Litestar's server-side sessions on infra/accounts/sessions.py), so a restart or a lost
-- Redis signs nobody out.
CREATE TABLE IF NOT EXISTS players (
    player_id  text PRIMARY KEY,            -- server-made (never a client's choice)
    email      text NOT NULL UNIQUE,        -- lower-cased
    name       text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per emailed sign-in link: only the SHA-256 of its token is kept; used once, then used_at is set.
CREATE TABLE IF NOT EXISTS sign_in_links (
    token_hash text PRIMARY KEY,
    email      text NOT NULL,
    next_path  text NOT NULL DEFAULT '/',
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX IF NOT EXISTS sign_in_links_email ON sign_in_links (email, created_at);

CREATE TABLE IF NOT EXISTS web_sessions (
    key        text PRIMARY KEY,
    value      bytea NOT NULL,
    expires_at timestamptz
);
CREATE INDEX IF NOT EXISTS web_sessions_expiry ON web_sessions (expires_at) WHERE expires_at IS NOT NULL;

-- A seat claimed by a player (a table.seat_claimed event in the game's log says when). A claimed seat's invite
-- token stops working: claimed_token_hash keeps the hash of the link that was claimed, so a stranger opening
-- it is told the seat is taken rather than that the link is unknown.
ALTER TABLE seats ADD COLUMN IF NOT EXISTS player_id text REFERENCES players (player_id);
ALTER TABLE seats ADD COLUMN IF NOT EXISTS claimed_token_hash text;
CREATE INDEX IF NOT EXISTS seats_player ON seats (player_id) WHERE player_id IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS seats_one_per_player ON seats (game_id, player_id) WHERE player_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS seats_claimed_token ON seats (claimed_token_hash) WHERE claimed_token_hash IS NOT NULL;

-- Who set a game up: the seat whose token (or whose player) may revoke and reissue the other seats' invites.
ALTER TABLE games ADD COLUMN IF NOT EXISTS host_seat integer;
