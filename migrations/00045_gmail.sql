-- +goose Up
-- Gmail (issue 15). A draft of a user who connected Gmail is also a Gmail
-- draft: gmail_drafts links the outbox row to it (and to the thread a
-- reply belongs to). Approve sends that Gmail draft; Gmail sends a draft
-- once (a sent draft is gone), so a retried send finds the sent message
-- by its Message-ID instead of sending again.
CREATE TABLE gmail_drafts (
    email_id   bigint      PRIMARY KEY REFERENCES emails (id) ON DELETE CASCADE,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    draft_id   text        NOT NULL CHECK (draft_id <> ''),
    thread_id  text        NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Mail received, as far as Hearth needs it: who wrote, about what, a
-- snippet, and the threading headers a reply carries. The text is
-- untrusted data (ARCHITECTURE invariant 4): it is read and summarised,
-- never obeyed. One row per Gmail message, whatever the polls.
CREATE TABLE inbox_messages (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    external_id text        NOT NULL CHECK (external_id <> ''),
    thread_id   text        NOT NULL DEFAULT '',
    -- RFC 5322 Message-ID and References, without angle brackets changed.
    message_id  text        NOT NULL DEFAULT '',
    refs        text        NOT NULL DEFAULT '',
    from_addr   text        NOT NULL DEFAULT '',
    from_name   text        NOT NULL DEFAULT '',
    subject     text        NOT NULL DEFAULT '',
    snippet     text        NOT NULL DEFAULT '',
    unread      boolean     NOT NULL DEFAULT true,
    important   boolean     NOT NULL DEFAULT false,
    received_at timestamptz NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, external_id)
);
CREATE INDEX inbox_messages_user_received ON inbox_messages (user_id, received_at DESC);

-- Where polling users.history continues from, per user.
CREATE TABLE gmail_sync (
    user_id    bigint      PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    history_id text        NOT NULL DEFAULT '',
    polled_at  timestamptz
);

-- +goose Down
DROP TABLE gmail_sync;
DROP TABLE inbox_messages;
DROP TABLE gmail_drafts;
