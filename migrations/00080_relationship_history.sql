-- +goose Up
-- Relationships from chat (issue 19): a changed relationship closes the
-- old one (valid_to) and opens a new one with the same ends and label, so
-- "what held then" stays answerable. One edge per pair and label is now
-- the rule among the open ones only; closed ones are history.
DROP INDEX relationships_pair;
CREATE UNIQUE INDEX relationships_pair ON relationships (from_id, to_id, lower(label)) WHERE valid_to IS NULL;
CREATE INDEX relationships_ends ON relationships (from_id, to_id);

-- +goose Down
DROP INDEX relationships_ends;
DROP INDEX relationships_pair;
-- History that the old index cannot hold: all but the newest row of a pair and label.
DELETE FROM relationships r WHERE EXISTS (SELECT 1 FROM relationships o
    WHERE o.from_id = r.from_id AND o.to_id = r.to_id AND lower(o.label) = lower(r.label) AND o.id > r.id);
CREATE UNIQUE INDEX relationships_pair ON relationships (from_id, to_id, lower(label));
