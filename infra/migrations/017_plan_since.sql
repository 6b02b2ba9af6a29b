-- A plan remembers the game's version when it was set (issue #29): a move the seat made itself after it cancels it.
-- The command route drops the seat's plans after its move is appended; should the process stop between the two, the
-- worker still finds the seat's own move after the plan's version in the log and drops the plan instead of playing it.
ALTER TABLE plans ADD COLUMN IF NOT EXISTS since integer NOT NULL DEFAULT 0;
