-- Languages (issue #27): the language a player chose for the service (mails, pushes, webhooks, notices and the
-- page once signed in); NULL: never chosen (the browser's language, else the service's default).
ALTER TABLE players ADD COLUMN IF NOT EXISTS language text;

-- A notice is kept in no language: its phrase (domain/kernel/phrases.py, as JSON), rendered in the reader's
-- language when shown and when delivered. Rows from before keep only their English text (phrase NULL).
ALTER TABLE notices ADD COLUMN IF NOT EXISTS phrase jsonb;
