-- +goose Up
-- People, places and things (issue: the second brain). An entity is owned
-- like a fact (the user who told Hearth about it, or their family), has a
-- kind, a canonical name and the other names its owner uses for it
-- ("Jon", "my brother", "Grandma"), the owner's relation to it (daughter,
-- colleague), and, when it is a family member, the Hearth user it is.
-- Its tier says who may see that it exists: 4 (basic, name and relation)
-- unless told otherwise. Reads go through fact_visible, like facts.
CREATE TABLE entities (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    family_id  bigint      REFERENCES families (id) ON DELETE CASCADE,
    kind       text        NOT NULL DEFAULT 'person'
        CHECK (kind IN ('person', 'organisation', 'place', 'pet', 'project', 'event', 'concept')),
    name       text        NOT NULL CHECK (name <> ''),
    relation   text        NOT NULL DEFAULT '',
    member_id  bigint      REFERENCES users (id) ON DELETE SET NULL,
    tier       smallint    NOT NULL DEFAULT 4 CHECK (tier BETWEEN 1 AND 4),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
-- One entity per canonical name per owner: telling Hearth about "Sarah
-- Kim" twice is one person.
CREATE UNIQUE INDEX entities_owner_name ON entities (user_id, lower(name));
CREATE INDEX entities_family ON entities (family_id) WHERE family_id IS NOT NULL;
CREATE INDEX entities_name_trgm ON entities USING gin (name gin_trgm_ops);

-- Other names of an entity, as its owner says them. Aliases are per
-- owner because the entity is: Ann's "Grandma" is not Ben's.
CREATE TABLE entity_aliases (
    entity_id bigint NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    alias     text   NOT NULL CHECK (alias <> ''),
    PRIMARY KEY (entity_id, alias)
);
CREATE UNIQUE INDEX entity_aliases_lower ON entity_aliases (entity_id, lower(alias));
CREATE INDEX entity_aliases_trgm ON entity_aliases USING gin (alias gin_trgm_ops);

-- A fact is about an entity (facts.about stays the name as told), and an
-- attribute of it over time when attribute is set (phone, email,
-- employer, school, born, relation, home, …) with value its value: a new
-- value closes the old one, like any correction, so "where did Jon work
-- in 2019?" reads the value that held then.
ALTER TABLE facts
    ADD COLUMN entity_id bigint REFERENCES entities (id) ON DELETE SET NULL,
    ADD COLUMN attribute text NOT NULL DEFAULT '',
    ADD COLUMN value     text NOT NULL DEFAULT '';
CREATE INDEX facts_entity ON facts (entity_id, attribute) WHERE entity_id IS NOT NULL AND deleted_at IS NULL;
-- "Who works at Acme?": attribute values matched loosely.
CREATE INDEX facts_value_trgm ON facts USING gin (value gin_trgm_ops) WHERE attribute <> '' AND deleted_at IS NULL;

-- +goose Down
DROP INDEX facts_value_trgm;
DROP INDEX facts_entity;
ALTER TABLE facts DROP COLUMN value, DROP COLUMN attribute, DROP COLUMN entity_id;
DROP TABLE entity_aliases;
DROP TABLE entities;
