-- Commitments (issue #24): a game's chain hashes each event's commitment instead of its payload, so a hidden
-- event's hash tells nothing about it (infra/chain.py). Games stored before keep chain 1 (the payload hashed) and
-- still verify; every game created from now on is chain 2 and each of its events keeps its commitment.
ALTER TABLE games ADD COLUMN IF NOT EXISTS chain smallint NOT NULL DEFAULT 1;
ALTER TABLE events ADD COLUMN IF NOT EXISTS commitment text;
