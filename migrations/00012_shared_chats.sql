-- +goose Up
-- Whether anyone else speaks in a conversation (a group chat) decides
-- where private messages may go: a reminder or briefing falls back to the
-- user's last chat only when it is theirs alone (store.DeliverScheduled).
CREATE INDEX inbound_events_conversation_user ON inbound_events (conversation_id, user_id);

-- +goose Down
DROP INDEX inbound_events_conversation_user;
