-- The takeback notices are kinds a player chooses (undo_asked: a seat asks you to let it take back its move;
-- undo_answered: your request was accepted or refused). They were always sent before; a player who has settings
-- keeps being told them until they untick them, and a player without settings is told them by default.
ALTER TABLE notification_settings
    ALTER COLUMN kinds SET DEFAULT '{your_turn,outbid,market,game_over,deadline,undo_asked,undo_answered}';
UPDATE notification_settings SET kinds = kinds || ARRAY['undo_asked'] WHERE NOT 'undo_asked' = ANY (kinds);
UPDATE notification_settings SET kinds = kinds || ARRAY['undo_answered'] WHERE NOT 'undo_answered' = ANY (kinds);
