-- +goose Up
-- A turn's trace belongs to its event, and goes with it (event_id's
-- cascade): the event's conversation and user are the trace's, and the
-- event is deleted with either. Checking them again on every turn's
-- insert cost two more row locks (and their WAL) on the conversation and
-- the user, which the turns of one chat keep taking at once.
ALTER TABLE turn_traces DROP CONSTRAINT turn_traces_conversation_id_fkey,
                        DROP CONSTRAINT turn_traces_user_id_fkey;

-- +goose Down
ALTER TABLE turn_traces ADD CONSTRAINT turn_traces_conversation_id_fkey FOREIGN KEY (conversation_id) REFERENCES conversations(id) ON DELETE CASCADE,
                        ADD CONSTRAINT turn_traces_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;
