-- +goose Up
-- Real sign-in to the web chat (issue 17): sessions, one-time sign-in
-- links, passkeys and the state of their ceremonies, and counters that
-- rate-limit sign-in attempts. Tokens are stored as SHA-256 hashes only,
-- so a copy of the database does not sign anyone in.
CREATE TABLE web_sessions (
    token_hash   bytea       PRIMARY KEY,
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- Sent back by the page in a header on every state-changing request.
    csrf_token   text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL
);
CREATE INDEX web_sessions_user_id ON web_sessions (user_id);

CREATE TABLE signin_links (
    token_hash bytea       PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX signin_links_user_id ON signin_links (user_id);

-- A passkey: the credential as go-webauthn keeps it (public key, sign
-- count, flags), found by its credential id when someone signs in.
CREATE TABLE passkeys (
    credential_id bytea       PRIMARY KEY,
    user_id       bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    credential    jsonb       NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_used_at  timestamptz
);
CREATE INDEX passkeys_user_id ON passkeys (user_id);

-- The server half of a passkey ceremony between its two requests (any
-- replica may answer the second); taken once.
CREATE TABLE passkey_ceremonies (
    id         text        PRIMARY KEY,
    user_id    bigint      REFERENCES users (id) ON DELETE CASCADE,
    data       jsonb       NOT NULL,
    expires_at timestamptz NOT NULL
);

-- Sign-in attempts per key (a client address) in fixed windows.
CREATE TABLE signin_attempts (
    key          text        PRIMARY KEY,
    window_start timestamptz NOT NULL,
    attempts     integer     NOT NULL
);

-- +goose Down
DROP TABLE signin_attempts;
DROP TABLE passkey_ceremonies;
DROP TABLE passkeys;
DROP TABLE signin_links;
DROP TABLE web_sessions;
