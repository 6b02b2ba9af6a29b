-- The table around the games (issue #13): a game its creator listed publicly (others may join its free seats, and
-- anyone may watch it), the options it was created with (so a rematch sets up the same game), and its rematch.
ALTER TABLE games ADD COLUMN IF NOT EXISTS listed boolean NOT NULL DEFAULT false;
ALTER TABLE games ADD COLUMN IF NOT EXISTS options jsonb;
ALTER TABLE games ADD COLUMN IF NOT EXISTS rematch_id text;
CREATE INDEX IF NOT EXISTS games_listed_created ON games (created_at DESC) WHERE listed AND status = 'running';
CREATE INDEX IF NOT EXISTS games_listed_updated ON games (updated_at DESC) WHERE listed AND status = 'running';
-- The idempotency key of a finished game's rematch: every request for the rematch creates the game with it, so
-- racing requests make one game (and re-derive its seats' tokens). Secret, like the seed: kept apart.
ALTER TABLE game_secrets ADD COLUMN IF NOT EXISTS rematch_key text;
