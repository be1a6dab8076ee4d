-- +goose Up
-- Bringing files in (issue 20). A file sent in any channel is an event of
-- its own kind; ingress stores a reference to it (Telegram, Slack) or the
-- upload itself (web chat), and the turn reads it. An import is the
-- conversation about one file and, once committed, the tag on every row
-- it wrote, so "undo the import" removes exactly those.
--
-- MERGE NOTE: this re-lists every event kind; a branch adding another
-- kind must list 'file' too.
ALTER TABLE inbound_events DROP CONSTRAINT inbound_events_kind_check;
ALTER TABLE inbound_events ADD CONSTRAINT inbound_events_kind_check CHECK (kind IN ('message', 'button', 'unsupported', 'voice', 'command', 'file'));

CREATE TABLE import_files (
    event_id   bigint PRIMARY KEY REFERENCES inbound_events (id) ON DELETE CASCADE,
    file_id    text   NOT NULL DEFAULT '',
    url        text   NOT NULL DEFAULT '',
    size_bytes bigint NOT NULL DEFAULT 0 CHECK (size_bytes >= 0),
    mime_type  text   NOT NULL DEFAULT '',
    file_name  text   NOT NULL DEFAULT '',
    -- The file: uploaded with the event (web chat), or downloaded by the
    -- turn and kept, so a retried turn and the commit read the same bytes;
    -- cleared once its import is over (committed, cancelled, expired).
    content    bytea,
    cleared_at timestamptz,
    CHECK (file_id <> '' OR url <> '' OR content IS NOT NULL OR cleared_at IS NOT NULL)
);

CREATE TABLE imports (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id         bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    conversation_id bigint      NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    -- One import per file event: a retried turn finds it.
    event_id        bigint      NOT NULL UNIQUE REFERENCES inbound_events (id) ON DELETE CASCADE,
    file_name       text        NOT NULL DEFAULT '',
    signature       text        NOT NULL,
    -- The mapping and the answers so far (package imports owns the shape).
    plan            jsonb       NOT NULL,
    state           text        NOT NULL CHECK (state IN ('asking', 'ready', 'committed', 'cancelled', 'expired', 'undone')),
    steps           integer     NOT NULL DEFAULT 0,
    counts          jsonb       NOT NULL DEFAULT '{}',
    expires_at      timestamptz NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    committed_at    timestamptz,
    undone_at       timestamptz
);
CREATE INDEX imports_open ON imports (conversation_id, id DESC) WHERE state IN ('asking', 'ready');
CREATE INDEX imports_committed ON imports (user_id, committed_at DESC) WHERE state = 'committed';

-- Every row an import created carries its id.
ALTER TABLE tasks ADD COLUMN import_id bigint REFERENCES imports (id) ON DELETE SET NULL;
ALTER TABLE events ADD COLUMN import_id bigint REFERENCES imports (id) ON DELETE SET NULL;
ALTER TABLE facts ADD COLUMN import_id bigint REFERENCES imports (id) ON DELETE SET NULL;
CREATE INDEX tasks_import ON tasks (import_id) WHERE import_id IS NOT NULL;
CREATE INDEX events_import ON events (import_id) WHERE import_id IS NOT NULL;
CREATE INDEX facts_import ON facts (import_id) WHERE import_id IS NOT NULL;

-- Existing items an import changed (a merge, a corrected fact), as they
-- were before, so undo restores them.
CREATE TABLE import_merges (
    import_id bigint NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
    kind      text   NOT NULL CHECK (kind IN ('task', 'event', 'fact')),
    item_id   bigint NOT NULL,
    before    jsonb  NOT NULL,
    PRIMARY KEY (import_id, kind, item_id)
);

-- Confirmed mappings, per person and file layout, proposed next time.
-- owner_id rather than user_id: linking two chats moves every user_id
-- column, and two identities may have learned the same layout; the
-- joined identity's settings go with it.
CREATE TABLE import_mappings (
    owner_id   bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    signature  text        NOT NULL,
    mapping    jsonb       NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (owner_id, signature)
);

-- +goose Down
DROP TABLE import_mappings;
DROP TABLE import_merges;
ALTER TABLE facts DROP COLUMN import_id;
ALTER TABLE events DROP COLUMN import_id;
ALTER TABLE tasks DROP COLUMN import_id;
DROP TABLE imports;
DROP TABLE import_files;
DELETE FROM inbound_events WHERE kind = 'file';
ALTER TABLE inbound_events DROP CONSTRAINT inbound_events_kind_check;
ALTER TABLE inbound_events ADD CONSTRAINT inbound_events_kind_check CHECK (kind IN ('message', 'button', 'unsupported', 'voice', 'command'));
