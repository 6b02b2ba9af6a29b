-- Leaner appends (issue #6: the store's append against a raw INSERT).
--
-- 1. The rows of a game's log no longer check a foreign key to games: every append writes them in the same
--    statement (or transaction) that has just updated, and so locked, the game's row, and games are never
--    deleted, so the check found the row every time and cost an index probe and a row-share lock per
--    statement. (seats and game_secrets keep theirs: they are written once, at creation.)
ALTER TABLE commands DROP CONSTRAINT IF EXISTS commands_game_id_fkey;
ALTER TABLE events DROP CONSTRAINT IF EXISTS events_game_id_fkey;
ALTER TABLE snapshots DROP CONSTRAINT IF EXISTS snapshots_game_id_fkey;

-- 2. Every append updates the game's row. The old index of due games had updated_at as its key and
--    system_job in its condition, columns that change on nearly every append, so no update could be a
--    heap-only (HOT) one: each wrote a new entry in both indexes of games. Only status (which changes once,
--    when the game ends) now appears in an index besides the key, and the table leaves room on each page
--    for the new row version, so an append's update usually touches no index at all. The reconciler's
--    query (running games with a due job) reads the running games through the new index.
DROP INDEX IF EXISTS games_due;
CREATE INDEX IF NOT EXISTS games_running ON games (game_id) WHERE status = 'running';
ALTER TABLE games SET (fillfactor = 70);
