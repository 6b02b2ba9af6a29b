-- One platform, many games (issue #11): a seat is a display name plus a game-specific payload, not a
-- Magnate company. Existing seats keep their company inside the payload ({"company": key}), so games
-- created before this migration load, play on and verify exactly as before (seats are not part of the
-- log: the events and the export do not change). games.rules_version records the data version of the
-- rules a game was created with (Magnate: the dataset of its first event).
ALTER TABLE seats ADD COLUMN IF NOT EXISTS payload jsonb NOT NULL DEFAULT '{}'::jsonb;
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'seats' AND column_name = 'company') THEN
        UPDATE seats SET payload = jsonb_build_object('company', company) WHERE company <> '';
        ALTER TABLE seats DROP COLUMN company;
    END IF;
END $$;
ALTER TABLE games ADD COLUMN IF NOT EXISTS rules_version text NOT NULL DEFAULT 'v1';
