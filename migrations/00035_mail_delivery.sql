-- +goose Up
-- Where an email went (issue 15): the built-in outbox keeps mail on this
-- machine, SMTP and Gmail send it. A sent email records the provider that
-- sent it (via) and, when it left the machine, its Message-ID.
--
-- Sending over SMTP is claimed first: send_started_at is set in its own
-- committed transaction before the SMTP conversation starts, and cleared
-- when the server refuses the message. A send found claimed but not
-- finished (the process died mid-conversation) is never tried again
-- blindly: the message may have gone, and a second copy is worse than an
-- honest "I can't tell", so an email is sent at most once.
ALTER TABLE emails
    ADD COLUMN via             text NOT NULL DEFAULT '',
    ADD COLUMN message_id      text NOT NULL DEFAULT '',
    ADD COLUMN send_started_at timestamptz;
UPDATE emails SET via = 'outbox' WHERE status = 'sent';

-- +goose Down
ALTER TABLE emails
    DROP COLUMN via,
    DROP COLUMN message_id,
    DROP COLUMN send_started_at;
