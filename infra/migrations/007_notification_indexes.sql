-- Notifications (issue #12): the lookups the delivery side makes.
-- An unsubscribe link is found by the hash of its token (services/notifications/unsubscribe.py).
CREATE UNIQUE INDEX IF NOT EXISTS notification_settings_unsubscribe
    ON notification_settings (unsubscribe_hash) WHERE unsubscribe_hash IS NOT NULL;
-- The unread badge counts a player's unread notices.
CREATE INDEX IF NOT EXISTS notices_unread ON notices (player_id) WHERE read_at IS NULL;
-- Deliveries of a notice (the delivery log joins them).
CREATE INDEX IF NOT EXISTS deliveries_notice ON deliveries (notice_id) WHERE notice_id IS NOT NULL;
