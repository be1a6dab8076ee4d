-- +goose Up
-- Family lists (issue 15): a note may be owned by a family, and then every
-- member reads and changes it ("add milk to our shopping list"); user_id
-- is who created it. A family note is visible to the members of its
-- family and to nobody else, its creator included once they leave: the
-- queries join family_members, so the permission is decided in SQL. When
-- the family ends (its last member leaves) its notes go back to their
-- creators rather than vanish.
ALTER TABLE notes ADD COLUMN family_id bigint REFERENCES families (id) ON DELETE SET NULL;
-- FindNotes for a member: the family's live notes, most recently changed first.
CREATE INDEX notes_family_updated ON notes (family_id, updated_at DESC, id DESC) WHERE deleted_at IS NULL AND family_id IS NOT NULL;

-- note_appends also records ticks (note.check), by action key: the same
-- before/after, so a retried tick changes nothing and can still be undone.

-- +goose Down
DROP INDEX notes_family_updated;
ALTER TABLE notes DROP COLUMN family_id;
