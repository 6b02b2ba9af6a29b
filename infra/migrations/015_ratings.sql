-- Ratings per game type (issue #29): openskill's Plackett-Luce estimate of each player's skill (mu, sigma), the
-- rated games played and the rating shown (services/ratings/skill.py), kept with the account (it goes with it).
CREATE TABLE IF NOT EXISTS ratings (
    player_id  text NOT NULL REFERENCES players (player_id) ON DELETE CASCADE,
    game_type  text NOT NULL,
    mu         double precision NOT NULL,
    sigma      double precision NOT NULL,
    games      integer NOT NULL,
    shown      integer NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, game_type)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (game_type, shown DESC, games DESC, player_id);
-- The rated games: recorded 'open' when created with the table option `rated`, settled once at their end (the
-- settling transaction sets settled_at and changes the ratings: a second settling finds it set and does nothing).
-- No player is named here: an erased account leaves nothing behind.
CREATE TABLE IF NOT EXISTS rated_games (
    game_id    text PRIMARY KEY REFERENCES games (game_id) ON DELETE CASCADE,
    game_type  text NOT NULL,
    result     text NOT NULL,            -- open, rated, guest_seat, too_few_players
    players    integer NOT NULL DEFAULT 0,
    settled_at timestamptz
);
