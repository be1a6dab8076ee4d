-- +goose Up
-- Nightly consolidation of a relationship's description from its notes
-- with a model (issue 19): described_from is which live notes (their ids)
-- the description was last written from, so a night with nothing new
-- asks the model nothing, and a second run or a second replica changes
-- nothing (the write is conditional on it).
ALTER TABLE relationships ADD COLUMN described_from text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE relationships DROP COLUMN described_from;
