-- +goose Up
-- Every planned action of a turn, keyed by (event, index): the key that
-- makes a retried turn or job find the action instead of repeating it.
CREATE TABLE actions (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id        bigint      NOT NULL REFERENCES inbound_events (id) ON DELETE CASCADE,
    idx             integer     NOT NULL,
    conversation_id bigint      NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    user_id         bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind            text        NOT NULL,
    payload         jsonb       NOT NULL,
    risk            text        NOT NULL CHECK (risk IN ('low', 'high')),
    state           text        NOT NULL CHECK (state IN ('planned', 'awaiting_approval', 'running', 'done', 'failed', 'rejected', 'expired', 'undone')),
    result          jsonb,
    -- What the record looked like before an update or delete, for undo.
    before          jsonb,
    error           text        NOT NULL DEFAULT '',
    attempts        integer     NOT NULL DEFAULT 0,
    claimed_at      timestamptz,
    executed_at     timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (event_id, idx)
);
CREATE INDEX actions_undoable ON actions (conversation_id, executed_at DESC) WHERE state = 'done';

-- An approval is for exactly one payload (stored with its hash), one user,
-- until it expires; its state moves by conditional UPDATEs only, so the
-- first valid click wins.
CREATE TABLE approvals (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    action_id       bigint      NOT NULL UNIQUE REFERENCES actions (id) ON DELETE CASCADE,
    user_id         bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    conversation_id bigint      NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    payload         jsonb       NOT NULL,
    payload_hash    text        NOT NULL,
    state           text        NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'executed', 'failed', 'rejected', 'expired')),
    expires_at      timestamptz NOT NULL,
    decided_at      timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX approvals_pending ON approvals (conversation_id, id DESC) WHERE state = 'pending';

-- Who changed what, when: one row per executed (or undone) action.
CREATE TABLE audit_log (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    action_id  bigint      REFERENCES actions (id) ON DELETE SET NULL,
    kind       text        NOT NULL,
    before     jsonb,
    after      jsonb,
    at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_user ON audit_log (user_id, at DESC);

-- A question with options the bot asked ("Which Sarah?"): the options
-- carry the actions to take, so "the first one" or a click resolves it.
CREATE TABLE open_questions (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id        bigint      NOT NULL UNIQUE REFERENCES inbound_events (id) ON DELETE CASCADE,
    conversation_id bigint      NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    question        jsonb       NOT NULL,
    state           text        NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'answered', 'dropped')),
    created_at      timestamptz NOT NULL DEFAULT now(),
    answered_at     timestamptz
);
CREATE INDEX open_questions_open ON open_questions (conversation_id, id DESC) WHERE state = 'open';

-- One trace per turn: what was understood, how long each stage took,
-- what was done, and what models cost (zero offline).
CREATE TABLE turn_traces (
    event_id        bigint      PRIMARY KEY REFERENCES inbound_events (id) ON DELETE CASCADE,
    conversation_id bigint      NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    user_id         bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    intent          text        NOT NULL,
    domains         text[]      NOT NULL DEFAULT '{}',
    confidence      real        NOT NULL DEFAULT 0,
    timings         jsonb       NOT NULL DEFAULT '{}',
    actions         jsonb       NOT NULL DEFAULT '[]',
    model_calls     integer     NOT NULL DEFAULT 0,
    input_tokens    integer     NOT NULL DEFAULT 0,
    output_tokens   integer     NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX turn_traces_recent ON turn_traces (created_at DESC);

-- A prompt whose buttons were answered keeps them (so a late click is
-- recognised and told "already decided") but no longer shows them.
ALTER TABLE messages ADD COLUMN buttons_closed_at timestamptz;

-- +goose Down
ALTER TABLE messages DROP COLUMN buttons_closed_at;
DROP TABLE turn_traces;
DROP TABLE open_questions;
DROP TABLE audit_log;
DROP TABLE approvals;
DROP TABLE actions;
