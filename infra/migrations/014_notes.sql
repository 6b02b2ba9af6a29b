-- Private notes (issue #29): one note per player per game, written at the seat the player holds there, seen by its
-- author alone. Kept with the account (it goes when the account goes), never in the game's log or its export.
CREATE TABLE IF NOT EXISTS notes (
    player_id  text NOT NULL REFERENCES players (player_id) ON DELETE CASCADE,
    game_id    text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seat       integer NOT NULL,
    text       text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, game_id)
);
