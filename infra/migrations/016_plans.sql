-- Planned moves (issue #29): a seat's standing instructions ("pass on the auction this round"), at most one of each
-- kind per seat, played for the seat by a worker at its turn. Kept beside the log, never in it: a plan moves no
-- version and no route but the seat's own reads it. It goes when it is played out, expires, the seat moves itself,
-- the seat changes hands (``holder``: who held the seat when the plan was set), or the game goes.
CREATE TABLE IF NOT EXISTS plans (
    game_id text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seat    integer NOT NULL,
    kind    text NOT NULL,
    body    bytea NOT NULL,
    holder  text NOT NULL DEFAULT '',
    set_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat, kind)
);
