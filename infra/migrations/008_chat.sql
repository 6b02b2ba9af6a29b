-- In-game chat (issue #13): kept append-only beside the game's log, never in it, so a chat line neither moves the
-- game's version nor makes a pending move conflict. Lines are numbered 1..n per game by chat_heads, whose row is
-- locked by the same transaction that inserts the line (no gaps, no duplicates). The host's muting hides a seat's
-- lines (hidden) and refuses its new ones (chat_mutes); nothing is ever deleted.
CREATE TABLE IF NOT EXISTS chat_heads (
    game_id  text PRIMARY KEY REFERENCES games (game_id) ON DELETE CASCADE,
    last_seq integer NOT NULL
);

CREATE TABLE IF NOT EXISTS chat_lines (
    game_id   text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seq       integer NOT NULL,
    seat      integer NOT NULL,
    player_id text,                          -- NULL: a guest's seat (an invite link nobody claimed)
    name      text NOT NULL,                 -- the seat's name when the line was posted
    text      text NOT NULL,
    posted_at timestamptz NOT NULL DEFAULT now(),
    hidden    boolean NOT NULL DEFAULT false, -- the host muted the seat
    PRIMARY KEY (game_id, seq)
);
-- The per-seat rate counts a seat's recent lines.
CREATE INDEX IF NOT EXISTS chat_lines_seat ON chat_lines (game_id, seat, posted_at);

CREATE TABLE IF NOT EXISTS chat_mutes (
    game_id  text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seat     integer NOT NULL,
    muted_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat)
);
