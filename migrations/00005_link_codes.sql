-- +goose Up
-- One-time codes that join a chat identity to another user: /link on one
-- channel, the code typed on the other.
CREATE TABLE link_codes (
    code       text        PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE link_codes;
