-- +goose Up
-- The scheduler: reminders and daily briefings (issue 7).
--
-- Every schedulable thing (a task's reminders, a recurring reminder, a
-- birthday remembered as a memory, a user's daily briefing, a snoozed
-- reminder) has one row in schedules holding its next occurrence. The
-- planner (a River periodic job, run by the leader) turns rows that come
-- due into River jobs unique on (schedule, occurrence instant) and moves
-- next_at on to the following occurrence; the job re-checks the item when
-- it fires. Nothing per user lives only in memory, so restarts and
-- replicas are safe.

-- Per-user scheduling preferences; a user without a row has the defaults.
CREATE TABLE schedule_settings (
    user_id          bigint      PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    briefing_enabled boolean     NOT NULL DEFAULT true,
    -- Local wall-clock time of the daily briefing, in the user's zone.
    briefing_at      time        NOT NULL DEFAULT '07:30',
    -- Sections left out of the briefing ("family", "calendar", ...).
    briefing_skip    text[]      NOT NULL DEFAULT '{}',
    -- Where scheduled messages go; NULL means the conversation the user
    -- last wrote in.
    conversation_id  bigint      REFERENCES conversations (id) ON DELETE SET NULL,
    -- Days before a task's due date that remind (at 09:00 local).
    lead_days        integer[]   NOT NULL DEFAULT '{7,3,1}'
                                 CHECK (0 <= ALL (lead_days) AND 366 >= ALL (lead_days)),
    -- Days before a birthday or anniversary that remind (and on the day).
    birthday_days    integer     NOT NULL DEFAULT 3 CHECK (birthday_days BETWEEN 0 AND 60),
    updated_at       timestamptz NOT NULL DEFAULT now()
);

-- Recurring reminders set by chat ("remind me every Monday at 9 to ...").
-- rule is a scheduler/recur Rule as JSON, in local wall-clock terms.
CREATE TABLE reminders (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The turn that created it ("event:42"): a retried turn creates nothing.
    source_key   text        UNIQUE,
    text         text        NOT NULL CHECK (text <> ''),
    rule         jsonb       NOT NULL,
    cancelled_at timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reminders_user ON reminders (user_id, id) WHERE cancelled_at IS NULL;

CREATE TABLE schedules (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       text        NOT NULL CHECK (kind IN ('task', 'reminder', 'birthday', 'briefing', 'snooze')),
    -- tasks.id, reminders.id, memories.id, users.id (briefing) or
    -- messages.id (snooze: the reminder message that was snoozed). No
    -- foreign key: the kinds point at different tables; the job checks
    -- the item when it fires.
    item_id    bigint      NOT NULL,
    -- The next occurrence not yet handed to River; NULL when there is none.
    next_at    timestamptz,
    -- The last occurrence handed to River (or skipped as too late): a
    -- recomputation (the item or the user's zone changed) starts after it,
    -- so nothing is planned twice.
    planned_until timestamptz,
    -- The user asked for no more reminders of this item ("cancel the ...").
    muted      boolean     NOT NULL DEFAULT false,
    -- birthday: {"month","day","about","what"}; snooze: {"text","of_kind","of_item"}.
    detail     jsonb       NOT NULL DEFAULT '{}',
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (kind, item_id)
);
CREATE INDEX schedules_due ON schedules (next_at) WHERE next_at IS NOT NULL AND NOT muted;
CREATE INDEX schedules_user ON schedules (user_id, kind);

-- How far the planner has looked for changed tasks, memories, users and
-- settings (database time). One row.
CREATE TABLE scheduler_state (
    id           boolean     PRIMARY KEY DEFAULT true CHECK (id),
    synced_until timestamptz NOT NULL DEFAULT '1970-01-01 00:00:00+00'
);
INSERT INTO scheduler_state DEFAULT VALUES;

-- The planner finds what changed since its last run by these.
CREATE INDEX tasks_updated ON tasks (updated_at);
CREATE INDEX memories_updated ON memories (updated_at);
CREATE INDEX users_updated ON users (updated_at);
CREATE INDEX schedule_settings_updated ON schedule_settings (updated_at);
-- The user's last-used conversation: their newest inbound event.
CREATE INDEX inbound_events_user ON inbound_events (user_id, id DESC);

-- +goose Down
DROP INDEX inbound_events_user;
DROP INDEX schedule_settings_updated;
DROP INDEX users_updated;
DROP INDEX memories_updated;
DROP INDEX tasks_updated;
DROP TABLE scheduler_state;
DROP TABLE schedules;
DROP TABLE reminders;
DROP TABLE schedule_settings;
