-- +goose Up
-- The built-in providers: Hearth's own tasks, calendar, notes, outbox and
-- memories, kept in this database so the bot works with no Google account
-- and no network (ARCHITECTURE invariant 8).
--
-- Every table has the same spine:
--   source_key  the idempotency key of the action that created the row
--               ("turn:index"). A retried action job inserts ON CONFLICT DO
--               NOTHING and finds the first row by this key, so nothing is
--               created twice (invariant 2). NULL for rows that no action
--               created (imports, tests); UNIQUE ignores NULLs.
--   deleted_at  soft delete: every delete can be undone by Restore. All the
--               providers' queries skip deleted rows, so the per-user indexes
--               are partial on deleted_at IS NULL and stay small.
-- Text columns are NOT NULL DEFAULT '' because the Go types have no "unset"
-- text; NULL is kept for the timestamps whose absence means something
-- (no due time, not completed, not sent, not deleted).

CREATE TABLE tasks (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    source_key   text        UNIQUE,
    title        text        NOT NULL CHECK (title <> ''),
    notes        text        NOT NULL DEFAULT '',
    -- 0 none, 1 low, 2 normal, 3 high.
    priority     smallint    NOT NULL DEFAULT 0 CHECK (priority BETWEEN 0 AND 3),
    -- With all_day, midnight of the due date in the user's zone.
    due          timestamptz,
    all_day      boolean     NOT NULL DEFAULT false,
    status       text        NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done')),
    completed_at timestamptz,
    deleted_at   timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    -- A done task knows when it was done, an open one does not: the store
    -- keeps the two in step and this makes sure nothing else breaks that.
    CHECK ((status = 'done') = (completed_at IS NOT NULL))
);
-- FindTasks: one user's live tasks in list order (due first, nulls last,
-- then priority).
CREATE INDEX tasks_user_due ON tasks (user_id, due NULLS LAST, priority DESC, id) WHERE deleted_at IS NULL;
-- "mom" finds "Call mom": ILIKE '%word%' and word similarity on the title.
CREATE INDEX tasks_title_trgm ON tasks USING gin (title gin_trgm_ops) WHERE deleted_at IS NULL;

CREATE TABLE events (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    source_key  text        UNIQUE,
    title       text        NOT NULL CHECK (title <> ''),
    -- [starts_at, ends_at); for all-day events midnights in the user's zone.
    starts_at   timestamptz NOT NULL,
    ends_at     timestamptz NOT NULL,
    all_day     boolean     NOT NULL DEFAULT false,
    location    text        NOT NULL DEFAULT '',
    attendees   text[]      NOT NULL DEFAULT '{}',
    description text        NOT NULL DEFAULT '',
    deleted_at  timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CHECK (ends_at >= starts_at)
);
-- FindEvents: a user's events overlapping a window, by start. The btree
-- bounds starts_at < window end; a personal calendar is small enough that
-- filtering ends_at on the remaining rows beats a range (GiST) index, which
-- would also need btree_gist for user_id.
CREATE INDEX events_user_start ON events (user_id, starts_at, id) WHERE deleted_at IS NULL;

CREATE TABLE notes (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    source_key text        UNIQUE,
    title      text        NOT NULL CHECK (title <> ''),
    body       text        NOT NULL DEFAULT '',
    labels     text[]      NOT NULL DEFAULT '{}',
    -- The checklist, [{"text": "milk", "done": false}, …]: always read and
    -- written whole with the note, never queried item by item.
    items      jsonb       NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(items) = 'array'),
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
-- FindNotes: a user's live notes, most recently changed first.
CREATE INDEX notes_user_updated ON notes (user_id, updated_at DESC, id DESC) WHERE deleted_at IS NULL;
-- "shopping" finds "Shopping list".
CREATE INDEX notes_title_trgm ON notes USING gin (title gin_trgm_ops) WHERE deleted_at IS NULL;

-- The appends applied to a note, by action key, so a retried append adds
-- nothing. The note as it was before and after the first application is
-- kept, so the retry returns the same before/after for the audit trail and
-- undo (a retry that answered "before = after" would make the append
-- impossible to undo).
CREATE TABLE note_appends (
    note_id    bigint      NOT NULL REFERENCES notes (id) ON DELETE CASCADE,
    key        text        NOT NULL,
    before     jsonb       NOT NULL,
    after      jsonb       NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (note_id, key)
);

-- The outbox. The built-in provider never transmits mail: "sent" means the
-- user approved it and it is recorded here.
CREATE TABLE emails (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    source_key  text        UNIQUE,
    to_addrs    text[]      NOT NULL CHECK (cardinality(to_addrs) > 0),
    subject     text        NOT NULL DEFAULT '',
    body        text        NOT NULL DEFAULT '',
    -- The message this one answers. No foreign key: what is answered may
    -- have come from another provider's inbox.
    in_reply_to bigint,
    status      text        NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'sent')),
    sent_at     timestamptz,
    deleted_at  timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CHECK ((status = 'sent') = (sent_at IS NOT NULL))
);
-- FindEmails: a user's drafts or sent mail, newest first.
CREATE INDEX emails_user_status ON emails (user_id, status, id DESC) WHERE deleted_at IS NULL;

CREATE TABLE memories (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    source_key text        UNIQUE,
    content    text        NOT NULL CHECK (content <> ''),
    -- Who or what the memory is about ("John"), matched loosely by name.
    about      text        NOT NULL DEFAULT '',
    category   text        NOT NULL DEFAULT 'personal' CHECK (category IN ('personal', 'work', 'knowledge')),
    -- Full-text search over both. 'simple', not 'english': names ("Sienna",
    -- "Kowalski") and other languages must be matched as written, not
    -- stemmed or dropped as stop words. A hit in about weighs more (A) than
    -- one in content (B), so memories about John rank first for "John".
    search     tsvector    GENERATED ALWAYS AS (
                   setweight(to_tsvector('simple', about), 'A') ||
                   setweight(to_tsvector('simple', content), 'B')
               ) STORED,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
-- FindMemories without a query: a user's live memories, newest first.
CREATE INDEX memories_user_created ON memories (user_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
-- FindMemories with Query: full-text search.
CREATE INDEX memories_search ON memories USING gin (search) WHERE deleted_at IS NULL;
-- FindMemories by About, and Query's fallback: names matched loosely
-- ("john" finds "John", "Jon" finds "John").
CREATE INDEX memories_about_trgm ON memories USING gin (about gin_trgm_ops) WHERE deleted_at IS NULL;

-- +goose Down
DROP TABLE memories;
DROP TABLE emails;
DROP TABLE note_appends;
DROP TABLE notes;
DROP TABLE events;
DROP TABLE tasks;
