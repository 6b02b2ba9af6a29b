-- Idempotent game creation (issue #10): a client that retries POST /api/games with the same
-- Idempotency-Key gets the game its first request made, not one orphan game per retry.
-- key_hash is the SHA-256 of the client's key (the key itself is never stored: the seat tokens of the
-- game derive from it); request_hash refuses the same key with another request. Written in the
-- transaction that creates the game, never updated or deleted.
CREATE TABLE IF NOT EXISTS game_creations (
    key_hash     text PRIMARY KEY,
    request_hash text NOT NULL,
    game_id      text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
