-- +goose Up
-- A note may be untitled, like a Keep note, as long as it says something:
-- "make a note: the wifi password is on the fridge" has only a body.
ALTER TABLE notes DROP CONSTRAINT notes_title_check;
ALTER TABLE notes ADD CONSTRAINT notes_not_empty CHECK (title <> '' OR body <> '' OR jsonb_array_length(items) > 0);

-- +goose Down
ALTER TABLE notes DROP CONSTRAINT notes_not_empty;
ALTER TABLE notes ADD CONSTRAINT notes_title_check CHECK (title <> '');
