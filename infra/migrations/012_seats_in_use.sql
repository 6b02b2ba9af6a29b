-- A seat a guest plays by its invite link is not free (issue #24): link_used is set, in the same statement that
-- finds the seat, the first time its token opens it, and only a seat with an unused link (or none) can be joined by a
-- stranger. The guest releasing the seat, or the host issuing or revoking its invite, clears it.
ALTER TABLE seats ADD COLUMN IF NOT EXISTS link_used boolean NOT NULL DEFAULT false;

-- Seats whose links were used before this column existed: the ones that have moved.
UPDATE seats s SET link_used = true
WHERE s.token_hash IS NOT NULL AND s.player_id IS NULL
  AND EXISTS (SELECT 1 FROM commands c WHERE c.game_id = s.game_id AND c.actor = 'seat:' || s.seat);
