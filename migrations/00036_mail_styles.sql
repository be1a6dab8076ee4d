-- +goose Up
-- How each user writes email (issue 15): the greeting and sign-off the
-- offline composer fills its template with, their typical length and
-- formality. One row per user, absent until known; learned from Gmail
-- sent mail later, and the same row whoever fills it.
CREATE TABLE mail_styles (
    user_id    bigint      PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    -- "Hi {name},": {name} stands for the recipients' names.
    greeting   text        NOT NULL DEFAULT '',
    -- The closing line before the user's name ("Best,"); '' for none.
    sign_off   text        NOT NULL DEFAULT '',
    -- Typical length in words; 0 when unknown.
    length     integer     NOT NULL DEFAULT 0 CHECK (length >= 0),
    -- 1 casual to 5 formal; 0 when unknown.
    formality  smallint    NOT NULL DEFAULT 0 CHECK (formality BETWEEN 0 AND 5),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE mail_styles;
