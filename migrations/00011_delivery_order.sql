-- +goose Up
-- The deliver worker keeps a conversation's replies in order by asking
-- whether an earlier one is still on its way (store.EarlierUndelivered).
-- Only messages not yet delivered are indexed: the web chat's and every
-- delivered message leave the index at once.
CREATE INDEX messages_undelivered ON messages (conversation_id, id)
    WHERE delivered_at IS NULL AND sender = 'bot';

-- +goose Down
DROP INDEX messages_undelivered;
