-- +goose Up
-- Google Keep (issue 15). A note of a user whose account has the Keep API
-- (Google Workspace) is kept in Keep too: keep_notes links Hearth's note
-- (the local copy every reader uses) to its Keep note. Keep's API has no
-- update: an edit makes a new Keep note and deletes the old, and the link
-- follows. Family lists are never linked: Keep cannot share with
-- consumer accounts.
CREATE TABLE keep_notes (
    note_id   bigint PRIMARY KEY REFERENCES notes (id) ON DELETE CASCADE,
    user_id   bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    keep_name text   NOT NULL CHECK (keep_name LIKE 'notes/%'),
    UNIQUE (user_id, keep_name)
);

-- Whether the user's account offers the Keep API: refused (403/404) for
-- consumer accounts, remembered so each note does not ask again, and
-- checked again after a while (an administrator may enable it).
CREATE TABLE keep_accounts (
    user_id    bigint      PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    available  boolean     NOT NULL,
    checked_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE keep_accounts;
DROP TABLE keep_notes;
