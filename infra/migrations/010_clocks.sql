-- Clocks (issue #13): the earliest running deadline of a game (ms since the epoch), kept with the read model by
-- every append, so the reconciler finds the games whose deadline jobs it must schedule again after a lost queue.
ALTER TABLE games ADD COLUMN IF NOT EXISTS next_deadline bigint;
CREATE INDEX IF NOT EXISTS games_timed ON games (game_id) WHERE status = 'running' AND next_deadline IS NOT NULL;

-- Vacations: a player's pauses of their clocks, within a yearly allowance (the games' logs record each one too).
CREATE TABLE IF NOT EXISTS vacations (
    vacation_id text PRIMARY KEY,
    player_id   text NOT NULL REFERENCES players (player_id),
    starts_at   timestamptz NOT NULL,
    ends_at     timestamptz NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CHECK (ends_at > starts_at)
);
CREATE INDEX IF NOT EXISTS vacations_player ON vacations (player_id, starts_at);
